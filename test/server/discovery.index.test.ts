import { afterAll, beforeAll, describe, expect, it as test } from 'vitest';
import { LANGUAGES } from '../../src/shared/enums';
import { defaultArchiveEnd, defaultArchiveStart } from '../../src/main/core/dates/archiveWindow';
import { it } from '../../src/main/server/i18n/it';
import { pl } from '../../src/main/server/i18n/pl';
import { startTestServer, type TestServer } from '../helpers/server';
import { sampleResponseBody } from '../helpers/originalSamples';

/**
 * `GET /wp-json/cal/events/v1`: WordPress' namespace index (REFERENCE §9.1, sample 01), served under every
 * language root with translated argument descriptions (CONTRACT §1).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the index is asserted key by key
type Json = any;

const NS = 'cal/events/v1';

/**
 * Argument names of the original, per route and endpoint (methods joined by ","), taken from sample
 * 01-namespace-root.http with `tribe` replaced by `cal`. Kept here so the check runs without the spec folder.
 */
const ORIGINAL_ARGS: Record<string, Record<string, string>> = {
  '': { GET: 'namespace context' },
  '/doc': { GET: '' },
  '/events': {
    GET: 'page per_page start_date end_date starts_before starts_after ends_before ends_after strict_dates search categories tags venue organizer featured status geoloc geoloc_lat geoloc_lng include post_parent ticketed',
    POST: 'author date date_utc title description slug excerpt status timezone all_day start_date end_date image cost website show_map show_map_link hide_from_listings sticky featured categories tags venue organizer',
  },
  '/events/(?P<id>\\d+)': {
    GET: 'id password',
    DELETE: 'id password',
    'POST,PUT,PATCH':
      'id password author date date_utc title description slug excerpt status timezone all_day start_date end_date image cost website show_map show_map_link hide_from_listings sticky featured categories tags venue organizer',
  },
  '/events/by-slug/(?P<slug>[^/]+)': {
    GET: 'slug',
    DELETE: 'slug',
    'POST,PUT,PATCH':
      'slug author date date_utc title description excerpt status timezone all_day start_date end_date image cost website show_map show_map_link hide_from_listings sticky featured categories tags venue organizer',
  },
  '/venues': {
    GET: 'page per_page search event has_events only_with_upcoming status',
    POST: 'author date date_utc venue description status show_map show_map_link address city country province state zip phone stateprovince website image',
  },
  '/venues/(?P<id>\\d+)': {
    GET: 'id',
    DELETE: 'id',
    'POST,PUT,PATCH':
      'id author date date_utc venue description status show_map show_map_link address city country province state zip phone stateprovince website image',
  },
  '/venues/by-slug/(?P<slug>[^/]+)': {
    GET: 'slug',
    DELETE: 'slug',
    'POST,PUT,PATCH':
      'slug author date date_utc venue description status show_map show_map_link address city country province state zip phone stateprovince website image',
  },
  '/organizers': {
    GET: 'page per_page search event has_events only_with_upcoming status',
    POST: 'author date date_utc organizer description status phone website email image',
  },
  '/organizers/(?P<id>\\d+)': {
    GET: 'id',
    DELETE: 'id',
    'POST,PUT,PATCH': 'id author date date_utc organizer description status phone website email image',
  },
  '/organizers/by-slug/(?P<slug>[^/]+)': {
    GET: 'slug',
    DELETE: 'slug',
    'POST,PUT,PATCH': 'slug author date date_utc organizer description status phone website email image',
  },
  '/categories': {
    GET: 'page per_page search exclude include order orderby hide_empty parent post event slug',
    POST: 'name description slug parent',
  },
  '/categories/(?P<id>\\d+)': {
    GET: 'id',
    'POST,PUT,PATCH': 'id name description slug parent',
    DELETE: 'id',
  },
  '/tags': {
    GET: 'page per_page search exclude include order orderby hide_empty post event slug',
    POST: 'name description slug',
  },
  '/tags/(?P<id>\\d+)': { GET: 'id', 'POST,PUT,PATCH': 'id name description slug', DELETE: 'id' },
};

