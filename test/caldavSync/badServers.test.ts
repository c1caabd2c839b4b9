import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventBody, startTestServer, type TestServer } from '../helpers/server';
import { startRadicaleCalendar, type CaldavServer } from '../helpers/caldavServers';
import { startProxy, type ProxyVerdict } from '../helpers/droppingProxy';
import { DavCalendar } from '../../src/main/caldavSync/davCalendar';
import { eventsOf, phone, phoneEvent, syncWith } from './helpers';

/**
 * A CalDAV server that misbehaves, in front of a real Radicale: unreadable events, refused writes (403, 507),
 * an outage part-way, lost answers, redirects elsewhere, endless and oversized answers. Each is reported per
 * event in plain words, the rest goes on, nothing local is lost, and no event is ever sent twice.
 */
let server: CaldavServer;
let laptop: TestServer;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  server = await startRadicaleCalendar();
}, 60_000);
afterAll(() => server?.stop());
beforeEach(async () => {
  laptop = await startTestServer();
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await laptop.close();
});

/** The calendar's address through a proxy that applies `misbehave` to each request. */
async function throughProxy(
  misbehave: (method: string, url: string) => ProxyVerdict,
  before?: (method: string, url: string) => Promise<void>,
): Promise<string> {
  const proxy = await startProxy(server.url, misbehave, before);
  closers.push(() => proxy.close());
  return new URL(new URL(server.calendarUrl).pathname, proxy.root).toString();
}

