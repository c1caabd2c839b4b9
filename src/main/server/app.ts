import Koa from 'koa';
import Router from '@koa/router';
import qs from 'qs';
import { LANGUAGE_ROOTS, LANGUAGES, NAMESPACE, type Language, type LanguageRoot } from '../../shared/enums';
import type { CalendarStore } from '../store/store';
import { ApiError, NO_ROUTE } from './errors';
import { errorMapper } from './middleware/errorMapper';
import { apiHeaders, baseHeaders, hostAndOriginGuard } from './middleware/guards';
import { parseBody } from './middleware/body';
import { authMiddleware, AuthThrottle } from './middleware/auth';
import { buildLinks, type Links } from './links';
import { validateArgs } from './args/define';
import type { RouteDef } from './routes/table';
import { namespaceRoutes } from './routes';
import { indexRoutes, siteIndex } from './routes/discovery';
import { docLanguageOf } from './i18n/descriptions';
import { siteRoutes } from './site';
import { ADMIN_NAMESPACE, adminRoutes } from './routes/admin';
import { settingsRoutes } from './routes/settings';
import { MEDIA_UPLOAD_PATH, mediaRoutes } from './routes/media';
import type { SecretBox } from '../sync/secretBox';
import { paginationLink } from './routes/paginate';
import { ResponseCache } from './responseCache';
import { sanitizeSlugLookup } from './args/eventArgs';
import {
  canChangePost,
  canEditPosts,
  canManageTerms,
  hasPostCap,
  type MaybeCaller,
} from '../core/capabilities';

export interface AppConfig {
  /** Extra `Host` names accepted besides the loopback ones (a configured site host). */
  extraHosts?: string[];
  /** Where the built renderer lives, served at `/` (omitted: no UI). */
  rendererDir?: string;
}

export interface AppDeps {
  store: CalendarStore;
  clock?: () => Date;
  config?: AppConfig;
  log?: (message: string) => void;
  /** Seals the secrets of saved sync remotes (the desktop shell passes one backed by safeStorage). */
  secretBox?: SecretBox;
}

export interface ApiState {
  caller: MaybeCaller;
  links: Links;
  languageRoot: LanguageRoot | null;
}

const LANGUAGE_ROOT_PATTERN = new RegExp(`^/(${LANGUAGE_ROOTS.join('|')})(/wp-json(?:/.*)?)$`, 'i');

const CLIENT_GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']);
const clientWentAway = (error: NodeJS.ErrnoException) =>
  error.code !== undefined && CLIENT_GONE.has(error.code);

/** The Koa application of the local API (no `listen()` here: the engine or a test does that). */
export function createApp({ store, clock = () => new Date(), config = {}, log, secretBox }: AppDeps): Koa {
  const app = new Koa();
  app.proxy = false;
  app.on('error', (error: NodeJS.ErrnoException) => {
    // A browser that closes a tab or cancels a download mid-answer is not a fault: Koa would print a stack.
    if (clientWentAway(error)) return;
    app.onerror(error);
  });
  const throttle = new AuthThrottle(() => clock().getTime());
  const routes = namespaceRoutes();

  app.use(errorMapper(log));
  app.use(baseHeaders());
  app.use(hostAndOriginGuard({ extraHosts: config.extraHosts }));
  app.use(wordpressRequestForms());
  // Language roots serve the same routes: remember the root and route the rest of the path.
  app.use(async (ctx, next) => {
    const match = LANGUAGE_ROOT_PATTERN.exec(ctx.path);
    ctx.state.languageRoot = match ? (match[1].toLowerCase() as LanguageRoot) : null;
    if (match) ctx.path = match[2];
    ctx.state.links = buildLinks(`${ctx.protocol}://${ctx.host}`, ctx.state.languageRoot);
    await next();
  });

  const api = new Router({ prefix: '/wp-json', sensitive: false, strict: false });
  api.use(
    apiHeaders(),
    parseBody(`/wp-json/${ADMIN_NAMESPACE}${MEDIA_UPLOAD_PATH}`),
    authMiddleware(store, throttle),
  );
  api.get('/', (ctx) => {
    const { ml_language: mlLanguage } = parseQuery(ctx.querystring);
    checkLanguage(mlLanguage);
    const language = docLanguageOf(mlLanguage, (ctx.state as ApiState).languageRoot);
    ctx.body = siteIndex(ctx.state.links, store, routes, language, clock());
  });
  const namespaceRouter = new Router({ sensitive: false, strict: false });
  const cache = new ResponseCache();
  for (const route of routes) registerRoute(namespaceRouter, route, { store, clock, routes, cache });
  api.use(`/${NAMESPACE}`, namespaceRouter.routes());
  // Settings first: the admin router requires an administrator for every route it matches.
  api.use(`/${ADMIN_NAMESPACE}`, settingsRoutes({ store }).routes());
  api.use(`/${ADMIN_NAMESPACE}`, mediaRoutes({ store, clock }).routes());
  api.use(`/${ADMIN_NAMESPACE}`, adminRoutes({ store, clock, secretBox }).routes());
  api.all('/{*rest}', () => {
    throw NO_ROUTE();
  });
  app.use(api.routes());

  app.use(async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body === undefined && ctx.path.toLowerCase().startsWith('/wp-json')) {
      throw NO_ROUTE();
    }
  });
  // The public record pages that `url` points to, and the renderer (CONTRACT §2).
  for (const middleware of siteRoutes(store, config.rendererDir)) app.use(middleware);
  return app;
}

