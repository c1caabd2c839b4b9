import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, eventBody, type ApiResult, type TestServer } from '../helpers/server';
import { postAs } from '../helpers/fixtures';
import {
  eventResponseSchema,
  organizerArchiveSchema,
  organizerResponseSchema,
} from '../../src/shared/schemas/records';

/**
 * Organizers (REFERENCE §2.4, §3.6, §4.7, §5.4, §5.7, §5.9, §6.2, §7.1, §8; CONTRACT §2, §3, §6).
 */
const ANONYMOUS = {};
let server: TestServer;
let contributor: Record<string, string>;
let editor: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer();
  contributor = await server.userHeaders('carla', 'contributor');
  editor = await server.userHeaders('edna', 'editor');
});
afterAll(() => server.close());

function organizer(result: ApiResult, status = 200) {
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  organizerResponseSchema.parse(result.body);
  return result.body;
}

const post = (path: string, json: unknown, auth?: Record<string, string>) => postAs(server, path, json, auth);

async function createOrganizer(json: Record<string, unknown>, auth = server.admin) {
  return organizer(await post('organizers', json, auth), 201);
}

const HEADER = ['id', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url'];
const TAIL = ['global_id', 'global_id_lineage', 'language', 'uid'];

describe('organizer records', () => {
  it('creates with 201 and the key order of samples 16/40 (empty values omitted, json_ld on GET only)', async () => {
    const minimal = await createOrganizer({ organizer: 'Sample Organizer', email: 'sample@example.test' });
    expect(Object.keys(minimal)).toEqual([...HEADER, 'organizer', 'slug', 'email', ...TAIL]);
    expect(minimal).toMatchObject({
      author: '1',
      status: 'publish',
      url: `${server.engine.origin}/organizer/sample-organizer/`,
      organizer: 'Sample Organizer',
      slug: 'sample-organizer',
      email: 'sample@example.test',
      global_id: `127.0.0.1?id=${minimal.id}`,
      global_id_lineage: [`127.0.0.1?id=${minimal.id}`],
    });
    const full = await createOrganizer({
      organizer: 'Seed Organizer 39',
      description: '<p>Organizer 39.</p>',
      phone: '+1 555 0238',
      website: 'https://org39.example.test',
      email: 'organizer39@example.test',
      image: 'https://images.example.test/org.gif',
    });
    const order = [...HEADER, 'organizer', 'description', 'slug', 'image', 'phone', 'website', 'email'];
    expect(Object.keys(full)).toEqual([...order, ...TAIL]);
    const single = await server.api(`organizers/${full.id}`);
    const body = organizer(single);
    expect(Object.keys(body)).toEqual([...order, 'json_ld', ...TAIL]);
    expect(body.json_ld).toMatchObject({
      '@type': 'Person',
      name: 'Seed Organizer 39',
      url: 'https://org39.example.test',
      telephone: '+1 555 0238',
      sameAs: 'https://org39.example.test',
    });
    expect(single.headers.get('etag')).toBeTruthy();
  });

  it('requires a name and validates website but not the e-mail format', async () => {
    const missing = await post('organizers', { email: 'x@example.test' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      code: 'rest_missing_callback_param',
      data: { params: ['organizer'] },
    });
    const empty = await post('organizers', { organizer: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe('rest_invalid_param');
    const badSite = await post('organizers', { organizer: 'Bad site', website: 'foo' });
    expect(badSite.status).toBe(400);
    expect(badSite.body.data.params).toHaveProperty('website');
    const looseEmail = await createOrganizer({ organizer: 'Loose email', email: 'not an e-mail at all' });
    expect(looseEmail.email).toBe('not an e-mail at all');
    const anonymous = await post('organizers', { organizer: 'Anonymous' }, ANONYMOUS);
    expect(anonymous.status).toBe(401);
  });

  it('re-uses an organizer with the same name and writes the sent meta onto it; trashed ones do not count', async () => {
    const first = await createOrganizer({ organizer: 'An Organizer', phone: '111' });
    const again = await createOrganizer({ organizer: 'AN organizer', email: 'new@example.test' });
    expect(again.id).toBe(first.id);
    expect(again).toMatchObject({ organizer: 'An Organizer', phone: '111', email: 'new@example.test' });
    const described = await createOrganizer({ organizer: 'An Organizer', description: 'different' });
    expect(described.id).not.toBe(first.id);
    await server.api(`organizers/${first.id}`, { method: 'DELETE', auth: server.admin });
    await server.api(`organizers/${described.id}`, { method: 'DELETE', auth: server.admin });
    const fresh = await createOrganizer({ organizer: 'An Organizer' });
    expect([first.id, described.id]).not.toContain(fresh.id);
  });

  it('scales the status back and hides drafts from anonymous readers (403 organizer-not-accessible)', async () => {
    const pending = await createOrganizer({ organizer: 'Contributor Org', status: 'publish' }, contributor);
    expect(pending.status).toBe('pending');
    for (const path of [`organizers/${pending.id}`, `organizers/by-slug/${pending.slug}`]) {
      const anonymous = await server.api(path);
      expect(anonymous.status).toBe(403);
      expect(anonymous.body).toEqual({
        code: 'organizer-not-accessible',
        message: 'The requested organizer is not accessible',
        data: { status: 403 },
      });
      expect(organizer(await server.api(path, { auth: editor })).status).toBe('pending');
    }
  });

  it('answers unknown ids and slugs with 400, non-numeric ids with 404', async () => {
    const unknown = await server.api('organizers/99999999');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): id',
      data: { status: 400, params: { id: 'Invalid parameter.' }, details: [] },
    });
    const venue = await post('venues', { venue: 'Not an organizer' });
    expect((await server.api(`organizers/${venue.body.id}`)).status).toBe(400);
    expect((await server.api(`organizers/${venue.body.id}`, { method: 'DELETE' })).status).toBe(400);
    expect((await server.api('organizers/by-slug/nobody-by-this-name')).status).toBe(400);
    expect((await server.api('organizers/abc')).status).toBe(404);
  });

  it('updates as a patch: sent fields written, "" clears, absent kept; by slug too', async () => {
    const created = await createOrganizer({
      organizer: 'Patch Org',
      phone: '123',
      email: 'patch@example.test',
      website: 'https://patch.example.test',
    });
    const updated = organizer(
      await post(`organizers/${created.id}`, { phone: '', email: 'other@example.test' }),
    );
    expect(updated).toMatchObject({
      organizer: 'Patch Org',
      email: 'other@example.test',
      website: 'https://patch.example.test',
    });
    expect(updated).not.toHaveProperty('phone');
    const bySlug = organizer(
      await server.api('organizers/by-slug/patch-org', {
        method: 'PATCH',
        auth: server.admin,
        json: { organizer: 'Renamed Org' },
      }),
    );
    expect(bySlug).toMatchObject({ id: created.id, organizer: 'Renamed Org', email: 'other@example.test' });
    expect((await post(`organizers/${created.id}`, { organizer: '' })).status).toBe(400);
    expect((await post(`organizers/${created.id}`, { city: 'x' }, ANONYMOUS)).status).toBe(401);
    expect((await post(`organizers/${created.id}`, { phone: '9' }, contributor)).status).toBe(403);
    const date = organizer(await post(`organizers/${created.id}`, { date: '2021-02-03 04:05:06' }));
    expect(date.date).toBe('2021-02-03 04:05:06');
  });

  it('refuses a stale If-Match with 412', async () => {
    const created = await createOrganizer({ organizer: 'Tagged Org' });
    const tag = (await server.api(`organizers/${created.id}`)).headers.get('etag')!;
    expect(
      organizer(
        await server.api(`organizers/${created.id}`, {
          method: 'POST',
          auth: server.admin,
          json: { phone: '1' },
          headers: { 'If-Match': tag },
        }),
      ).phone,
    ).toBe('1');
    const stale = await server.api(`organizers/${created.id}`, {
      method: 'DELETE',
      auth: server.admin,
      headers: { 'If-Match': tag },
    });
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe('rest_precondition_failed');
    expect(organizer(await server.api(`organizers/${created.id}`)).status).toBe('publish');
  });

  it('trashes (sample 49), then 410 organizer-is-in-trash; its events hide it until it is restored', async () => {
    const keep = await createOrganizer({ organizer: 'Keeper' });
    const gone = await createOrganizer({ organizer: 'Goner', email: 'goner@example.test' });
    const event = await post('events', eventBody('Two organizers', 4, { organizer: [gone.id, keep.id] }));
    expect(event.status).toBe(201);
    expect(event.body.organizer.map((item: { id: number }) => item.id)).toEqual([gone.id, keep.id]);

    const first = await server.api(`organizers/${gone.id}`, { method: 'DELETE', auth: server.admin });
    const body = organizer(first);
    expect(Object.keys(body)).toEqual([...HEADER, 'organizer', 'slug', 'email', ...TAIL]);
    expect(body).toMatchObject({
      status: 'trash',
      slug: 'goner__trashed',
      url: `${server.engine.origin}/?post_type=tribe_organizer&p=${gone.id}`,
    });
    const second = await server.api(`organizers/${gone.id}`, { method: 'DELETE', auth: server.admin });
    expect(second.status).toBe(410);
    expect(second.body).toEqual({
      code: 'organizer-is-in-trash',
      message: 'The organizer is already trashed',
      data: { status: 410 },
    });
    const after = await server.api(`events/${event.body.id}`);
    eventResponseSchema.parse(after.body);
    expect(after.body.organizer.map((item: { id: number }) => item.id)).toEqual([keep.id]);
    expect((await server.api(`events?organizer=${gone.id}`)).body.events).toEqual([]);

    const restored = await post(`organizers/${gone.id}`, { status: 'publish' });
    expect(organizer(restored)).toMatchObject({ status: 'publish', slug: 'goner' });
    const back = await server.api(`events/${event.body.id}`);
    expect(back.body.organizer.map((item: { id: number }) => item.id)).toEqual([gone.id, keep.id]);
  });

  it('creates organizers inline from events in request order (REFERENCE §5.4)', async () => {
    const one = await createOrganizer({ organizer: 'Inline One' });
    const two = await createOrganizer({ organizer: 'Inline Two' });
    const result = await post(
      'events',
      eventBody('Inline organizers', 6, {
        organizer: [
          { organizer: 'Inline A', email: 'a@example.test' },
          { id: one.id },
          { id: two.id },
          { organizer: 'Inline C', phone: '42' },
        ],
      }),
    );
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    eventResponseSchema.parse(result.body);
    const embedded = result.body.organizer;
    expect(embedded.map((item: { organizer: string }) => item.organizer)).toEqual([
      'Inline A',
      'Inline One',
      'Inline Two',
      'Inline C',
    ]);
    expect(Object.keys(embedded[0])).toEqual([...HEADER, 'organizer', 'slug', 'email', ...TAIL]);
    // Re-sending the inline organizer re-uses it.
    const again = await post(
      'events',
      eventBody('Inline again', 7, { organizer: [{ organizer: 'inline a' }] }),
    );
    expect(again.body.organizer[0].id).toBe(embedded[0].id);
    const bad = await post('events', eventBody('Bad inline', 7, { organizer: [{ email: 'no name' }] }));
    expect(bad.status).toBe(400);
    expect(bad.body.data.params).toHaveProperty('organizer');
  });
});

