import { z } from 'zod';
import { ADMIN_NAMESPACE, LANGUAGES, NAMESPACE } from '../../../shared/enums';
import { defaultArchiveEnd, defaultArchiveStart } from '../../core/dates/archiveWindow';
import { toLuxonZone } from '../../core/dates/zones';
import type { CalendarStore } from '../../store/store';
import { defaultOf, type ArgDef, type ArgSpec } from '../args/define';
import { eventArchiveArgs } from '../args/eventArgs';
import { translateDescription, type DocLanguage } from '../i18n/descriptions';
import type { Links } from '../links';
import type { Endpoint, HttpMethod, RouteDef } from './table';

/** Description of `ml_language`, which every endpoint accepts (seed: "Every operation accepts the optional ml_language"). */
export const ML_LANGUAGE_DESCRIPTION =
  'Language of the records: on lists a filter, on creates the language of the new record';

/** What /doc says of a parameter without a description (as the reference's document does). */
export const NO_DESCRIPTION = 'No description provided';

/** Human-readable texts of discovery itself that are translated like argument descriptions. */
export const DISCOVERY_DESCRIPTIONS = [ML_LANGUAGE_DESCRIPTION, NO_DESCRIPTION] as const;

/** What time-dependent defaults are computed from. */
export interface DefaultsContext {
  now: Date;
  /** The site time zone. */
  siteZone: string;
}

/**
 * Defaults that depend on the moment of the request: the reference's index shows the date window `GET /events`
 * applies when no date filter is sent (sample 01: `start_date` "yesterday 23:59", `end_date` "+24 months").
 * The handler computes the same values (routes/events.ts `dateBounds`).
 */
const DYNAMIC_DEFAULTS = new Map<ArgDef, (context: DefaultsContext) => unknown>([
  [eventArchiveArgs.start_date, ({ now, siteZone }) => defaultArchiveStart(now, siteZone)],
  [eventArchiveArgs.end_date, ({ now }) => defaultArchiveEnd(now)],
]);

function indexArg(def: ArgDef, language: DocLanguage, defaults: DefaultsContext) {
  const meta = def.meta;
  const dynamic = DYNAMIC_DEFAULTS.get(def);
  const value = dynamic ? dynamic(defaults) : defaultOf(meta);
  return {
    ...(value !== undefined ? { default: value } : {}),
    // WordPress shows only the schema keywords an argument declares: no description when there is none.
    ...(meta.description ? { description: translateDescription(meta.description, language) } : {}),
    ...(meta.type ? { type: meta.type } : {}),
    ...(meta.format ? { format: meta.format } : {}),
    ...(meta.items ? { items: meta.items } : {}),
    required: meta.required ?? false,
  };
}

function mlLanguageIndexArg(language: DocLanguage) {
  return {
    description: translateDescription(ML_LANGUAGE_DESCRIPTION, language),
    type: 'string',
    enum: [...LANGUAGES],
    required: false,
  };
}

function indexArgs(args: ArgSpec, language: DocLanguage, defaults: DefaultsContext) {
  const entries: Array<[string, object]> = Object.entries(args).map(([name, def]) => [
    name,
    indexArg(def, language, defaults),
  ]);
  entries.push(['ml_language', mlLanguageIndexArg(language)]);
  return Object.fromEntries(entries);
}

/** The `routes` object of WordPress' namespace index (REFERENCE §9.1), keyed by the raw route regexes. */
export function indexRoutes(
  routes: RouteDef[],
  links: Links,
  language: DocLanguage,
  defaults: DefaultsContext,
) {
  const root = `${links.apiRoot}${NAMESPACE}`;
  return Object.fromEntries(
    routes.map((route) => {
      const entry = {
        namespace: NAMESPACE,
        methods: route.endpoints.flatMap((endpoint) => endpoint.methods),
        endpoints: route.endpoints.map((endpoint) => ({
          methods: endpoint.methods,
          args: indexArgs(endpoint.args, language, defaults),
        })),
        // Only routes without path parameters link to themselves.
        ...(route.params || route.pattern.includes('(?P<')
          ? {}
          : { _links: { self: [{ href: `${root}${route.pattern}` }] } }),
      };
      return [`/${NAMESPACE}${route.pattern}`, entry];
    }),
  );
}