const OVERRIDABLE_METHODS = ['PUT', 'PATCH', 'DELETE'];

/**
 * Two request forms WordPress clients use: `?rest_route=/cal/events/v1/…` on the site root (sites without
 * pretty permalinks), and a POST carrying its real method in `?_method=` or `X-HTTP-Method-Override` (for
 * proxies that only pass GET and POST). Only POST may be overridden, so the Origin check of writes has
 * already run on it and a GET can never turn into a write.
 */
function wordpressRequestForms(): Koa.Middleware {
  return async (ctx, next) => {
    const query = new URLSearchParams(ctx.querystring);
    const restRoute = query.get('rest_route');
    if (restRoute !== null && (ctx.path === '/' || ctx.path.toLowerCase() === '/index.php')) {
      query.delete('rest_route');
      ctx.querystring = query.toString();
      ctx.path = `/wp-json${restRoute.startsWith('/') ? '' : '/'}${restRoute}`;
    }
    if (ctx.method === 'POST') {
      const override = (query.get('_method') ?? ctx.get('X-HTTP-Method-Override')).trim().toUpperCase();
      if (OVERRIDABLE_METHODS.includes(override)) ctx.method = override;
    }
    await next();
  };
}

/** PHP-style query parsing (`a[]=1&a[]=2`), as WordPress reads parameters. */
function parseQuery(querystring: string): Record<string, unknown> {
  return qs.parse(querystring, { arrayLimit: 200, depth: 3, parameterLimit: 1000 }) as Record<
    string,
    unknown
  >;
}

