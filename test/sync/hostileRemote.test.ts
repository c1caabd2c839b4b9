import type { ServerResponse } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlibConstants, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, startTestServer, type TestServer } from '../helpers/server';
import {
  drip,
  passOn,
  startHostileProxy,
  streamInflated,
  type HostileProxy,
  type Hostility,
  type Upstream,
} from '../helpers/hostileProxy';
import { ensureBuilt, isolatedEnv, startServe, type ServeProcess } from '../cli/cliProcess';
import { RemoteClient, RemoteError } from '../../src/main/sync/remoteClient';
import type { SyncJobStatus } from '../../src/shared/schemas/sync';

/**
 * A remote that attacks the calendar syncing with it (issue 26): page counts of a billion, endless pages,
 * answers of a gigabyte, answers that drip a byte at a time. The remote is a real Calendar Desk behind a real
 * hostile proxy; the calendar attacked is `calendar-desk serve` in a child process, whose memory is read from
 * /proc.
 */
let home: string;
let env: NodeJS.ProcessEnv;
let remote: TestServer;
const proxies: HostileProxy[] = [];
const serves: ServeProcess[] = [];

beforeAll(async () => {
  await ensureBuilt();
  home = await mkdtemp(join(tmpdir(), 'calendar-desk-hostile-'));
  env = isolatedEnv(home);
  remote = await startTestServer();
  for (const title of ['Choir', 'Concert']) {
    const created = await remote.api('events', {
      method: 'POST',
      auth: remote.admin,
      json: eventBody(title, 3),
    });
    expect(created.status).toBe(201);
  }
}, 180_000);
afterAll(async () => {
  await remote.close();
  await rm(home, { recursive: true, force: true });
});
afterEach(async () => {
  for (const proxy of proxies.splice(0)) await proxy.close();
  for (const serve of serves.splice(0)) {
    if (serve.child.exitCode === null) serve.child.kill('SIGTERM');
    await serve.exited;
  }
});

const EVENTS = '/wp-json/cal/events/v1/events?';
/** A page of the event list the sync reads (not the verification's probe, which asks no page). */
const isEventList = (url: string) => url.startsWith(EVENTS) && /[?&]page=\d/.test(url);
const eventListRequests = (proxy: HostileProxy) => proxy.seen.filter((seen) => isEventList(seen.slice(4)));
const pageOf = (url: string) => Number(new URL(url, 'http://x').searchParams.get('page'));

async function hostile(hostility: Hostility): Promise<HostileProxy> {
  const proxy = await startHostileProxy(remote.engine.origin, hostility);
  proxies.push(proxy);
  return proxy;
}

/**
 * The remote as WordPress would be without a change feed (404, so the sync lists everything), with `lists`
 * answering the event list and everything else passed on.
 */
const withoutFeed =
  (
    lists: (
      url: string,
      response: ServerResponse,
      upstream: (path?: string) => Promise<Upstream>,
    ) => Promise<void>,
  ): Hostility =>
  async (request, response, upstream) => {
    if (request.url.startsWith('/wp-json/calendar-desk/v1/changes')) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ code: 'rest_no_route', message: 'No route', data: { status: 404 } }));
      return;
    }
    if (request.method === 'GET' && isEventList(request.url)) return lists(request.url, response, upstream);
    passOn(response, await upstream());
  };

/** A full page of 50 events made from the remote's first one, with ids of their own for each page. */
async function fabricatedPage(url: string, upstream: (path?: string) => Promise<Upstream>) {
  const page = pageOf(url);
  const answer = await upstream(url.replace(/([?&])page=\d+/, '$1page=1'));
  const body = JSON.parse(answer.body.toString()) as { events: Record<string, unknown>[] };
  const model = body.events[0]!;
  // Only the headers tell the totals (the body's would be the real site's).
  delete (body as Record<string, unknown>).total;
  delete (body as Record<string, unknown>).total_pages;
  body.events = Array.from({ length: 50 }, (_, index) => ({
    ...model,
    id: page * 1000 + index,
    slug: `copy-${page}-${index}`,
  }));
  return { answer, body: Buffer.from(JSON.stringify(body)) };
}

interface Local {
  serve: ServeProcess;
  /** The server's REST root, `http://127.0.0.1:PORT/wp-json/`. */
  root: string;
  admin(
    path: string,
    init?: { method?: string; json?: unknown },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are asserted field by field
  ): Promise<{ status: number; body: any }>;
}

