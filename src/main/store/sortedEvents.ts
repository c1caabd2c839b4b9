import type { StoredEvent } from './schema';

/** Orders events as the reference lists them: by local start, then by id (creation order). */
export function compareStart(a: StoredEvent, b: StoredEvent): number {
  if (a.startLocal < b.startLocal) return -1;
  if (a.startLocal > b.startLocal) return 1;
  return a.id - b.id;
}

/** Largest block; a full block is split in two. */
const BLOCK_MAX = 1024;

/**
 * Events sorted by (start, id), addressed by position, kept in blocks of at most 1024: inserting or removing
 * one moves the events of one block, not those of the whole calendar (a splice into one array of 100k events
 * costs a tenth of a millisecond or more once the array lives in the old generation, on every create).
 */
export class SortedEvents {
  private blocks: StoredEvent[][] = [];
  /** Position of each block's first event; rebuilt after a change, when first needed. */
  private firsts: number[] = [];
  private firstsValid = true;
  private count = 0;
  /** The block the last `at()` read (sequential reads stay in it). */
  private lastBlock = 0;

  get length(): number {
    return this.count;
  }

  /** Appends an event known to sort after every other one (bulk loading, in order). */
  push(event: StoredEvent): void {
    let last = this.blocks[this.blocks.length - 1];
    if (!last || last.length >= BLOCK_MAX) {
      this.blocks.push((last = []));
      this.firstsValid = false;
    }
    last.push(event);
    this.count++;
  }

  /** The event at `position` (0 ≤ position < length). */
  at(position: number): StoredEvent {
    const firsts = this.positions();
    let block = this.lastBlock;
    if (!(
      block < firsts.length &&
      firsts[block]! <= position &&
      position - firsts[block]! < this.blocks[block]!.length
    )) {
      block = this.blockOfPosition(position);
      this.lastBlock = block;
    }
    return this.blocks[block]![position - firsts[block]!]!;
  }

  /** Calls `visit` with the events from position `from` to `to` (excluded), in order. */
  forEachBetween(from: number, to: number, visit: (event: StoredEvent) => void): void {
    if (from >= to) return;
    const firsts = this.positions();
    for (let block = this.blockOfPosition(from); block < this.blocks.length; block++) {
      const events = this.blocks[block];
      const start = Math.max(0, from - firsts[block]!);
      const end = Math.min(events!.length, to - firsts[block]!);
      for (let at = start; at < end; at++) visit(events![at]!);
      if (firsts[block]! + events!.length >= to) return;
    }
  }

  /** Position of the first event whose start is >= `startLocal`. */
  lowerBound(startLocal: string): number {
    return this.search((event) => event.startLocal < startLocal);
  }

  /** Position of the first event whose start is > `startLocal`. */
  upperBound(startLocal: string): number {
    return this.search((event) => event.startLocal <= startLocal);
  }

  /** Inserts `event` at its place. */
  insert(event: StoredEvent): void {
    if (this.blocks.length === 0) {
      this.push(event);
      return;
    }
    const block = this.blockFor(event);
    const events = this.blocks[block];
    events!.splice(insertionPoint(events!, event), 0, event);
    this.count++;
    if (events!.length > BLOCK_MAX) this.blocks.splice(block + 1, 0, events!.splice(BLOCK_MAX >> 1));
    this.firstsValid = false;
  }

  /** Removes `event` (by id); false when it is not there. */
  remove(event: StoredEvent): boolean {
    if (this.blocks.length === 0) return false;
    let block = this.blockFor(event);
    let at = insertionPoint(this.blocks[block]!, event);
    if (this.blocks[block]![at]?.id !== event.id) {
      // The stored copy must be the one indexed; a miss means a caller mutated a record in place.
      block = this.blocks.findIndex((events) => events.some((candidate) => candidate.id === event.id));
      if (block < 0) return false;
      at = this.blocks[block]!.findIndex((candidate) => candidate.id === event.id);
    }
    const events = this.blocks[block];
    events!.splice(at, 1);
    if (events!.length === 0) this.blocks.splice(block, 1);
    this.count--;
    this.firstsValid = false;
    return true;
  }

  /** Puts `next` where `current` is (the same id and start: the same place); false when it is not there. */
  replace(current: StoredEvent, next: StoredEvent): boolean {
    if (this.blocks.length === 0) return false;
    const events = this.blocks[this.blockFor(current)];
    const at = insertionPoint(events!, current);
    if (events![at] !== current) return false;
    events![at] = next;
    return true;
  }

  /** Every event, in order (tests). */
  toArray(): StoredEvent[] {
    return this.blocks.flat();
  }

  /** The first block whose last event sorts at or after `event` (the last block when none does). */
  private blockFor(event: StoredEvent): number {
    let lo = 0;
    let hi = this.blocks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const events = this.blocks[mid];
      if (compareStart(events![events!.length - 1]!, event) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Position of the first event for which `before` is false (`before` holds for a prefix of the order). */
  private search(before: (event: StoredEvent) => boolean): number {
    const blocks = this.blocks;
    let lo = 0;
    let hi = blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(blocks[mid]![blocks[mid]!.length - 1]!)) lo = mid + 1;
      else hi = mid;
    }
    if (lo === blocks.length) return this.count;
    const events = blocks[lo];
    let from = 0;
    let to = events!.length;
    while (from < to) {
      const mid = (from + to) >>> 1;
      if (before(events![mid]!)) from = mid + 1;
      else to = mid;
    }
    return this.positions()[lo]! + from;
  }

  private positions(): number[] {
    if (!this.firstsValid) {
      const firsts = new Array<number>(this.blocks.length);
      let position = 0;
      for (let block = 0; block < this.blocks.length; block++) {
        firsts[block] = position;
        position += this.blocks[block]!.length;
      }
      this.firsts = firsts;
      this.firstsValid = true;
    }
    return this.firsts;
  }

  private blockOfPosition(position: number): number {
    const firsts = this.firsts;
    let lo = 0;
    let hi = firsts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (firsts[mid]! <= position) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

/** Where `event` is, or would go, in `events` sorted by (start, id). */
function insertionPoint(events: readonly StoredEvent[], event: StoredEvent): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareStart(events[mid]!, event) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
