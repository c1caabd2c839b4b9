import { z } from 'zod';
import { ADMIN_NAMESPACE, NAMESPACE } from '../enums';
import { calendarListSchema } from '../schemas/calendarList';
import {
  importSourceInputSchema,
  importSourceViewSchema,
  sourceRefreshAnswerSchema,
} from '../schemas/importSources';
import {
  importAnswerSchema,
  importHistorySchema,
  importJobRequestSchema,
  importJobStatusSchema,
  importRequestSchema,
  importUndoAnswerSchema,
} from '../schemas/imports';
import { feedsOverviewSchema } from '../schemas/feeds';
import { sessionAnswerSchema, sessionRequestSchema } from '../schemas/session';
import { mergeBodySchema, organizerMergeAnswerSchema, venueMergeAnswerSchema } from '../schemas/merge';
import {
  categoryArchiveSchema,
  eventArchiveSchema,
  eventResponseSchema,
  organizerArchiveSchema,
  organizerResponseSchema,
  tagArchiveSchema,
  termResponseSchema,
  venueArchiveSchema,
  venueResponseSchema,
} from '../schemas/records';
import { siteSettingsSchema } from '../schemas/settings';
import { caldavAddressesSchema, madeAppPasswordSchema } from '../schemas/caldav';
import {
  remoteCheckResultSchema,
  remoteCheckSchema,
  remoteInputSchema,
  remoteViewSchema,
  syncJobStatusSchema,
  syncReportSchema,
  syncRunSchema,
} from '../schemas/sync';

/**
 * The typed API contract both ends share: for each route the renderer calls, its method, namespace and path
 * template (`:name` for a path parameter), what its body and query are, and the schema of its answer. The
 * renderer's client takes a key of this map instead of a string path; a server test checks every entry is a
 * route of the server with that method, and the API tests check real answers against the response schemas.
 */
export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiRouteSpec {
  method: ApiMethod;
  namespace: string;
  /** Relative to the namespace root, `:id` for a path parameter (`events/:id`). */
  path: string;
  /** The JSON body the route takes (absent: none). */
  body?: z.ZodType;
  /** The query parameters the route takes (absent: none beyond `ml_language`). */
  query?: z.ZodType;
  /** The answer on success. */
  response: z.ZodType;
}

/** A record's fields as a form sends them: the server judges them with its argument specs. */
const recordFields = z.record(z.string(), z.unknown());
/** A route that takes no body: the renderer sends `{}`. */
const noBody = z.object({}).strict();
const queryValue = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.array(z.union([z.string(), z.number()])).readonly(),
]);
/** Left out of the address when null or undefined. */
const anyQuery = z.record(z.string(), queryValue.nullish());

const route = <const S extends ApiRouteSpec>(spec: S): S => spec;

/** A page of an archive (`events`, `venues`…): the query as the server's argument specs judge it. */
const archiveRoute = <const P extends string, R extends z.ZodType>(path: P, response: R) =>
  route({ method: 'GET', namespace: NAMESPACE, path, query: anyQuery, response });

