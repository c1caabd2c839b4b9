import Koa from 'koa';
import Router from '@koa/router';
import {
  ADMIN_NAMESPACE,
  LANGUAGE_ROOTS,
  NAMESPACE,
  WP_V2_NAMESPACE,
  type LanguageRoot,
} from '../../shared/enums';
import type { CalendarStore } from '../store/store';
import { NO_ROUTE } from './errors';
import { errorMapper } from './middleware/errorMapper';
import { apiHeaders, baseHeaders, hostAndOriginGuard } from './middleware/guards';
import { AuthThrottle, callerIdentifier } from './middleware/auth';
import { SignInSessions } from './signInSessions';
import { buildLinks } from './links';
import { namespaceRoutes, restRootRoute } from './routes';
import { siteRoutes } from './site';
import { adminRoutes } from './routes/admin';
import { wpV2TermRoutes } from './routes/wpV2Terms';
import type { SecretBox } from '../sync/secretBox';
import { ResponseCache } from './responseCache';
import { registerRoutes } from './dispatch';
import type { ApiState } from './state';
import type { FeedSecret } from '../core/feeds/secret';
import { feedRoutes } from './routes/feeds';
import type { FetchLimits } from '../exchange/calendarFetch';
import { caldavRoutes } from './dav/caldav';

export type { ApiState } from './state';

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
  /** The secret of the calendar feeds' addresses (omitted: no feed answers). */
  feedSecret?: FeedSecret;
  /** Whether this start's address differs from the last one (known once listening: read when asked). */
  addressNotice?: () => string | null;
  /** Time and size limits of fetching an import address (tests shorten them). */
  importFetchLimits?: FetchLimits;
  /** One-time sign-in codes and browser sessions (the engine keeps them, to print a code). */
  sessions?: SignInSessions;
}

const LANGUAGE_ROOT_PATTERN = new RegExp(`^/(${LANGUAGE_ROOTS.join('|')})(/wp-json(?:/.*)?)$`, 'i');
/** The REST API's paths, in any case (routes match case-insensitively, as WordPress'). */
const API_PATH = /^\/wp-json(?:\/|$)/i;

const CLIENT_GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']);
const clientWentAway = (error: NodeJS.ErrnoException) =>
  error.code !== undefined && CLIENT_GONE.has(error.code);

/** The Koa application of the local API (no `listen()` here: the engine or a test does that). */
export function createApp({
  store,
  clock = () => new Date(),
  config = {},
  log,
  secretBox,
  feedSecret,
  addressNotice,
  importFetchLimits,
  sessions = new SignInSessions(() => clock().getTime()),
}: AppDeps): Koa<ApiState> {
  const app = new Koa<ApiState>();
  app.proxy = false;
  app.on('error', (error: NodeJS.ErrnoException) => {
    // A browser that closes a tab or cancels a download mid-answer is not a fault: Koa would print a stack.
    if (clientWentAway(error)) return;
    app.onerror(error);
  });
  // One throttle for sign-ins, sign-in codes and event passwords alike (each keyed by client and what was tried).
  const throttle = new AuthThrottle(() => clock().getTime());
  const identify = callerIdentifier(store, throttle, sessions);
  const routes = namespaceRoutes();

  app.use(errorMapper(log));
  app.use(baseHeaders());
  app.use(hostAndOriginGuard({ extraHosts: config.extraHosts }));
  app.use(wordpressRequestForms());
  // Language roots serve the same routes: remember the root and route the rest of the path.
  app.use(async (ctx, next) => {
    const match = LANGUAGE_ROOT_PATTERN.exec(ctx.path);
    ctx.state.languageRoot = match ? (match[1]!.toLowerCase() as LanguageRoot) : null;
    if (match) ctx.path = match[2]!;
    ctx.state.links = buildLinks(`${ctx.protocol}://${ctx.host}`, ctx.state.languageRoot);
    await next();
  });
  // Every API answer, errors and unknown routes included, carries WordPress' headers; wrong credentials are
  // a 401 on every API path, as WordPress checks them before routing. Who may do what is not decided here
  // but by the endpoint that answers (see dispatch.ts), which identifies the caller itself as well.
  const withApiHeaders = apiHeaders();
  app.use(async (ctx, next) => {
    if (!API_PATH.test(ctx.path)) return void (await next());
    await withApiHeaders(ctx, async () => {
      identify(ctx);
      await next();
    });
  });

  const api = new Router<ApiState>({ prefix: '/wp-json', sensitive: false, strict: false });
  registerRoutes(api, [restRootRoute(routes)], { store, clock, identify });
  const namespaceRouter = new Router<ApiState>({ sensitive: false, strict: false });
  registerRoutes(namespaceRouter, routes, {
    store,
    clock,
    identify,
    cache: new ResponseCache(),
    describe: true,
    passwordThrottle: throttle,
  });
  api.use(`/${NAMESPACE}`, namespaceRouter.routes());
  const adminRouter = new Router<ApiState>({ sensitive: false, strict: false });
  registerRoutes(
    adminRouter,
    adminRoutes({
      store,
      clock,
      secretBox,
      feedSecret,
      addressNotice,
      importFetchLimits,
      sessions,
      throttle,
    }),
    {
      store,
      clock,
      identify,
    },
  );
  api.use(`/${ADMIN_NAMESPACE}`, adminRouter.routes());
  // WordPress' own wp/v2 read routes for categories and tags, which term answers link to (public reads).
  const wpV2Router = new Router<ApiState>({ sensitive: false, strict: false });
  registerRoutes(wpV2Router, wpV2TermRoutes(), { store, clock, identify });
  api.use(`/${WP_V2_NAMESPACE}`, wpV2Router.routes());
  api.all('/{*rest}', () => {
    throw NO_ROUTE();
  });
  app.use(api.routes());

  app.use(async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body === undefined && API_PATH.test(ctx.path)) throw NO_ROUTE();
  });
  // The subscribable calendar feeds (CONTRACT §7), then the public record pages that `url` points to, and
  // the renderer (CONTRACT §2).
  // CalDAV (issue 30): discovery on the bare address and /.well-known/caldav, the calendar under /dav/.
  app.use(caldavRoutes(store, identify, clock));
  app.use(feedRoutes(store, feedSecret, clock));
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
