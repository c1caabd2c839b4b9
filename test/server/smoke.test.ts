import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, eventBody, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('smoke', () => {
  it('creates and reads an event', async () => {
    const created = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: eventBody('Jazz night', 3, {
        venue: { venue: 'Blue Note', city: 'Milano' },
        organizer: [{ organizer: 'Anna' }],
        categories: ['Music'],
        tags: ['jazz'],
        cost: '15€',
      }),
    });
    console.log(JSON.stringify(created.body, null, 1).slice(0, 5000));
    expect(created.status).toBe(201);
    const list = await server.api('events');
    expect(list.status).toBe(200);
    console.log(JSON.stringify({ ...list.body, events: list.body.events.length }), [
      ...list.headers.entries(),
    ]);
    const one = await server.api(`events/${created.body.id}`);
    expect(one.status).toBe(200);
    console.log(JSON.stringify(one.body.json_ld));
  });
});