/**
 * Arguments we may declare beyond the original's (CONTRACT §1-§4 extensions), besides `ml_language` everywhere.
 * A new extra argument must be added here on purpose: this list is the report of how we differ.
 */
const OUR_EXTRA_ARGS: Record<string, Record<string, string>> = {
  // CONTRACT §2 "Cost and currency": the keys of cost_details are writable.
  '/events': {
    GET: 'geoloc_radius show_hidden',
    POST: 'ticketed post_password currency_symbol currency_position currency_code uid recurrence',
  },
  // Issue 13: repeating events (series) take their rule, and changes and deletions of one of them a scope.
  '/events/(?P<id>\\d+)': {
    'POST,PUT,PATCH':
      'ticketed post_password currency_symbol currency_position currency_code recurrence scope',
    DELETE: 'scope',
  },
  // By-slug reads of protected events take the password as by-id reads do.
  '/events/by-slug/(?P<slug>[^/]+)': {
    GET: 'password',
    DELETE: 'password scope',
    'POST,PUT,PATCH':
      'ticketed post_password password currency_symbol currency_position currency_code recurrence scope',
  },
  // CONTRACT §2: an administrator's sync from another Calendar Desk gives new records their uid.
  '/venues': { POST: 'geo_lat geo_lng uid' },
  '/organizers': { POST: 'uid' },
  '/categories': { POST: 'uid' },
  '/tags': { POST: 'uid' },
  '/venues/(?P<id>\\d+)': { 'POST,PUT,PATCH': 'geo_lat geo_lng' },
  '/venues/by-slug/(?P<slug>[^/]+)': { 'POST,PUT,PATCH': 'geo_lat geo_lng' },
};

/**
 * Endpoints whose argument order differs from the original's. By-slug event updates: the original lists the
 * `slug` first (routes/events.ts spreads the update arguments first, so `slug` sits among the event fields).
 */
const ORDER_DIFFERENCES = ['POST,PUT,PATCH /events/by-slug/(?P<slug>[^/]+)'];

const words = (list: string | undefined) => (list ? list.split(' ') : []);

/** Keywords WordPress shows per argument: JSON-schema keywords, then `required`. */
const ARG_KEYS = ['default', 'description', 'type', 'format', 'items', 'enum', 'required'];

let server: TestServer;
let origin: string;
let index: Json;

beforeAll(async () => {
  server = await startTestServer();
  origin = server.engine.origin;
  const response = await server.api(`${origin}/wp-json/${NS}`);
  expect(response.status).toBe(200);
  index = response.body;
});
afterAll(() => server.close());

/** Every argument of every endpoint of an index, with where it is. */
function* argsOf(body: Json): Generator<[string, string, string, Json]> {
  for (const [route, entry] of Object.entries<Json>(body.routes)) {
    for (const endpoint of entry.endpoints) {
      for (const [name, arg] of Object.entries<Json>(endpoint.args)) {
        yield [route, endpoint.methods.join(','), name, arg];
      }
    }
  }
}

