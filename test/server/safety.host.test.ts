import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, NS, type TestServer } from '../helpers/server';
import { expectError, rawRequest, rawSocket } from './safety.http';

/** CONTRACT §6: DNS rebinding (Host allowlist) and cross-origin writes (Origin), no CORS. */
let server: TestServer;
let port: number;
const EVENTS = `/${NS}/events`;

beforeAll(async () => {
  server = await startTestServer();
  port = server.engine.port;
});
afterAll(() => server.close());

async function categoryNames(): Promise<string[]> {
  const list = await server.api('categories?hide_empty=false&per_page=50');
  expect(list.status).toBe(200);
  return (list.body.categories as Array<{ name: string }>).map((term) => term.name);
}

describe('Host header allowlist', () => {
  it.each([
    ['127.0.0.1', () => `127.0.0.1:${port}`],
    ['localhost', () => `localhost:${port}`],
    ['LOCALHOST (any case)', () => `LOCALHOST:${port}`],
    ['[::1]', () => `[::1]:${port}`],
  ])('serves Host %s with the server port', async (_label, host) => {
    const response = await rawRequest(port, { path: EVENTS, headers: { Host: host() } });
    expect(response.status).toBe(200);
    expect(response.json.events).toEqual([]);
    // Links are built from the name the client used.
    expect(String(response.headers.link).toLowerCase()).toContain(
      `<http://${host().toLowerCase()}/wp-json/>`,
    );
  });

  it.each([
    ['a foreign name (DNS rebinding)', () => `evil.example:${port}`],
    ['a foreign name without port', () => 'evil.example'],
    ['the loopback address with another port', () => `127.0.0.1:${port + 1}`],
    ['localhost with another port', () => `localhost:${port === 65535 ? port - 1 : port + 1}`],
    ['a loopback name without the port', () => '127.0.0.1'],
    ['a name that merely starts like localhost', () => `localhost.evil.example:${port}`],
    // Spellings an attacker tries (issue 26 review): names that resolve to loopback, other forms of the address.
    ['a wildcard-DNS name of the loopback address', () => `127.0.0.1.nip.io:${port}`],
    ['the loopback address with a trailing dot', () => `127.0.0.1.:${port}`],
    ['localhost with a trailing dot', () => `localhost.:${port}`],
    ['the port with a trailing dot', () => `127.0.0.1:${port}.`],
    ['the port with a leading zero', () => `127.0.0.1:0${port}`],
    ['the IPv6 loopback written out', () => `[0:0:0:0:0:0:0:1]:${port}`],
    ['the IPv4-mapped IPv6 loopback', () => `[::ffff:127.0.0.1]:${port}`],
    ['the loopback address shortened', () => `127.1:${port}`],
    ['the loopback address as one number', () => `2130706433:${port}`],
    ['the loopback address in hex', () => `0x7f000001:${port}`],
    ['a user name before the host', () => `user@127.0.0.1:${port}`],
    ['two hosts', () => `127.0.0.1:${port}, evil.example`],
  ])('refuses %s with 403 JSON', async (_label, host) => {
    const response = await rawRequest(port, { path: EVENTS, headers: { Host: host() } });
    expectError(response, 403, 'rest_forbidden_host');
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(response.text).not.toContain('"events"');
  });

  it('refuses a foreign Host on writes too, and stores nothing', async () => {
    const response = await rawRequest(port, {
      method: 'POST',
      path: `/${NS}/categories`,
      headers: {
        Host: `evil.example:${port}`,
        'Content-Type': 'application/json',
        ...server.admin,
      },
      body: JSON.stringify({ name: 'Rebound' }),
    });
    expectError(response, 403, 'rest_forbidden_host');
    expect(await categoryNames()).not.toContain('Rebound');
  });

  it('refuses a request without any Host header (HTTP/1.0) with 403 JSON', async () => {
    const response = await rawSocket(port, `GET ${EVENTS} HTTP/1.0\r\n\r\n`);
    expectError(response, 403, 'rest_forbidden_host');
  });

  it('refuses an HTTP/1.1 request without Host with 403 JSON', async () => {
    const response = await rawRequest(port, { path: EVENTS, setHost: false });
    expectError(response, 403, 'rest_forbidden_host');
  });
});

