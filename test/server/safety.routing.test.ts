import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, eventBody, NS, type ApiResult, type TestServer } from '../helpers/server';
import { expectError, rawRequest } from './safety.http';

/** REFERENCE §1 (routing, headers, errors), CONTRACT §1 (language roots) and §6. */
let server: TestServer;
let port: number;
const logged: string[] = [];
let eventId: number;
let venueId: number;

beforeAll(async () => {
  server = await startTestServer({ log: (message) => logged.push(message) });
  port = server.engine.port;
  const event = await server.api('events', {
    method: 'POST',
    auth: server.admin,
    json: eventBody('Routing party', 2, { venue: { venue: 'Routing Hall' }, categories: ['Routing'] }),
  });
  expect(event.status).toBe(201);
  eventId = event.body.id;
  venueId = event.body.venue.id;
});
afterAll(() => server.close());

const url = (path: string) => `${server.engine.origin}${path}`;

describe('unknown routes and methods', () => {
  it('answers an unknown route with 404 rest_no_route (sample 39)', async () => {
    const response = await server.api('nonexistent-route');
    expectError(response, 404, 'rest_no_route');
    expect(response.body).toEqual({
      code: 'rest_no_route',
      message: 'No route was found matching the URL and request method.',
      data: { status: 404 },
    });
  });

  it.each([
    ['PUT', 'events'],
    ['DELETE', 'events'],
    ['PATCH', 'venues'],
    ['DELETE', 'categories'],
    ['POST', 'doc'],
    ['DELETE', ''],
  ])('answers %s /%s (a method the route lacks) with 404 rest_no_route', async (method, path) => {
    const response = await server.api(path, { method, auth: server.admin });
    expectError(response, 404, 'rest_no_route');
  });

  it.each([
    'events/abc',
    'events/12abc',
    'events/-1',
    'venues/1.5',
    'categories/x',
    'events/by-slug/',
    'events/1/extra',
  ])('answers /%s (no route matches) with 404 rest_no_route', async (path) => {
    const response = await server.api(path);
    expectError(response, 404, 'rest_no_route');
  });

  it('answers unknown paths under /wp-json/ and other namespaces with JSON 404', async () => {
    for (const path of ['/wp-json/wp/v2/posts', '/wp-json/tribe/events/v1/events', '/wp-json/nothing']) {
      const response = await server.api(url(path));
      expectError(response, 404, 'rest_no_route');
    }
  });
});

describe('paths as WordPress matches them', () => {
  it.each([
    ['a trailing slash', 'events/'],
    ['upper case', 'EVENTS'],
    ['mixed case namespace', ''],
  ])('serves the events archive with %s', async (_label, path) => {
    const target = path === '' ? url('/wp-json/CAL/Events/V1/events') : path;
    const response = await server.api(target);
    expect(response.status).toBe(200);
    expect(response.body.events.map((event: { id: number }) => event.id)).toContain(eventId);
  });

  it('serves single records with a trailing slash', async () => {
    const response = await server.api(`events/${eventId}/`);
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(eventId);
  });

  it('serves the REST root with and without its trailing slash', async () => {
    for (const path of ['/wp-json/', '/wp-json']) {
      const response = await server.api(url(path));
      expect(response.status).toBe(200);
      expect(response.body.namespaces).toContain('cal/events/v1');
    }
  });
});

describe('WordPress request forms', () => {
  it('serves ?rest_route= on the site root, as sites without pretty permalinks do', async () => {
    for (const path of [
      '/?rest_route=/cal/events/v1/events',
      '/index.php?rest_route=/cal/events/v1/events',
    ]) {
      const response = await server.api(url(`${path}&per_page=5`));
      expect(response.status).toBe(200);
      expect(response.body.events.map((event: { id: number }) => event.id)).toContain(eventId);
      expect(response.body.rest_url).toContain('per_page=5');
    }
    const one = await server.api(url(`/?rest_route=/cal/events/v1/events/${eventId}`));
    expect(one.body.id).toBe(eventId);
    expectError(await server.api(url('/?rest_route=/cal/events/v1/nope')), 404, 'rest_no_route');
  });

  it('honours ?_method= and X-HTTP-Method-Override on POST', async () => {
    const tag = await server.api('tags', {
      method: 'POST',
      auth: server.admin,
      json: { name: 'Override me' },
    });
    expect(tag.status).toBe(201);
    const renamed = await server.api(`tags/${tag.body.id}?_method=PATCH`, {
      method: 'POST',
      auth: server.admin,
      json: { name: 'Overridden' },
    });
    expect(renamed.status).toBe(200);
    const deleted = await server.api(`tags/${tag.body.id}`, {
      method: 'POST',
      auth: server.admin,
      headers: { 'X-HTTP-Method-Override': 'DELETE' },
    });
    expect(deleted.status).toBe(200);
    expect(deleted.body.name).toBe('Overridden');
    expect((await server.api(`tags/${tag.body.id}`)).status).toBe(400);
  });

  it('never turns a GET into a write, and checks the Origin of overridden writes', async () => {
    const tag = await server.api('tags', { method: 'POST', auth: server.admin, json: { name: 'Stay' } });
    const viaGet = await server.api(`tags/${tag.body.id}?_method=DELETE`, { auth: server.admin });
    expect(viaGet.status).toBe(200);
    const foreign = await rawRequest(port, {
      method: 'POST',
      path: `/${NS}/tags/${tag.body.id}?_method=DELETE`,
      headers: { ...server.admin, Origin: 'http://evil.example' },
    });
    expectError(foreign, 403, 'rest_forbidden_origin');
    expect((await server.api(`tags/${tag.body.id}`)).status).toBe(200);
    // Anonymous overridden writes are refused like the real method.
    const anonymous = await server.api(`tags/${tag.body.id}?_method=DELETE`, { method: 'POST' });
    expectError(anonymous, 401, 'rest_forbidden');
  });
});

