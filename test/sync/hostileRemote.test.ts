import type { ServerResponse } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
import { RemoteClient } from '../../src/main/sync/remoteClient';
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
