import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { postAs } from '../helpers/fixtures';

/**
 * The wp/v2 term routes that term answers link to (REFERENCE §3.8 `_links`), read-only, in WordPress' shape
 * (as the real site answers them: test/wordpress/wpV2Terms.test.ts compares the two).
 */
let server: TestServer;
let parent: { id: number; url: string };
let child: { id: number; url: string; _links: Record<string, Array<Record<string, unknown>>> };
let tag: { id: number };

beforeAll(async () => {
  server = await startTestServer();
  parent = (await postAs(server, 'categories', { name: 'Festivals' })).body;
  child = (await postAs(server, 'categories', { name: 'Summer', parent: parent.id, description: 'Hot' }))
    .body;
  tag = (await postAs(server, 'tags', { name: 'Outdoor' })).body;
});
afterAll(() => server.close());

const wp = (path: string, init: RequestInit = {}) => fetch(`${server.engine.apiRoot}wp/v2/${path}`, init);
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- WordPress' answers are asserted field by field
const json = async (response: Response): Promise<any> => response.json();

describe('term _links', () => {
  it('point to wp/v2 routes that answer, with targetHints.allow on self (WordPress 6.7+)', async () => {
    expect(Object.keys(child._links)).toEqual(['self', 'collection', 'about', 'up', 'curies']);
    expect(child._links.self).toEqual([
      { href: `${server.engine.apiRoot}wp/v2/tribe_events_cat/${child.id}`, targetHints: { allow: ['GET'] } },
    ]);
    for (const auth of [undefined, server.admin]) {
      const single = await server.api(`categories/${child.id}`, { auth });
      const links = single.body._links as Record<string, Array<{ href: string; templated?: boolean }>>;
      for (const [rel, items] of Object.entries(links)) {
        for (const { href, templated } of items) {
          if (templated) continue;
          const response = await fetch(href, { headers: auth });
          expect(response.status, `${rel} ${href}`).toBe(200);
          // What targetHints promise is what the route allows.
          if (rel === 'self') expect(response.headers.get('allow')).toBe('GET');
        }
      }
    }
  });
});

describe('GET wp/v2/tribe_events_cat and wp/v2/tags', () => {
  it('answers a term in WordPress core shape (link, no language), tags without parent', async () => {
    const category = await wp(`tribe_events_cat/${child.id}`);
    expect(category.status).toBe(200);
    const body = await json(category);
    expect(Object.keys(body)).toEqual([
      'id', 'count', 'description', 'link', 'name', 'slug', 'taxonomy', 'parent', 'meta', '_links',
    ]); // prettier-ignore
    expect(body).toMatchObject({
      id: child.id,
      description: 'Hot',
      link: child.url,
      name: 'Summer',
      taxonomy: 'tribe_events_cat',
      parent: parent.id,
      meta: [],
    });
    const outdoor = await json(await wp(`tags/${tag.id}`));
    expect(outdoor).toMatchObject({ id: tag.id, name: 'Outdoor', taxonomy: 'post_tag' });
    expect(outdoor).not.toHaveProperty('parent');
  });

  it('answers 404 rest_term_invalid for a term of another taxonomy or none, rest_no_route for a non-id', async () => {
    for (const path of [`tags/${child.id}`, `tribe_events_cat/${tag.id}`, 'tags/999999']) {
      const response = await wp(path);
      expect(response.status, path).toBe(404);
      expect(await json(response)).toMatchObject({
        code: 'rest_term_invalid',
        message: 'Term does not exist.',
      });
    }
    const notAnId = await wp('tags/outdoor');
    expect(notAnId.status).toBe(404);
    expect((await json(notAnId)).code).toBe('rest_no_route');
  });

  it('lists terms as WordPress core does: empty ones too, per_page up to 100, paging headers', async () => {
    const all = await wp('tribe_events_cat');
    expect(all.status).toBe(200);
    expect((await json(all)).map((term: { name: string }) => term.name)).toEqual(['Festivals', 'Summer']);
    const first = await wp('tribe_events_cat?per_page=1&orderby=id&order=desc');
    expect(first.headers.get('x-wp-total')).toBe('2');
    expect(first.headers.get('x-wp-totalpages')).toBe('2');
    expect(first.headers.get('link')).toContain('rel="next"');
    expect((await json(first))[0].id).toBe(child.id);
    expect(await json(await wp(`tribe_events_cat?parent=${parent.id}`))).toEqual([
      expect.objectContaining({ id: child.id }),
    ]);
    const tooMany = await wp('tags?per_page=101');
    expect(tooMany.status).toBe(400);
    expect(await json(tooMany)).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)' } },
    });
    for (const bad of ['include=999999', 'page=0', 'hide_empty=maybe']) {
      expect((await wp(`tags?${bad}`)).status, bad).toBe(400);
    }
  });

  it('describes the two taxonomies', async () => {
    const taxonomy = await json(await wp('taxonomies/tribe_events_cat'));
    expect(taxonomy).toMatchObject({
      slug: 'tribe_events_cat',
      hierarchical: true,
      rest_base: 'tribe_events_cat',
      rest_namespace: 'wp/v2',
    });
    expect(Object.keys(await json(await wp('taxonomies')))).toEqual(['tribe_events_cat', 'post_tag']);
    expect((await wp('taxonomies/category')).status).toBe(404);
  });

  it('is read-only: writes answer 404 rest_no_route and change nothing, even for an administrator', async () => {
    for (const [method, path] of [
      ['POST', 'tags'],
      ['POST', `tags/${tag.id}`],
      ['PUT', `tribe_events_cat/${child.id}`],
      ['DELETE', `tags/${tag.id}`],
    ] as const) {
      const response = await wp(path, {
        method,
        headers: { ...server.admin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Changed' }),
      });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect((await json(response)).code).toBe('rest_no_route');
    }
    expect((await server.api(`tags/${tag.id}`)).body.name).toBe('Outdoor');
    expect((await server.api(`categories/${child.id}`)).body.name).toBe('Summer');
  });
});