describe('HEAD', () => {
  it('answers like GET without a body', async () => {
    const get = await rawRequest(port, { path: `/${NS}/events` });
    const head = await rawRequest(port, { method: 'HEAD', path: `/${NS}/events` });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    for (const name of ['x-wp-total', 'x-wp-totalpages', 'link', 'content-type', 'x-content-type-options']) {
      expect(head.headers[name], name).toBe(get.headers[name]);
    }
  });

  it('answers HEAD of a single record with its ETag, and of a missing one with 404', async () => {
    const get = await rawRequest(port, { path: `/${NS}/events/${eventId}` });
    const head = await rawRequest(port, { method: 'HEAD', path: `/${NS}/events/${eventId}` });
    expect(head.status).toBe(200);
    expect(head.headers.etag).toBe(get.headers.etag);
    const missing = await rawRequest(port, { method: 'HEAD', path: `/${NS}/events/999999` });
    expect(missing.status).toBe(404);
    expect(missing.text).toBe('');
  });
});

describe('headers on every API response', () => {
  const check = (response: ApiResult, root = '/wp-json/') => {
    expect(response.headers.get('Link')).toContain(
      `<${server.engine.origin}${root}>; rel="https://api.w.org/"`,
    );
    expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(response.headers.get('Access-Control-Allow-Origin')).toBeNull();
  };

  it('sends the discovery Link and nosniff on successes and on errors', async () => {
    const responses = [
      await server.api(''),
      await server.api(url('/wp-json/')),
      await server.api('doc'),
      await server.api('events'),
      await server.api(`events/${eventId}`),
      await server.api('venues'),
      await server.api('categories'),
      await server.api('nonexistent-route'),
      await server.api('events/999999'),
      await server.api('events?per_page=abc'),
      await server.api('events', { method: 'POST', json: eventBody('x', 1) }),
      await server.api('events', { method: 'POST', auth: { Authorization: 'Basic YWRtaW46d3Jvbmc=' } }),
      await server.api('events', {
        method: 'POST',
        auth: server.admin,
        headers: { 'Content-Type': 'text/plain' },
        body: 'x',
      }),
      await server.api('events', {
        method: 'POST',
        auth: server.admin,
        headers: { 'Content-Type': 'application/json' },
        body: '{',
      }),
    ];
    for (const response of responses) check(response);
  });

  it('points the Link at the language root a request came through', async () => {
    check(await server.api(url(`/it/${NS}/events`)), '/it/wp-json/');
    check(await server.api(url(`/pl/${NS}/nope`)), '/pl/wp-json/');
  });

  it('lists in Allow the methods the caller may use, as WordPress (samples 35, 41)', async () => {
    const anonymous = await server.api(`events/${eventId}`);
    expect(anonymous.headers.get('Allow')).toBe('GET');
    const refused = await server.api('events', { method: 'POST', json: eventBody('x', 1) });
    expect(refused.headers.get('Allow')).toBe('GET');
    const admin = await server.api(`events/${eventId}`, { auth: server.admin });
    expect(admin.headers.get('Allow')).toBe('GET, DELETE, POST, PUT, PATCH');
    const archive = await server.api('events', { auth: server.admin });
    expect(archive.headers.get('Allow')).toBe('GET, POST');
    const subscriber = await server.userHeaders('allow-sub', 'subscriber');
    expect((await server.api('categories', { auth: subscriber })).headers.get('Allow')).toBe('GET');
    const author = await server.userHeaders('allow-author', 'author');
    expect((await server.api('categories', { auth: author })).headers.get('Allow')).toBe('GET, POST');
    expect((await server.api('tags', { auth: author })).headers.get('Allow')).toBe('GET');
    // Someone else's published event: an author may read it, not change it.
    expect((await server.api(`events/${eventId}`, { auth: author })).headers.get('Allow')).toBe('GET');
  });
});

