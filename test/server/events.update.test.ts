import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { at, createEvent, expectError, expectEventRecord, expectInvalidParams } from './events.helpers';

type Auth = Record<string, string>;
type Method = 'POST' | 'PUT' | 'PATCH';

/** Fields that change on every successful update. */
const VOLATILE = ['modified', 'modified_utc'];

function withoutVolatile(record: Record<string, unknown>, ...more: string[]) {
  return Object.fromEntries(Object.entries(record).filter(([key]) => ![...VOLATILE, ...more].includes(key)));
}

describe('updating events: true patch semantics', () => {
  let server: TestServer;
  let organizers: number[];

  const update = (id: number, json: unknown, method: Method = 'POST', auth: Auth = server.admin) =>
    server.api(`events/${id}`, { method, auth, json });

  /** An event with every optional field set. */
  const rich = async (title = 'Rich event') =>
    createEvent(
      server,
      at(title, '2030-04-01 18:00:00', '2030-04-01 20:00:00', {
        timezone: 'Europe/Rome',
        description: '<p>Long text</p>',
        excerpt: 'Short text',
        website: 'https://rich.example.test',
        cost: '10€ - 20€',
        image: 'https://img.example.test/rich.jpg',
        venue: { venue: 'Rich Venue', city: 'Rome' },
        organizer: organizers,
        categories: ['Alpha', 'Beta'],
        tags: ['one'],
        show_map: false,
        show_map_link: false,
        hide_from_listings: true,
        sticky: true,
        featured: true,
        ticketed: true,
        date: '2020-01-01 10:00:00',
      }),
    );

  beforeAll(async () => {
    server = await startTestServer();
    organizers = [];
    for (const name of ['First Org', 'Second Org']) {
      const result = await server.api('organizers', {
        method: 'POST',
        auth: server.admin,
        json: { organizer: name },
      });
      organizers.push(result.body.id);
    }
  });
  afterAll(() => server.close());

  it.each(['POST', 'PUT', 'PATCH'] as const)('changes only the sent fields with %s', async (method) => {
    const before = await rich(`Rich ${method}`);
    const result = await update(before.id, { title: 'Renamed' }, method);
    expect(result.status).toBe(200);
    const after = expectEventRecord(result.body);
    expect(after.title).toBe('Renamed');
    expect(withoutVolatile(after, 'title')).toEqual(withoutVolatile(before, 'title'));
    expect(after.organizer.map((organizer) => organizer.id)).toEqual(organizers);
    // The update is stored, not just answered.
    const read = await server.api(`events/${before.id}`);
    expect(read.body.title).toBe('Renamed');
    expect(read.body.featured).toBe(true);
  });

  it('updates title, cost and featured as in sample 41, keeping organizers, website and flags', async () => {
    const before = await rich('Sample 41');
    const result = await update(before.id, {
      title: 'Sample created event (updated)',
      cost: '20',
      featured: false,
    });
    const after = expectEventRecord(result.body);
    expect(after.title).toBe('Sample created event (updated)');
    expect(after.cost).toBe('$20');
    expect(after.cost_details).toEqual({
      currency_symbol: '',
      currency_code: '',
      currency_position: '',
      values: ['20'],
    });
    expect(after.featured).toBe(false);
    expect(after.website).toBe('https://rich.example.test');
    expect(after.organizer).toHaveLength(2);
    expect(after.sticky).toBe(true);
    expect(after.timezone).toBe('Europe/Rome');
    expect(after.status).toBe('publish');
    expect(after.date).toBe(before.date);
  });

  it('accepts an empty body and changes nothing but the modification time', async () => {
    const before = await rich('Empty body');
    const after = (await update(before.id, {})).body;
    expect(withoutVolatile(after)).toEqual(withoutVolatile(before));
  });

  it('clears description, excerpt, website, cost and image with null', async () => {
    const before = await rich('Null clears');
    const after = expectEventRecord(
      (await update(before.id, { description: null, excerpt: null, website: null, cost: null, image: null }))
        .body,
    );
    expect(after).toMatchObject({ description: '', excerpt: '', website: '', cost: '', image: false });
    expect(after.cost_details).toEqual({
      currency_symbol: '',
      currency_code: '',
      currency_position: '',
      values: [],
    });
    expect(after.venue).toEqual(before.venue);
    expect(after.featured).toBe(true);
  });

  it('clears the same fields with ""', async () => {
    const before = await rich('Empty clears');
    const after = expectEventRecord(
      (await update(before.id, { description: '', excerpt: '', website: '', cost: '', image: '' })).body,
    );
    expect(after).toMatchObject({ description: '', excerpt: '', website: '', cost: '', image: false });
    const read = (await server.api(`events/${before.id}`)).body;
    expect(read.description).toBe('');
    expect(read.website).toBe('');
  });

  it.each([0, '', [], null, '0'])('removes the venue with venue=%j', async (venue) => {
    const before = await rich('Venue removal');
    expect(before.venue.id).toBeTruthy();
    const after = expectEventRecord((await update(before.id, { venue })).body);
    expect(after.venue).toEqual([]);
    expect(after.organizer).toHaveLength(2);
    expect((await server.api(`events/${before.id}`)).body.venue).toEqual([]);
  });

  it('replaces the venue and the organizers only when sent', async () => {
    const before = await rich('Replace links');
    const after = expectEventRecord(
      (
        await update(before.id, {
          venue: { venue: 'New Venue' },
          organizer: [organizers[1], { organizer: 'Third Org' }],
        })
      ).body,
    );
    expect((after.venue as { venue: string }).venue).toBe('New Venue');
    expect(after.organizer.map((organizer) => organizer.organizer)).toEqual(['Second Org', 'Third Org']);
    const cleared = expectEventRecord((await update(before.id, { organizer: [] })).body);
    expect(cleared.organizer).toEqual([]);
    expect((cleared.venue as { venue: string }).venue).toBe('New Venue');
  });

  it('replaces or clears categories and tags only when sent', async () => {
    const before = await rich('Terms');
    const replaced = expectEventRecord((await update(before.id, { categories: 'Gamma', tags: [] })).body);
    expect(replaced.categories.map((term) => term.name)).toEqual(['Gamma']);
    expect(replaced.tags).toEqual([]);
    const cleared = expectEventRecord((await update(before.id, { categories: '', title: 'Terms 2' })).body);
    expect(cleared.categories).toEqual([]);
    expect(cleared.tags).toEqual([]);
  });

  it('keeps other flags when one flag changes', async () => {
    const before = await rich('Flags');
    const after = expectEventRecord((await update(before.id, { sticky: 'false', show_map: 1 })).body);
    expect(after).toMatchObject({
      sticky: false,
      show_map: true,
      show_map_link: false,
      hide_from_listings: true,
      featured: true,
      ticketed: true,
      all_day: false,
    });
  });

  describe('dates', () => {
    it('moves only the start when only start_date is sent', async () => {
      const before = await rich('Lone start');
      const after = expectEventRecord((await update(before.id, { start_date: '2030-04-01 17:00:00' })).body);
      expect(after.start_date).toBe('2030-04-01 17:00:00');
      expect(after.utc_start_date).toBe('2030-04-01 15:00:00');
      expect(after.end_date).toBe(before.end_date);
      expect(after.timezone).toBe('Europe/Rome');
    });

    it('moves only the end when only end_date is sent, read in the event zone', async () => {
      const before = await rich('Lone end');
      const after = expectEventRecord((await update(before.id, { end_date: '2030-04-01 23:00' })).body);
      expect(after.end_date).toBe('2030-04-01 23:00:00');
      expect(after.utc_end_date).toBe('2030-04-01 21:00:00');
      expect(after.start_date).toBe(before.start_date);
    });

    it('refuses a start after the kept end, and an end before the kept start', async () => {
      const before = await rich('Backwards');
      expectInvalidParams(await update(before.id, { start_date: '2030-04-02 10:00:00' }), 'end_date');
      expectInvalidParams(await update(before.id, { end_date: '2030-03-30 10:00:00' }), 'end_date');
      expectInvalidParams(
        await update(before.id, { start_date: '2030-05-02 10:00:00', end_date: '2030-05-01 10:00:00' }),
        'end_date',
      );
      const read = (await server.api(`events/${before.id}`)).body;
      expect(read.start_date).toBe(before.start_date);
      expect(read.end_date).toBe(before.end_date);
    });

    it('refuses unparseable dates', async () => {
      const before = await rich('Bad dates');
      expectInvalidParams(await update(before.id, { start_date: 'before my birthday' }), 'start_date');
      expectInvalidParams(await update(before.id, { end_date: 'nope' }), 'end_date');
    });

    it('keeps the wall clock and recomputes UTC when only the time zone changes', async () => {
      const before = await rich('Zone change');
      const after = expectEventRecord((await update(before.id, { timezone: 'America/New_York' })).body);
      expect(after.start_date).toBe('2030-04-01 18:00:00');
      expect(after.utc_start_date).toBe('2030-04-01 22:00:00');
      expect(after.timezone).toBe('America/New_York');
      expect(after.timezone_abbr).toBe('EDT');
      const siteZone = expectEventRecord((await update(before.id, { timezone: '' })).body);
      expect(siteZone.timezone).toBe('UTC');
      expect(siteZone.utc_start_date).toBe('2030-04-01 18:00:00');
    });

    it('turns an event into an all-day event and back', async () => {
      const before = await rich('All day');
      const allDay = expectEventRecord((await update(before.id, { all_day: true })).body);
      expect(allDay).toMatchObject({
        all_day: true,
        start_date: '2030-04-01 00:00:00',
        end_date: '2030-04-01 23:59:59',
      });
      const timed = expectEventRecord(
        (
          await update(before.id, {
            all_day: false,
            start_date: '2030-04-01 09:00',
            end_date: '2030-04-01 10:00',
          })
        ).body,
      );
      expect(timed).toMatchObject({
        all_day: false,
        start_date: '2030-04-01 09:00:00',
        end_date: '2030-04-01 10:00:00',
      });
    });
  });

  it('refuses invalid values like create does', async () => {
    const before = await rich('Invalid');
    for (const [name, value] of [
      ['title', ''],
      ['slug', ''],
      ['author', 23],
      ['author', ''],
      ['date', 'foo'],
      ['date_utc', 'foo'],
      ['website', 'foo'],
      ['timezone', 'Nowhere/Land'],
      ['status', 'bogus'],
      ['venue', 'foo'],
      ['organizer', [99999]],
      ['image', 'not a url'],
    ] as const) {
      expectInvalidParams(await update(before.id, { [name]: value }), name);
    }
    expect((await server.api(`events/${before.id}`)).body.title).toBe('Invalid');
  });

  it('changes the slug, keeping slugs unique', async () => {
    const first = await rich('Slug one');
    const second = await rich('Slug two');
    const renamed = expectEventRecord((await update(second.id, { slug: 'slug-one' })).body);
    expect(renamed.slug).toBe('slug-one-2');
    expect(renamed.url).toBe(`${server.engine.origin}/event/slug-one-2/`);
    const own = expectEventRecord((await update(first.id, { slug: 'slug-one' })).body);
    expect(own.slug).toBe('slug-one');
    // A new title does not change the slug.
    expect((await update(first.id, { title: 'Totally different' })).body.slug).toBe('slug-one');
  });

  it('updates by slug with POST, PUT and PATCH', async () => {
    const event = await rich('By slug');
    for (const method of ['POST', 'PUT', 'PATCH'] as const) {
      const result = await server.api('events/by-slug/by-slug', {
        method,
        auth: server.admin,
        json: { excerpt: method },
      });
      expect(result.status).toBe(200);
      expect(expectEventRecord(result.body).excerpt).toBe(method);
      expect(result.body.id).toBe(event.id);
    }
    expectInvalidParams(
      await server.api('events/by-slug/no-such-slug', { method: 'PATCH', auth: server.admin, json: {} }),
      'slug',
    );
  });

  it('accepts form-encoded updates', async () => {
    const event = await rich('Form update');
    const result = await server.api(`events/${event.id}`, {
      method: 'PUT',
      auth: server.admin,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'title=Form+updated&featured=0',
    });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ title: 'Form updated', featured: false, sticky: true });
  });

  it('answers 404 for an unknown id and 400 for a venue id', async () => {
    expectError(
      await update(99999, { title: 'x' }),
      404,
      'rest-event-not-found',
      'Event with ID 99999 does not exist.',
    );
    const event = await rich('Has venue');
    expectError(await update(event.venue.id, { title: 'x' }), 400, 'rest-invalid-event-id');
    expect(
      (await server.api('events/abc', { method: 'PATCH', auth: server.admin, json: {} })).body.code,
    ).toBe('rest_no_route');
  });
});

