import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it as test } from 'vitest';
import type { z } from 'zod';
import { LANGUAGES } from '../../src/shared/enums';
import {
  eventResponseSchema,
  organizerResponseSchema,
  termResponseSchema,
  venueResponseSchema,
} from '../../src/shared/schemas/records';
import { it } from '../../src/main/server/i18n/it';
import { pl } from '../../src/main/server/i18n/pl';
import { startTestServer, type TestServer } from '../helpers/server';

/** `GET …/doc`: an OpenAPI 3.1 document that validates and describes what the routes do (CONTRACT §1). */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is walked generically
type Json = any;

const NS = 'cal/events/v1';

/** REFERENCE §9.2: paths in registration order (the namespace index itself is not listed, as in the original). */
const PATHS: Record<string, string[]> = {
  '/doc': ['get'],
  '/events': ['get', 'post'],
  '/events/{id}': ['get', 'delete', 'post', 'put', 'patch'],
  '/events/by-slug/{slug}': ['get', 'delete', 'post', 'put', 'patch'],
  '/venues': ['get', 'post'],
  '/venues/{id}': ['get', 'delete', 'post', 'put', 'patch'],
  '/venues/by-slug/{slug}': ['get', 'delete', 'post', 'put', 'patch'],
  '/organizers': ['get', 'post'],
  '/organizers/{id}': ['get', 'delete', 'post', 'put', 'patch'],
  '/organizers/by-slug/{slug}': ['get', 'delete', 'post', 'put', 'patch'],
  '/categories': ['get', 'post'],
  '/categories/{id}': ['get', 'post', 'put', 'patch', 'delete'],
  '/tags': ['get', 'post'],
  '/tags/{id}': ['get', 'post', 'put', 'patch', 'delete'],
};

const RECORD_OF: Record<string, string> = {
  events: 'Event',
  venues: 'Venue',
  organizers: 'Organizer',
  categories: 'Term',
  tags: 'Term',
};
const ARCHIVE_OF: Record<string, string> = {
  events: 'EventArchive',
  venues: 'VenueArchive',
  organizers: 'OrganizerArchive',
  categories: 'CategoryArchive',
  tags: 'TagArchive',
};

let server: TestServer;
let origin: string;
let doc: Json;

beforeAll(async () => {
  server = await startTestServer();
  origin = server.engine.origin;
  const response = await server.api('doc');
  expect(response.status).toBe(200);
  doc = response.body;
});
afterAll(() => server.close());

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const schemaOf = (response: Json) => response?.content?.['application/json']?.schema;

/** Every operation of a document: [path, method, operation]. */
function operations(document: Json): Array<[string, string, Json]> {
  return Object.entries<Json>(document.paths).flatMap(([path, item]) =>
    Object.entries<Json>(item).map(
      ([method, operation]) => [path, method, operation] as [string, string, Json],
    ),
  );
}

/** Every `$ref` anywhere in a value. */
function refs(value: Json, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => refs(item, found));
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref') found.push(inner as string);
      else refs(inner, found);
    }
  }
  return found;
}

