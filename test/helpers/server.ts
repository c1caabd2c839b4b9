import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEngine, type Engine, type EngineOptions } from '../../src/main/engine';
import { addUser } from '../../src/main/core/users';
import type { Role } from '../../src/shared/enums';
import { checkAnswer } from './answerCheck';
import type { ApiRouteKey, ApiRoutes, RouteResponse } from '../../src/shared/api/routes';
import { NAMESPACE as PUBLIC_NAMESPACE } from '../../src/shared/enums';
import type { ApiErrorBody } from './typedApi';

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
  /**
   * fetch relative to the namespace root (`events?x=1`), JSON in and out. A path of a route of the shared map
   * (src/shared/api/routes.ts) types the body as that route's answer (see `BodyOfPath`); others stay untyped.
   */
  api<const P extends string, const I extends ApiInit = ApiInit>(
    path: P,
    init?: I,
  ): Promise<ApiResult<BodyOfPath<P, MethodOf<I>>>>;
  close(): Promise<void>;
}

/** What `api` takes besides the path: fetch's options, a JSON body and an `Authorization` header. */
export type ApiInit = RequestInit & { json?: unknown; auth?: Record<string, string> };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper taking any answer reads what it checks
export interface ApiResult<Body = any> {
  status: number;
  headers: Headers;
  body: Body;
}

type PUBLIC_NAMESPACE_TYPE = typeof PUBLIC_NAMESPACE;
type MethodOf<I> = I extends { method: infer M extends string } ? Uppercase<M> : 'GET';
type PathOnly<P extends string> = P extends `${infer Path}?${string}` ? Path : P;
type Segments<P extends string> = P extends `${infer Head}/${infer Rest}` ? [Head, ...Segments<Rest>] : [P];
/** Whether the segments of a path fit a route's template, segment by segment (`:id` fits any one). */
type Fits<Given extends readonly string[], Template extends readonly string[]> = Given extends readonly [
  infer G extends string,
  ...infer GivenRest extends string[],
]
  ? Template extends readonly [infer T extends string, ...infer TemplateRest extends string[]]
    ? T extends `:${string}`
      ? Fits<GivenRest, TemplateRest>
      : [G] extends [T]
        ? Fits<GivenRest, TemplateRest>
        : false
    : false
  : Template extends readonly []
    ? true
    : false;
/** The keys of the shared map's public-namespace routes a request of `method` to `path` reaches. */
type RoutesOf<P extends string, M extends string> = {
  [K in ApiRouteKey]: ApiRoutes[K]['namespace'] extends PUBLIC_NAMESPACE_TYPE
    ? ApiRoutes[K]['method'] extends M
      ? Fits<Segments<PathOnly<P>>, Segments<ApiRoutes[K]['path']>> extends true
        ? K
        : never
      : never
    : never;
}[ApiRouteKey];
/** Query parameters that reshape an answer on purpose (`_fields`, `_embed`…): such a body is not the route's. */
type Reshaped<P extends string> =
  P extends `${string}?${string}_${'fields' | 'embed' | 'envelope' | 'jsonp'}${string}` ? true : false;

/**
 * The body a test reads from `api(path)`: for a route of the shared map, its answer as the route's response
 * schema says (checked at run time by answerCheck.ts) with WordPress' error fields beside it, since the same
 * call may be refused; `any` for a path outside the map, a full address, a path not known until run time, or an
 * answer reshaped by `_fields`/`_embed`.
 */
export type BodyOfPath<P extends string, M extends string> = string extends P
  ? // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a path known only at run time: its route is not known to the types
    any
  : Reshaped<P> extends true
    ? // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a reshaped answer is no route's schema
      any
    : [RoutesOf<P, M>] extends [never]
      ? // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a path outside the shared map (error paths, WordPress' own routes)
        any
      : Fields<RouteResponse<RoutesOf<P, M>>> & ErrorFields;

/**
 * WordPress' error fields (`code`, `message`, `data`), which a refused call has instead of the answer's: typed
 * open, as a test reads them after checking the status.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- `data` differs per error (`params`, `details`, `status`)
type ErrorFields = { [K in keyof ApiErrorBody]-?: any };

type Leaf = string | number | boolean | bigint | null | undefined;
/** The parts of a value that have fields: WordPress' `[]` for "none" (a venue, an image) is left out. */
type WithFields<T> = Exclude<T, Leaf | readonly never[] | false>;
/**
 * An answer's fields, deeply, each value of the schema's type: a test that reads a field the schema does not
 * have, or uses a value as another type, fails to compile. Reading a venue's fields without first ruling out
 * WordPress' `[]` for "none" does not (the test asserts what it expects there).
 */
export type Fields<T> = unknown extends T
  ? // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema says nothing of it
    any
  : [WithFields<T>] extends [never]
    ? T
    : WithFields<T> extends readonly (infer E)[]
      ? Fields<E>[]
      : { [K in keyof WithFields<T>]-?: Fields<WithFields<T>[K]> };

export async function startTestServer(options: Partial<EngineOptions> = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'calendar-desk-test-')));
  const engine = await startEngine({ port: 0, ...options, dataDir });
  const base = `${engine.origin}/${NS}/`;
  const api = async (path: string, init: ApiInit = {}): Promise<ApiResult> => {
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
    // The body's type is the caller's path's (`BodyOfPath`), which answerCheck.ts has checked at run time.
    api: api as TestServer['api'],
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
