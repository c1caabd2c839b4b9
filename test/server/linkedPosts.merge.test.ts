import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type ApiResult, type TestServer } from '../helpers/server';
import { at, createEvent, expectError } from './events.helpers';
import { organizerMergeAnswerSchema, venueMergeAnswerSchema } from '../../src/shared/schemas/merge';

// Merging two venues (or organizers) entered twice (issue 15 item 3), through the real server and data folder:
// `POST calendar-desk/v1/venues/{id}/merge {into}` links every event of the merged venue to the kept one and
// moves the merged one to the trash, in one durable write. The clock is the test's: 1 September 2026.

const NOW = Date.parse('2026-09-01T10:00:00Z');

describe('merging venues and organizers (admin namespace)', () => {
  let server: TestServer;
  let dataDir: string;
  const clock = () => new Date(NOW);

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'calendar-desk-merge-'));
    server = await startTestServer({ dataDir, clock });
  });
  afterAll(async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const adminUrl = (path: string) => `${server.engine.origin}/wp-json/calendar-desk/v1/${path}`;
  const mergeInto = (kind: 'venues' | 'organizers', id: number, into: unknown, auth = server.admin) =>
    server.api(adminUrl(`${kind}/${id}/merge`), { method: 'POST', auth, json: { into } });
  const created = async (path: string, json: Record<string, unknown>): Promise<number> => {
    const result = await server.api(path, { method: 'POST', auth: server.admin, json });
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    return result.body.id;
  };
  const stored = (id: number) => server.engine.store.events.get(id)!;
  const writes = () => server.engine.store.snapshot().journalSeq;

  it('links every event of the merged venue to the kept one (drafts, trashed, a whole series) in one write', async () => {
    const kept = await created('venues', {
      venue: 'Teatro Comunale',
      address: 'Via Roma 1',
      status: 'publish',
    });
    const merged = await created('venues', { venue: 'Teatro Com. Bologna', address: 'via roma 1' });
    const other = await created('venues', { venue: 'Sala Borsa', address: 'Piazza Nettuno 3' });
    const single = await createEvent(
      server,
      at('Concert', '2026-10-01 21:00:00', '2026-10-01 23:00:00', { venue: merged, status: 'publish' }),
    );
    const draft = await createEvent(
      server,
      at('Rehearsal', '2026-10-02 18:00:00', '2026-10-02 20:00:00', { venue: merged, status: 'draft' }),
    );
    const trashed = await createEvent(
      server,
      at('Cancelled', '2026-10-03 18:00:00', '2026-10-03 20:00:00', { venue: merged, status: 'publish' }),
    );
    expect((await server.api(`events/${trashed.id}`, { method: 'DELETE', auth: server.admin })).status).toBe(
      200,
    );
    const head = await createEvent(
      server,
      at('Choir', '2026-10-06 19:30:00', '2026-10-06 21:30:00', {
        venue: merged,
        status: 'publish',
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TU'],
      }),
    );
    const occurrences = [...server.engine.store.events.values()]
      .filter((event) => event.parentId === head.id)
      .map((event) => event.id);
    expect(occurrences).toHaveLength(3);
    const elsewhere = await createEvent(
      server,
      at('Elsewhere', '2026-10-04 18:00:00', '2026-10-04 20:00:00', { venue: other, status: 'publish' }),
    );
    const revisions = new Map(
      [single.id, draft.id, trashed.id, head.id, ...occurrences].map((id) => [id, stored(id).revision]),
    );

    const before = writes();
    const result = await mergeInto('venues', merged, kept);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    // One durable write (one journal batch) for the venue and every event it held.
    expect(writes() - before).toBe(1);
    const answer = venueMergeAnswerSchema.parse(result.body);
    const moved = [single.id, draft.id, trashed.id, head.id, ...occurrences].sort((a, b) => a - b);
    expect(answer).toMatchObject({ merged_id: merged, moved: moved.length, moved_event_ids: moved });
    expect(answer.kept).toMatchObject({ id: kept, venue: 'Teatro Comunale', status: 'publish' });
    // The kept venue's version, the same its own read answers.
    expect(result.headers.get('etag')).toBe((await server.api(`venues/${kept}`)).headers.get('etag'));

    for (const id of moved) {
      expect(stored(id).venueId, `event ${id}`).toBe(kept);
      // A new revision: the sync sends each moved event as an edit.
      expect(stored(id).revision).toBe(revisions.get(id)! + 1);
    }
    expect(stored(trashed.id).status).toBe('trash');
    expect(stored(draft.id).status).toBe('draft');
    expect(stored(elsewhere.id).venueId).toBe(other);
    // What a reader sees: the kept venue on the event, the merged one in the trash.
    const concert = await server.api(`events/${single.id}`);
    expect(concert.body.venue).toMatchObject({ id: kept, venue: 'Teatro Comunale' });
    const gone = await server.api(`venues/${merged}`, { auth: server.admin });
    expect(gone.body.status).toBe('trash');
    const listed = await server.api(`events?venue=${kept}&start_date=2026-09-01&per_page=50`);
    expect(listed.body.events.map((event: { id: number }) => event.id).sort()).toEqual(
      [single.id, head.id, ...occurrences].sort(),
    );
  });

  it('merges organizers: each event lists the kept one once, in its place', async () => {
    const kept = await created('organizers', { organizer: 'Anna Rossi', email: 'anna@example.org' });
    const merged = await created('organizers', { organizer: 'A. Rossi', email: 'ANNA@example.org' });
    const third = await created('organizers', { organizer: 'Piero Bianchi' });
    const both = await createEvent(
      server,
      at('Both', '2026-10-10 10:00:00', '2026-10-10 11:00:00', { organizer: [merged, third, kept] }),
    );
    const mergedOnly = await createEvent(
      server,
      at('Merged only', '2026-10-11 10:00:00', '2026-10-11 11:00:00', { organizer: [third, merged] }),
    );
    const before = writes();
    const result = await mergeInto('organizers', merged, kept);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(writes() - before).toBe(1);
    expect(organizerMergeAnswerSchema.parse(result.body)).toMatchObject({
      merged_id: merged,
      moved: 2,
      moved_event_ids: [both.id, mergedOnly.id],
    });
    expect(stored(both.id).organizerIds).toEqual([kept, third]);
    expect(stored(mergedOnly.id).organizerIds).toEqual([third, kept]);
    const read = await server.api(`events/${both.id}`);
    expect(read.body.organizer.map((organizer: { id: number }) => organizer.id)).toEqual([kept, third]);
    expect((await server.api(`organizers/${merged}`, { auth: server.admin })).body.status).toBe('trash');
  });

  it('merges a venue already in the trash: its events move, it stays in the trash', async () => {
    const kept = await created('venues', { venue: 'Arena del Sole' });
    const binned = await created('venues', { venue: 'Arena (old entry)' });
    const event = await createEvent(
      server,
      at('Play', '2026-11-05 21:00:00', '2026-11-05 23:00:00', { venue: binned, status: 'publish' }),
    );
    expect((await server.api(`venues/${binned}`, { method: 'DELETE', auth: server.admin })).status).toBe(200);
    // While its venue is in the trash, the event shows none; the merge gives it the kept one.
    expect((await server.api(`events/${event.id}`)).body.venue).toEqual([]);
    const trashedRevision = server.engine.store.venues.get(binned)!.revision;
    const result = await mergeInto('venues', binned, kept);
    expect(result.body).toMatchObject({ merged_id: binned, moved: 1, moved_event_ids: [event.id] });
    expect((await server.api(`events/${event.id}`)).body.venue).toMatchObject({ id: kept });
    expect(server.engine.store.venues.get(binned)).toMatchObject({
      status: 'trash',
      revision: trashedRevision,
    });
  });

  it('takes a form-encoded body too, as the API does', async () => {
    const kept = await created('organizers', { organizer: 'Coro Euridice' });
    const merged = await created('organizers', { organizer: 'Euridice choir' });
    const result = await server.api(adminUrl(`organizers/${merged}/merge`), {
      method: 'POST',
      auth: server.admin,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `into=${kept}`,
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body).toMatchObject({ kept: { id: kept }, merged_id: merged, moved: 0 });
  });

  it('keeps the merge after a restart', async () => {
    const kept = await created('venues', { venue: 'Cinema Lumière' });
    const merged = await created('venues', { venue: 'Lumiere cinema' });
    const event = await createEvent(
      server,
      at('Film', '2026-11-01 21:00:00', '2026-11-01 23:00:00', { venue: merged, status: 'publish' }),
    );
    expect((await mergeInto('venues', merged, kept)).status).toBe(200);
    await server.engine.close();
    server = await startTestServer({ dataDir, clock });
    expect(server.engine.store.events.get(event.id)!.venueId).toBe(kept);
    expect(server.engine.store.venues.get(merged)!.status).toBe('trash');
    expect((await server.api(`events/${event.id}`)).body.venue).toMatchObject({ id: kept });
  });

  it('is for administrators only: editors, authors and anonymous callers change nothing', async () => {
    const kept = await created('venues', { venue: 'Aula Magna' });
    const merged = await created('venues', { venue: 'Aula magna (university)' });
    const event = await createEvent(
      server,
      at('Lecture', '2026-11-02 10:00:00', '2026-11-02 12:00:00', { venue: merged }),
    );
    const before = writes();
    for (const role of ['editor', 'author'] as const) {
      const refused = await mergeInto(
        'venues',
        merged,
        kept,
        await server.userHeaders(`merge-${role}`, role),
      );
      expectError(refused, 403, 'rest_forbidden');
    }
    expectError(await mergeInto('venues', merged, kept, {}), 401, 'rest_forbidden');
    // Creating the two users wrote; the refused merges did not.
    expect(writes() - before).toBe(2);
    expect(stored(event.id).venueId).toBe(merged);
    expect(server.engine.store.venues.get(merged)!.status).toBe('publish');
  });

  it('refuses what cannot be merged with a 400 naming the parameter, and changes nothing', async () => {
    const kept = await created('venues', { venue: 'Palazzo Re Enzo' });
    const merged = await created('venues', { venue: 'Palazzo Re Enzo (sala)' });
    const binned = await created('venues', { venue: 'Old hall' });
    expect((await server.api(`venues/${binned}`, { method: 'DELETE', auth: server.admin })).status).toBe(200);
    const organizer = await created('organizers', { organizer: 'Not a venue' });
    const before = writes();
    const invalidInto = (result: ApiResult, words: RegExp) => {
      expectError(result, 400, 'rest_invalid_param');
      expect(result.body.data.params.into).toMatch(words);
    };
    invalidInto(await mergeInto('venues', merged, merged), /cannot be merged into itself/);
    invalidInto(await mergeInto('venues', merged, 999_999), /There is no venue with id 999999/);
    invalidInto(await mergeInto('venues', merged, organizer), /There is no venue with id/);
    invalidInto(await mergeInto('venues', merged, binned), /is in the trash: restore it first/);
    invalidInto(await mergeInto('venues', merged, 'twelve'), /Invalid parameter/);
    invalidInto(await mergeInto('venues', merged, -3), /Invalid parameter/);
    const unknown = await mergeInto('venues', 999_999, kept);
    expectError(unknown, 400, 'rest_invalid_param');
    expect(unknown.body.data.params).toHaveProperty('id');
    const missing = await server.api(adminUrl(`venues/${merged}/merge`), {
      method: 'POST',
      auth: server.admin,
      json: {},
    });
    expectError(missing, 400, 'rest_missing_callback_param');
    expect(writes()).toBe(before);
  });

  it("is documented in the admin namespace's /doc, not in the public one", async () => {
    const doc = await server.api(adminUrl('doc'), { auth: server.admin });
    expect(doc.body.servers[0].url).toMatch(/\/wp-json\/calendar-desk\/v1$/);
    expect(
      Object.keys((await server.api('doc')).body.paths).filter((path) => path.endsWith('/merge')),
    ).toEqual([]);
    for (const kind of ['venues', 'organizers']) {
      const path = doc.body.paths[`/${kind}/{id}/merge`];
      expect(Object.keys(path.post.requestBody.content['application/json'].schema.properties)).toEqual([
        'into',
      ]);
      expect(path.post.responses['200'].content['application/json'].schema.$ref).toMatch(/Merge$/);
    }
  });
});
