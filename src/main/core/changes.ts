import type { FeedKind, StoredPost, StoredTerm, Tombstone } from '../store/schema';
import type { FeedPosition } from '../store/changeFeed';
import type { CalendarStore } from '../store/store';

/**
 * Reading the change feed (CONTRACT §7, `calendar-desk/v1/changes`), with the behaviour of CalDAV's sync
 * token (RFC 6578): changes after a cursor in order, each record once at its latest change, deletions as
 * tombstones, and a cursor the feed can no longer answer for refused with "read everything again".
 */

/** The cursor cannot be answered for: the reader must read everything again (no `since`). */
export class CursorExpired extends Error {
  readonly code = 'CURSOR_EXPIRED';
}

/** One change read from the feed: a record as it is now, or a tombstone. */
export type FeedChange =
  | { seq: number; kind: FeedKind; action: 'upsert'; record: StoredPost | StoredTerm }
  | { seq: number; kind: FeedKind; action: 'delete'; tombstone: Tombstone };

export interface ChangesRead {
  changes: FeedChange[];
  /** Where the next read continues (`since`). */
  cursor: string;
  more: boolean;
}

/**
 * The cursor a reader sends back: this calendar's feed, the last change it has seen, and in the middle of a
 * full read the last deletion it needs no more (see FeedPosition).
 */
function cursorOf(store: CalendarStore, { records, deletions }: FeedPosition): string {
  const id = store.changeFeed.id;
  return deletions > records ? `${id}:${records}:${deletions}` : `${id}:${records}`;
}

const RESYNC =
  'Read everything again: ask for the changes without "since", then continue from the cursor that answer gives.';

/**
 * Where a cursor (well formed: `<feed id>:<seq>[:<seq>]`, see shared/schemas/changes.ts) has read to, or
 * CursorExpired saying why the feed cannot continue from it.
 */
function positionOf(store: CalendarStore, cursor: string): FeedPosition {
  const feed = store.changeFeed;
  const [id, records, deletions = records] = cursor.split(':');
  if (id !== feed.id) {
    throw new CursorExpired(
      `This cursor was not given by this calendar (it belongs to another data folder, or one replaced since). ${RESYNC}`,
    );
  }
  const position = { records: Number(records), deletions: Number(deletions) };
  const seen = Math.max(position.records, position.deletions);
  if (seen > feed.seq) {
    throw new CursorExpired(
      `This cursor is ahead of this calendar: its data was put back to an older state since. ${RESYNC}`,
    );
  }
  if (seen < feed.horizon) {
    throw new CursorExpired(
      `This cursor is too old: records deleted since then are no longer remembered (deletions are kept for ` +
        `${feed.limits.days} days, at most ${feed.limits.count}). ${RESYNC}`,
    );
  }
  return position;
}

/** The record a feed entry names (it exists: the feed follows the store's records). */
function recordOf(store: CalendarStore, kind: FeedKind, id: number): StoredPost | StoredTerm {
  const records = { event: store.events, venue: store.venues, organizer: store.organizers };
  return (kind === 'category' || kind === 'tag' ? store.terms.get(id) : records[kind].get(id))!;
}

/**
 * Up to `limit` changes after the cursor `since`, in order; without it, every record that exists now (a full
 * read, which later reads continue from). Throws CursorExpired for a cursor the feed cannot continue from.
 */
export function readChanges(store: CalendarStore, since: string | undefined, limit: number): ChangesRead {
  const feed = store.changeFeed;
  const after = since === undefined ? null : positionOf(store, since);
  const { items, more } = feed.read(after, limit);
  const changes = items.map(({ seq, kind, id, tombstone }): FeedChange => {
    if (tombstone) return { seq, kind, action: 'delete', tombstone };
    return { seq, kind, action: 'upsert', record: recordOf(store, kind, id) };
  });
  if (!more) {
    const done = Math.max(after?.records ?? 0, after?.deletions ?? 0, feed.latest());
    return { changes, cursor: cursorOf(store, { records: done, deletions: done }), more };
  }
  const last = changes.at(-1)!.seq;
  // A full read skips the deletions made before it began, also on its later pages.
  const deletions = Math.max(after?.deletions ?? feed.latest(), last);
  return { changes, cursor: cursorOf(store, { records: last, deletions }), more };
}
