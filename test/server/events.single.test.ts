import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import {
  at,
  createEvent,
  expectError,
  expectEventRecord,
  expectInvalidParams,
  query,
} from './events.helpers';

type Auth = Record<string, string>;

describe('GET /events/{id} and /events/by-slug/{slug}', () => {
  let server: TestServer;
  let users: Record<'editor' | 'author' | 'author2' | 'contributor' | 'subscriber', Auth>;
  const id: Record<string, number> = {};
  let venueId: number;
  let organizerId: number;

  beforeAll(async () => {
    server = await startTestServer();
    users = {
      editor: await server.userHeaders('eddie', 'editor'),
      author: await server.userHeaders('arthur', 'author'),
      author2: await server.userHeaders('annie', 'author'),
      contributor: await server.userHeaders('connie', 'contributor'),
      subscriber: await server.userHeaders('sub', 'subscriber'),
    };
    const full = await createEvent(
      server,
      at('Full Event', '2030-03-01 18:00:00', '2030-03-01 21:00:00', {
        timezone: 'Europe/Berlin',
        description: '<p>All the <b>details</b></p>',
        excerpt: 'Short version',
        cost: '15€',
        venue: { venue: 'Concert Hall', address: '1 Road', city: 'Berlin', country: 'Germany', zip: '10115' },
        organizer: [{ organizer: 'Promoter', email: 'promo@example.test', phone: '123' }],
        categories: ['Music'],
      }),
    );
    id.full = full.id;
    venueId = full.venue.id;
    organizerId = full.organizer[0].id;
    id.plain = (await createEvent(server, at('Plain', '2030-03-02 10:00', '2030-03-02 11:00'))).id;
    id.draft = (
      await createEvent(
        server,
        at('Author draft', '2030-03-03 10:00', '2030-03-03 11:00', { status: 'draft' }),
        users.author,
      )
    ).id;
    id.pending = (
      await createEvent(
        server,
        at('Pending', '2030-03-04 10:00', '2030-03-04 11:00', { status: 'publish' }),
        users.contributor,
      )
    ).id;
    id.private = (
      await createEvent(
        server,
        at('Private', '2030-03-05 10:00', '2030-03-05 11:00', { status: 'private' }),
        users.author,
      )
    ).id;
    id.locked = (
      await createEvent(
        server,
        at('Locked', '2030-03-06 10:00', '2030-03-06 11:00', {
          post_password: 'letmein',
          description: 'hidden text',
        }),
        users.author,
      )
    ).id;
    id.trashed = (await createEvent(server, at('Trashed', '2030-03-07 10:00', '2030-03-07 11:00'))).id;
    expect((await server.api(`events/${id.trashed}`, { method: 'DELETE', auth: server.admin })).status).toBe(
      200,
    );
  });
  afterAll(() => server.close());

  it('reads a published event by id with json_ld and an ETag', async () => {
    const result = await server.api(`events/${id.full}`);
    expect(result.status).toBe(200);
    const event = expectEventRecord(result.body);
    expect(event.title).toBe('Full Event');
    expect(Object.keys(result.body).at(-1)).toBe('json_ld');
    expect(result.headers.get('ETag')).toMatch(/^"[^"]+"$/);
    // WordPress lists the methods the caller may use (samples 45, 46).
    expect(result.headers.get('Allow')).toBe('GET');
    const admin = await server.api(`events/${id.full}`, { auth: server.admin });
    expect(admin.headers.get('Allow')).toBe('GET, DELETE, POST, PUT, PATCH');
  });

  it('describes the event in json_ld (schema.org)', async () => {
    const jsonLd = (await server.api(`events/${id.full}`)).body.json_ld;
    expect(jsonLd).toMatchObject({
      '@context': 'http://schema.org',
      '@type': 'Event',
      name: 'Full Event',
      description: 'Short version',
      url: `${server.engine.origin}/event/full-event/`,
      startDate: '2030-03-01T18:00:00+01:00',
      endDate: '2030-03-01T21:00:00+01:00',
      location: { '@type': 'Place', name: 'Concert Hall' },
      organizer: { '@type': 'Person', name: 'Promoter', email: 'promo@example.test' },
      offers: { '@type': 'Offer', priceCurrency: 'EUR', category: 'primary', availability: 'inStock' },
      performer: 'Organization',
    });
    expect(jsonLd.offers.validFrom).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
  });

  it('gives json_ld plain text: entities decoded, tags gone, link addresses kept', async () => {
    const created = await createEvent(
      server,
      at('Rock &amp; Roll <b>night</b>', '2031-05-01 20:00:00', '2031-05-01 23:00:00', {
        description: '<p>Tickets &amp; more on <a href="https://example.org/t">our site</a></p>',
        venue: { venue: 'Caf&eacute; &amp; Bar', description: '<p>Upstairs &amp; left</p>' },
        organizer: [{ organizer: 'Smith &amp; Sons' }],
      }),
    );
    const jsonLd = (await server.api(`events/${created.id}`)).body.json_ld;
    expect(jsonLd.name).toBe('Rock & Roll night');
    expect(jsonLd.description).toBe('Tickets & more on our site (https://example.org/t)');
    expect(jsonLd.location).toMatchObject({ name: 'Café & Bar', description: 'Upstairs & left' });
    expect(jsonLd.organizer).toMatchObject({ name: 'Smith & Sons' });
  });

  it('has json_ld only on single reads', async () => {
    const list = await server.api('events?start_date=2030-03-01&end_date=2030-03-02');
    expect(list.body.events).toHaveLength(2);
    for (const event of list.body.events) expect(event).not.toHaveProperty('json_ld');
    const update = await server.api(`events/${id.plain}`, { method: 'POST', auth: server.admin, json: {} });
    expect(update.status).toBe(200);
    expect(update.body).not.toHaveProperty('json_ld');
  });

  it('reads the same event by slug', async () => {
    const byId = await server.api(`events/${id.full}`);
    const bySlug = await server.api('events/by-slug/full-event');
    expect(bySlug.status).toBe(200);
    expectEventRecord(bySlug.body);
    expect(bySlug.body).toEqual(byId.body);
    expect(bySlug.headers.get('ETag')).toBe(byId.headers.get('ETag'));
    expect((await server.api('events/by-slug/FULL-EVENT')).body.id).toBe(id.full);
  });

  it('answers 404 rest-event-not-found for an unknown id (sample 30), also for id 0', async () => {
    const result = await server.api('events/99999999');
    expect(result.body).toEqual({
      code: 'rest-event-not-found',
      message: 'Event with ID 99999999 does not exist.',
      data: { status: 404 },
    });
    expect(result.status).toBe(404);
    expectError(await server.api('events/0'), 404, 'rest-event-not-found', 'Event with ID 0 does not exist.');
  });

  it('answers 400 rest-invalid-event-id for a venue or organizer id', async () => {
    for (const other of [venueId, organizerId]) {
      const result = await server.api(`events/${other}`);
      expect(result.body).toEqual({
        code: 'rest-invalid-event-id',
        message: 'The specified ID is not a valid event.',
        data: { status: 400 },
      });
    }
  });

  it('has no route for non-numeric ids or an empty slug', async () => {
    for (const path of ['events/abc', 'events/12abc', 'events/-1', 'events/by-slug/', 'events/by-slug']) {
      const result = await server.api(path);
      expect(result.body, path).toEqual({
        code: 'rest_no_route',
        message: 'No route was found matching the URL and request method.',
        data: { status: 404 },
      });
    }
  });

  it('answers 400 for an unknown slug', async () => {
    expectInvalidParams(await server.api('events/by-slug/no-such-event'), 'slug');
  });

  it('answers 403 event-no-longer-available for a trashed event, to everyone (samples 45, 46)', async () => {
    const expected = {
      code: 'event-no-longer-available',
      message: 'This event is no longer available',
      data: { status: 403 },
    };
    expect((await server.api(`events/${id.trashed}`)).body).toEqual(expected);
    const admin = await server.api(`events/${id.trashed}`, { auth: server.admin });
    expect(admin.status).toBe(403);
    expect(admin.body).toEqual(expected);
  });

  it('hides drafts, pending and private events from anonymous callers and subscribers', async () => {
    for (const key of ['draft', 'pending', 'private']) {
      for (const auth of [undefined, users.subscriber]) {
        const result = await server.api(`events/${id[key]}`, { auth });
        expect(result.body, key).toEqual({
          code: 'event-not-accessible',
          message: 'The requested event is not accessible',
          data: { status: 403 },
        });
      }
    }
    expectError(await server.api('events/by-slug/author-draft'), 403, 'event-not-accessible');
  });

  it('shows an unpublished event to its author and to editors', async () => {
    for (const auth of [users.author, users.editor, server.admin]) {
      const result = await server.api(`events/${id.draft}`, { auth });
      expect(result.status).toBe(200);
      expect(expectEventRecord(result.body).status).toBe('draft');
    }
    expect((await server.api(`events/${id.pending}`, { auth: users.contributor })).status).toBe(200);
    expect((await server.api(`events/${id.private}`, { auth: users.author })).status).toBe(200);
    expect((await server.api(`events/${id.private}`, { auth: users.editor })).status).toBe(200);
  });

  it("refuses others' unpublished events to authors and contributors", async () => {
    expectError(await server.api(`events/${id.draft}`, { auth: users.author2 }), 403, 'event-not-accessible');
    expectError(
      await server.api(`events/${id.draft}`, { auth: users.contributor }),
      403,
      'event-not-accessible',
    );
    expectError(
      await server.api(`events/${id.private}`, { auth: users.author2 }),
      403,
      'event-not-accessible',
    );
    expectError(
      await server.api(`events/${id.pending}`, { auth: users.author }),
      403,
      'event-not-accessible',
    );
  });

  describe('password protection', () => {
    it('answers 403 event-password-protected without the password', async () => {
      const result = await server.api(`events/${id.locked}`);
      expect(result.body).toEqual({
        code: 'event-password-protected',
        message: 'The requested event is not accessible without a password',
        data: { status: 403 },
      });
      expectError(await server.api(`events/${id.locked}?password=wrong`), 403, 'event-password-protected');
      expectError(
        await server.api(`events/${id.locked}`, { auth: users.author2 }),
        403,
        'event-password-protected',
      );
      expectError(await server.api('events/by-slug/locked'), 403, 'event-password-protected');
    });

    it('answers the full record with the right password', async () => {
      for (const path of [`events/${id.locked}`, 'events/by-slug/locked']) {
        const result = await server.api(`${path}?${query({ password: 'letmein' })}`);
        expect(result.status, path).toBe(200);
        const event = expectEventRecord(result.body);
        expect(event.description).toBe('hidden text');
        expect(event.all_day).toBe(false);
        expect(event.show_map).toBe(true);
        expect(event.website).toBe(event.url);
        // The reference's JSON-LD builder gives nothing for protected posts.
        expect(event).not.toHaveProperty('json_ld');
      }
    });

    it('lets users who can edit the event read it with context=edit, not without (REFERENCE §6.3)', async () => {
      for (const auth of [users.author, users.editor]) {
        const withContext = await server.api(`events/${id.locked}?context=edit`, { auth });
        expect(withContext.status).toBe(200);
        expect(withContext.body.description).toBe('hidden text');
        const without = await server.api(`events/${id.locked}`, { auth });
        expect(without.status).toBe(403);
        expect(without.body.code).toBe('event-password-protected');
      }
    });

    it('refuses an empty password parameter', async () => {
      expectInvalidParams(await server.api(`events/${id.locked}?password=`), 'password');
    });
  });

  it('accepts and ignores ml_language on single routes', async () => {
    const result = await server.api(`events/${id.full}?ml_language=it`);
    expect(result.status).toBe(200);
    expect(result.body.language).toBe('en');
  });

  it('serves the same record under a language root with that root in its links', async () => {
    const result = await server.api(`${server.engine.origin}/it/wp-json/cal/events/v1/events/${id.full}`);
    expect(result.status).toBe(200);
    expectEventRecord(result.body);
    expect(result.body.rest_url).toBe(`${server.engine.origin}/it/wp-json/cal/events/v1/events/${id.full}`);
  });
});