describe('namespace index', () => {
  test('has WordPress’ shape: namespace, routes in registration order, _links.up', async () => {
    expect(Object.keys(index)).toEqual(['namespace', 'routes', '_links']);
    expect(index.namespace).toBe(NS);
    expect(Object.keys(index.routes)).toEqual(
      Object.keys(ORIGINAL_ARGS).map((pattern) => `/${NS}${pattern}`),
    );
    expect(index._links).toEqual({ up: [{ href: `${origin}/wp-json/` }] });
  });

  test('answers with and without the trailing slash, with the API Link header', async () => {
    const slashed = await server.api('');
    expect(slashed.status).toBe(200);
    expect(slashed.body.routes[`/${NS}`]).toEqual(index.routes[`/${NS}`]);
    expect(slashed.headers.get('link')).toContain(`<${origin}/wp-json/>; rel="https://api.w.org/"`);
    expect(slashed.headers.get('content-type')).toMatch(/^application\/json/);
  });

  test('each route: namespace, methods of its endpoints, self link only without path parameters', () => {
    for (const [key, route] of Object.entries<Json>(index.routes)) {
      const pattern = key.slice(NS.length + 1);
      expect(route.namespace, key).toBe(NS);
      expect(route.methods, key).toEqual(route.endpoints.flatMap((endpoint: Json) => endpoint.methods));
      expect(
        route.endpoints.map((endpoint: Json) => endpoint.methods.join(',')),
        key,
      ).toEqual(Object.keys(ORIGINAL_ARGS[pattern]));
      if (pattern.includes('(?P<')) expect(route._links, key).toBeUndefined();
      else expect(route._links, key).toEqual({ self: [{ href: `${origin}/wp-json/${NS}${pattern}` }] });
    }
  });

  test('we declare every argument the original declares; extras are our listed extensions', () => {
    const report: string[] = [];
    for (const [pattern, endpoints] of Object.entries(ORIGINAL_ARGS)) {
      const route = index.routes[`/${NS}${pattern}`];
      for (const [methods, names] of Object.entries(endpoints)) {
        const endpoint = route.endpoints.find((candidate: Json) => candidate.methods.join(',') === methods);
        const ours = Object.keys(endpoint.args);
        const missing = words(names).filter((name) => !ours.includes(name));
        const extra = ours.filter((name) => !words(names).includes(name) && name !== 'ml_language');
        if (missing.length) report.push(`${methods} ${pattern}: missing ${missing.join(', ')}`);
        const unlisted = extra.filter((name) => !words(OUR_EXTRA_ARGS[pattern]?.[methods]).includes(name));
        if (unlisted.length)
          report.push(`${methods} ${pattern}: extra ${unlisted.join(', ')} not in OUR_EXTRA_ARGS`);
        // The original's arguments keep its order.
        const order = ours.filter((name) => words(names).includes(name)).join(' ');
        if (order !== names && !ORDER_DIFFERENCES.includes(`${methods} ${pattern}`)) {
          report.push(`${methods} ${pattern}: order ${order}`);
        }
      }
    }
    expect(report).toEqual([]);
  });

  test('every endpoint lists ml_language (also /doc and the index itself)', () => {
    for (const route of Object.values<Json>(index.routes)) {
      for (const endpoint of route.endpoints) {
        expect(endpoint.args.ml_language).toEqual({
          description:
            'Language of the records: on lists a filter, on creates the language of the new record',
          type: 'string',
          enum: [...LANGUAGES],
          required: false,
        });
      }
    }
  });

  test('arguments show only schema keywords, in order, then required', () => {
    for (const [route, methods, name, arg] of argsOf(index)) {
      const keys = Object.keys(arg);
      expect(keys.at(-1), `${methods} ${route} ${name}`).toBe('required');
      expect(typeof arg.required).toBe('boolean');
      const known = keys.filter((key) => ARG_KEYS.includes(key));
      expect(known, `${methods} ${route} ${name}`).toEqual(keys);
      expect(known, `${methods} ${route} ${name}`).toEqual(ARG_KEYS.filter((key) => keys.includes(key)));
    }
  });

  test('the index route itself: namespace and context defaults, no descriptions', () => {
    const [endpoint] = index.routes[`/${NS}`].endpoints;
    expect(endpoint.methods).toEqual(['GET']);
    expect(endpoint.args.namespace).toEqual({ default: NS, required: false });
    expect(endpoint.args.context).toEqual({ default: 'view', required: false });
  });

  test('values as the reference shows them (sample 01)', () => {
    const route = (pattern: string) => index.routes[`/${NS}${pattern}`];
    const events = route('/events').endpoints;
    expect(events[0].args.page).toEqual({
      default: 1,
      description: 'The archive page to return',
      type: 'integer',
      required: false,
    });
    expect(events[0].args.categories).toEqual({
      description: 'Events should be assigned one of the specified categories slugs or IDs',
      items: { type: 'integer' },
      required: false,
    });
    expect(events[0].args.status).toEqual({
      description: 'The event post status',
      format: 'string',
      required: false,
    });
    expect(events[1].args.title).toEqual({
      description: 'The event title',
      type: 'string',
      required: true,
    });
    expect(events[1].args.website).toEqual({
      default: null,
      description: 'The event website URL',
      required: false,
    });
    expect(route('/events/(?P<id>\\d+)').endpoints[0].args.id).toEqual({
      description: 'the event post ID',
      type: 'integer',
      required: true,
    });
    expect(route('/categories').endpoints[0].args.hide_empty.default).toBe(true);
  });

  test('GET /events shows the default date window it applies (time-dependent, as the reference)', async () => {
    const before = new Date();
    const { body } = await server.api(`${origin}/wp-json/${NS}`);
    const after = new Date();
    const args = body.routes[`/${NS}/events`].endpoints[0].args;
    expect([defaultArchiveStart(before, 'UTC'), defaultArchiveStart(after, 'UTC')]).toContain(
      args.start_date.default,
    );
    const end = args.end_date.default as string;
    // GET answers are cached for the rest of their minute (the index was read in beforeAll already), so the
    // default may have been computed at any moment since the minute began.
    const minuteStart = new Date(Math.floor(before.getTime() / 60_000) * 60_000);
    expect(end >= defaultArchiveEnd(minuteStart) && end <= defaultArchiveEnd(after)).toBe(true);
    expect(args.start_date).toEqual({
      default: args.start_date.default,
      description: 'Events that start on the specified date',
      required: false,
    });
  });
});

