import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Adapter } from 'lowdb';
import { CalendarStore } from './store/store';
import type { DataFile } from './store/schema';
import { ADMIN_LOGIN, ADMIN_TOKEN_FILE, ensureAdminAccess } from './core/users';
import { SignInSessions } from './server/signInSessions';
import { createApp } from './server/app';
import { preloadWritePath } from './server/preload';
import { setAsideOrphanedUploads } from './core/media';
import type { SecretBox } from './sync/secretBox';
import { isValidTimezone } from './core/dates/zones';
import type { NewCalendarCurrency } from './core/machineLocale';
import { extendAllSeries } from './core/recurrence/series';

/** How often repeating events without an end are extended to the horizon while the server runs. */
const SERIES_EXTENSION_INTERVAL_MS = 6 * 60 * 60 * 1000;
import { FeedSecret } from './core/feeds/secret';
import type { FetchLimits } from './exchange/calendarFetch';
import { addressChangeNotice, DEFAULT_PORT, readLastPort, recordLastPort } from './lastPort';

// The strtotime port computes on the process clock; pinning it to UTC makes time zones explicit everywhere.
process.env.TZ = 'UTC';

export interface EngineOptions {
  dataDir: string;
  /**
   * Exactly this port (0 picks a free one). Omitted: the port this data folder last served on (else 8787),
   * or a free one when that is taken; the engine then says the address changed (see `addressNotice`).
   */
  port?: number;
  host?: string;
  /** Site time zone of a brand-new data folder. */
  timezone?: string;
  /** Default currency of a brand-new data folder (see core/machineLocale); absent: the original's `$` USD. */
  currency?: NewCalendarCurrency;
  /** The built renderer, served at `/`. */
  rendererDir?: string;
  clock?: () => Date;
  log?: (message: string) => void;
  /**
   * Seals the secrets of saved sync remotes. The desktop shell passes one backed by Electron's safeStorage;
   * default: AES-GCM with a key file (mode 0600) in the data folder.
   */
  secretBox?: SecretBox;
  /** Replaces the data file's adapter (tests make writes fail through it). */
  storeAdapter?: Adapter<DataFile>;
  /** Time and size limits of fetching an import address (default 30 s, 20 MiB; tests shorten them). */
  importFetchLimits?: FetchLimits;
}

export interface Engine {
  store: CalendarStore;
  port: number;
  /** `http://127.0.0.1:8787` */
  origin: string;
  /** `http://127.0.0.1:8787/wp-json/` */
  apiRoot: string;
  adminToken: string;
  adminTokenFile: string;
  /** What happened to the data on this start that the user should know (a restored backup, a migration). */
  notices: string[];
  /** Settles once the repeating events were extended to the horizon after this start (how many events were made). */
  seriesExtended: Promise<number>;
  /** Said when the address is not the one of the last start (subscribed calendar apps must be told). */
  addressNotice: string | null;
  /** The secret of the calendar feeds' addresses (undefined when its file could not be read or written). */
  feedSecret?: FeedSecret;
  /**
   * A fresh sign-in link for the admin: `http://127.0.0.1:8787/#/signin?code=…`, whose one-time code is
   * valid once, for five minutes. What `serve` prints; the permanent token never goes into an address.
   */
  signInLink(): string;
  close(): Promise<void>;
}

export class EngineError extends Error {
  constructor(
    readonly code: 'PORT_IN_USE' | 'NOT_LOOPBACK' | 'BAD_TIMEZONE' | 'LISTEN_FAILED',
    message: string,
  ) {
    super(message);
  }
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|localhost)$/;

