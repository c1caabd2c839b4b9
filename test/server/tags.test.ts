import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, eventBody, type ApiResult, type TestServer } from '../helpers/server';
import { expectRecord, postAs, roleUsers } from '../helpers/fixtures';
import { eventResponseSchema, tagArchiveSchema, termResponseSchema } from '../../src/shared/schemas/records';

/** Event tags (REFERENCE §2.5, §3.8, §4.3, §4.8, §5.8, §7.2, §8; samples 19, 20, 50-52). */
const ANONYMOUS = {};
let server: TestServer;
let author: Record<string, string>;
let contributor: Record<string, string>;
let subscriber: Record<string, string>;
let editor: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer();
  ({ author, contributor, subscriber, editor } = await roleUsers(server));
});
afterAll(() => server.close());

const term = (result: ApiResult, status = 200) => expectRecord(termResponseSchema, result, status);

const post = (path: string, json: unknown, auth?: Record<string, string>) => postAs(server, path, json, auth);

const KEYS = [
  'id',
  'count',
  'description',
  'name',
  'slug',
  'taxonomy',
  'meta',
  'url',
  'urls',
  'language',
  'uid',
];

describe('tag writes (samples 50-52)', () => {
  it('creates with 201, Location and the shape of sample 50 (no parent key)', async () => {
    const result = await post('tags', { name: 'sample-tag-27519' });
    const body = term(result, 201);
    expect(Object.keys(body)).toEqual([...KEYS, '_links']);
    expect(body).toMatchObject({
      count: 0,
      description: '',
      name: 'sample-tag-27519',
      slug: 'sample-tag-27519',
      taxonomy: 'post_tag',
      meta: [],
      url: `${server.engine.origin}/tag/sample-tag-27519/`,
      urls: { self: `${server.base}tags/${body.id}`, collection: `${server.base}tags` },
    });
    expect(body._links.self[0].href).toContain(`/wp/v2/tags/${body.id}`);
    expect(result.headers.get('location')).toContain(`/${body.id}`);
    expect(Object.keys(term(await server.api(`tags/${body.id}`)))).toEqual([...KEYS, '_links']);
  });

  it('deletes permanently with the term as it was (sample 51), then 400 (sample 52)', async () => {
    const created = term(await post('tags', { name: 'doomed-tag', description: 'about to go' }), 201);
    const event = await post('events', eventBody('Tagged event', 4, { tags: [created.id] }));
    expect(event.status).toBe(201);
    const first = await server.api(`tags/${created.id}`, { method: 'DELETE', auth: server.admin });
    const body = term(first);
    expect(Object.keys(body)).toEqual(KEYS);
    expect(body).toMatchObject({ id: created.id, count: 1, name: 'doomed-tag', description: 'about to go' });
    const second = await server.api(`tags/${created.id}`, { method: 'DELETE', auth: server.admin });
    expect(second.status).toBe(400);
    expect(second.body).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): id',
      data: { status: 400, params: { id: 'Invalid parameter.' }, details: [] },
    });
    const read = await server.api(`events/${event.body.id}`);
    eventResponseSchema.parse(read.body);
    expect(read.body.tags).toEqual([]);
  });

  it('refuses a parent: tags are not hierarchical', async () => {
    const created = await post('tags', { name: 'child tag', parent: 1 });
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({
      code: 'rest_taxonomy_not_hierarchical',
      message: 'Cannot set parent term, taxonomy is not hierarchical.',
      data: { status: 400 },
    });
    const tag = term(await post('tags', { name: 'flat tag' }), 201);
    const updated = await post(`tags/${tag.id}`, { parent: 0 });
    expect(updated.status).toBe(400);
    expect(updated.body.code).toBe('rest_taxonomy_not_hierarchical');
  });

  it('refuses a duplicate name (term_exists with data.term_id)', async () => {
    const jazz = term(await post('tags', { name: 'jazz' }), 201);
    const duplicate = await post('tags', { name: 'JAZZ' });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toEqual({
      code: 'term_exists',
      message: 'A term with the name provided already exists in this taxonomy.',
      data: { status: 400, term_id: jazz.id },
    });
    const sameSlug = await post('tags', { name: 'Jazz', slug: 'jazz' });
    expect(sameSlug.status).toBe(400);
    expect(sameSlug.body.code).toBe('term_exists');
  });

  it('lets only editors and admins manage tags', async () => {
    const byEditor = term(await post('tags', { name: 'editor tag' }, editor), 201);
    for (const [who, auth, status] of [
      ['author', author, 403],
      ['contributor', contributor, 403],
      ['subscriber', subscriber, 403],
      ['anonymous', ANONYMOUS, 401],
    ] as const) {
      const created = await post('tags', { name: `${who} tag` }, auth);
      expect(created.status, who).toBe(status);
      expect(created.body.code).toBe('rest_forbidden');
      expect((await post(`tags/${byEditor.id}`, { name: 'renamed' }, auth)).status, who).toBe(status);
      expect((await server.api(`tags/${byEditor.id}`, { method: 'DELETE', auth })).status, who).toBe(status);
      expect((await server.api('tags/99999', { method: 'DELETE', auth })).status, who).toBe(400);
    }
    expect(term(await post(`tags/${byEditor.id}`, { name: 'renamed by editor' }, editor)).name).toBe(
      'renamed by editor',
    );
  });

  it('updates as a patch with _links', async () => {
    const created = term(await post('tags', { name: 'patch tag', description: 'kept' }), 201);
    const updated = term(
      await server.api(`tags/${created.id}`, {
        method: 'PATCH',
        auth: server.admin,
        json: { slug: 'patched' },
      }),
    );
    expect(updated).toMatchObject({ name: 'patch tag', description: 'kept', slug: 'patched' });
    expect(updated).toHaveProperty('_links');
    expect(updated).not.toHaveProperty('parent');
    expect((await post(`tags/${created.id}`, { description: '' })).status).toBe(400);
  });

  it('honours If-Match on update and delete (412 changes nothing)', async () => {
    const created = await post('tags', { name: 'etag tag' });
    const tag = created.headers.get('etag')!;
    expect(tag).toBeTruthy();
    expect((await server.api(`tags/${created.body.id}`)).headers.get('etag')).toBe(tag);
    const updated = await server.api(`tags/${created.body.id}`, {
      method: 'POST',
      auth: server.admin,
      json: { description: 'first' },
      headers: { 'If-Match': tag },
    });
    expect(term(updated).description).toBe('first');
    const stale = await server.api(`tags/${created.body.id}`, {
      method: 'POST',
      auth: server.admin,
      json: { description: 'second' },
      headers: { 'If-Match': tag },
    });
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe('rest_precondition_failed');
    const staleDelete = await server.api(`tags/${created.body.id}`, {
      method: 'DELETE',
      auth: server.admin,
      headers: { 'If-Match': tag },
    });
    expect(staleDelete.status).toBe(412);
    expect(term(await server.api(`tags/${created.body.id}`)).description).toBe('first');
  });

  it('answers ids of another taxonomy with 400', async () => {
    const category = await post('categories', { name: 'a category' });
    expect(category.status).toBe(201);
    expect((await server.api(`tags/${category.body.id}`)).status).toBe(400);
    expect((await server.api('tags/x')).status).toBe(404);
  });
});