describe('translated index', () => {
  const roots = [
    { name: '/it/wp-json/', path: '/it/wp-json/', query: '', dictionary: it, root: '/it/wp-json/' },
    { name: '/pl/wp-json/', path: '/pl/wp-json/', query: '', dictionary: pl, root: '/pl/wp-json/' },
    {
      name: '?ml_language=it',
      path: '/wp-json/',
      query: '?ml_language=it',
      dictionary: it,
      root: '/wp-json/',
    },
    {
      name: '/it/…?ml_language=pl',
      path: '/IT/wp-json/',
      query: '?ml_language=pl',
      dictionary: pl,
      root: '/it/wp-json/',
    },
  ];
  for (const { name, path, query, dictionary, root } of roots) {
    test(`${name}: same routes and arguments, descriptions translated, links under the root used`, async () => {
      const response = await server.api(`${origin}${path}${NS}${query}`);
      expect(response.status).toBe(200);
      const body = response.body;
      expect(Object.keys(body.routes)).toEqual(Object.keys(index.routes));
      expect(body._links.up[0].href).toBe(`${origin}${root}`);
      expect(body.routes[`/${NS}/events`]._links.self[0].href).toBe(`${origin}${root}${NS}/events`);
      expect(response.headers.get('link')).toContain(`<${origin}${root}>; rel="https://api.w.org/"`);
      const english = [...argsOf(index)];
      const translated = [...argsOf(body)];
      expect(translated.map(([r, m, n]) => `${m} ${r} ${n}`)).toEqual(
        english.map(([r, m, n]) => `${m} ${r} ${n}`),
      );
      translated.forEach(([route, methods, argName, arg], position) => {
        const source = english[position][3];
        const { description, default: value, ...rest } = arg;
        const { description: englishText, default: englishValue, ...englishRest } = source;
        expect(rest, `${methods} ${route} ${argName}`).toEqual(englishRest);
        if (typeof englishValue !== 'string' || !/^\d{4}-/.test(englishValue))
          expect(value).toEqual(englishValue);
        if (englishText === undefined) expect(description).toBeUndefined();
        else expect(description, `${methods} ${route} ${argName}`).toBe(dictionary[englishText]);
      });
    });
  }

  test('/en/wp-json/ and ?ml_language=en under /it are English', async () => {
    for (const path of [`/en/wp-json/${NS}`, `/it/wp-json/${NS}?ml_language=en`]) {
      const { body } = await server.api(`${origin}${path}`);
      expect(body.routes[`/${NS}/events`].endpoints[1].args.title.description).toBe('The event title');
    }
  });

  test('ml_language with a language we do not translate keeps the root’s language; a bad one is 400', async () => {
    const czech = await server.api(`${origin}/pl/wp-json/${NS}?ml_language=cs`);
    expect(czech.body.routes[`/${NS}/events`].endpoints[1].args.title.description).toBe(
      pl['The event title'],
    );
    const bad = await server.api(`${origin}/wp-json/${NS}?ml_language=xx`);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('rest_invalid_param');
  });
});

