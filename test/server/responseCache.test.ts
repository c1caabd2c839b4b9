import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, startTestServer, type TestServer } from '../helpers/server';
import { ResponseCache } from '../../src/main/server/responseCache';

describe('ResponseCache', () => {
  const entry = (version: number, body: string) => ({
    version,
    status: 200,
    headers: {},
    body: Buffer.from(body),
  });

  it('hands out an answer only for the store version it was made at', () => {
    const cache = new ResponseCache();
    cache.set('a', entry(1, 'one'));
    expect(cache.get('a', 1)?.body.toString()).toBe('one');
    expect(cache.get('a', 2)).toBeUndefined();
    expect(cache.get('a', 1)).toBeUndefined(); // a stale entry is dropped, not kept
  });

  it('stays within its entry and byte bounds, dropping the least recently used', () => {
    const cache = new ResponseCache(2, 1_000);
    cache.set('a', entry(1, 'x'));
    cache.set('b', entry(1, 'y'));
    cache.get('a', 1);
    cache.set('c', entry(1, 'z'));
    expect(cache.get('b', 1)).toBeUndefined();
    expect(cache.get('a', 1)?.body.toString()).toBe('x');
    const bytes = new ResponseCache(10, 100);
    bytes.set('big', entry(1, 'q'.repeat(80)));
    bytes.set('small', entry(1, 'q'.repeat(10)));
    expect(bytes.get('big', 1)).toBeUndefined(); // over an eighth of the budget: never cached
    expect(bytes.get('small', 1)?.body).toHaveLength(10);
  });

  it('is worth keeping an answer once it is asked again at the same store version', () => {
    const cache = new ResponseCache();
    expect(cache.worthKeeping('a', 1)).toBe(false);
    expect(cache.worthKeeping('b', 1)).toBe(false);
    expect(cache.worthKeeping('a', 1)).toBe(true);
    expect(cache.worthKeeping('b', 2)).toBe(false); // something changed since: asked once at this version
    expect(cache.worthKeeping('b', 2)).toBe(true);
  });
});

/** The raw HTTP answer to a GET on a socket read only after `pauseMs` (the server must wait to send it). */
function slowGet(url: string, pauseMs: number, meanwhile: () => Promise<void>): Promise<Buffer> {
  const { hostname, port, pathname, search } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`,
      );
      socket.pause();
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('end', () => {
        const raw = Buffer.concat(chunks);
        resolve(raw.subarray(raw.indexOf('\r\n\r\n') + 4));
      });
      setTimeout(() => void meanwhile().then(() => socket.resume(), reject), pauseMs);
    });
    socket.on('error', reject);
  });
}

describe('list answers sent from pooled buffers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('reach a slow reader intact while other lists are answered meanwhile', async () => {
    // About 6 MB of answer: more than the connection takes at once, so the server waits to send the rest.
    for (let n = 0; n < 50; n++) {
      const description = `<p>${String.fromCharCode(65 + (n % 26)).repeat(120_000)}</p>`;
      const created = await server.api('events', {
        method: 'POST',
        auth: server.admin,
        json: eventBody(`Long ${n}`, 3, { description }),
      });
      expect(created.status).toBe(201);
    }
    for (let n = 0; n < 5; n++) {
      await server.api('events', { method: 'POST', auth: server.admin, json: eventBody(`Short ${n}`, 9) });
    }
    const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const url = `${server.base}events?per_page=50&start_date=${day(3)}&end_date=${day(3)}`;
    const slow = await slowGet(url, 300, async () => {
      // Other answers of every size meanwhile, each asked once (none is kept by the response cache).
      for (let n = 0; n < 40; n++) {
        const other = await server.api(
          `events?per_page=${1 + (n % 50)}&start_date=${day(n % 2 ? 3 : 9)}&end_date=${day(9)}`,
        );
        expect(other.status).toBe(200);
      }
    });
    const again = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(slow.length).toBeGreaterThan(5_000_000);
    expect(slow.equals(again)).toBe(true);
    expect(JSON.parse(slow.toString('utf8')).events).toHaveLength(50);
  });
});

describe('cached GET answers', () => {
  let server: TestServer;
  // The server's clock; every event below is dated from it, never from the real date.
  let now = Date.parse('2026-11-22T10:00:00Z');
  let editor: Record<string, string>;
  beforeAll(async () => {
    server = await startTestServer({ clock: () => new Date(now) });
    editor = await server.userHeaders('cache-editor', 'editor');
  });
  afterAll(() => server.close());

  const titles = async (auth?: Record<string, string>) =>
    (await server.api('events', { auth })).body.events.map((event: { title: string }) => event.title);

  it('serve the same bytes until something changes, then the new state', async () => {
    await server.api('events', { method: 'POST', auth: server.admin, json: eventBody('First', 2, {}, now) });
    const a = await server.api('events');
    const b = await server.api('events');
    expect(b.body).toEqual(a.body);
    expect(b.headers.get('X-WP-Total')).toBe('1');
    expect(b.headers.get('Content-Type')).toMatch(/^application\/json/);
    await server.api('events', { method: 'POST', auth: server.admin, json: eventBody('Second', 3, {}, now) });
    expect(await titles()).toEqual(['First', 'Second']);
  });

  it('are kept apart per caller: a draft shows for editors, never for the public', async () => {
    await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: eventBody('Draft', 4, { status: 'draft' }, now),
    });
    expect(await titles(editor)).toContain('Draft');
    expect(await titles()).not.toContain('Draft');
    expect(await titles(editor)).toContain('Draft');
  });

  it('follow the clock for time windows', async () => {
    const yesterdayEvent = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: { title: 'Soon past', start_date: '2026-11-22 12:00:00', end_date: '2026-11-22 13:00:00' },
    });
    expect(yesterdayEvent.status).toBe(201);
    expect(await titles()).toContain('Soon past');
    now += 3 * 86_400_000; // three days later the default window starts after it
    expect(await titles()).not.toContain('Soon past');
  });

  it('never let a HEAD answer stand in for a GET one', async () => {
    const created = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: eventBody('Headed', 5, {}, now),
    });
    const head = await fetch(`${server.base}events/${created.body.id}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    const get = await server.api(`events/${created.body.id}`);
    expect(get.body.json_ld).toBeDefined();
  });
});
