import {
  apiRoutes,
  routePath,
  type ApiRouteKey,
  type RouteParams,
  type RouteResponse,
} from '../../src/shared/api/routes';
import type { TestServer } from './server';

/** What the API answers on failure (WordPress' shape). */
export interface ApiErrorBody {
  code: string;
  message: string;
  data?: { status?: number; params?: unknown } | null;
}

/** A typed answer: on success its body as the route's response schema says (and checked against it). */
export type TypedResult<K extends ApiRouteKey> = { status: number; headers: Headers } & (
  { ok: true; body: RouteResponse<K> } | { ok: false; body: ApiErrorBody }
);

export interface TypedCall<K extends ApiRouteKey> {
  params?: RouteParams<K>;
  body?: unknown;
  query?: Record<string, string | number | boolean | ReadonlyArray<string | number> | undefined>;
  auth?: Record<string, string>;
}

function encodeQuery(query: TypedCall<ApiRouteKey>['query'] = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) search.append(`${key}[]`, String(item));
    else search.append(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * Calls a route of the shared map (src/shared/api/routes.ts) on a test server. A 2xx answer is parsed with the
 * route's response schema, so a test fails when the server answers what the contract does not say; the body
 * is then typed, not `any`.
 */
export async function callRoute<K extends ApiRouteKey>(
  server: TestServer,
  key: K,
  call: TypedCall<K> = {},
): Promise<TypedResult<K>> {
  const spec = apiRoutes[key];
  const url = `${server.engine.origin}/wp-json/${spec.namespace}/${routePath(spec.path, call.params)}${encodeQuery(call.query)}`;
  const { status, headers, body } = await server.api(url, {
    method: spec.method,
    json: call.body,
    auth: call.auth ?? server.admin,
  });
  if (status < 200 || status >= 300) return { ok: false, status, headers, body: body as ApiErrorBody };
  const checked = spec.response.safeParse(body);
  if (!checked.success) {
    throw new Error(
      `${key} answered what its response schema does not allow:\n${JSON.stringify(checked.error.issues, null, 2)}`,
    );
  }
  return { ok: true, status, headers, body: checked.data as RouteResponse<K> };
}

/** The body of a call that must succeed (throws with the API's error otherwise). */
export async function okBody<K extends ApiRouteKey>(
  server: TestServer,
  key: K,
  call: TypedCall<K> = {},
): Promise<RouteResponse<K>> {
  const result = await callRoute(server, key, call);
  if (!result.ok) throw new Error(`${key} answered ${result.status}: ${JSON.stringify(result.body)}`);
  return result.body;
}
