import type { z } from 'zod';
import { ApiError } from '../errors';
import { administrators } from './permissions';
import { endpoint, type ApiResponse, type BareRequest, type RouteDef } from './table';

/*
 * The pieces of the admin namespace's own endpoints (sync, imports): administrators only, bodies judged whole
 * by a zod schema of src/shared/schemas rather than WordPress-style arguments.
 */

/** `value` as `schema` has it, else 400 `rest_invalid_param` naming each wrong field. */
export function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) {
    const params = Object.fromEntries(
      parsed.error.issues.map((issue) => [issue.path.join('.') || 'body', issue.message]),
    );
    throw new ApiError(400, 'rest_invalid_param', `Invalid parameter(s): ${Object.keys(params).join(', ')}`, {
      params,
    });
  }
  return parsed.data;
}

/** The request's body (JSON or form), parsed by the dispatcher; the schemas judge it whole. */
export const bodyOf = (request: BareRequest): unknown => request.ctx.request.body;

/** An administrators-only endpoint; `schemas` document its body and answer in /doc (registered schemas). */
export function adminEndpoint(
  methods: Array<'GET' | 'POST' | 'PUT' | 'DELETE'>,
  summary: string,
  handle: (request: BareRequest) => Promise<ApiResponse> | ApiResponse,
  schemas: { body?: z.ZodType; answer?: z.ZodType; status?: '200' | '201' | '202' } = {},
) {
  return endpoint({
    methods,
    args: {},
    permission: administrators,
    handle,
    doc: {
      summary,
      responses: { [schemas.status ?? '200']: { description: summary, schema: schemas.answer } },
      ...(schemas.body ? { body: schemas.body } : {}),
    },
  });
}

/** A route of the admin namespace from an Express-style path (`/imports/:id/undo`). */
export const adminRoute = (path: string, endpoints: RouteDef['endpoints']): RouteDef => ({
  pattern: path.replace(/:(\w+)/g, '(?P<$1>[^/]+)'),
  path,
  docPath: path.replace(/:(\w+)/g, '{$1}'),
  endpoints,
});