describe('updating events: ETag and If-Match', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('sends an ETag that changes with every update', async () => {
    const created = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: at('Tagged', '2030-01-01 10:00', '2030-01-01 11:00'),
    });
    const tag = created.headers.get('ETag');
    expect(tag).toBeTruthy();
    const read = await server.api(`events/${created.body.id}`);
    expect(read.headers.get('ETag')).toBe(tag);
    const updated = await server.api(`events/${created.body.id}`, {
      method: 'PATCH',
      auth: server.admin,
      json: { title: 'Tagged 2' },
      headers: { 'If-Match': tag! },
    });
    expect(updated.status).toBe(200);
    expect(updated.headers.get('ETag')).toBeTruthy();
    expect(updated.headers.get('ETag')).not.toBe(tag);
    expect((await server.api(`events/${created.body.id}`)).headers.get('ETag')).toBe(
      updated.headers.get('ETag'),
    );
  });

  it('refuses a stale If-Match with 412 and changes nothing', async () => {
    const created = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: at('Stale', '2030-01-01 10:00', '2030-01-01 11:00'),
    });
    const stale = created.headers.get('ETag')!;
    await server.api(`events/${created.body.id}`, {
      method: 'PATCH',
      auth: server.admin,
      json: { excerpt: 'first' },
    });
    const refused = await server.api(`events/${created.body.id}`, {
      method: 'PATCH',
      auth: server.admin,
      json: { title: 'Lost update' },
      headers: { 'If-Match': stale },
    });
    expectError(refused, 412, 'rest_precondition_failed');
    const read = await server.api(`events/${created.body.id}`);
    expect(read.body.title).toBe('Stale');
    expect(read.body.excerpt).toBe('first');
    const deleteRefused = await server.api(`events/${created.body.id}`, {
      method: 'DELETE',
      auth: server.admin,
      headers: { 'If-Match': stale },
    });
    expectError(deleteRefused, 412, 'rest_precondition_failed');
    expect((await server.api(`events/${created.body.id}`)).status).toBe(200);
  });

  it('accepts If-Match: *, a weak tag and a list containing the current tag', async () => {
    const created = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: at('Star', '2030-01-01 10:00', '2030-01-01 11:00'),
    });
    const id = created.body.id;
    const star = await server.api(`events/${id}`, {
      method: 'PATCH',
      auth: server.admin,
      json: { title: 'Star 2' },
      headers: { 'If-Match': '*' },
    });
    expect(star.status).toBe(200);
    const current = star.headers.get('ETag')!;
    const weak = await server.api(`events/${id}`, {
      method: 'PATCH',
      auth: server.admin,
      json: { title: 'Star 3' },
      headers: { 'If-Match': `W/${current}` },
    });
    expect(weak.status).toBe(200);
    const list = await server.api(`events/${id}`, {
      method: 'PATCH',
      auth: server.admin,
      json: { title: 'Star 4' },
      headers: { 'If-Match': `"nope", ${weak.headers.get('ETag')}` },
    });
    expect(list.status).toBe(200);
    expect(list.body.title).toBe('Star 4');
  });
});

