import type { z } from 'zod';
import type { Language } from '../../../shared/enums';
import type { CalendarStore } from '../../store/store';
import type { MaybeCaller } from '../../core/capabilities';
import type { ArgSpec, ArgValues } from '../args/define';
import type { Links } from '../links';
import type { PresentEnv } from '../present/common';
import type { ApiContext } from '../state';
import type { PostPassword } from '../postPasswords';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a handler gets: validated arguments plus the request's environment. */
export interface ApiRequest<Spec extends ArgSpec> {
  args: ArgValues<Spec>;
  /** Raw merged parameters, to tell "sent" from "absent" (true PATCH). */
  raw: Record<string, unknown>;
  store: CalendarStore;
  caller: MaybeCaller;
  now: Date;
  links: Links;
  env: PresentEnv;
  /** Language new records get: `ml_language`, else the language root, else `en`. */
  recordLanguage: Language;
  ctx: ApiContext;
  /** The `password` the request carries for a protected post, its guess counted (see postPasswords.ts). */
  postPassword: PostPassword;
}

export interface ApiResponse {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** How /doc documents an endpoint. */
export interface EndpointDoc {
  summary: string;
  /** Response schemas by status; `200`/`201` name the record schema. */
  responses: Record<string, { description: string; schema?: z.ZodType }>;
  /** The body of an endpoint that judges it whole with a zod schema (a registered one, by its id). */
  body?: z.ZodType;
}

/** What a permission check looks at: who calls, the store, and the endpoint's validated arguments. */
export interface PermissionRequest<Spec extends ArgSpec = ArgSpec> {
  caller: MaybeCaller;
  store: CalendarStore;
  /**
   * The validated arguments. The `Allow` header asks the checks of a route's other endpoints too, with only
   * the path arguments (id, slug) validated: a check must decide from those and the caller alone.
   */
  args: ArgValues<Spec>;
}

/**
 * Who may call an endpoint: WordPress' `permission_callback`. The dispatcher runs it after the arguments are
 * validated and before the handler, whatever spelling of the path reached the route; `false` is a 401 for
 * nobody and a 403 for a signed-in caller.
 */
export type Permission<Spec extends ArgSpec = ArgSpec> = (request: PermissionRequest<Spec>) => boolean;

export interface Endpoint<Spec extends ArgSpec = ArgSpec> {
  methods: HttpMethod[];
  args: Spec;
  /** Required: no endpoint exists without saying who may call it (see routes/permissions.ts). */
  permission: Permission<Spec>;
  handle: (request: ApiRequest<Spec>) => Promise<ApiResponse> | ApiResponse;
  doc: EndpointDoc;
  /** The handler reads the request body itself (a picture upload): the dispatcher does not parse it. */
  rawBody?: true;
}

export interface RouteDef {
  /** The route's regex as WordPress lists it in the namespace index, e.g. `/events/(?P<id>\d+)`. */
  pattern: string;
  /** The Koa path, e.g. `/events/:id`. */
  path: string;
  /** The OpenAPI path, e.g. `/events/{id}`. */
  docPath: string;
  /** Path parameters must match these, else the route does not match at all (404 rest_no_route). */
  params?: Record<string, RegExp>;
  /** Each declared with {@link endpoint}: typed by its own spec there, seen here as any endpoint's. */
  endpoints: Endpoint[];
}

/**
 * Declares an endpoint, inferring the argument types of its handler and permission from its spec. The one place
 * an endpoint's own types are forgotten: the dispatcher validates the arguments with that same spec before it
 * calls either, so they always get the values the spec describes.
 */
export function endpoint<Spec extends ArgSpec>(definition: Endpoint<Spec>): Endpoint {
  return definition as unknown as Endpoint;
}

export const ID_PARAM = { id: /^\d+$/ };

/** A request whose arguments the callee does not look at. */
export type BareRequest = ApiRequest<Record<never, never>>;