describe('GET /tags', () => {
  let local: TestServer;
  const id: Record<string, number> = {};
  beforeAll(async () => {
    local = await startTestServer();
    for (const name of ['C', 'b', 'A', 'unused']) {
      const result = await local.api('tags', { method: 'POST', auth: local.admin, json: { name } });
      expect(result.status).toBe(201);
      id[name] = result.body.id;
    }
    const result = await local.api('events', {
      method: 'POST',
      auth: local.admin,
      json: eventBody('Tagged', 3, { tags: [id.A, id.b, id.C, 'brand new'] }),
    });
    expect(result.status).toBe(201);
  });
  afterAll(() => local.close());

  const list = async (query: string) => {
    const result = await local.api(`tags?${query}`);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    tagArchiveSchema.parse(result.body);
    for (const item of result.body.tags) {
      termResponseSchema.parse(item);
      expect(item).not.toHaveProperty('_links');
      expect(item).not.toHaveProperty('parent');
    }
    return result.body;
  };
  const names = (body: { tags: Array<{ name: string }> }) => body.tags.map((item) => item.name);

  it('sorts by name case-insensitively and hides unused tags by default', async () => {
    const body = await list('');
    expect(Object.keys(body)).toEqual(['rest_url', 'total', 'total_pages', 'tags']);
    expect(names(body)).toEqual(['A', 'b', 'brand new', 'C']);
    expect(body.rest_url).toBe(`${local.base}tags/`);
    expect(names(await list('orderby=name&order=asc'))).toEqual(['A', 'b', 'brand new', 'C']);
    expect(names(await list('hide_empty=false'))).toContain('unused');
    // Names of Object.prototype's members are unknown orders like any other: by name (was a 500).
    for (const orderby of ['__proto__', 'constructor', 'toString'])
      expect(names(await list(`orderby=${orderby}`))).toEqual(['A', 'b', 'brand new', 'C']);
  });

  it('orders by id descending', async () => {
    const body = await list('order=desc&orderby=id&hide_empty=0');
    const ids = body.tags.map((item: { id: number }) => item.id);
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
    expect(ids).toHaveLength(5);
  });

  it('ignores parent (not an argument of tags) and filters by slug and search', async () => {
    expect(names(await list('slug=brand-new'))).toEqual(['brand new']);
    expect(names(await list('search=BRAND'))).toEqual(['brand new']);
    expect(names(await list(`include=${id.A},${id.C}`))).toEqual(['A', 'C']);
    expect((await local.api('tags?include=99999')).status).toBe(400);
  });

  it('pages with next/previous carrying only page', async () => {
    const first = await list('per_page=3');
    expect(names(first)).toEqual(['A', 'b', 'brand new']);
    expect(first).toMatchObject({ total: 4, total_pages: 2, next_rest_url: `${local.base}tags/?page=2` });
    const second = await list('per_page=3&page=2');
    expect(names(second)).toEqual(['C']);
    expect(second.previous_rest_url).toBe(`${local.base}tags/?page=1`);
    expect(second).not.toHaveProperty('next_rest_url');
    expect((await list('per_page=3&page=3')).tags).toEqual([]);
  });
});