/** Opens the data folder, makes sure the admin can get in, and serves the API on loopback. */
export async function startEngine(options: EngineOptions): Promise<Engine> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.test(host)) {
    throw new EngineError(
      'NOT_LOOPBACK',
      `Refusing to listen on ${host}: the API only binds to loopback (127.0.0.1, ::1).`,
    );
  }
  const timezone = options.timezone ?? 'UTC';
  if (!isValidTimezone(timezone)) {
    throw new EngineError(
      'BAD_TIMEZONE',
      `"${timezone}" is not a time zone: use an IANA name such as Europe/Rome, or UTC.`,
    );
  }
  const clock = options.clock ?? (() => new Date());
  const store = await CalendarStore.open({
    dataDir: options.dataDir,
    adapter: options.storeAdapter,
    initialSettings: {
      siteName: 'Calendar Desk',
      siteDescription: 'Events planned offline',
      timezone,
      postsPerPage: 10,
      ...options.currency,
    },
  });
  let server: Server | undefined;
  let extension: NodeJS.Timeout | undefined;
  let closing = false;
  let addressNotice: string | null = null;
  try {
    const adminToken = await ensureAdminAccess(store, clock);
    const feedSecret = await openFeedSecret(options.dataDir, clock, options.log);
    // Time passed since the last start: series without an end reach the horizon again, in the background from
    // the start on and every few hours.
    const extendSeries = () =>
      extendAllSeries(store, clock).catch((error: Error) => {
        if (!store.readOnly && !closing)
          console.error(`calendar-desk: could not extend the repeating events: ${error.message}`);
        return 0;
      });
    extension = setInterval(() => void extendSeries(), SERIES_EXTENSION_INTERVAL_MS);
    extension.unref();
    const sessions = new SignInSessions(() => clock().getTime());
    const app = createApp({
      sessions,
      store,
      clock,
      config: { rendererDir: options.rendererDir },
      log: options.log,
      secretBox: options.secretBox,
      feedSecret,
      addressNotice: () => addressNotice,
      importFetchLimits: options.importFetchLimits,
    });
    // Before serving, while no upload can be under way. Not after a start that restored a backup or skipped
    // damaged changes: records may still name pictures whose media record is what was lost.
    if (store.notices.length === 0 && !store.readOnly) {
      await setAsideOrphanedUploads(store).catch((error: Error) =>
        console.error(`calendar-desk: could not tidy the media folder: ${error.message}`),
      );
    }
    // After the tidy above, which a notice of the data would hold back: the feeds' own file has nothing to do with it.
    if (feedSecret?.notice) store.notices.push(feedSecret.notice);
    const handle = app.callback();
    // Koa answers a failed request itself (ctx.onerror), so the promise of each request is not awaited.
    const handler = (request: IncomingMessage, response: ServerResponse) => void handle(request, response);
    const lastPort = await readLastPort(options.dataDir);
    let portTaken = false;
    if (options.port !== undefined) server = await listen(handler, options.port, host);
    else {
      // The address calendar apps subscribed to stays the same unless another program took the port.
      server = await listen(handler, lastPort ?? DEFAULT_PORT, host).catch(async (error: unknown) => {
        if (!(error instanceof EngineError && error.code === 'PORT_IN_USE')) throw error;
        portTaken = true;
        return listen(handler, 0, host);
      });
    }
    const port = (server.address() as AddressInfo).port;
    const hostInUrl = host.includes(':') ? `[${host}]` : host;
    const origin = `http://${hostInUrl}:${port}`;
    await store.folderLock?.setApiRoot(`${origin}/wp-json/`);
    addressNotice = addressChangeNotice(hostInUrl, lastPort, port, portTaken);
    if (addressNotice) options.log?.(addressNotice);
    if (lastPort !== port && !store.readOnly)
      await recordLastPort(options.dataDir, port).catch((error: Error) =>
        console.error(`calendar-desk: could not record the port for the next start: ${error.message}`),
      );
    // Serving and announced: what the default listing does not need is indexed between requests once the
    // first client was answered (or nobody asked for a moment): not while the address is being recorded, nor
    // while the first request is on its way, which would wait for a slice of it. The series are extended
    // after that: extending one reads the index of occurrences by series, which would otherwise be built at
    // once, in one piece, while the first requests wait.
    const seriesExtended = firstAnswerOrQuiet(server, QUIET_BEFORE_BACKGROUND_MS)
      .then(() => store.completeIndexesSoon())
      .then(extendSeries);
    // Then what only writes need is loaded while nothing waits for it (see preloadWritePath).
    void seriesExtended.then(() =>
      closing
        ? undefined
        : preloadWritePath().catch((error: Error) =>
            console.error(`calendar-desk: could not load the modules writes need: ${error.message}`),
          ),
    );
    const running = server;
    return {
      store,
      port,
      origin,
      apiRoot: `${origin}/wp-json/`,
      adminToken,
      adminTokenFile: join(options.dataDir, ADMIN_TOKEN_FILE),
      notices: store.notices,
      seriesExtended,
      addressNotice,
      feedSecret,
      signInLink() {
        const admin = store.users.getByKey(ADMIN_LOGIN);
        if (!admin) throw new Error('The admin user is missing.');
        return `${origin}/#/signin?code=${sessions.issueCode(admin.id).code}`;
      },
      async close() {
        closing = true;
        clearInterval(extension);
        await new Promise<void>((resolve) => {
          running.close(() => resolve());
          running.closeAllConnections();
        });
        await store.close();
      },
    };
  } catch (error) {
    clearInterval(extension);
    server?.close();
    await store.close();
    throw error;
  }
}

/** The feeds' secret; a folder where it cannot be kept (read-only disk, damaged file) serves no feed. */
async function openFeedSecret(
  dataDir: string,
  clock: () => Date,
  log?: (message: string) => void,
): Promise<FeedSecret | undefined> {
  try {
    return await FeedSecret.open(dataDir, clock());
  } catch (error) {
    const message = `Calendar feeds are off: ${(error as Error).message}`;
    if (log) log(message);
    else console.error(`calendar-desk: ${message}`);
    return undefined;
  }
}

/** How long a start waits for its first request before it reads and indexes the rest in the background. */
const QUIET_BEFORE_BACKGROUND_MS = 300;

/** Resolves once `server` finished its first answer, or `quietMs` passed without one. */
function firstAnswerOrQuiet(server: Server, quietMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, quietMs).unref();
    server.once('request', (_request: IncomingMessage, response: ServerResponse) =>
      response.once('close', () => {
        clearTimeout(timer);
        resolve();
      }),
    );
  });
}

async function listen(
  handler: Parameters<typeof import('node:http').createServer>[1],
  port: number,
  host: string,
): Promise<Server> {
  const { createServer } = await import('node:http');
  const server = createServer({ requestTimeout: 30_000, requireHostHeader: false }, handler);
  // Enough for a page of 50 events; bigger bodies are refused by the body parser anyway.
  server.maxHeadersCount = 100;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(
          new EngineError(
            'PORT_IN_USE',
            `Port ${port} on ${host} is already in use. Pick another with --port, or stop what uses it.`,
          ),
        );
      } else
        reject(new EngineError('LISTEN_FAILED', `Could not listen on ${host}:${port}: ${error.message}`));
    });
    server.listen(port, host, () => resolve());
  });
  return server;
}