/** `GET /wp-json/cal/events/v1`: WordPress' namespace index. */
export function namespaceIndex(
  routes: RouteDef[],
  links: Links,
  language: DocLanguage,
  defaults: DefaultsContext,
) {
  return {
    namespace: NAMESPACE,
    routes: indexRoutes(routes, links, language, defaults),
    _links: { up: [{ href: links.apiRoot }] },
  };
}

/** WordPress' `gmt_offset` (hours, now) and `timezone_string` ('' for fixed offsets such as `UTC+2`). */
function siteZoneFields(zone: string, now: Date) {
  let offsetHours = 0;
  try {
    offsetHours = toLuxonZone(zone).offset(now.getTime()) / 60;
  } catch {
    /* an invalid setting: report UTC */
  }
  return { gmt_offset: offsetHours, timezone_string: /^(?:UTC|GMT)?[+-]\d/i.test(zone) ? '' : zone };
}

/**
 * `GET /wp-json/`: WordPress' site index, so generic WordPress clients discover the namespace. `now` is the
 * moment of the request (the app's clock), for `gmt_offset` and the time-dependent argument defaults.
 */
export function siteIndex(
  links: Links,
  store: CalendarStore,
  routes: RouteDef[],
  language: DocLanguage,
  now: Date = new Date(),
) {
  const defaults = { now, siteZone: store.settings.timezone };
  return {
    name: store.settings.siteName,
    description: store.settings.siteDescription,
    url: links.siteUrl,
    home: links.siteUrl,
    ...siteZoneFields(store.settings.timezone, now),
    namespaces: [NAMESPACE],
    authentication: {
      'application-passwords': { endpoints: {} },
      'bearer-token': {
        header: 'Authorization: Bearer <token>',
        help: 'calendar-desk token --data <folder>',
      },
    },
    routes: {
      // The index itself, as WordPress lists it.
      '/': {
        namespace: '',
        methods: ['GET'],
        endpoints: [{ methods: ['GET'], args: { context: { default: 'view', required: false } } }],
        _links: { self: [{ href: links.apiRoot }] },
      },
      ...indexRoutes(routes, links, language, defaults),
    },
    _links: { help: [{ href: `${links.apiRoot}${NAMESPACE}/doc` }] },
  };
}

// ----- OpenAPI 3.1 -------------------------------------------------------------------------------------

type JsonSchema = Record<string, unknown>;

/** zod writes `z.number().int()` with the safe-integer range as bounds: noise for readers, dropped. */
function tidy<T>(value: T): T {
  if (Array.isArray(value)) return (value as unknown[]).map((item) => tidy(item)) as T;
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).filter(
    ([key, inner]) =>
      !(key === 'minimum' && inner === Number.MIN_SAFE_INTEGER) &&
      !(key === 'maximum' && inner === Number.MAX_SAFE_INTEGER) &&
      key !== '$schema',
  );
  return Object.fromEntries(entries.map(([key, inner]) => [key, tidy(inner)])) as T;
}

function componentRef(schema: z.ZodType): JsonSchema | undefined {
  const id = z.globalRegistry.get(schema)?.id;
  return id ? { $ref: `#/components/schemas/${id}` } : undefined;
}

/** The JSON Schema of what an argument accepts (zod's input side: before WordPress-style coercion). */
function argSchema(def: ArgDef): JsonSchema {
  const schema = tidy(
    z.toJSONSchema(def.schema, {
      io: 'input',
      unrepresentable: 'any',
      target: 'draft-2020-12',
    }) as JsonSchema,
  );
  const value = defaultOf(def.meta);
  if (value !== undefined && value !== null && !DYNAMIC_DEFAULTS.has(def)) schema.default = value;
  return schema;
}

const BODY_METHODS: ReadonlySet<HttpMethod> = new Set(['POST', 'PUT', 'PATCH']);

