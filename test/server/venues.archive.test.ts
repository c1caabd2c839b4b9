import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, eventBody, type ApiResult } from '../helpers/server';
import { venueArchiveSchema, venueResponseSchema } from '../../src/shared/schemas/records';

/** `GET /venues` (REFERENCE §2.3, §4.1-4.2, §4.6-4.7; CONTRACT §4). Each block uses its own data folder. */
const ANONYMOUS = {};

async function withServer() {
  const server = await startTestServer();
  const editor = await server.userHeaders('edna', 'editor');
  const contributor = await server.userHeaders('carla', 'contributor');
  const subscriber = await server.userHeaders('sue', 'subscriber');
  const create = async (json: Record<string, unknown>, auth = server.admin) => {
    const result = await server.api('venues', { method: 'POST', auth, json });
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    return result.body as { id: number; slug: string };
  };
  const event = async (json: Record<string, unknown>, auth = server.admin) => {
    const result = await server.api('events', { method: 'POST', auth, json });
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    return result.body as { id: number };
  };
  return { server, editor, contributor, subscriber, create, event };
}

/** A 200 archive page, checked against the strict schema (every venue too). */
function page(result: ApiResult) {
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  venueArchiveSchema.parse(result.body);
  for (const item of result.body.venues) {
    venueResponseSchema.parse(item);
    // json_ld belongs to single reads only.
    expect(item).not.toHaveProperty('json_ld');
  }
  return result.body as {
    venues: Array<{ id: number; venue: string; status: string }>;
    rest_url: string;
    next_rest_url?: string;
    previous_rest_url?: string;
    total: number;
    total_pages: number;
  };
}

const names = (body: { venues: Array<{ venue: string }> }) => body.venues.map((item) => item.venue);

describe('venue archive pagination and envelope', () => {
  let ctx: Awaited<ReturnType<typeof withServer>>;
  const ids: number[] = [];
  beforeAll(async () => {
    ctx = await withServer();
    // 23 venues with distinct publication dates: newest first is V23 … V1.
    for (let n = 1; n <= 23; n++) {
      const day = String(n).padStart(2, '0');
      ids.push((await ctx.create({ venue: `V${n}`, date: `2020-01-${day} 10:00:00` })).id);
    }
  });
  afterAll(() => ctx.server.close());

  it('lists by publication date, newest first, with the envelope and headers of the reference', async () => {
    const result = await ctx.server.api('venues');
    const body = page(result);
    expect(Object.keys(body)).toEqual(['venues', 'rest_url', 'next_rest_url', 'total', 'total_pages']);
    expect(names(body)).toEqual(['V23', 'V22', 'V21', 'V20', 'V19', 'V18', 'V17', 'V16', 'V15', 'V14']);
    const base = `${ctx.server.base}venues/`;
    expect(body.rest_url).toBe(`${base}?page=1&per_page=10&status=publish`);
    expect(body.next_rest_url).toBe(`${base}?per_page=10&status=publish&page=2`);
    expect(body.total).toBe(23);
    expect(body.total_pages).toBe(3);
    expect(result.headers.get('x-wp-total')).toBe('23');
    expect(result.headers.get('x-wp-totalpages')).toBe('3');
    expect(result.headers.get('link')).toContain(`<${ctx.server.base}venues?page=2>; rel="next"`);
    expect(result.headers.get('link')).toContain('rel="https://api.w.org/"');
  });

  it('orders venues with the same date by id, newest first', async () => {
    const a = await ctx.create({ venue: 'Tie A', date: '2019-06-01 00:00:00' });
    const b = await ctx.create({ venue: 'Tie B', date: '2019-06-01 00:00:00' });
    const body = page(await ctx.server.api('venues?per_page=50'));
    const order = body.venues.map((item) => item.id);
    expect(order.indexOf(b.id)).toBe(order.indexOf(a.id) - 1);
    expect(order.slice(-2)).toEqual([b.id, a.id]);
    for (const id of [a.id, b.id]) {
      expect(
        (await ctx.server.api(`venues/${id}`, { method: 'DELETE', auth: ctx.server.admin })).status,
      ).toBe(200);
    }
  });

  it('links the previous page (without page=1) and the next one', async () => {
    const second = page(await ctx.server.api('venues?page=2'));
    const base = `${ctx.server.base}venues/`;
    expect(names(second)[0]).toBe('V13');
    expect(second.rest_url).toBe(`${base}?page=2&per_page=10&status=publish`);
    expect(second.previous_rest_url).toBe(`${base}?per_page=10&status=publish`);
    expect(second.next_rest_url).toBe(`${base}?per_page=10&status=publish&page=3`);
    const third = await ctx.server.api('venues?page=3');
    const body = page(third);
    expect(names(body)).toEqual(['V3', 'V2', 'V1']);
    expect(body).not.toHaveProperty('next_rest_url');
    expect(body.previous_rest_url).toBe(`${base}?per_page=10&status=publish&page=2`);
    expect(third.headers.get('link')).toContain(`<${ctx.server.base}venues?page=2>; rel="prev"`);
    expect(third.headers.get('link')).not.toContain('rel="next"');
  });

  it('answers 404 venue-archive-page-not-found past the last page', async () => {
    const result = await ctx.server.api('venues?page=4');
    expect(result.status).toBe(404);
    expect(result.body).toEqual({
      code: 'venue-archive-page-not-found',
      message: 'The requested venue archive page does not exist',
      data: { status: 404 },
    });
  });

  it('clamps per_page to 50 and refuses non-positive page/per_page', async () => {
    for (let n = 24; n <= 55; n++) await ctx.create({ venue: `W${n}` });
    const body = page(await ctx.server.api('venues?per_page=100'));
    expect(body.venues).toHaveLength(50);
    expect(body.rest_url).toContain('per_page=50');
    expect(body.total).toBe(55);
    expect(body.total_pages).toBe(2);
    for (const query of ['per_page=0', 'per_page=-1', 'per_page=abc', 'page=0', 'page=x']) {
      const result = await ctx.server.api(`venues?${query}`);
      expect(result.status, query).toBe(400);
      expect(result.body.code).toBe('rest_invalid_param');
    }
  });
});

