import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it as test } from 'vitest';
import type { z } from 'zod';
import {
  categoryArchiveSchema,
  errorSchema,
  eventArchiveSchema,
  eventResponseSchema,
  organizerArchiveSchema,
  organizerResponseSchema,
  tagArchiveSchema,
  termResponseSchema,
  venueArchiveSchema,
  venueResponseSchema,
} from '../../src/shared/schemas/records';
import { startTestServer, type ApiResult, type TestServer } from '../helpers/server';

/**
 * CONTRACT §1: the /doc document's "types must match what the server really returns". A realistic data set is
 * built through the API, then every kind of response (archives, single reads, creates, updates, deletes,
 * errors) is validated with a JSON Schema 2020-12 validator against the schema the SERVED document declares
 * for that path, method and status, and (strictly) against the zod schema it was generated from.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- documents and bodies are walked generically
type Json = any;
type Auth = Record<string, string>;

const NS = 'cal/events/v1';
const DOC_ID = 'https://calendar-desk.invalid/doc';

const ZOD_BY_ID: Record<string, z.ZodType> = {
  Event: eventResponseSchema,
  Venue: venueResponseSchema,
  Organizer: organizerResponseSchema,
  Term: termResponseSchema,
  EventArchive: eventArchiveSchema,
  VenueArchive: venueArchiveSchema,
  OrganizerArchive: organizerArchiveSchema,
  CategoryArchive: categoryArchiveSchema,
  TagArchive: tagArchiveSchema,
  Error: errorSchema,
};

let server: TestServer;
let origin: string;
let doc: Json;
let ajv: Ajv2020;
const validators = new Map<string, ValidateFunction>();
/** `METHOD /docPath STATUS` of every validated response. */
const seen = new Set<string>();

/**
 * The served components under `$defs` of one schema resource, so ajv resolves the document's
 * `#/components/schemas/X` references (rewritten to `#/$defs/X`) in strict mode.
 */
function loadComponents(document: Json) {
  const rewritten = JSON.parse(
    JSON.stringify(document.components.schemas).replaceAll('"#/components/schemas/', '"#/$defs/'),
  );
  ajv = new Ajv2020({ strict: true, allErrors: true });
  // The document's one named format: record uids (CONTRACT §2).
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  ajv.addSchema({ $id: DOC_ID, $defs: rewritten });
}

function validatorFor(schema: Json): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (!validate) {
    const resolved = JSON.parse(key.replaceAll('"#/components/schemas/', `"${DOC_ID}#/$defs/`));
    validate = ajv.compile(resolved);
    validators.set(key, validate);
  }
  return validate;
}

interface CallOptions {
  query?: Record<string, string | number | boolean>;
  json?: unknown;
  auth?: Auth;
  headers?: Record<string, string>;
  /** A raw body (with its own Content-Type header). */
  body?: string;
  /** REST root, `/wp-json/` unless a language root is tested. */
  root?: string;
}

/**
 * Calls `METHOD docPath` (path parameters from `params`) and checks the response against the served document:
 * the status must be documented for that operation, and the body must validate against its schema.
 */
async function call(
  method: string,
  docPath: string,
  params: Record<string, string | number> = {},
  options: CallOptions = {},
): Promise<ApiResult> {
  const path = docPath.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])));
  const query = options.query
    ? `?${new URLSearchParams(Object.entries(options.query).map(([key, value]): [string, string] => [key, String(value)]))}`
    : '';
  const url = `${origin}${options.root ?? '/wp-json/'}${NS}${path}${query}`;
  const result = await server.api(url, {
    method,
    json: options.json,
    auth: options.auth,
    headers: options.headers,
    body: options.body,
  });
  const where = `${method} ${url} → ${result.status} ${JSON.stringify(result.body).slice(0, 400)}`;
  const operation = doc.paths[docPath]?.[method.toLowerCase()];
  expect(operation, `undocumented operation: ${where}`).toBeDefined();
  const documented = operation.responses[String(result.status)];
  expect(documented, `undocumented status: ${where}`).toBeDefined();
  const schema = documented.content?.['application/json']?.schema;
  if (docPath !== '/doc') expect(schema, `no schema for ${where}`).toBeDefined();
  if (schema) {
    const validate = validatorFor(schema);
    const valid = validate(result.body);
    expect(valid ? [] : validate.errors, `does not match /doc: ${where}`).toEqual([]);
    const id = String(schema.$ref ?? '')
      .split('/')
      .pop()!;
    const parsed = ZOD_BY_ID[id]?.safeParse(result.body);
    expect(parsed?.success ? [] : parsed?.error.issues, `does not match records.ts ${id}: ${where}`).toEqual(
      [],
    );
  }
  for (const header of Object.keys(documented.headers ?? {})) {
    if (header === 'X-WP-Total' || header === 'X-WP-TotalPages') {
      expect(result.headers.get(header), where).toMatch(/^\d+$/);
    }
  }
  seen.add(`${method} ${docPath} ${result.status}`);
  return result;
}