/** Where an argument travels for a method: path parameters, else the body of writes, else the query. */
function placeOf(def: ArgDef, method: HttpMethod): 'path' | 'query' | 'body' {
  if (def.meta.in === 'path') return 'path';
  if (!BODY_METHODS.has(method)) return 'query';
  return def.meta.in === 'query' ? 'query' : 'body';
}

function describe(text: string, language: DocLanguage): string {
  return translateDescription(text || NO_DESCRIPTION, language);
}

function parameters(endpoint: Endpoint, method: HttpMethod, language: DocLanguage) {
  const args = Object.entries(endpoint.args).filter(([, def]) => placeOf(def, method) !== 'body');
  // Path parameters first, in the order of the path; then query parameters.
  const ordered = [
    ...args.filter(([, def]) => def.meta.in === 'path'),
    ...args.filter(([, def]) => def.meta.in !== 'path'),
  ];
  return [
    ...ordered.map(([name, def]) => {
      const inPath = def.meta.in === 'path';
      return {
        name,
        in: inPath ? 'path' : 'query',
        description: describe(def.meta.description, language),
        required: inPath ? true : (def.meta.required ?? false),
        schema: argSchema(def),
        // CSV lists (`a,b` or `a[]=…`): WordPress' list_to_array.
        ...(def.meta.items && !inPath ? { style: 'form', explode: false } : {}),
      };
    }),
    {
      name: 'ml_language',
      in: 'query',
      description: translateDescription(ML_LANGUAGE_DESCRIPTION, language),
      required: false,
      schema: { type: 'string', enum: [...LANGUAGES] },
    },
  ];
}

function requestBody(endpoint: Endpoint, method: HttpMethod, language: DocLanguage) {
  const whole = endpoint.doc.body && componentRef(endpoint.doc.body);
  if (whole && BODY_METHODS.has(method))
    return { required: true, content: { 'application/json': { schema: whole } } };
  const fields = Object.entries(endpoint.args).filter(([, def]) => placeOf(def, method) === 'body');
  if (fields.length === 0) return undefined;
  const required = fields.filter(([, def]) => def.meta.required).map(([name]) => name);
  const schema = {
    type: 'object',
    properties: Object.fromEntries(
      fields.map(([name, def]) => [
        name,
        { ...argSchema(def), description: describe(def.meta.description, language) },
      ]),
    ),
    ...(required.length > 0 ? { required } : {}),
  };
  return {
    required: required.length > 0,
    content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
  };
}

const ARCHIVE_HEADERS = {
  'X-WP-Total': { description: 'Total number of items', schema: { type: 'integer' } },
  'X-WP-TotalPages': { description: 'Total number of pages', schema: { type: 'integer' } },
  Link: { description: 'rel="next" / rel="prev" page links (RFC 8288)', schema: { type: 'string' } },
};
const ETAG_HEADER = {
  ETag: { description: 'Version of the record, for If-Match', schema: { type: 'string' } },
};

/** Answers any operation may give besides its own (credentials, throttling, bodies, storage). */
function genericResponses(method: HttpMethod): Record<string, { description: string; headers?: object }> {
  return {
    '401': { description: 'Wrong or unknown credentials, or none where the operation needs them' },
    ...(BODY_METHODS.has(method)
      ? {
          '413': { description: 'Request body larger than 1 MiB' },
          '415': { description: 'Body neither application/json nor application/x-www-form-urlencoded' },
        }
      : {}),
    '429': {
      description:
        method === 'GET'
          ? 'Too many failed sign-ins from this client'
          : 'Too many failed sign-ins from this client, or (rest_write_budget_exceeded) an account below editor ' +
            'has added as many records or repeating events this hour as the site settings allow',
      headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } },
    },
    ...(method === 'GET' ? {} : { '503': { description: 'The change could not be saved; nothing changed' } }),
  };
}