describe('GET /organizers', () => {
  let local: TestServer;
  let localEditor: Record<string, string>;
  beforeAll(async () => {
    local = await startTestServer();
    localEditor = await local.userHeaders('edna', 'editor');
    const create = async (json: Record<string, unknown>) => {
      const result = await local.api('organizers', { method: 'POST', auth: local.admin, json });
      expect(result.status).toBe(201);
      return result.body.id as number;
    };
    const one = await create({
      organizer: 'One',
      email: 'one@common.com',
      phone: '1111',
      date: '2020-01-01 00:00:00',
    });
    await create({ organizer: 'Two', email: 'two@common.com', phone: '2222', date: '2020-01-02 00:00:00' });
    const three = await create({
      organizer: 'Three',
      email: 'three@three.com',
      phone: '311114',
      date: '2020-01-03 00:00:00',
    });
    const draft = await create({ organizer: 'Draft Org', status: 'draft', date: '2020-01-04 00:00:00' });
    const event = (json: Record<string, unknown>) =>
      local.api('events', { method: 'POST', auth: local.admin, json });
    expect((await event(eventBody('With one', 3, { organizer: [one] }))).status).toBe(201);
    expect(
      (await event(eventBody('Draft with three', 3, { organizer: [three], status: 'draft' }))).status,
    ).toBe(201);
    expect((await event(eventBody('Draft org event', 3, { organizer: [draft] }))).status).toBe(201);
    for (let n = 1; n <= 9; n++) await create({ organizer: `Filler ${n}`, date: `2019-01-0${n} 00:00:00` });
  });
  afterAll(() => local.close());

  const list = async (query: string, auth: Record<string, string> = ANONYMOUS) => {
    const result = await local.api(`organizers?${query}`, { auth });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    organizerArchiveSchema.parse(result.body);
    return result;
  };
  const names = (result: ApiResult) =>
    result.body.organizers.map((item: { organizer: string }) => item.organizer);

  it('pages newest first with the envelope of sample 15', async () => {
    const result = await list('');
    expect(Object.keys(result.body)).toEqual([
      'organizers',
      'rest_url',
      'next_rest_url',
      'total',
      'total_pages',
    ]);
    expect(names(result).slice(0, 3)).toEqual(['Three', 'Two', 'One']);
    expect(result.body.total).toBe(12);
    expect(result.body.total_pages).toBe(2);
    expect(result.body.rest_url).toBe(`${local.base}organizers/?page=1&per_page=10&status=publish`);
    expect(result.body.next_rest_url).toBe(`${local.base}organizers/?per_page=10&status=publish&page=2`);
    expect(result.headers.get('x-wp-total')).toBe('12');
    expect(result.headers.get('x-wp-totalpages')).toBe('2');
    const last = await list('page=2');
    expect(names(last)).toEqual(['Filler 2', 'Filler 1']);
    expect(last.body.previous_rest_url).toBe(`${local.base}organizers/?per_page=10&status=publish`);
    const past = await local.api('organizers?page=3');
    expect(past.status).toBe(404);
    expect(past.body).toEqual({
      code: 'organizer-archive-page-not-found',
      message: 'The requested organizer archive page does not exist',
      data: { status: 404 },
    });
    expect((await list('per_page=500')).body.rest_url).toContain('per_page=50');
  });

  it('searches title, content, phone, email and website (REFERENCE §4.7 examples)', async () => {
    expect(names(await list('search=three%40three.com'))).toEqual(['Three']);
    expect(names(await list('search=%40common.com')).sort()).toEqual(['One', 'Two']);
    expect(names(await list('search=1111')).sort()).toEqual(['One', 'Three']);
    expect(names(await list('search=no-such-organizer'))).toEqual([]);
  });

  it('filters by has_events, only_with_upcoming, event and status', async () => {
    expect(names(await list('has_events=true'))).toEqual(['One']);
    expect(names(await list('has_events=false&per_page=50'))).not.toContain('One');
    expect(names(await list('has_events=false&per_page=50'))).toContain('Three');
    expect(names(await list('only_with_upcoming=true'))).toEqual(['One']);
    expect(names(await list('only_with_upcoming=true', localEditor))).toEqual(['Draft Org', 'Three', 'One']);
    expect((await local.api('organizers?status=draft')).status).toBe(400);
    expect(names(await list('status=draft', localEditor))).toEqual(['Draft Org']);
    expect((await local.api('organizers?event=99999')).status).toBe(400);
  });
});
