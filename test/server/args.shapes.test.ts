import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, startTestServer, type ApiResult, type TestServer } from '../helpers/server';

/**
 * Lists and objects where a scalar goes, scalars where a list goes, numbers no record can have: each is the
 * client's mistake, answered 400 rest_invalid_param naming the argument, never a 500 (issue 10, item 1).
 */
let server: TestServer;
let eventId: number;
beforeAll(async () => {
  server = await startTestServer();
  const event = await server.api('events', {
    method: 'POST',
    auth: server.admin,
    json: eventBody('Shaped', 3, { categories: ['Shapes'], tags: ['Shape tag'], venue: { venue: 'Hall' } }),
  });
  expect(event.status).toBe(201);
  eventId = event.body.id;
});
afterAll(() => server.close());

/** Asserts a 400 rest_invalid_param whose params name exactly these arguments. */
function expectInvalid(result: ApiResult, ...names: string[]) {
  expect(result.status, JSON.stringify(result.body)).toBe(400);
  expect(result.body.code).toBe('rest_invalid_param');
  expect(Object.keys(result.body.data.params).sort()).toEqual([...names].sort());
}

describe('term filters given as objects', () => {
  it.each(['categories', 'tags'])('/%s?include[a]=1 and exclude[a]=1 are 400, not 500', async (route) => {
    for (const name of ['include', 'exclude']) {
      expectInvalid(await server.api(`${route}?${name}[a]=1`), name);
      expectInvalid(await server.api(`${route}?${name}[]=1&${name}[][b]=2`), name);
      expectInvalid(await server.api(`${route}?${name}[a][b][c]=x`), name);
    }
    // Lists of ids or slugs still work, as arrays or CSV.
    const shown = await server.api(`${route}?include[]=${route === 'categories' ? 'shapes' : 'shape-tag'}`);
    expect(shown.status).toBe(200);
    expect(shown.body[route]).toHaveLength(1);
  });

  it('refuses an object even when its text matches a term name ("[object Object]")', async () => {
    const odd = await server.api('tags', {
      method: 'POST',
      auth: server.admin,
      json: { name: '[object Object]' },
    });
    expect(odd.status).toBe(201);
    expectInvalid(await server.api('events?tags[a]=1'), 'tags');
    expectInvalid(await server.api('events?categories[a]=1'), 'categories');
    expectInvalid(await server.api('tags?include[a]=1'), 'include');
  });
});

describe('event terms and flags given as lists or objects', () => {
  it('refuses categories or tags holding objects or nested lists, storing nothing', async () => {
    const before = server.engine.store.version;
    for (const categories of [[{ name: 'x' }], [['Nested']], { a: 'Shapes' }, [true]]) {
      const created = await server.api('events', {
        method: 'POST',
        auth: server.admin,
        json: eventBody('Never stored', 3, { categories }),
      });
      expectInvalid(created, 'categories');
      const updated = await server.api(`events/${eventId}`, {
        method: 'PATCH',
        auth: server.admin,
        json: { tags: categories },
      });
      expectInvalid(updated, 'tags');
    }
    expect(server.engine.store.version).toBe(before);
    // Ids and names, as a list or CSV, and [] to clear, still do what they did.
    const cleared = await server.api(`events/${eventId}`, {
      method: 'PATCH',
      auth: server.admin,
      json: { tags: [], categories: 'Shapes, New shape' },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.tags).toEqual([]);
    expect(cleared.body.categories.map((term: { name: string }) => term.name).sort()).toEqual([
      'New shape',
      'Shapes',
    ]);
  });

  it('refuses has_events and only_with_upcoming given as lists or objects', async () => {
    expectInvalid(await server.api('venues?has_events[a]=1'), 'has_events');
    expectInvalid(await server.api('organizers?only_with_upcoming[]=1'), 'only_with_upcoming');
    expect((await server.api('venues?has_events=1')).status).toBe(200);
  });
});

describe('numbers', () => {
  it('refuses coordinates that are lists, empty or not numbers, and keeps numeric strings working', async () => {
    for (const query of [
      'geoloc_lat[]=1&geoloc_lng=2',
      'geoloc_lat=&geoloc_lng=2',
      'geoloc_lat=NaN&geoloc_lng=2',
    ]) {
      expectInvalid(await server.api(`events?${query}`), 'geoloc_lat');
    }
    expectInvalid(await server.api('events?geoloc_lat=1&geoloc_lng=2&geoloc_radius[a]=5'), 'geoloc_radius');
    expectInvalid(
      await server.api('events?geoloc_lat=1&geoloc_lng=2&geoloc_radius=Infinity'),
      'geoloc_radius',
    );
    expect((await server.api('events?geoloc_lat=44.5&geoloc_lng=11.3&geoloc_radius=1e2')).status).toBe(200);
  });

  it('refuses integers beyond what an id or a page can be', async () => {
    const huge = '9'.repeat(30);
    expectInvalid(await server.api(`events?page=${huge}`), 'page');
    expectInvalid(await server.api(`events?per_page=${huge}`), 'per_page');
    expectInvalid(await server.api(`events?post_parent=${huge}`), 'post_parent');
    expectInvalid(await server.api(`categories?parent=${huge}`), 'parent');
    expectInvalid(await server.api(`events/${huge}`), 'id');
  });
});

describe('a request whose path spelling skipped the sign-in step before', () => {
  it('is answered by the permission check, never with a 500', async () => {
    const anonymous = await server.api(`${server.engine.origin}/WP-JSON/cal/events/v1/events`, {
      method: 'POST',
      json: eventBody('Anonymous', 3),
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('rest_forbidden');
  });
});
