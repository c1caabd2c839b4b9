import { afterAll, beforeAll, describe, expect, it as test } from 'vitest';
import { it } from '../../src/main/server/i18n/it';
import { eventBody, startTestServer, type TestServer } from '../helpers/server';

/**
 * CONTRACT §1: `GET /wp-json/` is WordPress' site index, so generic WordPress clients find the namespace, and
 * every API response carries `Link: <{root}>; rel="https://api.w.org/"` for the REST root the request used.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the index is asserted key by key
type Json = any;

const NS = 'cal/events/v1';

let server: TestServer;
let origin: string;

beforeAll(async () => {
  server = await startTestServer();
  origin = server.engine.origin;
});
afterAll(() => server.close());

describe('site index GET /wp-json/', () => {
  test('WordPress’ shape: name, description, url, home, namespaces, authentication, routes', async () => {
    const { status, body } = await server.api(`${origin}/wp-json/`);
    expect(status).toBe(200);
    for (const key of [
      'name',
      'description',
      'url',
      'home',
      'namespaces',
      'authentication',
      'routes',
      '_links',
    ]) {
      expect(body, key).toHaveProperty(key);
    }
    expect(typeof body.name).toBe('string');
    expect(typeof body.description).toBe('string');
    expect(body.url).toBe(origin);
    expect(body.home).toBe(origin);
    expect(body.gmt_offset).toBe(0);
    expect(body.timezone_string).toBe('UTC');
    expect(body.namespaces).toContain(NS);
    expect(body.authentication).toHaveProperty('application-passwords');
  });

  test('routes: the index itself, then every route of the namespace index', async () => {
    const site = (await server.api(`${origin}/wp-json/`)).body;
    const namespace = (await server.api(`${origin}/wp-json/${NS}`)).body;
    expect(Object.keys(site.routes)).toEqual(['/', ...Object.keys(namespace.routes)]);
    expect(site.routes['/']).toEqual({
      namespace: '',
      methods: ['GET'],
      endpoints: [{ methods: ['GET'], args: { context: { default: 'view', required: false } } }],
      _links: { self: [{ href: `${origin}/wp-json/` }] },
    });
    const { ['/']: _root, ...routes } = site.routes;
    // The time-dependent defaults may tick between the two requests.
    const stable = (value: Json) => JSON.stringify(value).replace(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/g, 'DATE');
    expect(stable(routes)).toBe(stable(namespace.routes));
  });

  test('answers without the trailing slash and under every language root, texts translated', async () => {
    expect((await server.api(`${origin}/wp-json`)).status).toBe(200);
    const italian = (await server.api(`${origin}/it/wp-json/`)).body;
    expect(italian.namespaces).toContain(NS);
    expect(italian.routes['/']._links.self[0].href).toBe(`${origin}/it/wp-json/`);
    expect(italian.routes[`/${NS}/events`]._links.self[0].href).toBe(`${origin}/it/wp-json/${NS}/events`);
    expect(italian.routes[`/${NS}/events`].endpoints[1].args.title.description).toBe(it['The event title']);
    for (const root of ['en', 'pl'])
      expect((await server.api(`${origin}/${root}/wp-json/`)).status).toBe(200);
  });
});

describe('Link: <root>; rel="https://api.w.org/" on every API response', () => {
  const apiLink = (root: string) => `<${origin}${root}>; rel="https://api.w.org/"`;

  const cases: Array<{ method: string; path: string; status: number; init?: RequestInit }> = [
    { method: 'GET', path: '/wp-json/', status: 200 },
    { method: 'GET', path: '/wp-json', status: 200 },
    { method: 'GET', path: `/wp-json/${NS}`, status: 200 },
    { method: 'GET', path: `/wp-json/${NS}/doc`, status: 200 },
    { method: 'GET', path: `/wp-json/${NS}/events`, status: 200 },
    { method: 'HEAD', path: `/wp-json/${NS}/events`, status: 200 },
    { method: 'OPTIONS', path: `/wp-json/${NS}/venues`, status: 200 },
    { method: 'GET', path: `/wp-json/${NS}/categories`, status: 200 },
    { method: 'GET', path: '/wp-json/no/such/route', status: 404 },
    { method: 'GET', path: `/wp-json/${NS}/events/abc`, status: 404 },
    { method: 'PUT', path: `/wp-json/${NS}/events`, status: 404 },
    { method: 'GET', path: `/wp-json/${NS}/events?per_page=abc`, status: 400 },
    { method: 'GET', path: `/wp-json/${NS}/events/424242`, status: 404 },
    { method: 'DELETE', path: `/wp-json/${NS}/tags`, status: 404 },
    {
      method: 'POST',
      path: `/wp-json/${NS}/events`,
      status: 401,
      init: { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(eventBody('Anon', 1)) },
    },
    {
      method: 'POST',
      path: `/wp-json/${NS}/tags`,
      status: 400,
      init: { headers: { 'Content-Type': 'application/json' }, body: '{not json' },
    },
    {
      method: 'GET',
      path: `/wp-json/${NS}/events`,
      status: 401,
      init: { headers: { Authorization: 'Bearer wrong-token' } },
    },
  ];

  for (const root of ['/wp-json/', '/it/wp-json/', '/pl/wp-json/', '/en/wp-json/']) {
    test(`under ${root}`, async () => {
      for (const { method, path, status, init } of cases) {
        const url = `${origin}${path.replace('/wp-json', root.slice(0, -1))}`;
        const response = await fetch(url, { method, ...init });
        await response.arrayBuffer();
        expect(response.status, `${method} ${url}`).toBe(status);
        const links = response.headers.get('link') ?? '';
        expect(links, `${method} ${url}`).toContain(apiLink(root));
      }
    });
  }

  test('alongside the pagination links of archives', async () => {
    for (const day of [1, 2, 3]) {
      await server.api('events', { method: 'POST', auth: server.admin, json: eventBody(`Day ${day}`, day) });
    }
    const page = await server.api(`${origin}/it/wp-json/${NS}/events?per_page=1&page=2`);
    expect(page.status).toBe(200);
    const link = page.headers.get('link')!;
    expect(link).toContain('rel="next"');
    expect(link).toContain('rel="prev"');
    expect(link).toContain(apiLink('/it/wp-json/'));
  });

  test('authenticated writes too', async () => {
    const created = await server.api(`${origin}/pl/wp-json/${NS}/tags`, {
      method: 'POST',
      auth: server.admin,
      json: { name: 'linked' },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('link')).toContain(apiLink('/pl/wp-json/'));
  });
});
