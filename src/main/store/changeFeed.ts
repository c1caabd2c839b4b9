import { wallClockSeconds, wallClockText } from './eventIndex';
import {
  FEED_KIND_CODE_BASE,
  FEED_KINDS,
  type ChangeFeedState,
  type FeedKind,
  type Tombstone,
} from './schema';

/** How long deletions stay in the feed: the newest `count`, and none older than `days` before the newest. */
export interface TombstoneLimits {
  count: number;
  days: number;
}

export const DEFAULT_TOMBSTONE_LIMITS: TombstoneLimits = { count: 10_000, days: 90 };

/**
 * How far a reader has read: records changed up to `records`, deletions up to `deletions`. The two differ in
 * the middle of a full read, which needs no deletion from before it began (those records were not there).
 */
export interface FeedPosition {
  records: number;
  deletions: number;
}

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

/** A record's key in the feed's maps: its id and kind in one number (numbers hash faster than strings). */
const keyOf = (kind: FeedKind, id: number) => id * 8 + FEED_KINDS.indexOf(kind);
const kindOf = (key: number) => FEED_KINDS[key % 8]!;
const idOf = (key: number) => Math.floor(key / 8);

/** Position of the first of `count` items in ascending seq (`seqAt` reads one) whose seq is greater than `seq`. */
function firstAfter(count: number, seqAt: (at: number) => number, seq: number): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (seqAt(middle) <= seq) low = middle + 1;
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
  private feedId = '';
  private lastSeq = 0;
  private prunedUpTo = 0;
  /** The state a start left unparsed (see resetLater), or null once it is read. */
  private pending: (() => ChangeFeedState) | null = null;

  /** Identity of this calendar's sequence (see changeFeedSchema). */
  get id(): string {
    this.load();
    return this.feedId;
  }

  /** The last number given (numbers of changes taken back are not given again). */
  get seq(): number {
    this.load();
    return this.lastSeq;
  }

  set seq(seq: number) {
    this.load();
    this.lastSeq = seq;
  }

  /** The newest pruned tombstone: a reader who saw less than this may have missed a deletion. */
  get horizon(): number {
    this.load();
    return this.prunedUpTo;
  }

  set horizon(seq: number) {
    this.load();
    this.prunedUpTo = seq;
  }
  /**
   * Latest change of each existing record, ascending: `seqs[i]` is the change, `keys[i]` the record. An entry
   * whose record is at another change in `current` (or gone) is stale.
   */
  private seqs: number[] = [];
  private keys: number[] = [];
  /** Record → its latest change; made from the entries when first needed (a start at 100,000 events needs it
   * for neither its first answers nor its reading, and making it took ~30 ms there). */
  private currentMap: Map<number, number> | null = new Map();
  private get current(): Map<number, number> {
    this.load();
    if (!this.currentMap) {
      this.currentMap = new Map();
      for (let at = 0; at < this.keys.length; at++) this.currentMap.set(this.keys[at]!, this.seqs[at]!);
    }
    return this.currentMap;
  }
  private tombs: Tombstone[] = [];

  /** How long deletions are kept (tests shorten it). */
  limits: TombstoneLimits = DEFAULT_TOMBSTONE_LIMITS;

  /**
   * Reads the feed a start left unparsed, and makes the map of each record's latest change, if they are not
   * yet (between requests, after a start).
   */
  prepare(): void {
    void this.current;
  }

  reset(state: ChangeFeedState): void {
    this.pending = null;
    this.feedId = state.id;
    this.lastSeq = state.seq;
    this.prunedUpTo = state.horizon;
    const { seqs, kinds, ids } = state.live;
    this.seqs = seqs.slice();
    this.keys = new Array<number>(seqs.length);
    for (let at = 0; at < seqs.length; at++)
      this.keys[at] = ids[at]! * 8 + (kinds.charCodeAt(at) - FEED_KIND_CODE_BASE);
    // The file's entries are its live records, one each: the map is made from them when first needed.
    this.currentMap = null;
    this.tombs = [...state.tombstones];
  }

  /**
   * The feed is `state()` once first used: a start leaves the data file's feed (1.4 MB at 100,000 events)
   * unparsed until a change, a sync or the reading between requests needs it. `state` may throw (a damaged
   * file): whatever used the feed gets that error, and the feed stays unread.
   */
  resetLater(state: () => ChangeFeedState): void {
    this.reset({ id: '', seq: 0, horizon: 0, live: { seqs: [], kinds: '', ids: [] }, tombstones: [] });
    this.pending = state;
  }

  /** Whether the feed a start left unparsed is still to be read. */
  get unread(): boolean {
    return this.pending !== null;
  }

  /** Parses the feed a start left unparsed, if it is not yet (its map is made later: see prepare). */
  load(): void {
    if (this.pending) this.reset(this.pending());
  }

  /** The feed as the data file keeps it. */
  state(): ChangeFeedState {
    return this.stateLater()();
  }

  /**
   * The feed as it is now, as the data file keeps it once the answer is called: what is read now is copied
   * (which entries are live, the numbers), the entries of the file are made when called, in a later turn of
   * the event loop (a compaction at 50,000 events held the server ~15 ms more making them at once).
   */
  stateLater(): () => ChangeFeedState {
    this.load();
    const { id, seq, horizon } = this;
    const live = this.liveAt();
    const seqs = this.seqs.slice();
    const keys = this.keys.slice();
    const tombstones = [...this.tombs];
    return () => ({
      id,
      seq,
      horizon,
      live: {
        seqs: live.map((at) => seqs[at]!),
        kinds: live.map((at) => String.fromCharCode(FEED_KIND_CODE_BASE + (keys[at]! % 8))).join(''),
        ids: live.map((at) => idOf(keys[at]!)),
      },
      tombstones,
    });
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
    const count = this.seqs.length;
    if (count === 0 || this.seqs[count - 1]! < seq) {
      this.seqs.push(seq);
      this.keys.push(key);
    } else {
      // Taking a change back brings a record back to an older seq, whose entry may still be there; a number
      // taken back with a change that failed half-way is given again, and its entry is this record's now.
      const at = this.firstEntryAfter(seq);
      if (this.seqs[at - 1] === seq) this.keys[at - 1] = key;
      else {
        this.seqs.splice(at, 0, seq);
        this.keys.splice(at, 0, key);
      }
    }
    if (this.seqs.length - this.current.size > Math.max(1024, this.current.size)) this.dropStale();
  }

  /**
   * Keeps a deletion, pruning in the same step the tombstones beyond the limits (counted back from this one,
   * so a replay prunes exactly the same). Returns the step that takes it back.
   */
  addTombstone(tombstone: Tombstone): () => void {
    this.load();
    const at = this.firstTombAfter(tombstone.seq);
    this.tombs.splice(at, 0, tombstone);
    const since = wallClockSeconds(tombstone.deletedUtc);
    const cutoff = since === null ? '' : wallClockText(Math.max(0, since - this.limits.days * 86_400));
    let drop = 0;
    while (
      drop < this.tombs.length - 1 &&
      (this.tombs.length - drop > this.limits.count || this.tombs[drop]!.deletedUtc < cutoff)
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
    this.load();
    let at = this.seqs.length - 1;
    while (at >= 0 && !this.isLive(at)) at--;
    return Math.max(this.seqs[at] ?? 0, this.tombs.at(-1)?.seq ?? 0, this.horizon);
  }

  /**
   * Up to `limit` changes after `after`, in ascending seq, and whether more follow. Without `after`: every
   * existing record (no tombstones: the reader starts from nothing).
   */
  read(after: FeedPosition | number | null, limit: number): { items: FeedItem[]; more: boolean } {
    this.load();
    const from = typeof after === 'number' ? { records: after, deletions: after } : after;
    let entry = from === null ? 0 : this.firstEntryAfter(from.records);
    let tomb =
      from === null ? this.tombs.length : this.firstTombAfter(Math.max(from.records, from.deletions));
    const items: FeedItem[] = [];
    for (;;) {
      while (entry < this.seqs.length && !this.isLive(entry)) entry++;
      const hasEntry = entry < this.seqs.length;
      const nextTomb = this.tombs[tomb];
      if (!hasEntry && !nextTomb) return { items, more: false };
      if (items.length === limit) return { items, more: true };
      if (hasEntry && (!nextTomb || this.seqs[entry]! < nextTomb.seq)) {
        const key = this.keys[entry];
        items.push({ seq: this.seqs[entry]!, kind: kindOf(key!), id: idOf(key!) });
        entry++;
      } else {
        items.push({ seq: nextTomb!.seq, kind: nextTomb!.kind, id: nextTomb!.id, tombstone: nextTomb });
        tomb++;
      }
    }
  }

  private firstEntryAfter(seq: number): number {
    return firstAfter(this.seqs.length, (at) => this.seqs[at]!, seq);
  }

  private firstTombAfter(seq: number): number {
    return firstAfter(this.tombs.length, (at) => this.tombs[at]!.seq, seq);
  }

  /** Whether the entry at `at` is its record's latest change. */
  private isLive(at: number): boolean {
    return this.current.get(this.keys[at]!) === this.seqs[at];
  }

  /** Positions of the live entries. */
  private liveAt(): number[] {
    const positions: number[] = [];
    for (let at = 0; at < this.seqs.length; at++) if (this.isLive(at)) positions.push(at);
    return positions;
  }

  private dropStale() {
    const live = this.liveAt();
    this.seqs = live.map((at) => this.seqs[at]!);
    this.keys = live.map((at) => this.keys[at]!);
  }
}
