import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import {
  at,
  createEvent,
  dayFromNow,
  expectError,
  expectEventRecord,
  expectInvalidParams,
} from './events.helpers';

type Auth = Record<string, string>;

describe('DELETE /events/{id}', () => {
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

  const day = dayFromNow(3);
  const make = (title: string, auth: Auth = server.admin, extra: Record<string, unknown> = {}) =>
    createEvent(server, at(title, `${day} 10:00:00`, `${day} 11:00:00`, extra), auth);
  const remove = (id: number | string, auth?: Auth) => server.api(`events/${id}`, { method: 'DELETE', auth });

  it('moves the event to the trash and answers the trashed record (sample 43)', async () => {
    const event = await make('Sample created event', server.admin, {
      categories: ['Music'],
      tags: ['ten', 'sixteen'],
      venue: { venue: 'Sample Venue' },
    });
    const result = await remove(event.id, server.admin);
    expect(result.status).toBe(200);
    const trashed = expectEventRecord(result.body);
    expect(trashed.id).toBe(event.id);
    expect(trashed.status).toBe('trash');
    expect(trashed.slug).toBe('sample-created-event__trashed');
    expect(trashed.url).toBe(`${server.engine.origin}/?post_type=tribe_events&p=${event.id}`);
    expect(trashed.rest_url).toBe(`${server.base}events/${event.id}`);
    expect(trashed.title).toBe(event.title);
    expect(trashed.start_date).toBe(event.start_date);
    expect(trashed).not.toHaveProperty('json_ld');
    // Trashed events no longer count towards their terms; the venue stays linked.
    expect(event.categories[0].count).toBe(1);
    expect(trashed.categories[0].count).toBe(0);
    expect(trashed.tags.map((tag) => tag.count)).toEqual([0, 0]);
    expect((trashed.venue as { venue: string }).venue).toBe('Sample Venue');
    expect(result.headers.get('ETag')).toBeTruthy();
  });

  it('answers 410 event-is-in-trash the second time (sample 44)', async () => {
    const event = await make('Twice');
    expect((await remove(event.id, server.admin)).status).toBe(200);
    const second = await remove(event.id, server.admin);
    expect(second.status).toBe(410);
    expect(second.body).toEqual({
      code: 'event-is-in-trash',
      message: 'The event is already trashed',
      data: { status: 410 },
    });
  });

  it('takes the event out of the archive and refuses to read it', async () => {
    const event = await make('Gone from list');
    const before = await server.api('events');
    expect(before.body.events.map((e: { id: number }) => e.id)).toContain(event.id);
    await remove(event.id, server.admin);
    const after = await server.api('events', { auth: server.admin });
    expect(after.body.events.map((e: { id: number }) => e.id)).not.toContain(event.id);
    expectError(await server.api(`events/${event.id}`), 403, 'event-no-longer-available');
    const trash = await server.api('events?status=trash', { auth: server.admin });
    expect(trash.body.events.map((e: { id: number }) => e.id)).toContain(event.id);
  });

  it('frees the slug for a new event', async () => {
    const event = await make('Reused Slug');
    await remove(event.id, server.admin);
    const again = await make('Reused Slug');
    expect(again.slug).toBe('reused-slug');
    expect((await server.api('events/by-slug/reused-slug')).body.id).toBe(again.id);
    // Trashing the second one too: the suffix stays unique.
    expect((await remove(again.id, server.admin)).body.slug).toBe('reused-slug__trashed-2');
  });

  it('restores the slug when the event leaves the trash (unique again if it was taken meanwhile)', async () => {
    const first = await make('Restored evening');
    expect((await remove(first.id, server.admin)).body.slug).toBe('restored-evening__trashed');
    const back = await server.api(`events/${first.id}`, {
      method: 'POST',
      auth: server.admin,
      json: { status: 'publish' },
    });
    expect(back.body).toMatchObject({ status: 'publish', slug: 'restored-evening' });

    const trashedAgain = await remove(first.id, server.admin);
    expect(trashedAgain.body).toMatchObject({ status: 'trash', slug: 'restored-evening__trashed' });
    const taker = await make('Restored evening');
    expect(taker.slug).toBe('restored-evening');
    const again = await server.api(`events/${first.id}`, {
      method: 'POST',
      auth: server.admin,
      json: { status: 'draft' },
    });
    expect(again.body.slug).toMatch(/^restored-evening-\d+$/);
  });

  it('trashes by slug', async () => {
    const event = await make('Slug Delete');
    const result = await server.api('events/by-slug/slug-delete', { method: 'DELETE', auth: server.admin });
    expect(result.status).toBe(200);
    expect(result.body.id).toBe(event.id);
    expect(result.body.status).toBe('trash');
    expectInvalidParams(
      await server.api('events/by-slug/slug-delete', { method: 'DELETE', auth: server.admin }),
      'slug',
    );
  });

  it('ignores force=true: it still only trashes', async () => {
    const event = await make('Forced');
    const result = await server.api(`events/${event.id}?force=true`, {
      method: 'DELETE',
      auth: server.admin,
    });
    expect(result.body.status).toBe('trash');
    expect(
      (await server.api('events?status=trash', { auth: server.admin })).body.events.map(
        (e: { id: number }) => e.id,
      ),
    ).toContain(event.id);
  });

  it('answers 404 for an unknown id, 400 for a venue id and no route for non-numeric ids', async () => {
    expectError(
      await remove(99999, server.admin),
      404,
      'rest-event-not-found',
      'Event with ID 99999 does not exist.',
    );
    expectError(await remove(0, server.admin), 404, 'rest-event-not-found');
    const withVenue = await make('With venue', server.admin, { venue: { venue: 'Kept Venue' } });
    expectError(await remove(withVenue.venue.id, server.admin), 400, 'rest-invalid-event-id');
    expectError(await remove('abc', server.admin), 404, 'rest_no_route');
  });

  it('refuses anonymous callers with 401 and subscribers with 403', async () => {
    const event = await make('Protected');
    expectError(await remove(event.id), 401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
    expectError(await remove(99999), 401, 'rest_forbidden');
    expectError(await remove(event.id, users.subscriber), 403, 'rest_forbidden');
    expect((await server.api(`events/${event.id}`)).status).toBe(200);
  });

  it('lets contributors trash their own drafts only', async () => {
    const draft = await make('Contributor draft', users.contributor);
    expect(draft.status).toBe('draft');
    const trashed = await remove(draft.id, users.contributor);
    expect(trashed.status).toBe(200);
    expect(trashed.body.status).toBe('trash');

    const published = await make('Contributor published', users.contributor);
    await server.api(`events/${published.id}`, {
      method: 'PATCH',
      auth: users.editor,
      json: { status: 'publish' },
    });
    expectError(await remove(published.id, users.contributor), 403, 'rest_forbidden');
    const others = await make('Other draft', users.contributor2);
    expectError(await remove(others.id, users.contributor), 403, 'rest_forbidden');
    const byAdmin = await make('Admin event');
    expectError(await remove(byAdmin.id, users.contributor), 403, 'rest_forbidden');
  });

  it("lets authors trash their own events, not others'", async () => {
    const own = await make('Author own', users.author);
    expect((await remove(own.id, users.author)).status).toBe(200);
    const others = await make('Author other', users.author2);
    expectError(await remove(others.id, users.author), 403, 'rest_forbidden');
    expect((await remove(others.id, users.author2)).status).toBe(200);
  });

  it("lets editors trash others' events", async () => {
    const authored = await make('Editor target', users.author);
    expect((await remove(authored.id, users.editor)).status).toBe(200);
    const draft = await make('Editor draft target', users.contributor);
    expect((await remove(draft.id, users.editor)).status).toBe(200);
  });

  it('accepts a matching If-Match', async () => {
    const created = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: at('Matched', `${day} 10:00:00`, `${day} 11:00:00`),
    });
    const result = await server.api(`events/${created.body.id}`, {
      method: 'DELETE',
      auth: server.admin,
      headers: { 'If-Match': created.headers.get('ETag')! },
    });
    expect(result.status).toBe(200);
  });
});
