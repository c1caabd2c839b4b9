import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe } from 'vitest';
import { onFreePort } from './ports';

/**
 * The real original: WordPress + The Events Calendar, started by `../shared/peer/wordpress-peer.sh` beside the
 * clone (see its README). Each test file starts its own site in its own folder, on its own port, and stops it.
 */
export const PEER_SCRIPT = fileURLToPath(new URL('../../../shared/peer/wordpress-peer.sh', import.meta.url));
export const PEER_AVAILABLE = existsSync(PEER_SCRIPT);
export const PEER_ABSENT_REASON = `the real WordPress site is not here: ${PEER_SCRIPT} is missing (it lives in ../shared/peer beside the clone)`;

/** Starting a fresh site: ~5 s once Debian's packages are installed, 1-2 min the very first time. */
export const PEER_START_TIMEOUT_MS = 300_000;

const run = promisify(execFile);

export interface WordPressPeer {
  /** `http://127.0.0.1:PORT/wp-json/` */
  root: string;
  site: string;
  port: number;
  dir: string;
  /** The administrator's `Authorization` header value (an application password). */
  adminAuth: string;
  admin: { user: string; password: string };
  /** fetch relative to the REST root (`tribe/events/v1/events?x=1`), JSON in and out, as the admin by default. */
  api(path: string, init?: PeerRequest): Promise<PeerResult>;
  /** A new user of the role with an application password, ready for Basic auth. */
  createUser(login: string, role: string): Promise<{ user: string; password: string; auth: string }>;
  /** Runs SQL on the site's database (tab-separated answer): to leave what a PHP killed part-way leaves. */
  sql(query: string): Promise<string>;
  /** Kills php-fpm (nginx stays up and answers 502 with its HTML error page, as a site whose PHP died). */
  stopPhp(): Promise<void>;
  /** Runs the peer script again on the same folder and port: starts what is not running (php-fpm). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface PeerRequest extends Omit<RequestInit, 'body'> {
  json?: unknown;
  body?: RequestInit['body'];
  /** `Authorization` value; `null` for an anonymous request. Default: the administrator. */
  auth?: string | null;
}

export interface PeerResult {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the site's answers are asserted field by field
  body: any;
}

/** Starts a new, empty site (its own database, files and port; another port when nginx found it taken). */
export async function startWordPressPeer(options: { timezone?: string } = {}): Promise<WordPressPeer> {
  if (!PEER_AVAILABLE) throw new Error(PEER_ABSENT_REASON);
  return onFreePort(
    (port) => startPeerOnce(options, port),
    (error) => /Address already in use/.test(error.message),
  );
}

async function startPeerOnce(options: { timezone?: string }, port: number): Promise<WordPressPeer> {
  // Under /tmp, reachable by the mysql and www-data users (mkdtemp makes it private: open it up).
  const dir = await mkdtemp('/tmp/calendar-desk-peer-');
  await chmod(dir, 0o755);
  const env = { ...process.env, PEER_DIR: dir, WP_TIMEZONE: options.timezone ?? 'UTC' };
  let stdout: string;
  try {
    ({ stdout } = await run('bash', [PEER_SCRIPT, String(port)], {
      env,
      timeout: PEER_START_TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
    }));
  } catch (error) {
    await run('bash', [PEER_SCRIPT, 'stop'], { env }).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: string }).stderr ?? '';
    throw new Error(`the WordPress peer did not start: ${stderr.split('\n').slice(-8).join('\n')}`, {
      cause: error,
    });
  }
  const lines = stdout.trim().split('\n');
  const root = lines.at(-2)!.trim();
  const adminAuth = lines.at(-1)!.trim();
  const decoded = Buffer.from(adminAuth.replace(/^Basic\s+/, ''), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const admin = { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };

  const api: WordPressPeer['api'] = async (path, init = {}) => {
    const { json, auth, headers, ...rest } = init;
    const authorization = auth === undefined ? adminAuth : auth;
    const response = await fetch(path.startsWith('http') ? path : `${root}${path}`, {
      ...rest,
      headers: {
        ...(json !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...(authorization ? { Authorization: authorization } : {}),
        ...(headers as Record<string, string>),
      },
      body: json !== undefined ? JSON.stringify(json) : rest.body,
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: response.status, headers: response.headers, body };
  };

  return {
    root,
    site: root.replace(/\/wp-json\/$/, ''),
    port,
    dir,
    adminAuth,
    admin,
    api,
    async sql(query) {
      const socket = join(dir, 'run', 'mysqld.sock');
      return (await run('mariadb', [`--socket=${socket}`, '-uroot', 'wp', '-e', query])).stdout;
    },
    async createUser(login, role) {
      const created = await api('wp/v2/users', {
        method: 'POST',
        json: {
          username: login,
          email: `${login}@example.org`,
          password: `pw-${login}-1234567`,
          roles: [role],
        },
      });
      if (created.status !== 201)
        throw new Error(`could not create ${login}: ${JSON.stringify(created.body)}`);
      const appPassword = await api(`wp/v2/users/${created.body.id}/application-passwords`, {
        method: 'POST',
        json: { name: 'calendar-desk tests' },
      });
      if (appPassword.status !== 201) {
        throw new Error(`no application password for ${login}: ${JSON.stringify(appPassword.body)}`);
      }
      const password = appPassword.body.password as string;
      return {
        user: login,
        password,
        auth: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`,
      };
    },
    async stopPhp() {
      const pid = Number((await readFile(join(dir, 'run', 'php-fpm.pid'), 'utf8')).trim());
      process.kill(pid, 'SIGTERM');
      // The master waits for its children; the pid file goes once it is gone.
      for (let waited = 0; waited < 10_000 && existsSync(join(dir, 'run', 'php-fpm.pid')); waited += 100)
        await new Promise((resolve) => setTimeout(resolve, 100));
    },
    async restart() {
      await run('bash', [PEER_SCRIPT, String(port)], {
        env,
        timeout: PEER_START_TIMEOUT_MS,
        maxBuffer: 16 * 1024 * 1024,
      });
    },
    async stop() {
      await run('bash', [PEER_SCRIPT, 'stop'], { env }).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `describe` for tests against the real site. Where `../shared/peer` is absent they cannot run: on CI that is a
 * failure (CI must run this tier); elsewhere the block is skipped with the reason in its name and a warning.
 */
export function describeWithPeer(name: string, body: () => void): void {
  if (PEER_AVAILABLE) {
    describe(name, body);
    return;
  }
  if (process.env.CI) {
    describe(name, () => {
      throw new Error(PEER_ABSENT_REASON);
    });
    return;
  }
  console.warn(`\n!!! SKIPPED "${name}": ${PEER_ABSENT_REASON}\n`);
  describe.skip(`${name} [SKIPPED: ${PEER_ABSENT_REASON}]`, body);
}