function responses(endpoint: Endpoint, method: HttpMethod, routeIsCollection: boolean) {
  const declared: Array<[string, { description: string; schema?: z.ZodType; headers?: object }]> =
    Object.entries(endpoint.doc.responses);
  for (const [status, response] of Object.entries(genericResponses(method))) {
    if (!(status in endpoint.doc.responses)) declared.push([status, response]);
  }
  declared.sort(([a], [b]) => Number(a) - Number(b));
  return Object.fromEntries(
    declared.map(([status, response]) => {
      const code = Number(status);
      const schema =
        (response.schema ? componentRef(response.schema) : undefined) ??
        (code >= 400 ? { $ref: '#/components/schemas/Error' } : undefined);
      const isArchive = code === 200 && routeIsCollection && method === 'GET';
      const headers = isArchive
        ? ARCHIVE_HEADERS
        : code === 201
          ? {
              ...ETAG_HEADER,
              Location: { description: 'Address of the new record', schema: { type: 'string' } },
            }
          : code < 300 && schema
            ? ETAG_HEADER
            : response.headers;
      return [
        status,
        {
          description: response.description,
          ...(headers ? { headers } : {}),
          ...(schema ? { content: { 'application/json': { schema } } } : {}),
        },
      ];
    }),
  );
}

/** `getEvents`, `patchEventsId`, `deleteVenuesBySlugSlug`: unique per method and path. */
function operationId(method: HttpMethod, docPath: string): string {
  const words = docPath
    .split(/[/{}-]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1));
  return method.toLowerCase() + words.join('');
}

/** Reads are public (credentials optional); writes need a bearer token or an application password. */
const READ_SECURITY = [{}, { bearer: [] }, { applicationPassword: [] }];
const WRITE_SECURITY = [{ bearer: [] }, { applicationPassword: [] }];

/** Schemas of the records the API returns (src/shared/schemas/records.ts), as OpenAPI components. */
function componentSchemas(): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
  }) as { schemas: Record<string, JsonSchema> };
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      // `$id` would re-base the references inside the schema (and may not carry a fragment in 2020-12).
      const { $id: _id, id: _metaId, ...rest } = tidy(schema);
      return [id, rest];
    }),
  );
}

/**
 * The OpenAPI 3.1 document of the namespace (REFERENCE §9.2 as CONTRACT §1 amends it), generated from the same
 * zod schemas that validate requests and the record schemas the responses are tested against. Paths in
 * registration order; like the reference's document it does not list the namespace index itself.
 */
export function openApiDocument(
  routes: RouteDef[],
  links: Links,
  language: DocLanguage,
  /** Which namespace `routes` are of: the admin one has its own document (and no language roots). */
  namespace: 'public' | 'admin' = 'public',
) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (route.pattern === '') continue;
    const isCollection = !route.params && !route.pattern.includes('(?P<') && route.pattern !== '/doc';
    const item: Record<string, unknown> = {};
    for (const endpoint of route.endpoints) {
      for (const method of endpoint.methods) {
        const body = requestBody(endpoint, method, language);
        item[method.toLowerCase()] = {
          operationId: operationId(method, route.docPath),
          tags: [route.docPath.split('/')[1]],
          summary: endpoint.doc.summary,
          parameters: parameters(endpoint, method, language),
          ...(body ? { requestBody: body } : {}),
          responses: responses(endpoint, method, isCollection),
          security: method === 'GET' ? READ_SECURITY : WRITE_SECURITY,
        };
      }
    }
    paths[route.docPath] = item;
  }
  return {
    openapi: '3.1.0',
    info: {
      version: '1.0.0',
      title: 'Calendar Desk REST API',
      description:
        namespace === 'admin'
          ? `The ${ADMIN_NAMESPACE} API of Calendar Desk, for administrators: settings, users, sync, import and export, feeds, merging venues and organizers.`
          : `The ${NAMESPACE} API of Calendar Desk: events, venues, organizers, event categories and event tags, compatible with The Events Calendar REST API v1.`,
    },
    servers: [{ url: namespace === 'admin' ? `${links.siteUrl}/wp-json/${ADMIN_NAMESPACE}` : links.nsRoot }],
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An API token (calendar-desk token)' },
        applicationPassword: {
          type: 'http',
          scheme: 'basic',
          description: 'login:application-password (calendar-desk users add)',
        },
      },
    },
    paths,
  };
}
