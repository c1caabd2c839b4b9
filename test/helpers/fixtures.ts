import { expect } from 'vitest';
import type { z } from 'zod';
import type { ApiResult, TestServer } from './server';

type Auth = Record<string, string>;

/** One user of each role below administrator, with the logins the resource tests use. */
export async function roleUsers(server: TestServer) {
  return {
    author: await server.userHeaders('arturo', 'author'),
    contributor: await server.userHeaders('carla', 'contributor'),
    subscriber: await server.userHeaders('sue', 'subscriber'),
    editor: await server.userHeaders('edna', 'editor'),
  };
}

/** A POST as the admin (or `auth`), JSON in and out. */
export const postAs = (server: TestServer, path: string, json: unknown, auth: Auth = server.admin) =>
  server.api(path, { method: 'POST', json, auth });

/** The body of an answer with that status, parsed strictly with the record schema the API documents. */
export function expectRecord(schema: z.ZodType, result: ApiResult, status = 200) {
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  schema.parse(result.body);
  return result.body;
}

/** The keys of a venue with an address (alone or embedded in an event), in the reference's order (sample 40). */
export const VENUE_WITH_ADDRESS_KEYS = [
  'id',
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'url',
  'venue',
  'slug',
  'address',
  'city',
  'country',
  'show_map',
  'show_map_link',
  'global_id',
  'global_id_lineage',
  'language',
  'uid',
];

/** A real 1×1 PNG, for picture uploads. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