describe('venue archive search (REFERENCE §4.7 examples)', () => {
  let ctx: Awaited<ReturnType<typeof withServer>>;
  beforeAll(async () => {
    ctx = await withServer();
    await ctx.create({
      venue: 'Temple',
      address: '100, Avenue du Temple',
      city: 'Paris',
      phone: '1111 2222',
    });
    await ctx.create({ venue: 'Ile', city: 'Paris', stateprovince: 'France, Ile de France', zip: '751111' });
    await ctx.create({ venue: 'Plain', description: 'A quiet hall on the avenue', zip: '00100' });
    await ctx
      .create({ venue: 'Trashed Temple', address: '100, Avenue du Temple' })
      .then((venue) => ctx.server.api(`venues/${venue.id}`, { method: 'DELETE', auth: ctx.server.admin }));
  });
  afterAll(() => ctx.server.close());

  const search = async (text: string, auth: Record<string, string> = ANONYMOUS) =>
    names(page(await ctx.server.api(`venues?search=${encodeURIComponent(text)}`, { auth }))).sort();

  it('matches when one field contains every fragment, in any order and case', async () => {
    expect(await search('temple avenue')).toEqual(['Temple']);
    expect(await search('france, ile de')).toEqual(['Ile']);
    expect(await search('AVENUE')).toEqual(['Plain', 'Temple']);
    expect(await search('1111')).toEqual(['Ile', 'Temple']);
    expect(await search('quiet')).toEqual(['Plain']);
    // Fragments spread over two fields do not match.
    expect(await search('temple quiet')).toEqual([]);
  });

  it('never matches trashed venues, even for editors asking for the trash', async () => {
    expect(await search('temple', ctx.server.admin)).toEqual(['Temple']);
    const trash = page(await ctx.server.api('venues?status=trash&search=temple', { auth: ctx.editor }));
    expect(trash.venues).toEqual([]);
  });

  it('answers no match with an empty 200 and does not echo the search', async () => {
    const body = page(await ctx.server.api('venues?search=nothing-like-this'));
    expect(body).toMatchObject({ venues: [], total: 0, total_pages: 0 });
    expect(body.rest_url).not.toContain('search');
    const empty = await ctx.server.api('venues?search=');
    expect(empty.status).toBe(400);
    expect(empty.body.data.params).toHaveProperty('search');
  });
});