describe('updating events: permissions (REFERENCE §8.3)', () => {
  let server: TestServer;
  let users: Record<'editor' | 'author' | 'author2' | 'contributor' | 'contributor2' | 'subscriber', Auth>;
  beforeAll(async () => {
    server = await startTestServer();
    users = {
      editor: await server.userHeaders('eddie', 'editor'),
      author: await server.userHeaders('arthur', 'author'),
      author2: await server.userHeaders('annie', 'author'),
      contributor: await server.userHeaders('connie', 'contributor'),
      contributor2: await server.userHeaders('carl', 'contributor'),
      subscriber: await server.userHeaders('sub', 'subscriber'),
    };
  });
  afterAll(() => server.close());

  const make = (auth: Auth, extra: Record<string, unknown> = {}) =>
    createEvent(server, at('Owned', '2030-01-01 10:00', '2030-01-01 11:00', extra), auth);
  const patch = (id: number, auth: Auth | undefined, json: unknown = { excerpt: 'changed' }) =>
    server.api(`events/${id}`, { method: 'PATCH', auth, json });

  it('validates before it authorizes', async () => {
    const event = await make(server.admin);
    expectInvalidParams(await patch(event.id, undefined, { website: 'foo' }), 'website');
    expectInvalidParams(await patch(event.id, users.subscriber, { title: '' }), 'title');
  });

  it('refuses anonymous callers with 401, even for unknown ids', async () => {
    const event = await make(server.admin);
    expectError(
      await patch(event.id, undefined),
      401,
      'rest_forbidden',
      'Sorry, you are not allowed to do that.',
    );
    expectError(await patch(99999, undefined), 401, 'rest_forbidden');
  });

  it('refuses subscribers with 403', async () => {
    const event = await make(server.admin);
    expectError(await patch(event.id, users.subscriber), 403, 'rest_forbidden');
    expectError(await patch(99999, users.subscriber), 403, 'rest_forbidden');
  });

  it('lets contributors edit their own drafts and pending events, scaling publish back to pending', async () => {
    const draft = await make(users.contributor);
    expect(draft.status).toBe('draft');
    const edited = await patch(draft.id, users.contributor);
    expect(edited.status).toBe(200);
    expect(edited.body.status).toBe('draft');
    const published = await patch(draft.id, users.contributor, { status: 'publish' });
    expect(published.status).toBe(200);
    expect(published.body.status).toBe('pending');
    expect((await patch(draft.id, users.contributor, { excerpt: 'pending edit' })).status).toBe(200);
  });

  it("refuses contributors their own published events and others' events", async () => {
    const own = await make(users.contributor);
    expect((await patch(own.id, users.editor, { status: 'publish' })).body.status).toBe('publish');
    expectError(await patch(own.id, users.contributor), 403, 'rest_forbidden');
    const others = await make(users.contributor2);
    expectError(await patch(others.id, users.contributor), 403, 'rest_forbidden');
    expect((await server.api(`events/${own.id}`)).body.excerpt).toBe('');
  });

  it("lets authors edit their own events in any status, not others'", async () => {
    const own = await make(users.author);
    expect(own.status).toBe('publish');
    expect((await patch(own.id, users.author)).status).toBe(200);
    const draft = await patch(own.id, users.author, { status: 'draft' });
    expect(draft.body.status).toBe('draft');
    expect((await patch(own.id, users.author, { status: 'publish' })).body.status).toBe('publish');
    const others = await make(users.author2);
    expectError(await patch(others.id, users.author), 403, 'rest_forbidden');
    const contributed = await make(users.contributor);
    expectError(await patch(contributed.id, users.author), 403, 'rest_forbidden');
  });

  it("lets editors edit others' events", async () => {
    const authored = await make(users.author);
    const result = await patch(authored.id, users.editor, { title: 'Edited by editor' });
    expect(result.status).toBe(200);
    expect(result.body.title).toBe('Edited by editor');
    expect(result.body.author).toBe(authored.author);
    const draft = await make(users.contributor);
    expect((await patch(draft.id, users.editor, { status: 'publish' })).body.status).toBe('publish');
  });

  it('lets an editor reassign the author', async () => {
    const event = await make(users.author);
    const other = [...server.engine.store.users.values()].find((user) => user.login === 'annie')!;
    const result = await patch(event.id, users.editor, { author: other.id });
    expect(result.body.author).toBe(String(other.id));
  });

  it('updates term counts when the status changes', async () => {
    const event = await make(server.admin, { categories: ['Counted'] });
    expect(event.categories[0].count).toBe(1);
    const drafted = await patch(event.id, server.admin, { status: 'draft' });
    expect(drafted.body.categories[0].count).toBe(0);
    const republished = await patch(event.id, server.admin, { status: 'publish' });
    expect(republished.body.categories[0].count).toBe(1);
  });
});