describe('Origin of writes', () => {
  const post = (origin: string | undefined, name: string) =>
    rawRequest(port, {
      method: 'POST',
      path: `/${NS}/categories`,
      headers: {
        Host: `127.0.0.1:${port}`,
        'Content-Type': 'application/json',
        ...server.admin,
        ...(origin !== undefined ? { Origin: origin } : {}),
      },
      body: JSON.stringify({ name }),
    });

  it.each([
    ['a foreign site', 'http://evil.example'],
    ['a foreign site on our port', () => `http://evil.example:${port}`],
    ['our host over https', () => `https://127.0.0.1:${port}`],
    ['our host on another port', () => `http://127.0.0.1:${port + 1}`],
    ['the opaque origin "null"', 'null'],
    ['a wildcard-DNS name of our address', () => `http://127.0.0.1.nip.io:${port}`],
    ['localhost with a trailing dot', () => `http://localhost.:${port}`],
    ['a name that merely starts like ours', () => `http://localhost.evil.example:${port}`],
    ['garbage', 'not an origin'],
  ])('refuses a write from %s with 403 and stores nothing', async (label, origin) => {
    const name = `From ${label}`;
    const response = await post(typeof origin === 'function' ? origin() : origin, name);
    expectError(response, 403, 'rest_forbidden_origin');
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(await categoryNames()).not.toContain(name);
  });

  it('refuses foreign-origin DELETE and PUT too, changing nothing', async () => {
    const created = await server.api('categories', {
      method: 'POST',
      auth: server.admin,
      json: { name: 'Keep me' },
    });
    expect(created.status).toBe(201);
    for (const method of ['DELETE', 'PUT', 'PATCH']) {
      const response = await rawRequest(port, {
        method,
        path: `/${NS}/categories/${created.body.id}`,
        headers: {
          Host: `127.0.0.1:${port}`,
          Origin: 'http://evil.example',
          'Content-Type': 'application/json',
          ...server.admin,
        },
        body: JSON.stringify({ name: 'Renamed' }),
      });
      expectError(response, 403, 'rest_forbidden_origin');
    }
    const after = await server.api(`categories/${created.body.id}`);
    expect(after.status).toBe(200);
    expect(after.body.name).toBe('Keep me');
  });

  it.each([
    ['127.0.0.1', () => `http://127.0.0.1:${port}`],
    ['localhost', () => `http://localhost:${port}`],
  ])('accepts a same-origin write (%s)', async (label, origin) => {
    const response = await post(origin(), `Same origin ${label}`);
    expect(response.status).toBe(201);
    expect(await categoryNames()).toContain(`Same origin ${label}`);
  });

  it('accepts a write without Origin (local tools)', async () => {
    const response = await post(undefined, 'No origin');
    expect(response.status).toBe(201);
  });

  it('lets foreign-origin reads through without any CORS grant', async () => {
    const response = await rawRequest(port, {
      path: EVENTS,
      headers: { Host: `127.0.0.1:${port}`, Origin: 'http://evil.example' },
    });
    expect(response.status).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('answers a CORS preflight without granting anything', async () => {
    const response = await rawRequest(port, {
      method: 'OPTIONS',
      path: EVENTS,
      headers: {
        Host: `127.0.0.1:${port}`,
        Origin: 'http://evil.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(response.headers['access-control-allow-methods']).toBeUndefined();
    expect(response.headers['access-control-allow-headers']).toBeUndefined();
  });
});

describe('no CORS wildcard anywhere', () => {
  it('sends no Access-Control-Allow-Origin on successes, errors and non-API pages', async () => {
    const responses = await Promise.all([
      rawRequest(port, { path: EVENTS, headers: { Origin: 'http://evil.example' } }),
      rawRequest(port, { path: '/wp-json/', headers: { Origin: 'http://evil.example' } }),
      rawRequest(port, { path: `/${NS}/nope`, headers: { Origin: 'http://evil.example' } }),
      rawRequest(port, { path: `/${NS}/events/999999` }),
      rawRequest(port, { method: 'POST', path: EVENTS, headers: { 'Content-Type': 'application/json' } }),
      rawRequest(port, { path: '/no-such-page' }),
    ]);
    for (const response of responses) {
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    }
  });
});