describe('venue archive filters', () => {
  let ctx: Awaited<ReturnType<typeof withServer>>;
  const venue: Record<string, number> = {};
  const events: Record<string, number> = {};
  beforeAll(async () => {
    ctx = await withServer();
    for (const name of ['Published', 'DraftOnly', 'Lonely', 'PastOnly', 'FutureDraft', 'Private']) {
      venue[name] = (await ctx.create({ venue: name })).id;
    }
    venue.Draft = (await ctx.create({ venue: 'DraftVenue', status: 'draft' })).id;
    venue.Italian = (await ctx.create({ venue: 'Italiano', ml_language: 'it' })).id;
    events.published = (await ctx.event(eventBody('Published event', 5, { venue: venue.Published }))).id;
    events.draft = (
      await ctx.event(eventBody('Draft event', 5, { venue: venue.DraftOnly, status: 'draft' }))
    ).id;
    events.past = (await ctx.event(eventBody('Past event', -30, { venue: venue.PastOnly }))).id;
    events.futureDraft = (
      await ctx.event(eventBody('Future draft', 10, { venue: venue.FutureDraft, status: 'pending' }))
    ).id;
    events.private = (
      await ctx.event(eventBody('Private event', 12, { venue: venue.Private, status: 'private' }))
    ).id;
    events.none = (await ctx.event(eventBody('No venue', 5))).id;
  });
  afterAll(() => ctx.server.close());

  const list = async (query: string, auth: Record<string, string> = ANONYMOUS) =>
    names(page(await ctx.server.api(`venues?per_page=50&${query}`, { auth }))).sort();

  it('event: only the venue of that event; an event without one gives an empty list', async () => {
    expect(await list(`event=${events.published}`)).toEqual(['Published']);
    expect(await list(`event=${events.none}`)).toEqual([]);
    const body = page(await ctx.server.api(`venues?event=${events.published}`));
    expect(body.rest_url).toBe(
      `${ctx.server.base}venues/?page=1&per_page=10&event=${events.published}&status=publish`,
    );
  });

  it('event must be an existing event id', async () => {
    for (const value of [String(venue.Published), '99999', 'foo']) {
      const result = await ctx.server.api(`venues?event=${value}`);
      expect(result.status, value).toBe(400);
      expect(result.body.code).toBe('rest_invalid_param');
      expect(result.body.data.params).toHaveProperty('event');
    }
  });

  it('has_events: linked to an event that is not a draft or pending', async () => {
    expect(await list('has_events=true')).toEqual(['PastOnly', 'Private', 'Published']);
    expect(await list('has_events=1')).toEqual(['PastOnly', 'Private', 'Published']);
    expect(await list('has_events=yes')).toEqual(['PastOnly', 'Private', 'Published']);
    expect(await list('has_events=false')).toEqual(['DraftOnly', 'FutureDraft', 'Italiano', 'Lonely']);
    expect(await list('has_events=0')).toEqual(['DraftOnly', 'FutureDraft', 'Italiano', 'Lonely']);
    const body = page(await ctx.server.api('venues?has_events=true'));
    expect(body.rest_url).toContain('has_events=true');
  });

  it('only_with_upcoming: anonymous callers count published events, editors every status', async () => {
    expect(await list('only_with_upcoming=true')).toEqual(['Published']);
    expect(await list('only_with_upcoming=1', ctx.editor)).toEqual([
      'DraftOnly',
      'FutureDraft',
      'Private',
      'Published',
    ]);
    // An editor asking for published events only counts those.
    expect(await list('only_with_upcoming=1&status=publish', ctx.editor)).toEqual(['Published']);
    expect(await list('only_with_upcoming=false')).toHaveLength(7);
  });

  it('status: anonymous callers may only ask for publish; editors see every status', async () => {
    expect(await list('status=publish')).toHaveLength(7);
    for (const value of ['draft', 'publish,draft', 'publish, draft', 'any']) {
      const result = await ctx.server.api(`venues?status=${encodeURIComponent(value)}`);
      expect(result.status, value).toBe(400);
      expect(result.body.code).toBe('rest_invalid_param');
      expect(result.body.data.params).toHaveProperty('status');
    }
    expect((await ctx.server.api('venues?status=draft', { auth: ctx.subscriber })).status).toBe(400);
    // Editors (and contributors: edit_tribe_venues) see drafts by default, not the trash.
    expect(await list('', ctx.editor)).toContain('DraftVenue');
    expect(await list('', ctx.contributor)).toContain('DraftVenue');
    expect(await list('')).not.toContain('DraftVenue');
    expect(await list('status=draft', ctx.editor)).toEqual(['DraftVenue']);
    expect(await list('status=draft,publish', ctx.editor)).toHaveLength(8);
    for (const value of ['foo', 'foo, bar', 'foo, bar, publish']) {
      expect(
        (await ctx.server.api(`venues?status=${encodeURIComponent(value)}`, { auth: ctx.editor })).status,
      ).toBe(400);
    }
    const editorPage = page(await ctx.server.api('venues', { auth: ctx.editor }));
    expect(editorPage.rest_url).toBe(`${ctx.server.base}venues/?page=1&per_page=10&status=any`);
    const drafts = page(await ctx.server.api('venues?status=draft', { auth: ctx.editor }));
    expect(drafts.rest_url).toBe(`${ctx.server.base}venues/?page=1&per_page=10&status=draft`);
  });

  it('status=trash shows trashed venues to editors only', async () => {
    const trashed = await ctx.create({ venue: 'Binned' });
    await ctx.server.api(`venues/${trashed.id}`, { method: 'DELETE', auth: ctx.server.admin });
    expect(await list('', ctx.editor)).not.toContain('Binned');
    expect(await list('status=trash', ctx.editor)).toEqual(['Binned']);
    expect(await list('')).not.toContain('Binned');
  });

  it('ml_language filters by the record language', async () => {
    expect(await list('ml_language=it')).toEqual(['Italiano']);
    expect(await list('ml_language=en')).not.toContain('Italiano');
    expect((await ctx.server.api('venues?ml_language=xx')).status).toBe(400);
  });

  it('combines filters with AND', async () => {
    expect(await list('has_events=true&only_with_upcoming=true')).toEqual(['Published']);
    expect(await list(`has_events=false&event=${events.published}`)).toEqual([]);
  });
});
