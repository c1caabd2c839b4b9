import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
