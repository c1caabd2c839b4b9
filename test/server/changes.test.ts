import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changesResponseSchema, CURSOR_EXPIRED_CODE } from '../../src/shared/schemas/changes';
import { eventBody, startTestServer, type ApiResult, type TestServer } from '../helpers/server';

/** CONTRACT §7: `GET calendar-desk/v1/changes`, the change feed another Calendar Desk syncs from. */

const DAY = 86_400_000;
let dataDir: string;
let server: TestServer;
/** The server's clock (deletions are dated by it, and tombstones pruned by those dates). */
let now: number;

const start = () => startTestServer({ dataDir, clock: () => new Date(now) });

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'calendar-desk-changes-'));
  now = Date.parse('2026-11-24T09:00:00Z');
  server = await start();
});
afterEach(async () => {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
});

interface ChangesQuery {
  since?: string;
  limit?: number | string;
  auth?: Record<string, string> | null;
}

/** One read of the feed; a 200 answer must match the documented schema exactly. */
async function changes({ since, limit, auth }: ChangesQuery = {}): Promise<ApiResult> {
  const query = new URLSearchParams();
  if (since !== undefined) query.set('since', since);
  if (limit !== undefined) query.set('limit', String(limit));
  const answer = await server.api(`${server.engine.origin}/wp-json/calendar-desk/v1/changes?${query}`, {
    auth: auth === null ? {} : (auth ?? server.admin),
  });
  if (answer.status === 200) changesResponseSchema.parse(answer.body);
  return answer;
}

/** The whole feed after `since`, page by page; returns every change and the final cursor. */
async function readAll(since?: string, limit = 500) {
  const all: Array<Record<string, unknown>> = [];
  let cursor = since;
  for (let pages = 0; pages < 100; pages++) {
    const answer = await changes({ since: cursor, limit });
    expect(answer.status).toBe(200);
    all.push(...answer.body.changes);
    cursor = answer.body.cursor;
    if (!answer.body.more) return { changes: all, cursor: cursor! };
  }
  throw new Error('the feed never ended');
}

const summary = (list: Array<Record<string, unknown>>) =>
  list.map((change) => `${String(change.action)} ${String(change.kind)} ${String(change.id)}`);

/** A record without its schema.org data, wherever it is embedded (the feed leaves it out). */
function withoutJsonLd(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutJsonLd);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'json_ld')
      .map(([key, item]) => [key, withoutJsonLd(item)]),
  );
}

async function create(path: string, json: Record<string, unknown>, auth = server.admin) {
  const answer = await server.api(path, { method: 'POST', auth, json });
  expect(answer.status).toBe(201);
  return answer.body;
}

const update = async (path: string, json: Record<string, unknown>) => {
  const answer = await server.api(path, { method: 'POST', auth: server.admin, json });
  expect(answer.status).toBe(200);
  return answer.body;
};

const remove = async (path: string) => {
  const answer = await server.api(path, { method: 'DELETE', auth: server.admin });
  expect(answer.status).toBe(200);
  return answer.body;
};