/** A documented 2xx call whose status is the one expected. */
async function ok(
  status: number,
  method: string,
  docPath: string,
  params: Record<string, string | number> = {},
  options: CallOptions = {},
) {
  const result = await call(method, docPath, params, options);
  expect(result.status, `${method} ${docPath} ${JSON.stringify(result.body).slice(0, 400)}`).toBe(status);
  return result.body;
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const at = (offset: number, title: string, extra: Record<string, unknown> = {}) => ({
  title,
  start_date: `${day(offset)} 20:00:00`,
  end_date: `${day(offset)} 23:30:00`,
  ...extra,
});

/** The data set: linked records of every kind, a protected event, drafts, hidden and trashed records. */
const data: Record<string, Json> = {};

beforeAll(async () => {
  server = await startTestServer();
  origin = server.engine.origin;
  const response = await server.api('doc');
  expect(response.status).toBe(200);
  doc = response.body;
  loadComponents(doc);
  const admin = server.admin;

  data.music = await ok(
    201,
    'POST',
    '/categories',
    {},
    { auth: admin, json: { name: 'Music', description: 'Live music' } },
  );
  data.jazz = await ok(
    201,
    'POST',
    '/categories',
    {},
    { auth: admin, json: { name: 'Jazz', parent: data.music.id } },
  );
  data.outdoor = await ok(
    201,
    'POST',
    '/tags',
    {},
    { auth: admin, json: { name: 'Outdoor', slug: 'outdoor' } },
  );
  data.venue = await ok(
    201,
    'POST',
    '/venues',
    {},
    {
      auth: admin,
      json: {
        venue: 'Blue Note',
        description: '<p>A <strong>jazz</strong> club</p>',
        address: 'Via Borsieri 37',
        city: 'Milano',
        country: 'Italy',
        province: 'MI',
        zip: '20159',
        phone: '+39 02 6901 6888',
        website: 'https://bluenote.example/',
        image: 'https://images.example/blue-note.jpg',
        geo_lat: 45.4854,
        geo_lng: 9.1885,
        show_map: true,
        show_map_link: false,
      },
    },
  );
  data.organizer = await ok(
    201,
    'POST',
    '/organizers',
    {},
    {
      auth: admin,
      json: {
        organizer: 'Anna Rossi',
        description: 'Promoter',
        phone: '+39 333 000 0000',
        website: 'https://anna.example/',
        email: 'anna@example.com',
        image: 'https://images.example/anna.png',
      },
    },
  );
  data.full = await ok(
    201,
    'POST',
    '/events',
    {},
    {
      auth: admin,
      json: at(3, 'Jazz night', {
        description: '<p>Hot <em>jazz</em> and <a href="https://example.com">more</a></p>',
        excerpt: '<p>Short</p>',
        timezone: 'Europe/Rome',
        venue: data.venue.id,
        organizer: [data.organizer.id, { organizer: 'Bob Bianchi', email: 'bob@example.com' }],
        categories: [data.jazz.id, 'Concerts'],
        tags: ['outdoor', 'late night'],
        cost: '10 - 25',
        image: 'https://images.example/jazz.jpg',
        website: 'https://jazz.example/',
        featured: true,
        sticky: true,
        ticketed: true,
        show_map: true,
        show_map_link: true,
      }),
    },
  );
  data.allDay = await ok(
    201,
    'POST',
    '/events',
    {},
    {
      auth: admin,
      json: at(4, 'Open-air festival', {
        all_day: true,
        cost: 'Free',
        venue: { venue: 'Parco Sempione', city: 'Milano', country: 'Italy' },
        ml_language: 'it',
      }),
    },
  );
  data.prices = await ok(
    201,
    'POST',
    '/events',
    {},
    {
      auth: admin,
      json: at(5, 'Two prices', { cost: [5, 12.5], organizer: [data.organizer.id], tags: [data.outdoor.id] }),
    },
  );
  data.secret = await ok(
    201,
    'POST',
    '/events',
    {},
    {
      auth: admin,
      json: at(6, 'Secret gig', {
        post_password: 's3cret',
        description: 'Only for friends',
        venue: data.venue.id,
        organizer: [data.organizer.id],
        categories: [data.music.id],
        cost: '5',
        image: 'https://images.example/secret.jpg',
      }),
    },
  );
  data.draft = await ok(
    201,
    'POST',
    '/events',
    {},
    { auth: admin, json: at(7, 'Draft idea', { status: 'draft' }) },
  );
  data.hidden = await ok(
    201,
    'POST',
    '/events',
    {},
    {
      auth: admin,
      json: at(8, 'Hidden rehearsal', { hide_from_listings: true }),
    },
  );
  data.cancelled = await ok(201, 'POST', '/events', {}, { auth: admin, json: at(9, 'Cancelled show') });
  data.oldHall = await ok(201, 'POST', '/venues', {}, { auth: admin, json: { venue: 'Old hall' } });
  data.oldPromoter = await ok(
    201,
    'POST',
    '/organizers',
    {},
    { auth: admin, json: { organizer: 'Old promoter' } },
  );
  for (const offset of [10, 11, 12])
    await ok(201, 'POST', '/events', {}, { auth: admin, json: at(offset, `Filler ${offset}`) });

  // Trashed records (and their second deletion, 410).
  data.cancelledTrashed = await ok(200, 'DELETE', '/events/{id}', { id: data.cancelled.id }, { auth: admin });
  expect(data.cancelledTrashed.status).toBe('trash');
  expect((await call('DELETE', '/events/{id}', { id: data.cancelled.id }, { auth: admin })).status).toBe(410);
  await ok(200, 'DELETE', '/venues/{id}', { id: data.oldHall.id }, { auth: admin });
  expect((await call('DELETE', '/venues/{id}', { id: data.oldHall.id }, { auth: admin })).status).toBe(410);
  await ok(200, 'DELETE', '/organizers/{id}', { id: data.oldPromoter.id }, { auth: admin });
  expect(
    (await call('DELETE', '/organizers/{id}', { id: data.oldPromoter.id }, { auth: admin })).status,
  ).toBe(410);
});
afterAll(() => server.close());

describe('responses match the schemas /doc declares', () => {
  test('the data set is what it should be', () => {
    expect(data.full.venue.geo_lat).toBe(45.4854);
    expect(data.full.organizer).toHaveLength(2);
    expect(data.full.categories.map((term: Json) => term.name)).toEqual(['Concerts', 'Jazz']);
    expect(data.full.categories.find((term: Json) => term.name === 'Jazz').urls.up).toBeDefined();
    expect(data.full.image).toMatchObject({ url: 'https://images.example/jazz.jpg', extension: 'jpg' });
    expect(data.full.cost_details.values).toEqual(['10', '25']);
    expect(data.allDay.language).toBe('it');
  });

  test('event archives: anonymous (protected event blanked), paged, filtered, editors’ views', async () => {
    const anonymous = await ok(200, 'GET', '/events');
    const secret = anonymous.events.find((event: Json) => event.id === data.secret.id);
    expect(secret).toMatchObject({
      description: '',
      venue: [],
      organizer: [],
      categories: [],
      show_map: null,
    });
    await ok(200, 'GET', '/events', {}, { query: { per_page: 2, page: 2 } });
    await ok(200, 'GET', '/events', {}, { query: { categories: 'music', tags: 'outdoor' } });
    await ok(200, 'GET', '/events', {}, { query: { venue: data.venue.id, search: 'jazz', featured: true } });
    await ok(200, 'GET', '/events', {}, { query: { geoloc: true } });
    await ok(200, 'GET', '/events', {}, { query: { ml_language: 'it' } });
    const trashed = await ok(200, 'GET', '/events', {}, { auth: server.admin, query: { status: 'trash' } });
    expect(trashed.events.map((event: Json) => event.id)).toEqual([data.cancelled.id]);
    const everything = await ok(
      200,
      'GET',
      '/events',
      {},
      {
        auth: server.admin,
        query: { show_hidden: true, per_page: 50 },
      },
    );
    expect(everything.events.map((event: Json) => event.id)).toEqual(
      expect.arrayContaining([data.draft.id, data.hidden.id, data.secret.id]),
    );
    await ok(200, 'GET', '/events', {}, { root: '/it/wp-json/' });
  });

  test('venue, organizer, category and tag archives', async () => {
    await ok(200, 'GET', '/venues');
    await ok(200, 'GET', '/venues', {}, { query: { per_page: 1, page: 2 } });
    await ok(200, 'GET', '/venues', {}, { auth: server.admin, query: { status: 'trash' } });
    await ok(200, 'GET', '/venues', {}, { query: { only_with_upcoming: true, has_events: true } });
    await ok(200, 'GET', '/organizers');
    await ok(200, 'GET', '/organizers', {}, { auth: server.admin, query: { status: 'publish,trash' } });
    await ok(200, 'GET', '/organizers', {}, { query: { event: data.full.id } });
    await ok(200, 'GET', '/categories');
    await ok(200, 'GET', '/categories', {}, { query: { hide_empty: false, per_page: 1, page: 2 } });
    await ok(200, 'GET', '/categories', {}, { query: { parent: data.music.id, hide_empty: false } });
    await ok(200, 'GET', '/tags', {}, { query: { hide_empty: false } });
    await ok(200, 'GET', '/tags', {}, { query: { page: 9 } });
  });

  test('single reads: json_ld, by slug, protected with and without password, trashed', async () => {
    const full = await ok(200, 'GET', '/events/{id}', { id: data.full.id });
    expect(full.json_ld).toBeDefined();
    expect(full.venue.json_ld).toBeDefined();
    await ok(200, 'GET', '/events/by-slug/{slug}', { slug: data.full.slug });
    await ok(200, 'GET', '/events/{id}', { id: data.allDay.id });
    await ok(200, 'GET', '/events/{id}', { id: data.prices.id });
    expect((await call('GET', '/events/{id}', { id: data.secret.id })).status).toBe(403);
    await ok(200, 'GET', '/events/{id}', { id: data.secret.id }, { query: { password: 's3cret' } });
    await ok(
      200,
      'GET',
      '/events/{id}',
      { id: data.secret.id },
      { auth: server.admin, query: { context: 'edit' } },
    );
    expect((await call('GET', '/events/{id}', { id: data.draft.id })).status).toBe(403);
    await ok(200, 'GET', '/events/{id}', { id: data.draft.id }, { auth: server.admin });
    expect(
      (await call('GET', '/events/{id}', { id: data.cancelled.id }, { auth: server.admin })).status,
    ).toBe(403);
    await ok(200, 'GET', '/venues/{id}', { id: data.venue.id });
    await ok(200, 'GET', '/venues/by-slug/{slug}', { slug: data.venue.slug });
    await ok(200, 'GET', '/venues/{id}', { id: data.oldHall.id }, { auth: server.admin });
    await ok(200, 'GET', '/organizers/{id}', { id: data.organizer.id });
    await ok(200, 'GET', '/organizers/by-slug/{slug}', { slug: data.organizer.slug });
    const jazz = await ok(200, 'GET', '/categories/{id}', { id: data.jazz.id });
    expect(jazz._links).toBeDefined();
    await ok(200, 'GET', '/tags/{id}', { id: data.outdoor.id });
  });

  test('updates through POST, PUT and PATCH, by id and by slug', async () => {
    const admin = server.admin;
    const methods = ['POST', 'PUT', 'PATCH'];
    for (const [index, method] of methods.entries()) {
      await ok(
        200,
        method,
        '/events/{id}',
        { id: data.prices.id },
        { auth: admin, json: { title: `Prices ${index}` } },
      );
    }
    // Clearing optional fields: venue, cost, excerpt, image.
    const cleared = await ok(
      200,
      'PATCH',
      '/events/{id}',
      { id: data.full.id },
      {
        auth: admin,
        json: { venue: 0, cost: '', excerpt: null, image: null, organizer: [] },
      },
    );
    expect(cleared).toMatchObject({ venue: [], organizer: [], cost: '', image: false });
    for (const method of methods) {
      const slug = (await ok(200, 'GET', '/events/{id}', { id: data.allDay.id })).slug;
      await ok(200, method, '/events/by-slug/{slug}', { slug }, { auth: admin, json: { excerpt: method } });
      const venue = (await ok(200, 'GET', '/venues/{id}', { id: data.venue.id })).slug;
      await ok(200, method, '/venues/{id}', { id: data.venue.id }, { auth: admin, json: { phone: method } });
      await ok(
        200,
        method,
        '/venues/by-slug/{slug}',
        { slug: venue },
        { auth: admin, json: { zip: '20100' } },
      );
      await ok(
        200,
        method,
        '/organizers/{id}',
        { id: data.organizer.id },
        { auth: admin, json: { phone: method } },
      );
      await ok(
        200,
        method,
        '/organizers/by-slug/{slug}',
        { slug: data.organizer.slug },
        {
          auth: admin,
          json: { email: 'anna@example.org' },
        },
      );
      await ok(
        200,
        method,
        '/categories/{id}',
        { id: data.music.id },
        { auth: admin, json: { description: method } },
      );
      await ok(
        200,
        method,
        '/tags/{id}',
        { id: data.outdoor.id },
        { auth: admin, json: { description: method } },
      );
    }
    const unmapped = await ok(
      200,
      'PATCH',
      '/venues/{id}',
      { id: data.venue.id },
      {
        auth: admin,
        json: { geo_lat: '', geo_lng: '', website: '', image: '' },
      },
    );
    expect(unmapped.geo_lat).toBeUndefined();
  });

  test('deletes: events, venues and organizers by slug; terms permanently', async () => {
    const admin = server.admin;
    const victim = await ok(
      201,
      'POST',
      '/events',
      {},
      { auth: admin, json: at(13, 'Victim', { venue: data.venue.id }) },
    );
    await ok(200, 'DELETE', '/events/by-slug/{slug}', { slug: victim.slug }, { auth: admin });
    const venue = await ok(201, 'POST', '/venues', {}, { auth: admin, json: { venue: 'Tent' } });
    await ok(200, 'DELETE', '/venues/by-slug/{slug}', { slug: venue.slug }, { auth: admin });
    const organizer = await ok(201, 'POST', '/organizers', {}, { auth: admin, json: { organizer: 'Temp' } });
    await ok(200, 'DELETE', '/organizers/by-slug/{slug}', { slug: organizer.slug }, { auth: admin });
    const category = await ok(201, 'POST', '/categories', {}, { auth: admin, json: { name: 'Gone' } });
    await ok(200, 'DELETE', '/categories/{id}', { id: category.id }, { auth: admin });
    const tag = await ok(201, 'POST', '/tags', {}, { auth: admin, json: { name: 'gone' } });
    await ok(200, 'DELETE', '/tags/{id}', { id: tag.id }, { auth: admin });
  });

  test('errors have the documented Error shape and status', async () => {
    const subscriber = await server.userHeaders('sub', 'subscriber');
    const statuses = [
      (await call('GET', '/events/{id}', { id: 999_999 })).status,
      (await call('GET', '/events', {}, { query: { per_page: 'abc' } })).status,
      (await call('GET', '/events', {}, { query: { page: 99 } })).status,
      (await call('POST', '/events', {}, { json: at(1, 'Anonymous') })).status,
      (await call('POST', '/events', {}, { auth: server.admin, json: {} })).status,
      (await call('POST', '/venues', {}, { auth: subscriber, json: { venue: 'Nope' } })).status,
      (await call('GET', '/venues/{id}', { id: data.full.id })).status,
      (
        await call(
          'PATCH',
          '/events/{id}',
          { id: data.allDay.id },
          {
            auth: server.admin,
            headers: { 'If-Match': '"stale"' },
            json: { title: 'Late' },
          },
        )
      ).status,
    ];
    statuses.push(
      (await call('GET', '/events', {}, { auth: { Authorization: 'Bearer not-a-token' } })).status,
      (
        await call(
          'POST',
          '/tags',
          {},
          {
            auth: server.admin,
            headers: { 'Content-Type': 'text/plain' },
            body: 'name=x',
          },
        )
      ).status,
    );
    expect(statuses).toEqual([404, 400, 404, 401, 400, 403, 400, 412, 401, 415]);
  });

  test('the check is not vacuous: the served schemas refuse wrong types and unknown keys', () => {
    const event = validatorFor({ $ref: '#/components/schemas/Event' });
    expect(event(data.prices)).toBe(true);
    expect(event({ ...data.prices, author: 1 })).toBe(false);
    expect(event({ ...data.prices, unknown_field: 1 })).toBe(false);
    expect(
      event({ ...data.prices, start_date_details: { ...data.prices.start_date_details, year: 2026 } }),
    ).toBe(false);
    const { language: _language, ...withoutLanguage } = data.prices;
    expect(event(withoutLanguage)).toBe(false);
    const archive = validatorFor({ $ref: '#/components/schemas/EventArchive' });
    expect(archive({ events: [data.prices], rest_url: 'x', total: 1, total_pages: 1 })).toBe(true);
    expect(archive({ events: [data.prices], rest_url: 'x', total: '1', total_pages: 1 })).toBe(false);
    const error = validatorFor({ $ref: '#/components/schemas/Error' });
    expect(error({ code: 'x', message: 'y', data: { status: 400, params: {} } })).toBe(true);
    expect(error({ code: 'x', message: 'y', data: {} })).toBe(false);
  });

  test('/doc itself', async () => {
    await ok(200, 'GET', '/doc');
  });

  test('every documented operation was exercised with a success status', () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      for (const method of Object.keys(item)) {
        const success = [...seen].some((entry) =>
          new RegExp(`^${method.toUpperCase()} ${escape(path)} 2\\d\\d$`).test(entry),
        );
        if (!success) missing.push(`${method} ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