/** Parameters in WordPress' precedence (JSON body, form body, query), path parameters always winning. */
function mergeParams(ctx: Koa.Context, pathParams: Record<string, string>): Record<string, unknown> {
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

type Section = 'events' | 'venues' | 'organizers' | 'categories' | 'tags';

/**
 * Whether the caller passes the permission check of a write endpoint (REFERENCE §8.1), for WordPress'
 * `Allow` header. Reads are public; writes need a login, and on existing posts the per-object rules.
 */
function mayWrite(
  store: CalendarStore,
  caller: MaybeCaller,
  routePath: string,
  method: string,
  params: Record<string, string>,
): boolean {
  if (!caller) return false;
  const section = routePath.split('/')[1] as Section;
  if (section === 'categories') return canManageTerms(caller, 'category');
  if (section === 'tags') return canManageTerms(caller, 'tag');
  if (params.id === undefined && params.slug === undefined) return canEditPosts(caller);
  const action = method === 'DELETE' ? 'delete' : 'edit';
  const id = params.id !== undefined ? Number(params.id) : undefined;
  const slug = params.slug !== undefined ? safeDecode(params.slug) : '';
  const post =
    section === 'events'
      ? id !== undefined
        ? store.events.get(id)
        : store.eventBySlug(sanitizeSlugLookup(slug))
      : section === 'venues'
        ? id !== undefined
          ? store.venues.get(id)
          : store.venues.getByKey(slug.toLowerCase())
        : id !== undefined
          ? store.organizers.get(id)
          : store.organizers.getByKey(slug.toLowerCase());
  return post ? canChangePost(caller, post, action) : hasPostCap(caller, action);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** WordPress' `Allow` header: the route's methods whose permission check the caller passes. */
function allowHeader(
  store: CalendarStore,
  caller: MaybeCaller,
  route: RouteDef,
  params: Record<string, string>,
): string {
  return route.endpoints
    .flatMap((endpoint) => endpoint.methods)
    .filter((method) => method === 'GET' || mayWrite(store, caller, route.path, method, params))
    .join(', ');
}

function pathParamsMatch(route: RouteDef, pathParams: Record<string, string>): boolean {
  return Object.entries(route.params ?? {}).every(([name, pattern]) => pattern.test(pathParams[name] ?? ''));
}

function registerRoute(
  router: Router,
  route: RouteDef,
  deps: { store: CalendarStore; clock: () => Date; routes: RouteDef[]; cache: ResponseCache },
) {
  // OPTIONS describes the route, as WordPress does (no CORS headers: browsers get nothing from it).
  router.register(route.path, ['options'], (ctx, next) => {
    const pathParams = ctx.params as Record<string, string>;
    if (!pathParamsMatch(route, pathParams)) return next();
    const state = ctx.state as ApiState;
    const { ml_language: mlLanguage } = parseQuery(ctx.querystring);
    checkLanguage(mlLanguage);
    ctx.set('Allow', allowHeader(deps.store, state.caller, route, pathParams));
    const entries = indexRoutes([route], state.links, docLanguageOf(mlLanguage, state.languageRoot), {
      now: deps.clock(),
      siteZone: deps.store.settings.timezone,
    });
    ctx.body = Object.values(entries)[0];
  });
  for (const endpoint of route.endpoints) {
    const methods = endpoint.methods.map((method) => method.toLowerCase());
    router.register(route.path, methods, async (ctx, next) => {
      const pathParams = ctx.params as Record<string, string>;
      if (!pathParamsMatch(route, pathParams)) return next();
      const state = ctx.state as ApiState;
      ctx.set('Allow', allowHeader(deps.store, state.caller, route, pathParams));
      const cacheKey = ['GET', 'HEAD'].includes(ctx.method)
        ? `${ctx.host} ${ctx.originalUrl} ${state.caller?.userId ?? 0} ${Math.floor(deps.clock().getTime() / 60_000)}`
        : undefined;
      const cached = cacheKey ? deps.cache.get(cacheKey, deps.store.version) : undefined;
      if (cached) {
        ctx.status = cached.status;
        ctx.set(cached.headers);
        ctx.type = 'application/json; charset=utf-8';
        ctx.body = cached.body;
        return;
      }
      const raw = mergeParams(ctx, pathParams);
      const language = raw.ml_language;
      checkLanguage(language);
      const answer = async () => {
        const now = deps.clock();
        const env = {
          store: deps.store,
          links: state.links,
          caller: state.caller,
          now,
          editContext: raw.context === 'edit',
        };
        const args = validateArgs(endpoint.args, raw, { store: deps.store, caller: state.caller });
        return endpoint.handle({
          args,
          raw,
          store: deps.store,
          caller: state.caller,
          now,
          links: state.links,
          env,
          recordLanguage: (language as Language | undefined) ?? state.languageRoot ?? 'en',
          ctx,
        });
      };
      let version = deps.store.version;
      // Reads are answered once what they show is on disk (see CalendarStore.readSettled).
      const response = cacheKey
        ? await deps.store.readSettled(() => {
            version = deps.store.version;
            return answer();
          })
        : await answer();
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
      if (cacheKey && ctx.method === 'GET' && ctx.status === 200 && deps.store.version === version) {
        // Serialized once here; the cache hands out the same bytes until the store changes.
        const body = Buffer.from(JSON.stringify(response.body), 'utf8');
        deps.cache.set(cacheKey, { version, status: 200, headers, body });
        ctx.type = 'application/json; charset=utf-8';
        ctx.body = body;
        return;
      }
      ctx.body = response.body;
    });
  }
}
