import type { FeedKind, StoredPost, StoredTerm, Tombstone } from '../store/schema';
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

/** The cursor a reader sends back: this calendar's feed, and the last change it has seen. */
const cursorOf = (store: CalendarStore, seq: number) => `${store.changeFeed.id}:${seq}`;

const RESYNC =
  'Read everything again: ask for the changes without "since", then continue from the cursor that answer gives.';

/**
 * The last change a cursor (well formed: `<feed id>:<seq>`, see shared/schemas/changes.ts) has seen, or
 * CursorExpired saying why the feed cannot continue from it.
 */
function seenThrough(store: CalendarStore, cursor: string): number {
  const feed = store.changeFeed;
  const at = cursor.lastIndexOf(':');
  if (cursor.slice(0, at) !== feed.id) {
    throw new CursorExpired(
      `This cursor was not given by this calendar (it belongs to another data folder, or one replaced since). ${RESYNC}`,
    );
  }
  const seq = Number(cursor.slice(at + 1));
  if (seq > feed.seq) {
    throw new CursorExpired(
      `This cursor is ahead of this calendar: its data was put back to an older state since. ${RESYNC}`,
    );
  }
  if (seq < feed.horizon) {
    throw new CursorExpired(
      `This cursor is too old: records deleted since then are no longer remembered (deletions are kept for ` +
        `${feed.limits.days} days, at most ${feed.limits.count}). ${RESYNC}`,
    );
  }
  return seq;
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
  const after = since === undefined ? null : seenThrough(store, since);
  const { items, more } = store.changeFeed.read(after, limit);
  const changes = items.map(({ seq, kind, id, tombstone }): FeedChange => {
    if (tombstone) return { seq, kind, action: 'delete', tombstone };
    return { seq, kind, action: 'upsert', record: recordOf(store, kind, id) };
  });
  const last = changes.at(-1)?.seq;
  const cursor = more ? last! : Math.max(after ?? 0, store.changeFeed.latest());
  return { changes, cursor: cursorOf(store, cursor), more };
}