describe('/doc', () => {
  test('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(doc.openapi).toBe('3.1.0');
  });

  test('info, and servers[0] is the namespace root with a trailing slash', async () => {
    expect(Object.keys(doc)).toEqual(['openapi', 'info', 'servers', 'components', 'paths']);
    expect(doc.info).toMatchObject({
      version: '1.0.0',
      title: expect.any(String),
      description: expect.any(String),
    });
    expect(doc.servers).toEqual([{ url: `${origin}/wp-json/${NS}/` }]);
    const italian = await server.api(`${origin}/it/wp-json/${NS}/doc`);
    expect(italian.body.servers).toEqual([{ url: `${origin}/it/wp-json/${NS}/` }]);
  });

  test('paths and methods in registration order (REFERENCE §9.2)', () => {
    expect(Object.keys(doc.paths)).toEqual(Object.keys(PATHS));
    for (const [path, methods] of Object.entries(PATHS))
      expect(Object.keys(doc.paths[path]), path).toEqual(methods);
  });

  test('components: the record schemas of records.ts, every $ref resolves, no $id', () => {
    const schemas = doc.components.schemas;
    for (const name of [
      'Event',
      'Venue',
      'Organizer',
      'Term',
      'EmbeddedTerm',
      'Image',
      'CostDetails',
      'DateDetails',
      ...Object.values(ARCHIVE_OF),
      'Error',
    ]) {
      expect(schemas[name], name).toMatchObject({ type: 'object', properties: expect.any(Object) });
      expect(schemas[name].$id, name).toBeUndefined();
    }
    for (const target of refs(doc)) {
      expect(target).toMatch(/^#\/components\/schemas\/\w+$/);
      expect(schemas[target.split('/').pop()!], target).toBeDefined();
    }
    const matches = (name: string, schema: z.ZodObject) => {
      const shape = schema.shape as Record<string, z.ZodType>;
      expect(Object.keys(schemas[name].properties), name).toEqual(Object.keys(shape));
      expect(schemas[name].required, name).toEqual(
        Object.keys(shape).filter((key) => !shape[key].safeParse(undefined).success),
      );
      expect(schemas[name].additionalProperties, name).toBe(false);
    };
    matches('Event', eventResponseSchema);
    matches('Venue', venueResponseSchema);
    matches('Organizer', organizerResponseSchema);
    matches('Term', termResponseSchema);
  });

  test('responses name the schemas the server returns', () => {
    for (const [path, method, operation] of operations(doc)) {
      const [, section] = path.split('/');
      const where = `${method} ${path}`;
      const isCollection = !path.includes('{');
      for (const [status, response] of Object.entries<Json>(operation.responses)) {
        if (Number(status) >= 400) expect(schemaOf(response), `${where} ${status}`).toEqual(ref('Error'));
      }
      if (path === '/doc') {
        expect(operation.responses['200'].description).toEqual(expect.any(String));
        continue;
      }
      if (isCollection && method === 'get') {
        expect(schemaOf(operation.responses['200']), where).toEqual(ref(ARCHIVE_OF[section]));
        expect(Object.keys(operation.responses['200'].headers), where).toEqual([
          'X-WP-Total',
          'X-WP-TotalPages',
          'Link',
        ]);
      } else if (isCollection) {
        expect(schemaOf(operation.responses['201']), where).toEqual(ref(RECORD_OF[section]));
      } else {
        expect(schemaOf(operation.responses['200']), where).toEqual(ref(RECORD_OF[section]));
      }
      if (method === 'delete' && section !== 'categories' && section !== 'tags') {
        expect(operation.responses['410'], where).toBeDefined();
      }
    }
  });

  test('parameters: path parameters of the template, required; ml_language on every operation', () => {
    const operationIds = new Set<string>();
    for (const [path, method, operation] of operations(doc)) {
      const where = `${method} ${path}`;
      expect(operationIds.has(operation.operationId), where).toBe(false);
      operationIds.add(operation.operationId);
      const template = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      const inPath = operation.parameters.filter((parameter: Json) => parameter.in === 'path');
      expect(
        inPath.map((parameter: Json) => parameter.name),
        where,
      ).toEqual(template);
      for (const parameter of inPath) expect(parameter.required, where).toBe(true);
      const names = operation.parameters.map((parameter: Json) => `${parameter.in} ${parameter.name}`);
      expect(new Set(names).size, where).toBe(names.length);
      expect(operation.parameters.at(-1), where).toEqual({
        name: 'ml_language',
        in: 'query',
        description: expect.any(String),
        required: false,
        schema: { type: 'string', enum: [...LANGUAGES] },
      });
      for (const parameter of operation.parameters) {
        expect(parameter.description, `${where} ${parameter.name}`).toEqual(expect.stringMatching(/\S/));
        expect(parameter.schema, `${where} ${parameter.name}`).toEqual(expect.any(Object));
      }
      expect(operation.security, where).toEqual(expect.any(Array));
    }
  });

  test('GET /events parameters and POST /events body come from the argument specs', () => {
    const list = doc.paths['/events'].get;
    const names = list.parameters.map((parameter: Json) => parameter.name);
    expect(names.slice(0, 3)).toEqual(['page', 'per_page', 'start_date']);
    expect(names).toContain('geoloc_radius');
    const page = list.parameters[0];
    expect(page).toMatchObject({ in: 'query', required: false, description: 'The archive page to return' });
    expect(page.schema.default).toBe(1);
    const categories = list.parameters.find((parameter: Json) => parameter.name === 'categories');
    expect(categories).toMatchObject({ style: 'form', explode: false });

    const create = doc.paths['/events'].post;
    const body = create.requestBody.content['application/json'].schema;
    expect(create.requestBody.required).toBe(true);
    expect(body.required).toEqual(['title', 'start_date', 'end_date']);
    expect(body.properties.title).toMatchObject({ type: 'string', description: 'The event title' });
    expect(create.requestBody.content['application/x-www-form-urlencoded'].schema).toEqual(body);
    const update = doc.paths['/events/{id}'].patch;
    expect(update.requestBody.required).toBe(false);
    expect(update.requestBody.content['application/json'].schema.required).toBeUndefined();
    // `password` is read from the query string on every method of the by-id route.
    expect(update.parameters.map((parameter: Json) => parameter.name)).toEqual([
      'id',
      'password',
      'ml_language',
    ]);
  });

  test('writes need credentials; reads take them optionally', () => {
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['bearer', 'applicationPassword']);
    for (const [path, method, operation] of operations(doc)) {
      if (method === 'get') expect(operation.security, path).toContainEqual({});
      else expect(operation.security, `${method} ${path}`).not.toContainEqual({});
    }
  });
});

describe('/doc translations', () => {
  /** Every human-readable argument description of a document, in a stable order. */
  function descriptions(document: Json): string[] {
    const found: string[] = [];
    for (const [, , operation] of operations(document)) {
      for (const parameter of operation.parameters) found.push(parameter.description);
      const body = operation.requestBody?.content['application/json'].schema;
      for (const property of Object.values<Json>(body?.properties ?? {})) found.push(property.description);
    }
    return found;
  }

  const cases = [
    { name: '/it/wp-json/', url: `/it/wp-json/${NS}/doc`, dictionary: it },
    { name: '/pl/wp-json/', url: `/pl/wp-json/${NS}/doc`, dictionary: pl },
    { name: '?ml_language=pl', url: `/wp-json/${NS}/doc?ml_language=pl`, dictionary: pl },
  ];
  for (const { name, url, dictionary } of cases) {
    test(`${name}: every argument description translated, the rest of the document identical`, async () => {
      const translated = (await server.api(`${origin}${url}`)).body;
      const english = descriptions(doc);
      expect(descriptions(translated)).toEqual(english.map((text) => dictionary[text]));
      const validator = new Validator();
      expect((await validator.validate(structuredClone(translated))).valid).toBe(true);
      // Apart from descriptions and the server address, the documents are the same.
      const strip = (document: Json) =>
        JSON.stringify({ ...document, servers: [] }, (key, value) =>
          key === 'description' && typeof value === 'string' ? '' : value,
        );
      expect(strip(translated)).toBe(strip(doc));
    });
  }

  test('/en/wp-json/ is English', async () => {
    const english = (await server.api(`${origin}/en/wp-json/${NS}/doc`)).body;
    expect(descriptions(english)).toEqual(descriptions(doc));
  });
});