describe('the change feed', () => {
  it('lists what changed after a cursor, in order, each record once with its latest version', async () => {
    const music = await create('categories', { name: 'Music' });
    const hall = await create('venues', { venue: 'Parish hall', city: 'Rome' });
    const concert = await create(
      'events',
      eventBody('Concert', 3, { venue: hall.id, categories: [music.id] }),
    );
    const { cursor } = await readAll();

    await update(`events/${concert.id}`, { title: 'Spring concert' });
    const weekly = await create('tags', { name: 'weekly' });
    await update(`venues/${hall.id}`, { city: 'Milan' });
    await update(`events/${concert.id}`, { cost: '10€' });

    const read = await changes({ since: cursor });
    expect(read.body.more).toBe(false);
    // The event changed twice: listed once, at its last change, after the tag and the venue.
    expect(summary(read.body.changes)).toEqual([
      `upsert tag ${weekly.id}`,
      `upsert venue ${hall.id}`,
      `upsert event ${concert.id}`,
    ]);
    const seqs = read.body.changes.map((change: { seq: number }) => change.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    const [tag, venue, event] = read.body.changes;
    expect(tag.uid).toBe(weekly.uid);
    expect(venue.record.city).toBe('Milan');
    // The record is what GET /events/{id}?context=edit answers an editor (without json_ld), with its ETag.
    const single = await server.api(`events/${concert.id}?context=edit`, { auth: server.admin });
    expect(single.body.json_ld).toBeDefined();
    expect(event.record).toEqual(withoutJsonLd(single.body));
    expect(event.record.title).toBe('Spring concert');
    expect(event.record.cost).toBe('10€');
    expect(event.etag).toBe(single.headers.get('etag'));
    expect(event.modified_utc).toBe(single.body.modified_utc);

    // Nothing new: an empty answer, and the same place to continue from.
    const again = await changes({ since: read.body.cursor });
    expect(again.body).toEqual({ changes: [], cursor: read.body.cursor, more: false });
  });

  it('shows a trashed record as a change with status trash and a deleted term as a tombstone', async () => {
    const choir = await create('categories', { name: 'Choir' });
    const hall = await create('venues', { venue: 'Town hall' });
    const rehearsal = await create('events', eventBody('Rehearsal', 2, { categories: [choir.id] }));
    const { cursor } = await readAll();

    await remove(`events/${rehearsal.id}`);
    await remove(`venues/${hall.id}`);
    const deleted = await server.api(`categories/${choir.id}?force=true`, {
      method: 'DELETE',
      auth: server.admin,
    });
    expect(deleted.status).toBe(200);

    const read = await changes({ since: cursor });
    // Deleting the category took it off the event first (a change of the event), then removed it for good.
    expect(summary(read.body.changes)).toEqual([
      `upsert venue ${hall.id}`,
      `upsert event ${rehearsal.id}`,
      `delete category ${choir.id}`,
    ]);
    const [venue, event, tombstone] = read.body.changes;
    expect(venue.record.status).toBe('trash');
    expect(event.record.status).toBe('trash');
    expect(event.record.categories).toEqual([]);
    expect(tombstone).toEqual({
      seq: tombstone.seq,
      kind: 'category',
      id: choir.id,
      uid: choir.uid,
      action: 'delete',
      modified_utc: '2026-11-24 09:00:00',
    });

    // A trashed event restored comes back as a change too.
    await update(`events/${rehearsal.id}`, { status: 'draft' });
    const restored = await changes({ since: read.body.cursor });
    expect(summary(restored.body.changes)).toEqual([`upsert event ${rehearsal.id}`]);
    expect(restored.body.changes[0].record.status).toBe('draft');
  });

  it('reads everything without a cursor, page by page, then continues with what changed meanwhile', async () => {
    const created: Array<{ id: number; uid: string }> = [];
    for (const name of ['a', 'b', 'c']) created.push(await create('tags', { name }));
    const venue = await create('venues', { venue: 'Library' });
    const event = await create('events', eventBody('Reading', 1, { venue: venue.id }));
    const doomed = await create('tags', { name: 'doomed' });
    await server.api(`tags/${doomed.id}?force=true`, { method: 'DELETE', auth: server.admin });

    const first = await changes({ limit: 2 });
    expect(first.body.more).toBe(true);
    expect(first.body.changes).toHaveLength(2);
    // A change while the reader is between pages: the record moves to the end of the feed.
    await update(`tags/${created[0].id}`, { name: 'a2' });
    const rest = await readAll(first.body.cursor, 2);
    const all = [...first.body.changes, ...rest.changes];
    // Every record once at the end, the renamed tag as renamed.
    const upserts = all.filter((change) => change.action === 'upsert');
    expect(new Set(upserts.map((change) => change.uid))).toEqual(
      new Set([...created.map((tag) => tag.uid), venue.uid, event.uid]),
    );
    const renamed = upserts.filter((change) => change.uid === created[0].uid).at(-1)!;
    expect((renamed.record as { name: string }).name).toBe('a2');
    // The tag deleted before the read began is not there at all, nor its tombstone.
    expect(all.some((change) => change.uid === doomed.uid)).toBe(false);
    const seqs = all.map((change) => change.seq as number);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));

    await update(`venues/${venue.id}`, { city: 'Turin' });
    const later = await changes({ since: rest.cursor });
    expect(summary(later.body.changes)).toEqual([`upsert venue ${venue.id}`]);
  });

  it('reads everything in pages also when deletions older than its first pages were pruned', async () => {
    const kept = [await create('tags', { name: 'kept 1' }), await create('tags', { name: 'kept 2' })];
    const [old, newer] = [await create('tags', { name: 'old' }), await create('tags', { name: 'newer' })];
    await server.api(`tags/${old.id}?force=true`, { method: 'DELETE', auth: server.admin });
    now += 100 * DAY;
    // This deletion prunes the first one: the horizon is now past the kept tags' changes.
    await server.api(`tags/${newer.id}?force=true`, { method: 'DELETE', auth: server.admin });

    const { changes: all, cursor } = await readAll(undefined, 1);
    expect(all.map((change) => change.uid)).toEqual(kept.map((tag) => tag.uid));
    expect((await changes({ since: cursor })).body.changes).toEqual([]);
  });

  it('keeps the sequence and the tombstones across a restart', async () => {
    const tag = await create('tags', { name: 'old' });
    const event = await create('events', eventBody('Fair', 5));
    const { cursor } = await readAll();
    await server.api(`tags/${tag.id}?force=true`, { method: 'DELETE', auth: server.admin });
    const before = await changes({ since: cursor });

    await server.close();
    server = await start();
    // The same answer after the restart, and the same cursor is still understood.
    expect((await changes({ since: cursor })).body).toEqual(before.body);
    await update(`events/${event.id}`, { title: 'Autumn fair' });
    const after = await changes({ since: before.body.cursor });
    expect(summary(after.body.changes)).toEqual([`upsert event ${event.id}`]);
    expect(after.body.changes[0].seq).toBeGreaterThan(before.body.changes.at(-1).seq);
  });

  it('answers a cursor older than the kept deletions with 410: read everything again', async () => {
    const first = await create('tags', { name: 'first' });
    const second = await create('tags', { name: 'second' });
    const { cursor: beforeBoth } = await readAll();
    await server.api(`tags/${first.id}?force=true`, { method: 'DELETE', auth: server.admin });
    const { cursor: between } = await readAll(beforeBoth);

    // 100 days later another deletion: the first one's tombstone is older than 90 days, so it is pruned.
    now += 100 * DAY;
    await server.api(`tags/${second.id}?force=true`, { method: 'DELETE', auth: server.admin });

    const expired = await changes({ since: beforeBoth });
    expect(expired.status).toBe(410);
    expect(expired.body.code).toBe(CURSOR_EXPIRED_CODE);
    expect(expired.body.data.status).toBe(410);
    expect(expired.body.message).toMatch(/too old.*Read everything again/);

    // A reader who saw the first deletion continues and gets the second.
    const fresh = await changes({ since: between });
    expect(summary(fresh.body.changes)).toEqual([`delete tag ${second.id}`]);
    // And the full read the 410 asks for gives a cursor that works.
    const resync = await readAll();
    expect((await changes({ since: resync.cursor })).status).toBe(200);
  });

  it('answers a cursor of another calendar or from the future with 410, and a malformed one with 400', async () => {
    const { cursor } = await readAll();
    const [feedId, seq] = cursor.split(':');
    const otherCalendar = await changes({ since: `0f8fad5b-d9cb-469f-a165-70867728950e:${seq}` });
    expect(otherCalendar.status).toBe(410);
    expect(otherCalendar.body.code).toBe(CURSOR_EXPIRED_CODE);
    expect(otherCalendar.body.message).toMatch(/not given by this calendar/);
    const ahead = await changes({ since: `${feedId}:${Number(seq) + 5}` });
    expect(ahead.status).toBe(410);
    expect(ahead.body.message).toMatch(/ahead of this calendar/);

    for (const since of ['', 'abc', `${feedId}`, `${feedId}:-1`, `${feedId}:1.5`, `${feedId}:1:2:3`]) {
      const bad = await changes({ since });
      expect(bad.status, since).toBe(400);
      expect(bad.body.code).toBe('rest_invalid_param');
      expect(bad.body.data.params.since).toMatch(/not a change cursor/);
    }
    for (const limit of ['0', '-3', 'ten', '1.5']) {
      const bad = await changes({ limit });
      expect(bad.status, limit).toBe(400);
      expect(Object.keys(bad.body.data.params)).toEqual(['limit']);
    }
  });

  it('caps a page at 500 changes', async () => {
    await server.engine.store.mutate((tx) => {
      for (let index = 0; index < 520; index++) {
        const id = tx.nextTermId();
        tx.putTerm({
          id,
          uid: crypto.randomUUID(),
          taxonomy: 'tag',
          name: `tag ${index}`,
          slug: `tag-${index}`,
          description: '',
          parent: 0,
          language: 'en',
          modifiedUtc: '2026-11-24 09:00:00',
          revision: 1,
        });
      }
    });
    const page = await changes({ limit: 100_000 });
    expect(page.status).toBe(200);
    expect(page.body.changes).toHaveLength(500);
    expect(page.body.more).toBe(true);
    expect((await changes({ since: page.body.cursor })).body.changes).toHaveLength(20);
  });

  it('is for administrators and editors only: it shows every draft and private record', async () => {
    const author = await server.userHeaders('writer', 'author');
    const draft = await create('events', eventBody('Secret plan', 4, { status: 'draft' }), author);
    expect(draft.status).toBe('draft');

    const anonymous = await changes({ auth: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('rest_forbidden');
    for (const role of ['subscriber', 'contributor', 'author'] as const) {
      const refused = await changes({ auth: await server.userHeaders(`a-${role}`, role) });
      expect(refused.status, role).toBe(403);
      expect(refused.body.code).toBe('rest_forbidden');
    }
    expect((await changes({ auth: author })).status).toBe(403);

    const editor = await server.userHeaders('the-editor', 'editor');
    const read = await changes({ auth: editor });
    expect(read.status).toBe(200);
    const event = read.body.changes.find((change: { uid: string }) => change.uid === draft.uid);
    expect(event.record).toMatchObject({ title: 'Secret plan', status: 'draft' });
    // Wrong credentials are refused as everywhere else.
    const wrong = await changes({ auth: { Authorization: 'Bearer not-a-token' } });
    expect(wrong.status).toBe(401);
  });
});