/** A small HTTP server of the test's own; its address. */
async function tinyServer(
  handler: (
    incoming: import('node:http').IncomingMessage,
    outgoing: import('node:http').ServerResponse,
  ) => void,
) {
  const tiny: Server = createServer(handler);
  await new Promise<void>((resolve) => tiny.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        tiny.closeAllConnections();
        tiny.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(tiny.address() as AddressInfo).port}`;
}

const titlesThere = async () => ((await phone(server, 'sync-start')).summaries as string[]).sort();

async function addEvents(titles: string[]) {
  for (const title of titles)
    expect(
      (await laptop.api('events', { method: 'POST', auth: laptop.admin, json: eventBody(title, 7) })).status,
    ).toBe(201);
}

describe('a CalDAV server that misbehaves', () => {
  it('an event the server holds as malformed iCalendar fails in its words; the others arrive', async () => {
    for (const title of ['Broken on the server', 'Fine on the server']) await phoneEvent(server, title, 9);
    // A proxy that breaks one event's data in every answer that carries it.
    const proxy = await tinyServer((incoming, outgoing) => {
      const target = new URL(server.url);
      const forward = request(
        {
          host: target.hostname,
          port: target.port,
          method: incoming.method,
          path: incoming.url,
          headers: { ...incoming.headers, host: target.host, 'accept-encoding': 'identity' },
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => {
            const body = Buffer.concat(chunks)
              .toString('utf8')
              .replace(
                'SUMMARY:Broken on the server',
                'SUMMARY:Broken on the server\nTHIS LINE IS NOT ICALENDAR',
              );
            const headers: IncomingHttpHeaders = { ...answer.headers };
            delete headers['content-length'];
            delete headers['transfer-encoding'];
            outgoing.writeHead(answer.statusCode ?? 502, headers);
            outgoing.end(body);
          });
        },
      );
      incoming.pipe(forward);
    });
    const root = new URL(new URL(server.calendarUrl).pathname, proxy).toString();
    const report = await syncWith(laptop, server, { root });
    expect(report.summary).toMatchObject({ imported: 1, failed: 1 });
    expect(report.failures).toHaveLength(1);
    expect(report.failures[0]!.message).toMatch(
      /not valid iCalendar \(.+\): it is left as it is, there and here/,
    );
    expect((await eventsOf(laptop)).map((event) => event.title)).toEqual(['Fine on the server']);
    // Read again next time (the sync's place is not moved past it), and still nothing is doubled.
    const again = await syncWith(laptop, server, { root });
    expect(again.failures).toHaveLength(1);
    expect(again.summary.imported).toBe(0);
  });

  it('a server that refuses a PUT (403, 507 quota) is told per event in plain words; nothing here is lost', async () => {
    const laptop2 = await startTestServer();
    closers.push(() => laptop2.close());
    laptop = laptop2;
    await addEvents(['Refused gala', 'Quota gala', 'Plain gala']);
    const events = await eventsOf(laptop);
    const uidOf = async (id: number) =>
      (await laptop.api(`events/${id}`, { auth: laptop.admin })).body.uid as string;
    const refused = await uidOf(events.find((e) => e.title === 'Refused gala')!.id);
    const quota = await uidOf(events.find((e) => e.title === 'Quota gala')!.id);
    const root = await throughProxy((method, url) =>
      method === 'PUT' && url.includes(refused)
        ? { status: 403 }
        : method === 'PUT' && url.includes(quota)
          ? { status: 507 }
          : null,
    );
    const report = await syncWith(laptop, server, { root });
    expect(report.summary).toMatchObject({ created: 1, failed: 2 });
    const said = Object.fromEntries(report.failures.map((failure) => [failure.title, failure.message]));
    expect(said['Refused gala']).toMatch(/refused storing the event \(HTTP 403\)/);
    expect(said['Quota gala']).toMatch(/no room left for this account \(HTTP 507, quota\).*kept here/);
    const galas = (await eventsOf(laptop))
      .map((event) => event.title)
      .filter((title) => title.endsWith('gala'));
    expect(galas.sort()).toEqual(['Plain gala', 'Quota gala', 'Refused gala']);
    // Once the server takes them, they go, each once.
    expect((await syncWith(laptop, server)).summary).toMatchObject({ created: 2, failed: 0 });
    expect((await titlesThere()).filter((title) => title.endsWith('gala'))).toEqual([
      'Plain gala',
      'Quota gala',
      'Refused gala',
    ]);
  });

  it('a server that stops part-way, then 20% lost answers: the calendars converge with no event twice', async () => {
    const titles = Array.from({ length: 12 }, (_, index) => `Outage test ${String(index).padStart(2, '0')}`);
    await addEvents(titles);
    let puts = 0;
    const stopping = await throughProxy((method) =>
      method === 'PUT' && ++puts > 4 ? { status: 502 } : null,
    );
    const stopped = await syncWith(laptop, server, { root: stopping, attempts: 2 }).catch(
      (error: Error) => error,
    );
    if (!(stopped instanceof Error)) expect(stopped.summary.failed).toBeGreaterThan(0);

    let requests = 0;
    // Every 5th answer is lost after the server did the work (the connection cut before the answer).
    const lossy = await throughProxy(() => (++requests % 5 === 0 ? 'drop' : null));
    for (let run = 0; run < 8; run++) {
      const report = await syncWith(laptop, server, { root: lossy, attempts: 3 }).catch(() => null);
      if (report && report.failures.length === 0 && report.operations.length === 0) break;
    }
    const direct = await syncWith(laptop, server);
    expect(direct.failures).toEqual([]);
    expect((await syncWith(laptop, server)).operations).toEqual([]);
    const there = (await titlesThere()).filter((title) => title.startsWith('Outage test'));
    expect(there).toEqual(titles);
    expect((await eventsOf(laptop)).filter((event) => event.title.startsWith('Outage test'))).toHaveLength(
      12,
    );
  });

  it('an event changed on the server while we write it is a 412, read again and merged, never overwritten', async () => {
    let armed = false;
    let uid = '';
    const root = await throughProxy(
      () => null,
      async (method) => {
        // Just before our write arrives, a phone renames the event on the server.
        if (method === 'PUT' && armed) {
          armed = false;
          await phone(server, 'edit', uid, 'Race night (renamed on a phone)');
        }
      },
    );
    const made = await laptop.api('events', {
      method: 'POST',
      auth: laptop.admin,
      json: eventBody('Race night', 5),
    });
    expect((await syncWith(laptop, server, { root })).summary).toMatchObject({ created: 1 });
    // The resource's UID, as the server holds it.
    const dav = new DavCalendar(server.calendarUrl, {
      auth: { user: server.login, password: server.password },
    });
    const texts = await dav.multiget([...(await dav.etags()).keys()]);
    const race = [...texts.values()].find((one) => 'text' in one && one.text.includes('SUMMARY:Race night'));
    uid = /UID:([^\r\n]+)/.exec(race && 'text' in race ? race.text : '')![1]!;
    await laptop.api(`events/${made.body.id}`, {
      method: 'POST',
      auth: laptop.admin,
      json: { description: 'Written here' },
    });
    armed = true;
    const report = await syncWith(laptop, server, { root });
    expect(armed).toBe(false);
    expect(report.failures).toEqual([]);
    expect(report.conflicts).toEqual([]);
    const there = String((await phone(server, 'get', uid)).data);
    expect(there).toContain('Race night (renamed on a phone)');
    expect(there).toContain('Written here');
    const here = (await laptop.api(`events/${made.body.id}`, { auth: laptop.admin })).body;
    expect(here).toMatchObject({ title: 'Race night (renamed on a phone)' });
    expect(here.description).toContain('Written here');
    expect((await syncWith(laptop, server, { root })).operations).toEqual([]);
  });

  it('a server failing every REPORT (500) is still synced: listed by PROPFIND, read one GET at a time', async () => {
    await phoneEvent(server, 'Read by GET', 12);
    let reports = 0;
    const root = await throughProxy((method) => (method === 'REPORT' && ++reports ? { status: 500 } : null));
    await addEvents(['Sent past a failing REPORT']);
    const first = await syncWith(laptop, server, { root });
    expect(first.failures).toEqual([]);
    expect(first.summary.created).toBe(1);
    expect((await eventsOf(laptop)).map((event) => event.title)).toContain('Read by GET');
    expect(reports).toBeGreaterThan(0);
    expect((await syncWith(laptop, server, { root })).failures).toEqual([]);
    expect((await syncWith(laptop, server, { root })).operations).toEqual([]);
  });

  it('credentials never follow a redirect to another server', async () => {
    const seenElsewhere: Array<string | undefined> = [];
    const elsewhere = await tinyServer((incoming, outgoing) => {
      seenElsewhere.push(incoming.headers.authorization);
      outgoing.writeHead(404).end();
    });
    const seenHere: Array<string | undefined> = [];
    const redirector = await tinyServer((incoming, outgoing) => {
      seenHere.push(incoming.headers.authorization);
      outgoing.writeHead(307, { Location: `${elsewhere}/calendars/team/` }).end();
    });
    const dav = new DavCalendar(`${redirector}/calendars/team/`, {
      auth: { user: 'team', password: 'secret-of-the-team' },
      attempts: 1,
    });
    await expect(dav.state()).rejects.toThrow(/HTTP 404/);
    expect(seenHere[0]).toMatch(/^Basic /);
    expect(seenElsewhere).toEqual([undefined]);
  });

  it('an endless answer and an oversized one stop with words, not a hang or a heap', async () => {
    const silent = await tinyServer(() => {
      /* never answers */
    });
    const slow = new DavCalendar(`${silent}/cal/`, { auth: null, attempts: 1, timeoutMs: 500 });
    await expect(slow.state()).rejects.toThrow(/did not finish its answer within 1 seconds|could not reach/i);
    const huge = await tinyServer((_incoming, outgoing) => {
      outgoing.writeHead(207, {
        'Content-Type': 'application/xml',
        'Content-Length': String(400 * 1024 * 1024),
      });
      outgoing.write('<d:multistatus xmlns:d="DAV:">');
    });
    const big = new DavCalendar(`${huge}/cal/`, { auth: null, attempts: 1 });
    await expect(big.state()).rejects.toThrow(/more than 32 MiB.*not read/);
  });
});
