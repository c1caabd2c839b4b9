import { wallClockSeconds, wallClockText } from './eventIndex';
import type { ChangeFeedState, FeedKind, Tombstone } from './schema';

/** How long deletions stay in the feed: the newest `count`, and none older than `days` before the newest. */
export interface TombstoneLimits {
  count: number;
  days: number;
}

export const DEFAULT_TOMBSTONE_LIMITS: TombstoneLimits = { count: 10_000, days: 90 };

/** One record's latest change. */
export interface FeedEntry {
  seq: number;
  kind: FeedKind;
  id: number;
}

/** What a read of the feed finds, in ascending seq: records changed (`tombstone` absent) or deleted. */
export interface FeedItem extends FeedEntry {
  tombstone?: Tombstone;
}

const keyOf = (kind: FeedKind, id: number) => `${kind}:${id}`;

/** Index of the first element whose seq is greater than `seq` (the array is in ascending seq). */
function firstAfter(items: readonly { seq: number }[], seq: number): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (items[middle].seq <= seq) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The change feed in memory (CONTRACT §7): which change each existing record is at, and the tombstones of
 * records deleted for good, both in ascending seq so that "what changed after N" is a binary search and a
 * walk, not a scan of the calendar. A write costs O(1) (amortised): a changed record's new entry goes at the
 * end and its old one is left behind as stale, skipped by reads and dropped once stale entries outnumber the
 * live ones. Changed only through the store's Transactions, which also take changes back through it.
 */
export class ChangeFeed {
  /** Identity of this calendar's sequence (see changeFeedSchema). */
  id = '';
  /** The last number given (numbers of changes taken back are not given again). */
  seq = 0;
  /** The newest pruned tombstone: a reader who saw less than this may have missed a deletion. */
  horizon = 0;
  /** Latest change of each existing record, ascending; entries no longer in `current` are stale. */
  private entries: FeedEntry[] = [];
  private readonly current = new Map<string, number>();
  private tombs: Tombstone[] = [];

  /** How long deletions are kept (tests shorten it). */
  limits: TombstoneLimits = DEFAULT_TOMBSTONE_LIMITS;

  reset(state: ChangeFeedState): void {
    this.id = state.id;
    this.seq = state.seq;
    this.horizon = state.horizon;
    this.entries = state.live.map(([seq, kind, id]) => ({ seq, kind, id }));
    this.current.clear();
    for (const entry of this.entries) this.current.set(keyOf(entry.kind, entry.id), entry.seq);
    this.tombs = [...state.tombstones];
  }

  /** The feed as the data file keeps it. */
  state(): ChangeFeedState {
    return {
      id: this.id,
      seq: this.seq,
      horizon: this.horizon,
      live: this.entries
        .filter((entry) => this.isLive(entry))
        .map((entry) => [entry.seq, entry.kind, entry.id]),
      tombstones: [...this.tombs],
    };
  }

  /** The number of the next change. */
  next(): number {
    return ++this.seq;
  }

  /** A number given before (replayed from the journal) is never given again. */
  raise(seq: number): void {
    if (seq > this.seq) this.seq = seq;
  }

  /** The change a record is at (undefined: it does not exist, or not since the feed began). */
  seqOf(kind: FeedKind, id: number): number | undefined {
    return this.current.get(keyOf(kind, id));
  }

  /** Records that `kind` `id` is now at change `seq` (undefined: it no longer exists). */
  setSeq(kind: FeedKind, id: number, seq: number | undefined): void {
    const key = keyOf(kind, id);
    if (seq === undefined) {
      this.current.delete(key);
      return;
    }
    this.current.set(key, seq);
    const last = this.entries.at(-1);
    if (!last || last.seq < seq) this.entries.push({ seq, kind, id });
    else {
      // Taking a change back brings a record back to an older seq: its entry may still be there.
      const at = firstAfter(this.entries, seq);
      if (this.entries[at - 1]?.seq !== seq) this.entries.splice(at, 0, { seq, kind, id });
    }
    if (this.entries.length - this.current.size > Math.max(1024, this.current.size)) this.dropStale();
  }

  /**
   * Keeps a deletion, pruning in the same step the tombstones beyond the limits (counted back from this one,
   * so a replay prunes exactly the same). Returns the step that takes it back.
   */
  addTombstone(tombstone: Tombstone): () => void {
    const at = firstAfter(this.tombs, tombstone.seq);
    this.tombs.splice(at, 0, tombstone);
    const since = wallClockSeconds(tombstone.deletedUtc);
    const cutoff = since === null ? '' : wallClockText(Math.max(0, since - this.limits.days * 86_400));
    let drop = 0;
    while (
      drop < this.tombs.length - 1 &&
      (this.tombs.length - drop > this.limits.count || this.tombs[drop].deletedUtc < cutoff)
    ) {
      drop++;
    }
    const dropped = this.tombs.splice(0, drop);
    const horizon = this.horizon;
    if (dropped.length > 0) this.horizon = Math.max(horizon, dropped.at(-1)!.seq);
    return () => {
      this.tombs.splice(this.tombs.indexOf(tombstone), 1);
      this.tombs.unshift(...dropped);
      this.horizon = horizon;
    };
  }

  /** The highest seq a reader can have seen: what it reads next starts after it. */
  latest(): number {
    let at = this.entries.length - 1;
    while (at >= 0 && !this.isLive(this.entries[at])) at--;
    return Math.max(this.entries[at]?.seq ?? 0, this.tombs.at(-1)?.seq ?? 0, this.horizon);
  }

  /**
   * Up to `limit` changes after `after`, in ascending seq, and whether more follow. Without `after`: every
   * existing record (no tombstones: the reader starts from nothing).
   */
  read(after: number | null, limit: number): { items: FeedItem[]; more: boolean } {
    let entry = after === null ? 0 : firstAfter(this.entries, after);
    let tomb = after === null ? this.tombs.length : firstAfter(this.tombs, after);
    const items: FeedItem[] = [];
    for (;;) {
      while (entry < this.entries.length && !this.isLive(this.entries[entry])) entry++;
      const nextEntry = this.entries[entry];
      const nextTomb = this.tombs[tomb];
      if (!nextEntry && !nextTomb) return { items, more: false };
      if (items.length === limit) return { items, more: true };
      if (nextEntry && (!nextTomb || nextEntry.seq < nextTomb.seq)) {
        items.push(nextEntry);
        entry++;
      } else {
        items.push({ seq: nextTomb.seq, kind: nextTomb.kind, id: nextTomb.id, tombstone: nextTomb });
        tomb++;
      }
    }
  }

  private isLive(entry: FeedEntry): boolean {
    return this.current.get(keyOf(entry.kind, entry.id)) === entry.seq;
  }

  private dropStale() {
    this.entries = this.entries.filter((entry) => this.isLive(entry));
  }
}
