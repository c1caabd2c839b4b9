import type Router from '@koa/router';
import type { RouterMiddleware } from '@koa/router';
import qs from 'qs';
import { LANGUAGES, type Language } from '../../shared/enums';
import type { CalendarStore } from '../store/store';
import type { MaybeCaller } from '../core/capabilities';
import { ApiError, FORBIDDEN } from './errors';
import type { ApiContext, ApiState } from './state';
import { validateArgs, type ArgSpec } from './args/define';
import { parseRequestBody } from './middleware/body';
import type { AuthThrottle } from './middleware/auth';
import { postPasswordOf } from './postPasswords';
import { indexRoutes } from './routes/discovery';
import { docLanguageOf } from './i18n/descriptions';
import { paginationLink } from './routes/paginate';
import { anyone } from './routes/permissions';
import type { ResponseCache } from './responseCache';
import { JsonBytes } from './present/jsonBytes';
import type { Endpoint, RouteDef } from './routes/table';

export interface DispatchDeps {
  store: CalendarStore;
  clock: () => Date;
  /** The request's caller (null: anonymous); wrong credentials throw. Runs once per request. */
  identify: (ctx: ApiContext) => MaybeCaller;
  /** Keeps the answers of public GETs (omitted: nothing is cached). */
  cache?: ResponseCache;
  /** Answer OPTIONS with the route's description, as WordPress does (the public namespace). */
  describe?: boolean;
  /** Counts wrong `?password=` guesses of protected posts (omitted: not counted). */
  passwordThrottle?: AuthThrottle;
}

/** PHP-style query parsing (`a[]=1&a[]=2`), as WordPress reads parameters. */
export function parseQuery(querystring: string): Record<string, unknown> {
  return qs.parse(querystring, { arrayLimit: 200, depth: 3, parameterLimit: 1000 });
}

/** Parameters in WordPress' precedence (JSON body, form body, query), path parameters always winning. */
function mergeParams(ctx: ApiContext, pathParams: Record<string, string>): Record<string, unknown> {
  const body = ctx.request.body;
  const bodyParams =
    body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  return { ...parseQuery(ctx.querystring), ...bodyParams, ...pathParams };
}

/** `ml_language` is accepted by every route; a value that is not one of our languages is a 400. */
function checkLanguage(language: unknown): void {
  if (language !== undefined && !LANGUAGES.includes(language as Language)) {
    throw new ApiError(400, 'rest_invalid_param', 'Invalid parameter(s): ml_language', {
      params: { ml_language: `ml_language is not one of ${LANGUAGES.join(', ')}.` },
      details: [],
    });
  }
}

/** The path arguments of a spec (id, slug), which every endpoint of a route shares. */
const pathSpecs = new WeakMap<ArgSpec, ArgSpec>();
function pathSpecOf(spec: ArgSpec): ArgSpec {
  let pathSpec = pathSpecs.get(spec);
  if (!pathSpec) {
    pathSpec = Object.fromEntries(Object.entries(spec).filter(([, def]) => def.meta.in === 'path'));
    pathSpecs.set(spec, pathSpec);
  }
  return pathSpec;
}

/** Whether the caller passes an endpoint's permission check for the record the path names. */
function permits(
  endpoint: Endpoint,
  pathParams: Record<string, string>,
  caller: MaybeCaller,
  store: CalendarStore,
): boolean {
  try {
    const args = validateArgs(pathSpecOf(endpoint.args), pathParams, { store, caller });
    return endpoint.permission({ caller, store, args });
  } catch (error) {
    if (error instanceof ApiError) return false;
    throw error;
  }
}

/** WordPress' `Allow` header: the route's methods whose permission check the caller passes. */
function allowHeader(
  route: RouteDef,
  pathParams: Record<string, string>,
  caller: MaybeCaller,
  store: CalendarStore,
): string {
  return route.endpoints
    .filter((endpoint) => permits(endpoint, pathParams, caller, store))
    .flatMap((endpoint) => endpoint.methods)
    .join(', ');
}

function pathParamsMatch(route: RouteDef, pathParams: Record<string, string>): boolean {
  return Object.entries(route.params ?? {}).every(([name, pattern]) => pattern.test(pathParams[name] ?? ''));
}

/**
 * Registers routes on a router. Every endpoint is reached only through {@link dispatch}, which identifies the
 * caller, reads the parameters, validates them and runs the endpoint's permission check before its handler:
 * nothing mounted around the router decides who gets in, so no spelling of a path can skip a check.
 */
export function registerRoutes(router: Router<ApiState>, routes: RouteDef[], deps: DispatchDeps): void {
  for (const route of routes) {
    if (deps.describe) router.register(route.path, ['options'], describe(route, deps));
    for (const endpoint of route.endpoints) {
      const methods = endpoint.methods.map((method) => method.toLowerCase());
      router.register(route.path, methods, dispatch(route, endpoint, deps));
    }
  }
}

