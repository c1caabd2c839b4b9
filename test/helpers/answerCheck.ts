import { apiRoutes, type ApiRouteKey, type ApiRouteSpec } from '../../src/shared/api/routes';

/**
 * Every successful answer a test receives from a route of the shared map (src/shared/api/routes.ts) is checked
 * against that route's response schema, whichever way the test called it: the hundreds of tests that read fields
 * of `ApiResult.body` then also prove the contract the renderer is typed by.
 */

/** Query parameters that change an answer's shape on purpose (WordPress' partial and embedded answers). */
const RESHAPING_PARAMETERS = ['_fields', '_embed', '_envelope', '_jsonp'];

interface CompiledRoute {
  key: ApiRouteKey;
  spec: ApiRouteSpec;
  pattern: RegExp;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const compiled: CompiledRoute[] = (Object.entries(apiRoutes) as [ApiRouteKey, ApiRouteSpec][])
  .map(([key, spec]) => ({
    key,
    spec,
    pattern: new RegExp(
      `^/wp-json/${escape(spec.namespace)}/${spec.path
        .split('/')
        .map((part) => (part.startsWith(':') ? '[^/]+' : escape(part)))
        .join('/')}/?$`,
    ),
  }))
  // A fixed path before a parameter's (`events/archives`-like before `events/:id`).
  .sort((a, b) => a.spec.path.split(':').length - b.spec.path.split(':').length);

/** The route of the map a request reached, if it is one (the method and the decoded path both match). */
export function mappedRoute(method: string, url: string): CompiledRoute | undefined {
  const { pathname } = new URL(url);
  return compiled.find((route) => route.spec.method === method.toUpperCase() && route.pattern.test(pathname));
}

/**
 * Throws when a successful JSON answer of a mapped route is not what its response schema says (the route's key
 * and zod's issues in the message). Error answers, answers of unmapped routes and answers reshaped on purpose
 * by `_fields` or `_embed` are not checked.
 */
export function checkAnswer(method: string, url: string, status: number, body: unknown): void {
  if (status < 200 || status >= 300 || body === undefined || typeof body === 'string') return;
  const { searchParams } = new URL(url);
  if (RESHAPING_PARAMETERS.some((name) => searchParams.has(name))) return;
  const route = mappedRoute(method, url);
  if (!route) return;
  const checked = route.spec.response.safeParse(body);
  if (checked.success) return;
  throw new Error(
    `${route.key} (${method} ${url}) answered what its response schema does not allow:\n` +
      JSON.stringify(checked.error.issues.slice(0, 5), null, 2),
  );
}
