import { z } from 'zod';
import { LANGUAGES, NAMESPACE } from '../../../shared/enums';
import type { CalendarStore } from '../../store/store';
import { defaultOf, type ArgDef, type ArgSpec } from '../args/define';
import { translateDescription, type DocLanguage } from '../i18n/descriptions';
import type { Links } from '../links';
import type { Endpoint, RouteDef } from './table';

/** `ml_language`, accepted by every route (seed: "Every operation accepts the optional ml_language"). */
const ML_LANGUAGE_INDEX = {
  description: 'Language of the records: on lists a filter, on creates the language of the new record',
  type: 'string',
  enum: [...LANGUAGES],
  required: false,
};

function indexArg(def: ArgDef, language: DocLanguage) {
  const meta = def.meta;
  const value = defaultOf(meta);
  return {
    ...(value !== undefined ? { default: value } : {}),
    description: translateDescription(meta.description, language),
    ...(meta.type ? { type: meta.type } : {}),
    ...(meta.format ? { format: meta.format } : {}),
    ...(meta.items ? { items: meta.items } : {}),
    required: meta.required ?? false,
  };
}

function indexArgs(args: ArgSpec, language: DocLanguage) {
  const entries: Array<[string, object]> = Object.entries(args).map(([name, def]) => [
    name,
    indexArg(def, language),
  ]);
  entries.push([
    'ml_language',
    { ...ML_LANGUAGE_INDEX, description: translateDescription(ML_LANGUAGE_INDEX.description, language) },
  ]);
  return Object.fromEntries(entries);
}

/** The `routes` object of WordPress' namespace index (REFERENCE §9.1). */
export function indexRoutes(routes: RouteDef[], links: Links, language: DocLanguage) {
  const root = `${links.apiRoot}${NAMESPACE}`;
  return Object.fromEntries(
    routes.map((route) => {
      const key = `/${NAMESPACE}${route.pattern}`;
      const entry = {
        namespace: NAMESPACE,
        methods: route.endpoints.flatMap((endpoint) => endpoint.methods),
        endpoints: route.endpoints.map((endpoint) => ({
          methods: endpoint.methods,
          args:
            Object.keys(endpoint.args).length === 0 && route.pattern === '/doc'
              ? []
              : indexArgs(endpoint.args, language),
        })),
        ...(route.params || route.pattern.includes('(?P<')
          ? {}
          : { _links: { self: [{ href: `${root}${route.pattern}` }] } }),
      };
      return [key, entry];
    }),
  );
}

export function namespaceIndex(routes: RouteDef[], links: Links, language: DocLanguage) {
  return {
    namespace: NAMESPACE,
    routes: indexRoutes(routes, links, language),
    _links: { up: [{ href: links.apiRoot }] },
  };
}

/** `GET /wp-json/`: WordPress' site index, so generic WordPress clients discover the namespace. */
export function siteIndex(links: Links, store: CalendarStore, routes: RouteDef[], language: DocLanguage) {
  return {
    name: store.settings.siteName,
    description: store.settings.siteDescription,
    url: links.siteUrl,
    home: links.siteUrl,
    gmt_offset: 0,
    timezone_string: store.settings.timezone,
    namespaces: [NAMESPACE],
    authentication: {
      'application-passwords': { endpoints: {} },
      'bearer-token': {
        header: 'Authorization: Bearer <token>',
        help: 'calendar-desk token --data <folder>',
      },
    },
    routes: indexRoutes(routes, links, language),
    _links: { help: [{ href: `${links.apiRoot}${NAMESPACE}/doc` }] },
  };
}

// ----- OpenAPI 3.1 -------------------------------------------------------------------------------------

function componentRef(schema: z.ZodType): object | undefined {
  const id = z.globalRegistry.get(schema)?.id;
  return id ? { $ref: `#/components/schemas/${id}` } : undefined;
}

function argSchema(def: ArgDef): Record<string, unknown> {
  const schema = z.toJSONSchema(def.schema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete schema.$schema;
  return schema;
}

function parameters(endpoint: Endpoint, inBody: boolean, language: DocLanguage) {
  return Object.entries(endpoint.args)
    .filter(([, def]) => def.meta.in === 'path' || !inBody)
    .map(([name, def]) => ({
      name,
      in: def.meta.in === 'path' ? 'path' : 'query',
      description: translateDescription(def.meta.description, language) || 'No description provided',
      required: def.meta.in === 'path' ? true : (def.meta.required ?? false),
      schema: argSchema(def),
      ...(def.meta.items ? { style: 'form', explode: false } : {}),
    }));
}

function requestBody(endpoint: Endpoint, language: DocLanguage) {
  const fields = Object.entries(endpoint.args).filter(([, def]) => def.meta.in !== 'path');
  const schema = {
    type: 'object',
    properties: Object.fromEntries(
      fields.map(([name, def]) => [
        name,
        { ...argSchema(def), description: translateDescription(def.meta.description, language) },
      ]),
    ),
    required: fields.filter(([, def]) => def.meta.required).map(([name]) => name),
  };
  return {
    required: schema.required.length > 0,
    content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
  };
}

/** The OpenAPI 3.1 document of the namespace, generated from the same zod schemas that validate requests. */
export function openApiDocument(routes: RouteDef[], links: Links, language: DocLanguage) {
  const components = z.toJSONSchema(z.globalRegistry, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
  }) as { schemas: Record<string, Record<string, unknown>> };
  for (const schema of Object.values(components.schemas)) {
    delete schema.$schema;
    delete schema.id;
  }
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const item: Record<string, unknown> = {};
    for (const endpoint of route.endpoints) {
      for (const method of endpoint.methods) {
        const inBody = method !== 'GET' && method !== 'DELETE';
        item[method.toLowerCase()] = {
          summary: endpoint.doc.summary,
          parameters: [
            ...parameters(endpoint, inBody, language),
            {
              name: 'ml_language',
              in: 'query',
              description: translateDescription(ML_LANGUAGE_INDEX.description, language),
              required: false,
              schema: { type: 'string', enum: [...LANGUAGES] },
            },
          ],
          ...(inBody && Object.keys(endpoint.args).some((name) => endpoint.args[name].meta.in !== 'path')
            ? { requestBody: requestBody(endpoint, language) }
            : {}),
          responses: Object.fromEntries(
            Object.entries(endpoint.doc.responses).map(([status, response]) => {
              const ref = response.schema ? componentRef(response.schema) : undefined;
              const errorRef = Number(status) >= 400 ? { $ref: '#/components/schemas/Error' } : undefined;
              const schema = ref ?? errorRef;
              return [
                status,
                {
                  description: response.description,
                  ...(schema ? { content: { 'application/json': { schema } } } : {}),
                },
              ];
            }),
          ),
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
        'The cal/events/v1 API of Calendar Desk: events, venues, organizers, event categories and event tags, compatible with The Events Calendar REST API v1.',
    },
    servers: [{ url: links.nsRoot }],
    components: {
      ...components,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        applicationPassword: { type: 'http', scheme: 'basic' },
      },
    },
    paths,
  };
}
