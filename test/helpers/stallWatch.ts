import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, isolatedEnv, startServe, type ServeProcess } from '../cli/cliProcess';

/*
 * The server's longest stall, measured from outside (issue 26 item 3): the server runs as `calendar-desk serve`
 * in a child process, and a client asks it for a page every few milliseconds while the work under test runs.
 * A request sent while the server's event loop is held waits until it is free again, so the slowest answer is
 * (within the pause between two requests) the longest time the server did not answer anyone.
 */

/** `calendar-desk serve` in a child process over a fresh data folder, with the admin's token. */
export interface ServedCalendar {
  origin: string;
  dataDir: string;
  token: string;
  /** The `serve` process (a benchmark reads what it prints). */
  child: ServeProcess['child'];
  /** fetch of a path under the origin (`wp-json/…`), as the admin, JSON in and out. */
  admin(path: string, init?: { method?: string; json?: unknown }): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies are asserted field by field
  close(): Promise<void>;
}

/** Starts the built CLI's `serve` (building it first when its sources are newer). */
export async function startServedCalendar(nodeArgs: string[] = []): Promise<ServedCalendar> {
  await ensureBuilt();
  const home = await mkdtemp(join(tmpdir(), 'calendar-desk-stalls-'));
  const dataDir = join(home, 'data');
  const serve: ServeProcess = await startServe(
    ['--port', '0', '--data', dataDir],
    isolatedEnv(home),
    nodeArgs,
  );
  const token = (await readFile(serve.tokenFile, 'utf8')).trim();
  const origin = new URL(serve.apiRoot).origin;
  return {
    origin,
    dataDir,
    token,
    child: serve.child,
    async admin(path, init = {}) {
      const response = await fetch(`${origin}/${path}`, {
        method: init.method ?? 'GET',
        headers: {
          Authorization: `Bearer ${token}`,
          ...(init.json !== undefined ? { 'Content-Type': 'application/json' } : {}),
        },
        body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
      });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        /* not JSON: keep the text */
      }
      return { status: response.status, body };
    },
    async close() {
      if (serve.child.exitCode === null) serve.child.kill('SIGTERM');
      await serve.exited;
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** What a watch saw: the slowest answer, how many answers came, and any that failed. */
export interface StallReport {
  /** The slowest answer, in ms: at least the longest time the server answered nobody, less `everyMs`. */
  longestMs: number;
  answers: number;
  failures: string[];
  /**
   * The `X-WP-Total` of each answer that came while the work under watch ran (NaN where the answer has none),
   * in order: how many answers the server gave meanwhile, and what a list showed at each.
   */
  meanwhile: number[];
}

export interface StallWatch {
  stop(): Promise<StallReport>;
}

/**
 * Asks `url` (a GET) again `everyMs` after each answer until stopped: the slowest answer is the server's
 * longest stall meanwhile (from the client's side). Each request is sent once the one before is answered, so
 * a server held for the whole of some work answers at most one of them while it runs (`working`).
 */
export function watchStalls(
  url: string,
  everyMs = 10,
  headers: Record<string, string> = {},
  working: () => boolean = () => false,
): StallWatch {
  let stopped = false;
  const report: StallReport = { longestMs: 0, answers: 0, failures: [], meanwhile: [] };
  const loop = (async () => {
    while (!stopped) {
      const sent = performance.now();
      try {
        const response = await fetch(url, { headers });
        await response.arrayBuffer();
        if (working()) report.meanwhile.push(Number(response.headers.get('X-WP-Total') ?? NaN));
        if (response.status >= 500) report.failures.push(`${response.status}`);
      } catch (error) {
        report.failures.push((error as Error).message);
      }
      report.longestMs = Math.max(report.longestMs, performance.now() - sent);
      report.answers++;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return report;
    },
  };
}

/**
 * The two questions a watch asks a served calendar: `loop`, a path no route answers (a 404 made by the event
 * loop alone, no disk), whose slowest answer is the longest stall; `read`, one event of the calendar (its
 * `X-WP-Total` counts the published events of any date), which also waits until every change it may show is
 * on disk (so the disk's pace adds to it).
 */
export const watchedUrls = (origin: string) => ({
  loop: `${origin}/wp-json/calendar-desk/v1/no-such-route`,
  read: `${origin}/wp-json/cal/events/v1/events?per_page=1&start_date=2000-01-01&end_date=2100-01-01`,
});

/**
 * Runs `work` while the served calendar at `origin` is watched: its result and both reports (`meanwhile`: the
 * answers that came while the work ran).
 */
export async function whileWatching<T>(
  origin: string,
  work: () => Promise<T>,
): Promise<{ result: T; loop: StallReport; read: StallReport }> {
  const urls = watchedUrls(origin);
  let working = false;
  const loop = watchStalls(urls.loop, 10, {}, () => working);
  const read = watchStalls(urls.read, 10, {}, () => working);
  // A first answer before the work starts: the watches are running.
  await new Promise((resolve) => setTimeout(resolve, 30));
  working = true;
  try {
    const result = await work().finally(() => (working = false));
    return { result, loop: await loop.stop(), read: await read.stop() };
  } catch (error) {
    await Promise.all([loop.stop(), read.stop()]);
    throw error;
  }
}

/**
 * The counts a list showed while some work ran that lay strictly between the counts before and after it: the
 * work's state part-way, as readers saw it between its store changes. A server held for the whole work (one
 * store change) shows none.
 */
export function partWayCounts(meanwhile: number[], before: number, after: number): number[] {
  const [low, high] = before < after ? [before, after] : [after, before];
  return [...new Set(meanwhile.filter((count) => count > low && count < high))];
}