/**
 * Deeper comparison with the recorded original (sample 01, test/fixtures/original):
 * types, formats, items and `required` of every shared argument, and the English descriptions, with the
 * differences we keep on purpose listed.
 */
/** `route methods arg` → why we differ from the original there. */
const KEPT_DIFFERENCES: Record<string, string> = {
  // Our geolocation filters work without Events Calendar Pro (CONTRACT §2).
  'GET /events geoloc description': 'no "Requires Events Calendar Pro." prefix',
  'GET /events geoloc_lat description': 'no "Requires Events Calendar Pro." prefix',
  'GET /events geoloc_lng description': 'no "Requires Events Calendar Pro." prefix',
  // The original's copy-paste slips.
  'GET /venues status description': 'original says "The organizer post status"',
  'POST /venues image description': 'original says "The organizer featured image ID or URL"',
  'POST,PUT,PATCH /venues/(?P<id>\\d+) image description': 'same slip',
  'POST,PUT,PATCH /venues/by-slug/(?P<slug>[^/]+) image description': 'same slip',
  'POST /categories parent description': 'original says "The event category slug"',
  'POST,PUT,PATCH /categories/(?P<id>\\d+) parent description': 'same slip',
  // In the original the body's `slug` (an event field) replaces the path argument in the index; ours is the
  // path argument (the path always names the event).
  'POST,PUT,PATCH /events/by-slug/(?P<slug>[^/]+) slug description': 'path argument',
  'POST,PUT,PATCH /events/by-slug/(?P<slug>[^/]+) slug required': 'path argument',
};

describe('compared with sample 01 of the original', () => {
  test('shared arguments have the same type, format, items, required and English description', () => {
    const recorded = JSON.stringify(sampleResponseBody('01-namespace-root.http'));
    const original = JSON.parse(recorded.replaceAll('tribe/events/v1', NS));
    const ours = new Map(
      [...argsOf(index)].map(([route, methods, name, arg]) => [`${methods} ${route} ${name}`, arg]),
    );
    const differences: string[] = [];
    for (const [route, methods, name, arg] of argsOf(original)) {
      const mine = ours.get(`${methods} ${route} ${name}`);
      expect(mine, `${methods} ${route} ${name}`).toBeDefined();
      for (const key of ['type', 'format', 'items', 'required', 'description']) {
        const where = `${methods} ${route.slice(NS.length + 1)} ${name} ${key}`;
        const same = JSON.stringify(arg[key]) === JSON.stringify(mine[key]);
        if (!same && !KEPT_DIFFERENCES[where]) differences.push(`${where}: ${arg[key]} ≠ ${mine[key]}`);
        if (same && KEPT_DIFFERENCES[where]) differences.push(`${where}: listed as different but equal`);
      }
    }
    expect(differences).toEqual([]);
  });
});
