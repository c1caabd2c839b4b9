import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEngine, type Engine, type EngineOptions } from '../../src/main/engine';
import { addUser } from '../../src/main/core/users';
import type { Role } from '../../src/shared/enums';
import { checkAnswer } from './answerCheck';

export const NS = 'wp-json/cal/events/v1';

/** A real server on a free loopback port over a fresh data folder, with helpers to call it. */
export interface TestServer {
  engine: Engine;
  dataDir: string;
  base: string;
  /** `Authorization` header of the admin. */
  admin: Record<string, string>;
  /** Creates a user of the role and returns its Basic `Authorization` header. */
  userHeaders(login: string, role: Role): Promise<Record<string, string>>;
  /** fetch relative to the namespace root (`events?x=1`), JSON in and out. */
  api(
    path: string,
    init?: RequestInit & { json?: unknown; auth?: Record<string, string> },
  ): Promise<ApiResult>;
  close(): Promise<void>;
}

export interface ApiResult {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests assert bodies field by field; a mapped route's success is checked against its schema first (answerCheck.ts)
  body: any;
}

export async function startTestServer(options: Partial<EngineOptions> = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'calendar-desk-test-')));
  const engine = await startEngine({ port: 0, ...options, dataDir });
  const base = `${engine.origin}/${NS}/`;
  const api: TestServer['api'] = async (path, init = {}) => {
    const { json, auth, headers, ...rest } = init;
    const url = path.startsWith('http') ? path : `${base}${path}`;
    const response = await fetch(url, {
      ...rest,
      headers: {
        ...(json !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...auth,
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
    checkAnswer(rest.method ?? 'GET', url, response.status, body);
    return { status: response.status, headers: response.headers, body };
  };
  return {
    engine,
    dataDir,
    base,
    admin: { Authorization: `Bearer ${engine.adminToken}` },
    async userHeaders(login, role) {
      const { password } = await addUser(engine.store, login, role, () => new Date());
      return { Authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` };
    },
    api,
    async close() {
      await engine.close();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * An event body with sensible dates relative to a day offset from now; pass `now` (ms) when the server runs on an
 * injected clock, so the event is where that clock expects it whatever the real date.
 */
export function eventBody(
  title: string,
  daysFromNow: number,
  extra: Record<string, unknown> = {},
  now = Date.now(),
) {
  const day = new Date(now + daysFromNow * 86_400_000).toISOString().slice(0, 10);
  return { title, start_date: `${day} 10:00:00`, end_date: `${day} 12:00:00`, ...extra };
}

/** Every byte the store keeps in a data folder (data file and journals), as text: for "never stored" checks. */
export async function dataFolderText(dataDir: string): Promise<string> {
  const { readdir, readFile } = await import('node:fs/promises');
  const names = (await readdir(dataDir)).filter((name) => name.endsWith('.json') || name.endsWith('.log'));
  return (await Promise.all(names.map((name) => readFile(join(dataDir, name), 'utf8')))).join('\n');
}