/** OPTIONS describes the route, as WordPress does (no CORS headers: browsers get nothing from it). */
function describe(route: RouteDef, deps: DispatchDeps): RouterMiddleware<ApiState> {
  return (ctx, next) => {
    const pathParams = ctx.params;
    if (!pathParamsMatch(route, pathParams)) return next();
    const { state } = ctx;
    const caller = deps.identify(ctx);
    const { ml_language: mlLanguage } = parseQuery(ctx.querystring);
    checkLanguage(mlLanguage);
    const allow = allowHeader(route, pathParams, caller, deps.store);
    if (allow) ctx.set('Allow', allow);
    const entries = indexRoutes([route], state.links, docLanguageOf(mlLanguage, state.languageRoot), {
      now: deps.clock(),
      siteZone: deps.store.settings.timezone,
    });
    ctx.body = Object.values(entries)[0];
  };
}

/** The one way into an endpoint's handler. */
function dispatch(route: RouteDef, endpoint: Endpoint, deps: DispatchDeps): RouterMiddleware<ApiState> {
  const { store } = deps;
  // Only answers anyone may have are kept: a cached answer skips the permission check.
  const cache = endpoint.permission === anyone ? deps.cache : undefined;
  return async (ctx, next) => {
    const pathParams = ctx.params;
    if (!pathParamsMatch(route, pathParams)) return void (await next());
    const { state } = ctx;
    const caller = deps.identify(ctx);
    const allow = allowHeader(route, pathParams, caller, store);
    if (allow) ctx.set('Allow', allow);
    const isRead = ['GET', 'HEAD'].includes(ctx.method);
    // An answer a password unlocked is never kept: the next one must count the guess again (postPasswords.ts).
    const cacheKey =
      cache && isRead && parseQuery(ctx.querystring).password === undefined
        ? `${ctx.host} ${ctx.originalUrl} ${caller?.userId ?? 0} ${Math.floor(deps.clock().getTime() / 60_000)}`
        : undefined;
    const cached = cacheKey ? cache!.get(cacheKey, store.version) : undefined;
    if (cached) {
      ctx.status = cached.status;
      ctx.set(cached.headers);
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = cached.body;
      return;
    }
    if (!endpoint.rawBody) await parseRequestBody(ctx);
    const raw = mergeParams(ctx, pathParams);
    const language = raw.ml_language;
    checkLanguage(language);
    const answer = async () => {
      const now = deps.clock();
      const args = validateArgs(endpoint.args, raw, { store, caller });
      // Validation first, then the permission check, as WordPress (400 before 401/403).
      if (!endpoint.permission({ caller, store, args })) throw FORBIDDEN(caller !== null);
      const env = { store, links: state.links, caller, now, editContext: raw.context === 'edit' };
      return endpoint.handle({
        args,
        raw,
        store,
        caller,
        now,
        links: state.links,
        env,
        recordLanguage: (language as Language | undefined) ?? state.languageRoot ?? 'en',
        ctx,
        postPassword: postPasswordOf(ctx, raw.password, deps.passwordThrottle),
      });
    };
    let version = store.version;
    // Reads are answered once what they show is on disk (see CalendarStore.readSettled).
    // Soon after a start, what needs every record waits for the background loading instead of doing it in one
    // piece (see CalendarStore.readAfterLoading); so does a change (its checks may read any record or link).
    const response = isRead
      ? await store.readSettled(() =>
          store.readAfterLoading(() => {
            version = store.version;
            return answer();
          }),
        )
      : await (store.unreadEvents > 0 || store.eventIndex.linksPending
          ? store.completeIndexesSoon().then(answer)
          : answer());
    ctx.status = response.status ?? 200;
    const headers: Record<string, string> = { ...response.headers };
    const totalPages = headers['X-WP-TotalPages'];
    if (totalPages !== undefined) {
      const link = paginationLink(new URL(ctx.originalUrl, state.links.siteUrl), Number(totalPages));
      if (link) headers.Link = link;
    }
    ctx.set(headers);
    // Only GET answers are kept (a HEAD answer may be built differently); HEAD may reuse them. Unchanged
    // version since it was built and settled: it holds only changes that are on disk.
    if (
      cacheKey &&
      ctx.method === 'GET' &&
      ctx.status === 200 &&
      store.version === version &&
      cache!.worthKeeping(cacheKey, version)
    ) {
      // Serialized once here; the cache hands out the same bytes until the store changes.
      const body = keptBytesOf(response.body);
      cache!.set(cacheKey, { version, status: 200, headers, body });
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = body;
      return;
    }
    if (response.body instanceof JsonBytes) {
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = response.body.bytes;
      // A pooled buffer goes back once the answer is sent (or the connection is gone).
      if (response.body.release) ctx.res.once('close', response.body.release);
      return;
    }
    ctx.body = response.body;
  };
}

/** An answer's JSON bytes to keep (a list assembles its own, in a pooled buffer: see present/jsonBytes.ts). */
function keptBytesOf(body: unknown): Buffer {
  if (!(body instanceof JsonBytes)) return Buffer.from(JSON.stringify(body), 'utf8');
  if (!body.release) return body.bytes;
  const copy = Buffer.from(body.bytes);
  body.release();
  return copy;
}
