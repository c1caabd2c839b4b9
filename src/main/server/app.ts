import Koa from 'koa';
import Router from '@koa/router';
import qs from 'qs';
import { LANGUAGE_ROOTS, LANGUAGES, NAMESPACE, type Language, type LanguageRoot } from '../../shared/enums';
import type { CalendarStore } from '../store/store';
import { ApiError, NO_ROUTE } from './errors';
import { errorMapper } from './middleware/errorMapper';
import { apiHeaders, hostAndOriginGuard } from './middleware/guards';
import { parseBody } from './middleware/body';
import { authMiddleware, AuthThrottle } from './middleware/auth';
import { buildLinks, type Links } from './links';
import { validateArgs } from './args/define';
import type { RouteDef } from './routes/table';
import { namespaceRoutes } from './routes';
import { siteIndex } from './routes/discovery';
import type { MaybeCaller } from '../core/capabilities';

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
}

export interface ApiState {
  caller: MaybeCaller;
  links: Links;
  languageRoot: LanguageRoot | null;
}

const LANGUAGE_ROOT_PATTERN = new RegExp(`^/(${LANGUAGE_ROOTS.join('|')})(/wp-json(?:/.*)?)$`, 'i');

/** The Koa application of the local API (no `listen()` here: the engine or a test does that). */
export function createApp({ store, clock = () => new Date(), config = {}, log }: AppDeps): Koa {
  const app = new Koa();
  app.proxy = false;
  const throttle = new AuthThrottle();
  const routes = namespaceRoutes();

  app.use(errorMapper(log));
  app.use(hostAndOriginGuard({ extraHosts: config.extraHosts }));
  // Language roots serve the same routes: remember the root and route the rest of the path.
  app.use(async (ctx, next) => {
    const match = LANGUAGE_ROOT_PATTERN.exec(ctx.path);
    ctx.state.languageRoot = match ? (match[1].toLowerCase() as LanguageRoot) : null;
    if (match) ctx.path = match[2];
    ctx.state.links = buildLinks(`${ctx.protocol}://${ctx.host}`, ctx.state.languageRoot);
    await next();
  });

  const api = new Router({ prefix: '/wp-json', sensitive: false, strict: false });
  api.use(apiHeaders(), parseBody(), authMiddleware(store, throttle));
  api.get('/', (ctx) => {
    const root = (ctx.state as ApiState).languageRoot;
    ctx.body = siteIndex(ctx.state.links, store, routes, root === 'it' || root === 'pl' ? root : 'en');
  });
  const namespaceRouter = new Router({ sensitive: false, strict: false });
  for (const route of routes) registerRoute(namespaceRouter, route, { store, clock, routes });
  api.use(`/${NAMESPACE}`, namespaceRouter.routes());
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
  return app;
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

function registerRoute(
  router: Router,
  route: RouteDef,
  deps: { store: CalendarStore; clock: () => Date; routes: RouteDef[] },
) {
  const allow = route.endpoints.flatMap((endpoint) => endpoint.methods).join(', ');
  for (const endpoint of route.endpoints) {
    const methods = endpoint.methods.map((method) => method.toLowerCase());
    router.register(route.path, methods, async (ctx, next) => {
      const pathParams = ctx.params as Record<string, string>;
      for (const [name, pattern] of Object.entries(route.params ?? {})) {
        if (!pattern.test(pathParams[name] ?? '')) return next();
      }
      ctx.set('Allow', allow);
      const raw = mergeParams(ctx, pathParams);
      const state = ctx.state as ApiState;
      const language = raw.ml_language;
      if (language !== undefined && !LANGUAGES.includes(language as Language)) {
        throw new ApiError(400, 'rest_invalid_param', 'Invalid parameter(s): ml_language', {
          params: { ml_language: `ml_language is not one of ${LANGUAGES.join(', ')}.` },
          details: [],
        });
      }
      const now = deps.clock();
      const env = { store: deps.store, links: state.links, caller: state.caller, now };
      const args = validateArgs(endpoint.args, raw, { store: deps.store, caller: state.caller });
      const response = await endpoint.handle({
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
      ctx.status = response.status ?? 200;
      for (const [name, value] of Object.entries(response.headers ?? {})) ctx.set(name, value);
      ctx.body = response.body;
    });
  }
}
