import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server';
import { startDavServer, type DavUser } from '../helpers/davClients';

/** What the Settings screen uses to connect a calendar app: the CalDAV addresses and a new application password. */
let server: TestServer;
let subscriber: DavUser;
const ADMIN = 'wp-json/calendar-desk/v1';

beforeAll(async () => {
  ({
    server,
    users: { sub: subscriber },
  } = await startDavServer({ sub: 'subscriber' }));
});

afterAll(async () => {
  await server?.close();
});

describe('calendar-desk/v1 caldav and app-passwords', () => {
  it("gives any signed-in user their calendar's addresses, nobody else", async () => {
    const mine = await server.api(`${server.engine.origin}/${ADMIN}/caldav`, { auth: subscriber.headers });
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({
      login: 'sub',
      address: `${server.engine.origin}/`,
      calendar: `${server.engine.origin}/dav/calendars/sub/events/`,
    });
    expect((await server.api(`${server.engine.origin}/${ADMIN}/caldav`)).status).toBe(401);
  });

  it('makes an application password that signs a calendar app in, shown once', async () => {
    const made = await server.api(`${server.engine.origin}/${ADMIN}/app-passwords`, {
      method: 'POST',
      json: { name: 'Thunderbird' },
      auth: subscriber.headers,
    });
    expect(made.status).toBe(201);
    expect(made.body.name).toBe('Thunderbird');
    const basic = `Basic ${Buffer.from(`sub:${made.body.password}`).toString('base64')}`;
    const propfind = await fetch(made.body.calendar, {
      method: 'PROPFIND',
      headers: { Authorization: basic, Depth: '0' },
    });
    expect(propfind.status).toBe(207);
    // The first password still works too: each app has its own.
    const first = await fetch(made.body.calendar, {
      method: 'PROPFIND',
      headers: { ...subscriber.headers, Depth: '0' },
    });
    expect(first.status).toBe(207);
    const users = await server.api(`${server.engine.origin}/${ADMIN}/users`, { auth: server.admin });
    expect(JSON.stringify(users.body)).not.toContain(made.body.password);
  });

  it('refuses an anonymous caller and a name too long', async () => {
    expect(
      (await server.api(`${server.engine.origin}/${ADMIN}/app-passwords`, { method: 'POST', json: {} }))
        .status,
    ).toBe(401);
    const long = await server.api(`${server.engine.origin}/${ADMIN}/app-passwords`, {
      method: 'POST',
      json: { name: 'x'.repeat(61) },
      auth: subscriber.headers,
    });
    expect(long.status).toBe(400);
  });
});