async function startLocal(): Promise<Local> {
  const serve = await startServe(
    ['--port', '0', '--data', join(home, `data-${serves.length}-${Date.now()}`)],
    env,
  );
  serves.push(serve);
  const token = (await readFile(serve.tokenFile, 'utf8')).trim();
  // `serve` prints the events namespace's root.
  const root = serve.apiRoot.replace(/cal\/events\/v1\/?$/, '');
  return {
    serve,
    root,
    async admin(path, init = {}) {
      const response = await fetch(`${root}calendar-desk/v1/${path}`, {
        method: init.method ?? 'GET',
        headers: {
          Authorization: `Bearer ${token}`,
          ...(init.json !== undefined ? { 'Content-Type': 'application/json' } : {}),
        },
        body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
  };
}

async function startJob(local: Local, root: string): Promise<string> {
  const started = await local.admin('sync-jobs', {
    method: 'POST',
    json: { remote: root, namespace: 'cal/events/v1', auth: { token: remote.engine.adminToken } },
  });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  return started.body.id as string;
}

async function jobOf(local: Local, id: string): Promise<SyncJobStatus> {
  const answer = await local.admin(`sync-jobs/${id}`);
  expect(answer.status).toBe(200);
  return answer.body as SyncJobStatus;
}

async function finished(local: Local, id: string): Promise<SyncJobStatus> {
  for (;;) {
    const status = await jobOf(local, id);
    if (status.state !== 'running') return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function until(test: () => boolean): Promise<void> {
  while (!test()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** The server process' memory now and at its peak (VmRSS, VmHWM), in MiB. */
async function memoryOf(serve: ServeProcess): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${serve.child.pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)![1]) / 1024;
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

/** How long the server takes to answer a read of its events (it must answer 200). */
async function readTime(local: Local): Promise<number> {
  const started = performance.now();
  const answer = await fetch(`${local.root}cal/events/v1/events`);
  expect(answer.status).toBe(200);
  await answer.arrayBuffer();
  return performance.now() - started;
}

/** More memory than the attacks may cost the server: far below what the old reads took (1 GiB and more). */
const MEMORY_MARGIN_MIB = 200;

describe('a hostile remote does not take the calendar down (sync jobs of a server process)', () => {
  it('a billion pages claimed: the list is read as far as it has records; the sync completes', async () => {
    const local = await startLocal();
    const before = await memoryOf(local.serve);
    const proxy = await hostile(
      withoutFeed(async (url, response, upstream) =>
        passOn(response, await upstream(url), {
          'X-WP-TotalPages': '1000000000',
          'X-WP-Total': '50000000000',
        }),
      ),
    );
    const id = await startJob(local, proxy.root);
    const status = await finished(local, id);
    expect(status.state, JSON.stringify(status.error)).toBe('done');
    expect(status.report?.summary.imported).toBe(2);
    // One page held both events: nothing past it was asked for.
    expect(eventListRequests(proxy).map((seen) => pageOf(seen.slice(4)))).toEqual([1]);
    expect((await memoryOf(local.serve)).peak).toBeLessThan(before.peak + MEMORY_MARGIN_MIB);
  });

  it('endless full pages (10^8 claimed): the server answers meanwhile, and a cancel stops the job at once and frees it', async () => {
    const local = await startLocal();
    const before = await memoryOf(local.serve);
    const proxy = await hostile(
      withoutFeed(async (url, response, upstream) => {
        const { answer, body } = await fabricatedPage(url, upstream);
        passOn(response, answer, { 'X-WP-TotalPages': '100000000', 'X-WP-Total': '5000000000' }, body);
      }),
    );
    const id = await startJob(local, proxy.root);
    await until(() => eventListRequests(proxy).length >= 12);
    expect(await readTime(local)).toBeLessThan(1000);
    expect((await jobOf(local, id)).state).toBe('running');

    const cancelledAt = performance.now();
    expect((await local.admin(`sync-jobs/${id}/cancel`, { method: 'POST' })).status).toBe(200);
    const status = await finished(local, id);
    expect(performance.now() - cancelledAt).toBeLessThan(1000);
    expect(status.state).toBe('failed');
    expect(status.error).toMatchObject({ code: 'SYNC_CANCELLED', stoppedPartWay: false });
    expect(status.error?.message).toContain(proxy.host);
    // Stopped: no page is asked for any more.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const asked = eventListRequests(proxy).length;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(eventListRequests(proxy)).toHaveLength(asked);
    expect((await memoryOf(local.serve)).peak).toBeLessThan(before.peak + MEMORY_MARGIN_MIB);

    // The sync lock is free: the next sync starts (no 409) and completes.
    const next = await finished(local, await startJob(local, remote.engine.apiRoot));
    expect(next.state, JSON.stringify(next.error)).toBe('done');
  });

  it('an answer of a gigabyte is cut at 32 MiB, read once, and fails the job naming the remote', async () => {
    const local = await startLocal();
    const before = await memoryOf(local.serve);
    const sent: number[] = [];
    const proxy = await hostile(
      withoutFeed(async (_url, response) => {
        sent.push(await streamInflated(response, '{"events":[', 1024 ** 3));
      }),
    );
    const id = await startJob(local, proxy.root);
    const status = await finished(local, id);
    expect(status.state).toBe('failed');
    expect(status.error?.code).toBe('REMOTE_TOO_LARGE');
    expect(status.error?.message).toContain(proxy.host);
    expect(status.error?.message).toContain('32 MiB');
    // Not retried (a too-big answer is not transient), and abandoned near the limit, not read to its end.
    await until(() => sent.length === 1);
    expect(eventListRequests(proxy)).toHaveLength(1);
    expect(sent[0]).toBeLessThan(128 * 1024 ** 2);
    expect((await memoryOf(local.serve)).peak).toBeLessThan(before.peak + MEMORY_MARGIN_MIB);
    expect(await readTime(local)).toBeLessThan(1000);

    const next = await finished(local, await startJob(local, remote.engine.apiRoot));
    expect(next.state, JSON.stringify(next.error)).toBe('done');
  });

  it('an answer dripped a byte at a time: the server answers meanwhile, and a cancel stops the job at once', async () => {
    const local = await startLocal();
    const proxy = await hostile(withoutFeed(async (_url, response) => drip(response, '{"events":[', 100)));
    const id = await startJob(local, proxy.root);
    await until(() => eventListRequests(proxy).length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await readTime(local)).toBeLessThan(1000);
    expect((await jobOf(local, id)).state).toBe('running');

    const cancelledAt = performance.now();
    await local.admin(`sync-jobs/${id}/cancel`, { method: 'POST' });
    const status = await finished(local, id);
    expect(performance.now() - cancelledAt).toBeLessThan(1000);
    expect(status.error).toMatchObject({ code: 'SYNC_CANCELLED', stoppedPartWay: false });
    expect(status.error?.message).toContain(proxy.host);

    const next = await finished(local, await startJob(local, remote.engine.apiRoot));
    expect(next.state, JSON.stringify(next.error)).toBe('done');
  });
  it('a remote asking to wait a minute (503, Retry-After: 60): a cancel ends the wait at once', async () => {
    const local = await startLocal();
    const proxy = await hostile(
      withoutFeed(async (_url, response) => {
        response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '60' });
        response.end(JSON.stringify({ code: 'busy', message: 'Try later', data: { status: 503 } }));
      }),
    );
    const id = await startJob(local, proxy.root);
    await until(() => eventListRequests(proxy).length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await jobOf(local, id)).state).toBe('running');

    const cancelledAt = performance.now();
    await local.admin(`sync-jobs/${id}/cancel`, { method: 'POST' });
    const status = await finished(local, id);
    expect(performance.now() - cancelledAt).toBeLessThan(1000);
    expect(status.error).toMatchObject({ code: 'SYNC_CANCELLED', stoppedPartWay: false });
    expect(eventListRequests(proxy)).toHaveLength(1);
  });
});

describe('a remote that lies about its pages or sends too much (RemoteClient against the hostile remote)', () => {
  const client = (
    proxy: HostileProxy,
    options: Partial<ConstructorParameters<typeof RemoteClient>[0]> = {},
  ) =>
    new RemoteClient({
      root: proxy.root,
      namespace: 'cal/events/v1',
      auth: { token: remote.engine.adminToken },
      backoffMs: 1,
      ...options,
    });

  it('walks full pages until a short one, never past X-WP-Total, whatever X-WP-TotalPages claims', async () => {
    // Pages 1-3 full, page 4 short: the list ends there.
    const short = await hostile(async (request, response, upstream) => {
      const { answer, body } = await fabricatedPage(request.url, upstream);
      const events = (JSON.parse(body.toString()) as { events: unknown[] }).events;
      const page = pageOf(request.url);
      const served = page <= 3 ? events : page === 4 ? events.slice(0, 7) : [];
      passOn(
        response,
        answer,
        { 'X-WP-TotalPages': '1000000000', 'X-WP-Total': null },
        Buffer.from(JSON.stringify({ events: served })),
      );
    });
    expect(await client(short).list('event')).toHaveLength(157);
    // Read 4 at a time: pages 2-5 together, nothing after the short page 4.
    expect(Math.max(...eventListRequests(short).map((seen) => pageOf(seen.slice(4))))).toBe(5);

    // Endless full pages, but 120 events said in X-WP-Total: 3 pages.
    const endless = await hostile(async (request, response, upstream) => {
      const { answer, body } = await fabricatedPage(request.url, upstream);
      passOn(response, answer, { 'X-WP-TotalPages': '1000000000', 'X-WP-Total': '120' }, body);
    });
    expect(await client(endless).list('event')).toHaveLength(150);
    expect(eventListRequests(endless)).toHaveLength(3);
  });

  it('refuses a list still full at the ceiling, and one that repeats its pages, naming the remote', async () => {
    const endless = await hostile(async (request, response, upstream) => {
      const { answer, body } = await fabricatedPage(request.url, upstream);
      passOn(response, answer, { 'X-WP-TotalPages': '100000000', 'X-WP-Total': null }, body);
    });
    const tooMany = await client(endless, { maxListPages: 10 })
      .list('event')
      .catch((error: unknown) => error);
    expect(tooMany).toBeInstanceOf(RemoteError);
    expect(tooMany).toMatchObject({ code: 'REMOTE_TOO_LARGE' });
    expect((tooMany as Error).message).toContain(
      `${endless.root}cal/events/v1/events lists more than 500 events`,
    );
    expect(eventListRequests(endless)).toHaveLength(10);

    // Every page is page 1 (the remote ignores `page`): refused at page 2 instead of read to the ceiling.
    const repeating = await hostile(async (request, response, upstream) => {
      const { answer, body } = await fabricatedPage(
        request.url.replace(/([?&])page=\d+/, '$1page=1'),
        upstream,
      );
      passOn(response, answer, { 'X-WP-TotalPages': '100000000', 'X-WP-Total': null }, body);
    });
    const repeated = await client(repeating)
      .list('event')
      .catch((error: unknown) => error);
    expect(repeated).toMatchObject({ code: 'REMOTE_NOT_THIS_API' });
    expect((repeated as Error).message).toContain(`${repeating.root}cal/events/v1/events answered page 2`);
  });

  it('an answer still dripping at the deadline is abandoned (then retried as a slow site), naming the address', async () => {
    const proxy = await hostile(async (_request, response) => drip(response, '{"events":[', 100));
    const error = await client(proxy, { timeoutMs: 2000, attempts: 2 })
      .list('event')
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'REMOTE_UNREACHABLE', data: { network: 'TIMEOUT' } });
    expect((error as Error).message).toMatch(
      new RegExp(`^${proxy.root}cal/events/v1/events\\?.* did not finish its answer within 2 seconds`),
    );
    expect(eventListRequests(proxy)).toHaveLength(2);
  });

  it('a compressed answer is measured by what it decodes to: 40 MiB in some 40 KiB is refused at 32 MiB', async () => {
    // A page of events that is mostly spaces: valid JSON, 40 MiB once decoded, a few KiB on the wire.
    const decoded = Buffer.concat([
      Buffer.from('{"events":['),
      Buffer.alloc(40 * 1024 ** 2, 0x20),
      Buffer.from(']}'),
    ]);
    const codings: Array<[string, Buffer]> = [
      ['gzip', gzipSync(decoded)],
      ['deflate', deflateSync(decoded)],
      ['br', brotliCompressSync(decoded, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1 } })],
      ['gzip, gzip', gzipSync(gzipSync(decoded))],
    ];
    for (const [coding, body] of codings) {
      expect(body.length).toBeLessThan(256 * 1024);
      const proxy = await hostile(async (request, response, upstream) => {
        if (!isEventList(request.url)) return passOn(response, await upstream());
        response.writeHead(200, {
          'content-type': 'application/json',
          'content-encoding': coding,
          'content-length': String(body.length),
        });
        response.end(body);
      });
      const error = await client(proxy, { attempts: 3 })
        .list('event')
        .catch((caught: unknown) => caught);
      expect(error, coding).toMatchObject({ code: 'REMOTE_TOO_LARGE', status: 200 });
      expect((error as Error).message).toContain(proxy.host);
      expect((error as Error).message).toContain('32 MiB');
      expect(eventListRequests(proxy), coding).toHaveLength(1);
    }
  });

  it('an answer declaring more than 32 MiB is refused before it is read, and not asked again', async () => {
    const proxy = await hostile(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(1024 ** 3) });
      response.write('{"events":[');
    });
    const error = await client(proxy, { attempts: 5 })
      .list('event')
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'REMOTE_TOO_LARGE', status: 200 });
    expect((error as Error).message).toContain(proxy.host);
    expect(eventListRequests(proxy)).toHaveLength(1);
  });
});