export const apiRoutes = {
  // The public namespace (WordPress' The Events Calendar shape).
  'GET events/:id': route({
    method: 'GET',
    namespace: NAMESPACE,
    path: 'events/:id',
    query: z.object({ context: z.enum(['view', 'edit']).optional() }),
    response: eventResponseSchema,
  }),
  'POST events': route({
    method: 'POST',
    namespace: NAMESPACE,
    path: 'events',
    body: recordFields,
    response: eventResponseSchema,
  }),
  'POST events/:id': route({
    method: 'POST',
    namespace: NAMESPACE,
    path: 'events/:id',
    body: recordFields,
    response: eventResponseSchema,
  }),
  'DELETE events/:id': route({
    method: 'DELETE',
    namespace: NAMESPACE,
    path: 'events/:id',
    // `SERIES_SCOPES` of core/eventRecord.ts (shared may not import main).
    query: z.object({ scope: z.enum(['this', 'following', 'all']).optional() }),
    response: eventResponseSchema,
  }),
  'POST venues': route({
    method: 'POST',
    namespace: NAMESPACE,
    path: 'venues',
    body: recordFields,
    response: venueResponseSchema,
  }),
  'POST venues/:id': route({
    method: 'POST',
    namespace: NAMESPACE,
    path: 'venues/:id',
    body: recordFields,
    response: venueResponseSchema,
  }),
  'DELETE venues/:id': route({
    method: 'DELETE',
    namespace: NAMESPACE,
    path: 'venues/:id',
    response: venueResponseSchema,
  }),
  'POST organizers': route({
    method: 'POST',
    namespace: NAMESPACE,
    path: 'organizers',
    body: recordFields,
    response: organizerResponseSchema,
  }),
  'POST organizers/:id': route({
    method: 'POST',
    namespace: NAMESPACE,
    path: 'organizers/:id',
    body: recordFields,
    response: organizerResponseSchema,
  }),
  'DELETE organizers/:id': route({
    method: 'DELETE',
    namespace: NAMESPACE,
    path: 'organizers/:id',
    response: organizerResponseSchema,
  }),
  'POST categories': route({
    method: 'POST',
    namespace: NAMESPACE,
    path: 'categories',
    body: recordFields,
    response: termResponseSchema,
  }),
  'POST categories/:id': route({
    method: 'POST',
    namespace: NAMESPACE,
    path: 'categories/:id',
    body: recordFields,
    response: termResponseSchema,
  }),
  // Terms are deleted for good (no trash).
  'DELETE categories/:id': route({
    method: 'DELETE',
    namespace: NAMESPACE,
    path: 'categories/:id',
    response: termResponseSchema,
  }),
  'POST tags': route({
    method: 'POST',
    namespace: NAMESPACE,
    path: 'tags',
    body: recordFields,
    response: termResponseSchema,
  }),
  'POST tags/:id': route({
    method: 'POST',
    namespace: NAMESPACE,
    path: 'tags/:id',
    body: recordFields,
    response: termResponseSchema,
  }),
  // Terms are deleted for good (no trash).
  'DELETE tags/:id': route({
    method: 'DELETE',
    namespace: NAMESPACE,
    path: 'tags/:id',
    response: termResponseSchema,
  }),
  'GET events': archiveRoute('events', eventArchiveSchema),
  'GET venues': archiveRoute('venues', venueArchiveSchema),
  'GET organizers': archiveRoute('organizers', organizerArchiveSchema),
  'GET categories': archiveRoute('categories', categoryArchiveSchema),
  'GET tags': archiveRoute('tags', tagArchiveSchema),

  // The admin namespace.
  'POST session': route({
    method: 'POST',
    namespace: ADMIN_NAMESPACE,
    path: 'session',
    body: sessionRequestSchema,
    response: sessionAnswerSchema,
  }),
  'DELETE session': route({
    method: 'DELETE',
    namespace: ADMIN_NAMESPACE,
    path: 'session',
    response: z.object({ signed_out: z.literal(true) }),
  }),
  'GET settings': route({
    method: 'GET',
    namespace: ADMIN_NAMESPACE,
    path: 'settings',
    response: siteSettingsSchema,
  }),
  'PUT settings': route({
    method: 'PUT',
    namespace: ADMIN_NAMESPACE,
    path: 'settings',
    body: siteSettingsSchema.omit({ user: true }).partial(),
    response: siteSettingsSchema,
  }),
  'GET caldav': route({
    method: 'GET',
    namespace: ADMIN_NAMESPACE,
    path: 'caldav',
    response: caldavAddressesSchema,
  }),
  'POST app-passwords': route({
    method: 'POST',
    namespace: ADMIN_NAMESPACE,
    path: 'app-passwords',
    body: z.object({ name: z.string().optional() }),
    response: madeAppPasswordSchema,
  }),
  'GET calendar': route({
    method: 'GET',
    namespace: ADMIN_NAMESPACE,
    path: 'calendar',
    query: anyQuery,
    response: calendarListSchema,
  }),
  'POST venues/:id/merge': route({
    method: 'POST',
    namespace: ADMIN_NAMESPACE,
    path: 'venues/:id/merge',
    body: mergeBodySchema,
    response: venueMergeAnswerSchema,
  }),
  'POST organizers/:id/merge': route({
    method: 'POST',
    namespace: ADMIN_NAMESPACE,
    path: 'organizers/:id/merge',
    body: mergeBodySchema,
    response: organizerMergeAnswerSchema,
  }),
  'GET feeds': route({
    method: 'GET',
    namespace: ADMIN_NAMESPACE,
    path: 'feeds',
    response: feedsOverviewSchema,
  }),
  'POST feeds/regenerate': route({
    method: 'POST',
    namespace: ADMIN_NAMESPACE,
    path: 'feeds/regenerate',
    body: noBody,
    response: feedsOverviewSchema,
  }),
  'POST feeds/revoke': route({
    method: 'POST',
    namespace: ADMIN_NAMESPACE,
    path: 'feeds/revoke',
    body: noBody,
    response: feedsOverviewSchema,
  }),
  'GET remotes': route({
    method: 'GET',
    namespace: ADMIN_NAMESPACE,
    path: 'remotes',
    response: z.array(remoteViewSchema),
  }),
  'PUT remotes': route({
    method: 'PUT',
    namespace: ADMIN_NAMESPACE,
    path: 'remotes',
    body: z.array(remoteInputSchema),
    response: z.array(remoteViewSchema),
  }),
  'POST remotes/check': route({
    method: 'POST',
    namespace: ADMIN_NAMESPACE,
    path: 'remotes/check',
    body: remoteCheckSchema,
    response: remoteCheckResultSchema,
  }),
  'POST remotes/:id/plan': route({
    method: 'POST',
    namespace: ADMIN_NAMESPACE,
    path: 'remotes/:id/plan',
    body: syncRunSchema,
    response: syncReportSchema,
  }),
  'POST remotes/:id/sync': route({
    method: 'POST',
    namespace: ADMIN_NAMESPACE,
    path: 'remotes/:id/sync',
    body: syncRunSchema,
    response: syncJobStatusSchema,
  }),
  'GET sync-jobs/:id': route({
    method: 'GET',
    namespace: ADMIN_NAMESPACE,
    path: 'sync-jobs/:id',
    response: syncJobStatusSchema,
  }),
  'POST sync-jobs/:id/cancel': route({
    method: 'POST',
    namespace: ADMIN_NAMESPACE,
    path: 'sync-jobs/:id/cancel',
    body: noBody,
    response: syncJobStatusSchema,
  }),
  'POST import': route({
    method: 'POST',
    namespace: ADMIN_NAMESPACE,
    path: 'import',
    body: importRequestSchema,
    response: importAnswerSchema,
  }),
  'POST import-jobs': route({
    method: 'POST',
    namespace: ADMIN_NAMESPACE,
    path: 'import-jobs',
    body: importJobRequestSchema,
    response: importJobStatusSchema,
  }),
  'GET import-jobs/:id': route({
    method: 'GET',
    namespace: ADMIN_NAMESPACE,
    path: 'import-jobs/:id',
    response: importJobStatusSchema,
  }),
  'GET imports': route({
    method: 'GET',
    namespace: ADMIN_NAMESPACE,
    path: 'imports',
    response: importHistorySchema,
  }),
  'POST imports/:id/undo': route({
    method: 'POST',
    namespace: ADMIN_NAMESPACE,
    path: 'imports/:id/undo',
    body: noBody,
    response: importUndoAnswerSchema,
  }),
  'GET import-sources': route({
    method: 'GET',
    namespace: ADMIN_NAMESPACE,
    path: 'import-sources',
    response: z.array(importSourceViewSchema),
  }),
  'POST import-sources': route({
    method: 'POST',
    namespace: ADMIN_NAMESPACE,
    path: 'import-sources',
    body: importSourceInputSchema,
    response: importSourceViewSchema.extend({ result: importAnswerSchema.optional() }),
  }),
  'POST import-sources/:id/refresh': route({
    method: 'POST',
    namespace: ADMIN_NAMESPACE,
    path: 'import-sources/:id/refresh',
    body: noBody,
    response: sourceRefreshAnswerSchema,
  }),
  'DELETE import-sources/:id': route({
    method: 'DELETE',
    namespace: ADMIN_NAMESPACE,
    path: 'import-sources/:id',
    response: z.unknown(),
  }),
} as const;

export type ApiRoutes = typeof apiRoutes;
export type ApiRouteKey = keyof ApiRoutes;

type ParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<Rest>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** The path parameters of a route (`{ id }` for `events/:id`). */
export type RouteParams<K extends ApiRouteKey> = { [N in ParamNames<ApiRoutes[K]['path']>]: string | number };
/** What the route's body is as the caller sends it (`never` for a route without one). */
export type RouteBody<K extends ApiRouteKey> = ApiRoutes[K] extends { body: z.ZodType }
  ? z.input<ApiRoutes[K]['body']>
  : never;
/** The route's query parameters as the caller sends them. */
export type RouteQuery<K extends ApiRouteKey> = ApiRoutes[K] extends { query: z.ZodType }
  ? z.input<ApiRoutes[K]['query']>
  : never;
/** What the route answers on success. */
export type RouteResponse<K extends ApiRouteKey> = z.output<ApiRoutes[K]['response']>;

/** The path of a route with its parameters filled in (each encoded). */
export function routePath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([a-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`The path ${path} needs its parameter ${name}.`);
    return encodeURIComponent(String(value));
  });
}
