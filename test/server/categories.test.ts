import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, eventBody, type ApiResult, type TestServer } from '../helpers/server';
import { expectRecord, postAs, roleUsers } from '../helpers/fixtures';
import {
  categoryArchiveSchema,
  embeddedTermSchema,
  eventResponseSchema,
  termResponseSchema,
} from '../../src/shared/schemas/records';

/** Event categories (REFERENCE §2.5, §3.7, §3.8, §4.3, §4.8, §5.8, §7.2, §8.1-8.4; samples 17, 18). */
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

function archive(result: ApiResult) {
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  categoryArchiveSchema.parse(result.body);
  for (const item of result.body.categories) {
    termResponseSchema.parse(item);
    expect(item).not.toHaveProperty('_links');
  }
  return result.body;
}

const post = (path: string, json: unknown, auth?: Record<string, string>) => postAs(server, path, json, auth);

async function createCategory(json: Record<string, unknown>, auth = server.admin) {
  return term(await post('categories', json, auth), 201);
}

const KEYS = [
  'id',
  'count',
  'description',
  'name',
  'slug',
  'taxonomy',
  'parent',
  'meta',
  'url',
  'urls',
  'language',
  'uid',
];

describe('category records and writes', () => {
  it('creates with 201, a Location header and the shape of sample 18 (with _links)', async () => {
    const result = await post('categories', { name: 'Conferences', description: 'Conferences events' });
    const body = term(result, 201);
    expect(Object.keys(body)).toEqual([...KEYS, '_links']);
    expect(body).toMatchObject({
      count: 0,
      description: 'Conferences events',
      name: 'Conferences',
      slug: 'conferences',
      taxonomy: 'tribe_events_cat',
      parent: 0,
      meta: [],
      url: `${server.engine.origin}/events/category/conferences/`,
      urls: { self: `${server.base}categories/${body.id}`, collection: `${server.base}categories` },
      language: 'en',
    });
    expect(body.urls).not.toHaveProperty('up');
    expect(body._links.self[0].href).toContain(`/wp/v2/tribe_events_cat/${body.id}`);
    expect(result.headers.get('location')).toBeTruthy();
    expect(result.headers.get('location')).toContain(`/${body.id}`);

    const single = await server.api(`categories/${body.id}`);
    expect(Object.keys(term(single))).toEqual([...KEYS, '_links']);
  });

  it('gives a subcategory the address of its whole ancestry, and the site answers it (as the original)', async () => {
    const festivals = await createCategory({ name: 'Festivals' });
    const summer = await createCategory({ name: 'Summer', parent: festivals.id });
    const open = await createCategory({ name: 'Open Air', parent: summer.id });
    const origin = server.engine.origin;
    expect(summer.url).toBe(`${origin}/events/category/festivals/summer/`);
    expect(open.url).toBe(`${origin}/events/category/festivals/summer/open-air/`);
    expect(term(await server.api(`categories/${open.id}`)).url).toBe(open.url);
    const listed = archive(await server.api('categories?hide_empty=false&per_page=50')).categories;
    expect(listed.find((item: { id: number }) => item.id === open.id).url).toBe(open.url);

    const event = await post('events', eventBody('Concert under the stars', 10, { categories: [open.id] }));
    expect(event.status).toBe(201);
    for (const url of [open.url, summer.url, festivals.url]) {
      const page = await fetch(url);
      expect(page.status, url).toBe(200);
      expect(await page.text()).toContain('Concert under the stars');
    }
    // The short form is sent to the whole path, as WordPress' canonical redirect does.
    const short = await fetch(`${origin}/events/category/open-air/`, { redirect: 'manual' });
    expect(short.status).toBe(301);
    expect(new URL(short.headers.get('location')!, origin).href).toBe(open.url);
    expect((await fetch(`${origin}/events/category/festivals/no-such/`)).status).toBe(404);
  });

  it('requires a non-empty name and validates description, slug and parent', async () => {
    const missing = await post('categories', { description: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['name'] } });
    for (const [field, value] of [
      ['name', ''],
      ['description', ''],
      ['slug', ''],
      ['parent', ''],
      ['parent', 2389],
      ['parent', 'foo'],
    ] as const) {
      const result = await post('categories', { name: 'Validated', [field]: value });
      expect(result.status, `${field}=${value}`).toBe(400);
      expect(result.body.code).toBe('rest_invalid_param');
      expect(result.body.data.params).toHaveProperty(field);
    }
  });

  it('refuses a duplicate name under the same parent (term_exists with data.term_id)', async () => {
    const music = await createCategory({ name: 'Music' });
    const duplicate = await post('categories', { name: 'music' });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toMatchObject({
      code: 'term_exists',
      message: 'A term with the name provided already exists with this parent.',
      data: { status: 400, term_id: music.id },
    });
    // The same name under another parent is a different category.
    const child = await createCategory({ name: 'Music', parent: music.id });
    expect(child.parent).toBe(music.id);
    expect(child.slug).toBe('music-2');
    expect(child.urls.up).toBe(`${server.base}categories/${music.id}`);
    const again = await post('categories', { name: 'Music', parent: music.id });
    expect(again.status).toBe(400);
    expect(again.body.data.term_id).toBe(child.id);
  });

  it('makes a taken slug unique on create', async () => {
    await createCategory({ name: 'Slugged', slug: 'shared-slug' });
    const other = await createCategory({ name: 'Other Slugged', slug: 'shared-slug' });
    expect(other.slug).toBe('shared-slug-2');
  });

  it('lets authors, editors and admins manage categories; others get 401/403 after validation', async () => {
    const byAuthor = await createCategory({ name: 'By Author' }, author);
    expect(byAuthor.name).toBe('By Author');
    expect((await createCategory({ name: 'By Editor' }, editor)).name).toBe('By Editor');
    for (const [who, auth, status] of [
      ['contributor', contributor, 403],
      ['subscriber', subscriber, 403],
      ['anonymous', ANONYMOUS, 401],
    ] as const) {
      const created = await post('categories', { name: `By ${who}` }, auth);
      expect(created.status, who).toBe(status);
      expect(created.body.code).toBe('rest_forbidden');
      expect((await post(`categories/${byAuthor.id}`, { name: 'x' }, auth)).status, who).toBe(status);
      expect((await server.api(`categories/${byAuthor.id}`, { method: 'DELETE', auth })).status, who).toBe(
        status,
      );
      // Validation first: an unknown id is 400 whoever asks.
      expect((await server.api('categories/99999', { method: 'DELETE', auth })).status, who).toBe(400);
      expect((await post('categories', { name: '' }, auth)).status, who).toBe(400);
    }
  });

  it('updates name, slug, description and parent (200 with _links)', async () => {
    const parent = await createCategory({ name: 'Update Parent' });
    const created = await createCategory({ name: 'To Update', description: 'before' });
    const result = await post(`categories/${created.id}`, {
      name: 'Updated',
      slug: 'updated-slug',
      description: 'after',
      parent: parent.id,
    });
    const body = term(result);
    expect(body).toMatchObject({
      id: created.id,
      name: 'Updated',
      slug: 'updated-slug',
      description: 'after',
      parent: parent.id,
      urls: { up: `${server.base}categories/${parent.id}` },
    });
    expect(body).toHaveProperty('_links');
    // A patch: absent fields are kept.
    const patched = term(
      await server.api(`categories/${created.id}`, {
        method: 'PATCH',
        auth: editor,
        json: { description: 'again' },
      }),
    );
    expect(patched).toMatchObject({
      name: 'Updated',
      slug: 'updated-slug',
      parent: parent.id,
      description: 'again',
    });
    const moved = term(
      await server.api(`categories/${created.id}`, {
        method: 'PUT',
        auth: server.admin,
        json: { parent: 0 },
      }),
    );
    expect(moved.parent).toBe(0);
    expect(moved.urls).not.toHaveProperty('up');
    // Another category's slug is taken; an unknown parent is 400.
    const slugClash = await post(`categories/${created.id}`, { slug: 'update-parent' });
    expect(slugClash.status).toBe(400);
    expect(slugClash.body.code).toBe('duplicate_term_slug');
    expect((await post(`categories/${created.id}`, { parent: 2389 })).status).toBe(400);
    expect((await post(`categories/${created.id}`, { name: '' })).status).toBe(400);
  });

  it('refuses a parent that would make a loop', async () => {
    const top = await createCategory({ name: 'Loop Top' });
    const middle = await createCategory({ name: 'Loop Middle', parent: top.id });
    const bottom = await createCategory({ name: 'Loop Bottom', parent: middle.id });
    expect((await post(`categories/${top.id}`, { parent: top.id })).status).toBe(400);
    expect((await post(`categories/${top.id}`, { parent: bottom.id })).status).toBe(400);
    expect(term(await server.api(`categories/${top.id}`)).parent).toBe(0);
  });

  it('answers unknown, other-taxonomy and non-numeric ids with 400/400/404', async () => {
    const unknown = await server.api('categories/99999');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): id',
      data: { status: 400, params: { id: 'Invalid parameter.' }, details: [] },
    });
    const tag = await post('tags', { name: 'a tag, not a category' });
    expect(tag.status).toBe(201);
    expect((await server.api(`categories/${tag.body.id}`)).status).toBe(400);
    expect((await server.api('categories/abc')).status).toBe(404);
  });

  it('deletes permanently, returning the term as it was; deleting again is 400', async () => {
    const parent = await createCategory({ name: 'Delete Parent' });
    const doomed = await createCategory({ name: 'Doomed', parent: parent.id, description: 'soon gone' });
    const grandchild = await createCategory({ name: 'Grandchild', parent: doomed.id });
    const event = await post('events', eventBody('Categorised', 5, { categories: [doomed.id, parent.id] }));
    expect(event.status).toBe(201);
    expect(event.body.categories.map((item: { id: number }) => item.id).sort()).toEqual(
      [parent.id, doomed.id].sort(),
    );

    const result = await server.api(`categories/${doomed.id}`, { method: 'DELETE', auth: server.admin });
    const body = term(result);
    expect(Object.keys(body)).toEqual(KEYS);
    expect(body).toMatchObject({
      id: doomed.id,
      count: 1,
      name: 'Doomed',
      description: 'soon gone',
      parent: parent.id,
      urls: { up: `${server.base}categories/${parent.id}` },
    });
    const again = await server.api(`categories/${doomed.id}`, { method: 'DELETE', auth: server.admin });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): id',
      data: { status: 400, params: { id: 'Invalid parameter.' }, details: [] },
    });
    expect((await server.api(`categories/${doomed.id}`)).status).toBe(400);
    // Its events lose it; its children move up to its parent.
    const read = await server.api(`events/${event.body.id}`);
    eventResponseSchema.parse(read.body);
    expect(read.body.categories.map((item: { id: number }) => item.id)).toEqual([parent.id]);
    expect(term(await server.api(`categories/${grandchild.id}`)).parent).toBe(parent.id);
  });
});

