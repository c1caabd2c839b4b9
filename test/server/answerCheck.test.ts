import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { apiRoutes, routePath, type ApiRouteKey } from '../../src/shared/api/routes';
import { checkAnswer, mappedRoute } from '../helpers/answerCheck';
import { eventBody, startTestServer, type TestServer } from '../helpers/server';

// The tests' helper checks every successful answer of a mapped route against the route's schema (answerCheck.ts):
// these tests show it finds each route from a request, lets a true answer through and stops a wrong one.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('the answer check of the tests helper', () => {
  it('finds every route of the map from its method and a filled-in address', () => {
    for (const [key, spec] of Object.entries(apiRoutes) as [ApiRouteKey, (typeof apiRoutes)[ApiRouteKey]][]) {
      const params = Object.fromEntries([...spec.path.matchAll(/:([a-z_]+)/g)].map(([, name]) => [name, 7]));
      const url = `${server.engine.origin}/wp-json/${spec.namespace}/${routePath(spec.path, params)}?ml_language=en`;
      expect(mappedRoute(spec.method, url)?.key, key).toBe(key);
    }
    expect(mappedRoute('GET', `${server.engine.origin}/wp-json/cal/events/v1/no-such-route`)).toBeUndefined();
  });

  it("lets a real answer through and stops one that lost a field the route's schema requires", async () => {
    const created = await server.api('events', {
      method: 'POST',
      json: eventBody('Checked', 3),
      auth: server.admin,
    });
    expect(created.status).toBe(201);
    const url = `${server.base}events/${created.body.id}`;
    expect(() => checkAnswer('GET', url, 200, created.body)).not.toThrow();
    const { title: _title, ...withoutTitle } = created.body as Record<string, unknown>;
    expect(() => checkAnswer('GET', url, 200, withoutTitle)).toThrow(/GET events\/:id .*response schema/s);
  });

  it('leaves errors, unmapped routes and answers reshaped by _fields unchecked', () => {
    const url = `${server.base}events/1`;
    expect(() => checkAnswer('GET', url, 404, { code: 'rest_post_invalid_id' })).not.toThrow();
    expect(() => checkAnswer('GET', `${url}?_fields=id`, 200, { id: 1 })).not.toThrow();
    expect(() => checkAnswer('GET', `${server.base}no-such-route`, 200, { id: 1 })).not.toThrow();
    expect(() => checkAnswer('GET', url, 200, { id: 1 })).toThrow();
  });
});

// The types of `api(path)` (test/helpers/server.ts `BodyOfPath`): a path of the map gives its route's fields, so a
// test reading a field the answer does not have fails `npm run typecheck`; these lines are checked by it (each
// `@ts-expect-error` fails the type check if the error it expects is gone) and run as a plain test.
describe("the types of the tests helper's answers", () => {
  it("types a mapped path's body by its route, a reshaped or unknown path's not at all", async () => {
    const created = await server.api('events', {
      method: 'POST',
      json: eventBody('Typed', 3),
      auth: server.admin,
    });
    expectTypeOf(created.body).toHaveProperty('start_date');
    expectTypeOf(created.body).toHaveProperty('code'); // a refused create answers WordPress' error instead
    // @ts-expect-error -- an event has no `start`: a misspelt field is caught when the tests are type-checked
    expect(created.body.start).toBeUndefined();

    const id: number = created.body.id;
    // A field's value has the schema's type: a test that treats a number as text fails to compile.
    expectTypeOf(created.body.id).toEqualTypeOf<number>();
    expectTypeOf(created.body.title).toEqualTypeOf<string>();
    // @ts-expect-error -- an id is a number
    expect(created.body.id.startsWith).toBeUndefined();
    const read = await server.api(`events/${id}?context=edit`);
    expectTypeOf(read.body.venue).toHaveProperty('address'); // WordPress' `[]` for "no venue" is left open
    // @ts-expect-error -- a venue has no `town`
    expect(read.body.venue.town).toBeUndefined();
    const list = await server.api('venues?per_page=5');
    expectTypeOf(list.body).toHaveProperty('venues');
    // @ts-expect-error -- an archive is an object, not an array (a past test compared two `undefined` lengths)
    expect(list.body.length).toBeUndefined();

    // Reshaped on purpose, outside the map, or known only at run time: any field may be read.
    const fields = await server.api(`events/${id}?_fields=id,title`);
    expectTypeOf(fields.body).toBeAny();
    expectTypeOf((await server.api('no-such-route')).body).toBeAny();
    const somewhere: string = `events/${id}`;
    expectTypeOf((await server.api(somewhere)).body).toBeAny();
    expect(fields.body.id).toBe(id);
  });
});