describe('language roots', () => {
  it.each(['it', 'pl', 'en'])('/%s/wp-json serves the same data', async (root) => {
    const plain = await server.api('events');
    const rooted = await server.api(url(`/${root}/${NS}/events`));
    expect(rooted.status).toBe(200);
    expect(rooted.body.events.map((event: { id: number }) => event.id)).toEqual(
      plain.body.events.map((event: { id: number }) => event.id),
    );
    expect(rooted.body.total).toBe(plain.body.total);
    expect(rooted.body.rest_url).toContain(`/${root}/wp-json/cal/events/v1/events`);
    const venue = await server.api(url(`/${root}/${NS}/venues/${venueId}`));
    expect(venue.status).toBe(200);
    expect(venue.body.venue).toBe('Routing Hall');
  });

  it('serves writes under a language root too', async () => {
    const created = await server.api(url(`/pl/${NS}/tags`), {
      method: 'POST',
      auth: server.admin,
      json: { name: 'Polski tag' },
    });
    expect(created.status).toBe(201);
    const plain = await server.api(`tags/${created.body.id}`);
    expect(plain.status).toBe(200);
    expect(plain.body.name).toBe('Polski tag');
  });
});

describe('ml_language', () => {
  it.each([
    ['GET', 'events'],
    ['GET', 'events/ID'],
    ['GET', 'venues'],
    ['GET', 'organizers'],
    ['GET', 'categories'],
    ['GET', 'tags'],
    ['GET', 'doc'],
    ['GET', ''],
    ['GET', '/wp-json/'],
    ['POST', 'categories'],
    ['DELETE', 'events/ID'],
  ])('an invalid value is 400 on %s /%s', async (method, path) => {
    const target = path.startsWith('/') ? url(path) : path.replace('ID', String(eventId));
    const separator = target.includes('?') ? '&' : '?';
    const response = await server.api(`${target}${separator}ml_language=xx`, {
      method,
      auth: server.admin,
      json: method === 'POST' ? { name: 'Never stored' } : undefined,
    });
    expectError(response, 400, 'rest_invalid_param');
    expect(response.body.data.params).toHaveProperty('ml_language');
    // Nothing was changed by the refused requests.
    expect((await server.api(`events/${eventId}`)).status).toBe(200);
  });

  it('is refused in a JSON body as well', async () => {
    const response = await server.api('categories', {
      method: 'POST',
      auth: server.admin,
      json: { name: 'Body language', ml_language: 'klingon' },
    });
    expectError(response, 400, 'rest_invalid_param');
  });

  it('accepts every supported language', async () => {
    for (const language of ['cs', 'en', 'fr', 'de', 'it', 'pl', 'es']) {
      expect((await server.api(`events?ml_language=${language}`)).status).toBe(200);
    }
  });
});

describe('internal errors', () => {
  it('become a 500 with a generic message, no stack, and are logged', async () => {
    const store = server.engine.store;
    const original = store.eventBySlug.bind(store);
    store.eventBySlug = () => {
      throw new Error('secret internal detail /home/user/calendar.json');
    };
    try {
      const response = await server.api('events/by-slug/routing-party');
      expectError(response, 500);
      const text = JSON.stringify(response.body);
      expect(text).not.toContain('secret internal detail');
      expect(text).not.toContain('calendar.json');
      expect(text).not.toMatch(/at .*\.(ts|js):\d+/);
      expect(Object.keys(response.body).sort()).toEqual(['code', 'data', 'message']);
      expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
    } finally {
      store.eventBySlug = original;
    }
    expect(logged.some((line) => line.includes('secret internal detail'))).toBe(true);
    // The server keeps serving.
    expect((await server.api('events/by-slug/routing-party')).status).toBe(200);
  });
});

describe('error bodies', () => {
  it('all have {code, message, data: {status}} with the HTTP status', async () => {
    const errors: Array<[ApiResult, number]> = [
      [await server.api('nope'), 404],
      [await server.api('events/999999'), 404],
      [await server.api('events?per_page=0'), 400],
      [await server.api('events?start_date=not%20a%20strtotime%20parsable%20string'), 400],
      [await server.api('events', { method: 'POST', auth: server.admin, json: {} }), 400],
      [await server.api('events', { method: 'POST', json: eventBody('x', 1) }), 401],
      [await server.api(`events/${eventId}`, { method: 'DELETE' }), 401],
      [await server.api('venues/999999', { method: 'DELETE' }), 400],
      [await server.api('events', { auth: { Authorization: 'Bearer x' } }), 401],
      [await server.api('events?page=99'), 404],
      [
        await server.api('categories', {
          method: 'POST',
          auth: server.admin,
          headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
          body: '--x--',
        }),
        415,
      ],
    ];
    for (const [response, status] of errors) expectError(response, status);
  });
});