describe('GET /categories', () => {
  let local: TestServer;
  let localEditor: Record<string, string>;
  const id: Record<string, number> = {};
  const events: Record<string, number> = {};
  beforeAll(async () => {
    local = await startTestServer();
    localEditor = await local.userHeaders('edna', 'editor');
    const create = async (json: Record<string, unknown>) => {
      const result = await local.api('categories', { method: 'POST', auth: local.admin, json });
      expect(result.status, JSON.stringify(result.body)).toBe(201);
      return result.body.id as number;
    };
    id.A = await create({ name: 'A' });
    id.b = await create({ name: 'b' });
    id.C = await create({ name: 'C' });
    id.Foo = await create({ name: 'Foo' });
    id.Other = await create({ name: 'Other', slug: 'foo-bar' });
    id.Child = await create({ name: 'Child', parent: id.A });
    id.Empty = await create({ name: 'Empty' });
    id.DraftOnly = await create({ name: 'DraftOnly' });
    const event = async (json: Record<string, unknown>) => {
      const result = await local.api('events', { method: 'POST', auth: local.admin, json });
      expect(result.status, JSON.stringify(result.body)).toBe(201);
      return result.body;
    };
    events.one = (
      await event(eventBody('One', 3, { categories: [id.A, id.b, id.C, id.Foo, id.Other, id.Child] }))
    ).id;
    events.two = (await event(eventBody('Two', 4, { categories: [id.A, id.C] }))).id;
    events.draft = (
      await event(eventBody('Draft', 4, { categories: [id.DraftOnly, id.A], status: 'draft' }))
    ).id;
    events.none = (await event(eventBody('None', 4))).id;
  });
  afterAll(() => local.close());

  const list = async (query: string) => archive(await local.api(`categories?${query}`));
  const names = (body: { categories: Array<{ name: string }> }) => body.categories.map((item) => item.name);

  it('hides empty categories by default (count = published events) and sorts by name', async () => {
    const body = await list('');
    expect(Object.keys(body)).toEqual(['rest_url', 'total', 'total_pages', 'categories']);
    expect(names(body)).toEqual(['A', 'b', 'C', 'Child', 'Foo', 'Other']);
    expect(body.categories.find((item: { name: string }) => item.name === 'A').count).toBe(2);
    expect(body.rest_url).toBe(`${local.base}categories/`);
    expect(body).toMatchObject({ total: 6, total_pages: 1 });
    const all = await list('hide_empty=false');
    expect(names(all)).toEqual(['A', 'b', 'C', 'Child', 'DraftOnly', 'Empty', 'Foo', 'Other']);
    expect(all.categories.find((item: { name: string }) => item.name === 'DraftOnly').count).toBe(0);
    expect((await local.api('categories?hide_empty=maybe')).status).toBe(400);
  });

  it('reports the same counts in events as in the archive', async () => {
    const event = await local.api(`events/${events.two}`);
    eventResponseSchema.parse(event.body);
    for (const embedded of event.body.categories) {
      embeddedTermSchema.parse(embedded);
      const single = term(await local.api(`categories/${embedded.id}`));
      expect(embedded.count).toBe(single.count);
      expect(embedded).toMatchObject({
        taxonomy: 'tribe_events_cat',
        filter: 'raw',
        term_taxonomy_id: embedded.id,
      });
    }
  });

  it('searches name or slug', async () => {
    expect(names(await list('search=foo'))).toEqual(['Foo', 'Other']);
    expect(names(await list('search=CHI'))).toEqual(['Child']);
    expect((await local.api('categories?search=')).status).toBe(400);
  });

  it('filters by include, exclude, parent, slug', async () => {
    expect(names(await list(`include=${id.A},${id.C}`))).toEqual(['A', 'C']);
    expect(names(await list(`include[]=${id.A}&include[]=${id.b}`))).toEqual(['A', 'b']);
    expect(names(await list(`exclude=${id.A},${id.Foo}`))).toEqual(['b', 'C', 'Child', 'Other']);
    for (const query of ['include=99999', `exclude=${id.A},99999`, 'parent=99999', 'parent=', 'slug=']) {
      const result = await local.api(`categories?${query}`);
      expect(result.status, query).toBe(400);
      expect(result.body.code).toBe('rest_invalid_param');
    }
    expect(names(await list(`parent=${id.A}`))).toEqual(['Child']);
    expect(names(await list('parent=0&hide_empty=0'))).not.toContain('Child');
    expect(names(await list('slug=foo-bar'))).toEqual(['Other']);
  });

  it('filters by post/event (event wins) and validates them as event ids', async () => {
    expect(names(await list(`post=${events.two}`))).toEqual(['A', 'C']);
    expect(names(await list(`event=${events.two}`))).toEqual(['A', 'C']);
    expect(names(await list(`post=${events.one}&event=${events.two}`))).toEqual(['A', 'C']);
    expect(names(await list(`event=${events.draft}&hide_empty=false`))).toEqual(['A', 'DraftOnly']);
    expect(names(await list(`event=${events.none}`))).toEqual([]);
    for (const query of ['post=', 'post=99999', 'post=foo', 'event=99999', 'event=foo']) {
      const result = await local.api(`categories?${query}`);
      expect(result.status, query).toBe(400);
      expect(result.body.code).toBe('rest_invalid_param');
    }
    const venue = await local.api('venues', {
      method: 'POST',
      auth: local.admin,
      json: { venue: 'Not an event' },
    });
    expect((await local.api(`categories?post=${venue.body.id}`)).status).toBe(400);
  });

  it('orders by orderby/order', async () => {
    expect(names(await list('orderby=name&order=asc'))).toEqual(['A', 'b', 'C', 'Child', 'Foo', 'Other']);
    expect(names(await list('orderby=name&order=desc'))).toEqual(['Other', 'Foo', 'Child', 'C', 'b', 'A']);
    const byId = await list('order=desc&orderby=id&hide_empty=false');
    const ids = byId.categories.map((item: { id: number }) => item.id);
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
    expect(
      names(await list('orderby=count&order=desc'))
        .slice(0, 2)
        .sort(),
    ).toEqual(['A', 'C']);
    expect(
      names(await list('orderby=count&order=asc&hide_empty=false'))
        .slice(0, 2)
        .sort(),
    ).toEqual(['DraftOnly', 'Empty']);
    expect(names(await list('orderby=slug'))).toEqual(['A', 'b', 'C', 'Child', 'Foo', 'Other']);
    expect((await local.api('categories?order=')).status).toBe(400);
    expect((await local.api('categories?orderby=')).status).toBe(400);
  });

  it('pages with bare links; a page past the end is an empty 200', async () => {
    const first = await list('per_page=2&hide_empty=false');
    expect(names(first)).toEqual(['A', 'b']);
    expect(Object.keys(first)).toEqual(['rest_url', 'total', 'total_pages', 'categories', 'next_rest_url']);
    expect(first).toMatchObject({ total: 8, total_pages: 4, rest_url: `${local.base}categories/` });
    expect(first.next_rest_url).toBe(`${local.base}categories/?page=2`);
    const second = await local.api('categories?per_page=2&hide_empty=false&page=2');
    const body = archive(second);
    expect(body.previous_rest_url).toBe(`${local.base}categories/?page=1`);
    expect(body.next_rest_url).toBe(`${local.base}categories/?page=3`);
    expect(second.headers.get('x-wp-total')).toBe('8');
    expect(second.headers.get('x-wp-totalpages')).toBe('4');
    const past = await list('per_page=2&hide_empty=false&page=9');
    expect(past.categories).toEqual([]);
    expect(past).not.toHaveProperty('next_rest_url');
    expect(past.previous_rest_url).toBe(`${local.base}categories/?page=8`);
    const clamped = await list('per_page=5000&hide_empty=false');
    expect(clamped.categories).toHaveLength(8);
    expect((await local.api('categories?per_page=0')).status).toBe(400);
  });

  it('filters by ml_language and shows terms to anyone', async () => {
    const italian = await local.api('categories', {
      method: 'POST',
      auth: localEditor,
      json: { name: 'Musica', ml_language: 'it' },
    });
    expect(term(italian, 201).language).toBe('it');
    expect(names(await list('hide_empty=false&ml_language=it'))).toEqual(['Musica']);
    expect(names(await list('hide_empty=false&ml_language=en'))).not.toContain('Musica');
  });
});
