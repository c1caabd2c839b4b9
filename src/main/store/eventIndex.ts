import type { StoredEvent } from './schema';
import { compareStart, SortedEvents } from './sortedEvents';

function addTo<K>(map: Map<K, Set<number>>, key: K, id: number) {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(id);
}

function removeFrom<K>(map: Map<K, Set<number>>, key: K, id: number) {
  const set = map.get(key);
  if (!set) return;
  set.delete(id);
  if (set.size === 0) map.delete(key);
}

// ---------------------------------------------------------------------------------------------------------
// Wall-clock arithmetic. Local dates are `Y-m-d H:i:s` strings compared as strings; for a canonical date
// (real calendar fields, four-digit year) string order is time order, so a date minus a duration can be
// computed in seconds and turned back into a string that compares correctly with the stored ones.

const DAY_SECONDS = 86_400;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const DAYS_BEFORE_MONTH = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
// Date.UTC reads years 0-99 as 1900-1999: dates are shifted by 400 years (exactly 146,097 days) for it.
const YEAR_ZERO_MS = Date.UTC(400, 0, 1);

function digits(text: string, from: number, length: number): number {
  let value = 0;
  for (let at = from; at < from + length; at++) {
    const digit = text.charCodeAt(at) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** Seconds from 0000-01-01 00:00:00 to a canonical `Y-m-d H:i:s` wall clock; null for anything else. */
export function wallClockSeconds(text: string): number | null {
  return text.length === 19 ? wallClockSecondsAt(text, 0) : null;
}

/**
 * `wallClockSeconds` of the 19 characters of `text` from `at`: a start reads the dates of its events' keys
 * (one long string) in place, without slicing 200,000 strings first.
 */
export function wallClockSecondsAt(text: string, at: number): number | null {
  if (at < 0 || at + 19 > text.length) return null;
  const separators =
    text.charCodeAt(at + 4) === 45 && text.charCodeAt(at + 7) === 45 && text.charCodeAt(at + 10) === 32;
  if (!separators || text.charCodeAt(at + 13) !== 58 || text.charCodeAt(at + 16) !== 58) return null; // '-', ' ', ':'
  const year = digits(text, at, 4);
  const month = digits(text, at + 5, 2);
  const day = digits(text, at + 8, 2);
  const hour = digits(text, at + 11, 2);
  const minute = digits(text, at + 14, 2);
  const second = digits(text, at + 17, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23) return null;
  if (minute < 0 || minute > 59 || second < 0 || second > 59) return null;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1])!) return null;
  // Proleptic Gregorian days before the year (year 0 is a leap year), the month and the day.
  const days =
    365 * year +
    Math.floor((year + 3) / 4) -
    Math.floor((year + 99) / 100) +
    Math.floor((year + 399) / 400) +
    DAYS_BEFORE_MONTH[month - 1]! +
    (month > 2 && leap ? 1 : 0) +
    day -
    1;
  return days * DAY_SECONDS + hour * 3600 + minute * 60 + second;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** The canonical wall clock `seconds` after 0000-01-01 00:00:00 (the inverse of `wallClockSeconds`). */
export function wallClockText(seconds: number): string {
  const date = new Date(YEAR_ZERO_MS + seconds * 1000);
  return (
    `${pad(date.getUTCFullYear() - 400, 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`
  );
}

/**
 * The canonical date `seconds` before `value`: every canonical date sorting before it is more than `seconds`
 * before `value`. '' (before everything) when `value` is not canonical or the result would precede year 0.
 */
function wallClockBefore(value: string, seconds: number): string {
  const at = wallClockSeconds(value);
  if (at === null || at < seconds) return '';
  return wallClockText(at - seconds);
}

// ---------------------------------------------------------------------------------------------------------
// Listings.

/** A comparison of an event's local start or end with a wall-clock value (the query's `DateBound`). */
export interface WallClockBound {
  field: 'start' | 'end';
  op: '>=' | '>' | '<=' | '<';
  value: string;
}

/** The part of an archive query a listing answers by itself: statuses, hidden flag, language, dates. */
export interface ListingFilter {
  bounds: readonly WallClockBound[];
  statuses: ReadonlySet<string>;
  includeHidden: boolean;
  /** Only events of this language (none or '': every language). */
  language?: string;
}

function passes(event: StoredEvent, bounds: readonly WallClockBound[]): boolean {
  for (const { field, op, value } of bounds) {
    const actual = field === 'start' ? event.startLocal : event.endLocal;
    switch (op) {
      case '>=':
        if (actual < value) return false;
        break;
      case '>':
        if (actual <= value) return false;
        break;
      case '<=':
        if (actual > value) return false;
        break;
      case '<':
        if (actual >= value) return false;
    }
  }
  return true;
}

/**
 * Where an event goes in a listing. Events are "regular" when both dates are canonical and the end is not
 * before the start (the API rejects that, but a data file may hold anything); the span is then the end minus
 * the start in wall-clock seconds. Spans are grouped in classes (up to a day, then each class up to 4× the
 * previous), so that a few very long events do not widen the date checks of all the short ones.
 */
export interface Placement {
  /** Status, hidden flag, span class and language packed in one number (see `placementOf`). */
  key: number;
  status: string;
  hidden: boolean;
  language: string;
  /** Wall-clock seconds from start to end; -1 for an irregular event. */
  span: number;
}

/** Small numbers (far below 2^20) for the status and language strings met so far, for numeric keys. */
const codes = new Map<string, number>();
const codeOf = (text: string) => {
  let code = codes.get(text);
  if (code === undefined) codes.set(text, (code = codes.size));
  return code;
};

/** `start`, `end`: the event's in wall-clock seconds when the caller has them already (a start sorts by them). */
function placementOf(
  event: StoredEvent,
  start = wallClockSeconds(event.startLocal),
  end = wallClockSeconds(event.endLocal),
): Placement {
  const span = start !== null && end !== null && end >= start ? end - start : -1;
  const hidden = event.hideFromListings;
  const key = keyOf(event.status, hidden, spanClassOf(span), event.language);
  return { key, status: event.status, hidden, language: event.language, span };
}

/** Class 0 for irregular events (span -1), 1 for spans up to a day, then each class up to 4× longer (at most 13). */
function spanClassOf(span: number): number {
  if (span < 0) return 0;
  let spanClass = 1;
  for (let limit = DAY_SECONDS; span > limit; limit *= 4) spanClass++;
  return spanClass;
}

/** A partition's key: status, hidden flag, span class and language packed in one number. */
const keyOf = (status: string, hidden: boolean, spanClass: number, language: string): number =>
  ((codeOf(status) * 2 + (hidden ? 1 : 0)) * 64 + spanClass) * 2 ** 20 + codeOf(language);

/** Events of one status, hidden flag, language and span class, sorted by (start, id). */
interface Partition {
  readonly status: string;
  readonly hidden: boolean;
  readonly language: string;
  /** False for the partition of irregular events, whose end dates are always checked one by one. */
  readonly regular: boolean;
  /** The longest span added since the partition was created (it may overstate the current longest one). */
  maxSpan: number;
  readonly events: SortedEvents;
}

/** The positions of one partition's events a query's start bounds keep. */
interface Range {
  partition: Partition;
  from: number;
  to: number;
}

/** A run of events in (start, id) order an archive page is read from: a partition's range, or what it kept. */
interface Cursor {
  events: Pick<SortedEvents, 'at'>;
  position: number;
  end: number;
}

/** Restores the min-heap property (by the cursors' next events) below `at`. */
function siftDown(heap: Cursor[], at: number) {
  const cursor = heap[at]!;
  const head = cursor.events.at(cursor.position);
  for (;;) {
    let child = 2 * at + 1;
    if (child >= heap.length) break;
    const right = child + 1;
    if (
      right < heap.length &&
      compareStart(
        heap[right]!.events.at(heap[right]!.position),
        heap[child]!.events.at(heap[child]!.position),
      ) < 0
    )
      child = right;
    if (compareStart(heap[child]!.events.at(heap[child]!.position), head) >= 0) break;
    heap[at] = heap[child]!;
    at = child;
  }
  heap[at] = cursor;
}

/**
 * Visits the events of every cursor in (start, id) order (a k-way merge) until `visit` returns false. Cursors
 * are advanced in place, so what is left of each can be read afterwards.
 */
function mergeWalk(cursors: Cursor[], visit: (event: StoredEvent) => boolean) {
  const heap = cursors.filter((cursor) => cursor.position < cursor.end);
  for (let at = (heap.length >> 1) - 1; at >= 0; at--) siftDown(heap, at);
  while (heap.length > 0) {
    const top = heap[0];
    const event = top!.events.at(top!.position++);
    if (top!.position === top!.end) {
      const last = heap.pop()!;
      if (heap.length > 0) heap[0] = last;
    }
    if (heap.length > 0) siftDown(heap, 0);
    if (!visit(event)) return;
  }
}

/**
 * Events split by (status, hidden from listings, language, span class) into arrays sorted by (start, id), so
 * that an archive query never scans or sorts the whole calendar:
 *
 * - The partitions a query wants are picked by status/hidden/language; in each, the start bounds are a range
 *   found by binary search.
 * - An end bound is checked only where it can fail and succeed. A regular event lasts at most the partition's
 *   `maxSpan`, and its end is not before its start: so `end <= Y` (or `< Y`) holds for every start before
 *   Y − maxSpan and fails for every start after Y (the range is cut there), and `end >= X` (or `> X`) fails
 *   for every start before X − maxSpan (cut) and holds for every start after X. Only the events starting in
 *   [Y − maxSpan, Y] (resp. [X − maxSpan, X]) are looked at one by one: those overlapping the bound's instant,
 *   roughly. Irregular events are all checked one by one (there should be none).
 * - The total is the sum of the range sizes minus the events failing an end bound there; the page is read by
 *   a k-way merge of the ranges from their start. A query costs O(partitions × log n + events straddling its
 *   end bounds + offset + limit).
 *
 * Queries with other filters look at every event of the ranges instead (O(range): `rangeEvents`), merging
 * only the page (`mergedPage`).
 */
export class PartitionedEvents {
  private readonly partitions = new Map<number, Partition>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  clear(): void {
    this.partitions.clear();
    this.count = 0;
  }

  /** Adds an event; `atEnd` when it is known to sort after every event of its partition (bulk loading). */
  add(event: StoredEvent, placement: Placement, atEnd = false): void {
    let partition = this.partitions.get(placement.key);
    if (!partition) {
      partition = {
        status: placement.status,
        hidden: placement.hidden,
        language: placement.language,
        regular: placement.span >= 0,
        maxSpan: 0,
        events: new SortedEvents(),
      };
      this.partitions.set(placement.key, partition);
    }
    partition.maxSpan = Math.max(partition.maxSpan, placement.span);
    if (atEnd) partition.events.push(event);
    else partition.events.insert(event);
    this.count++;
  }

  remove(event: StoredEvent, placement: Placement): void {
    const expected = this.partitions.get(placement.key);
    if (expected && this.removeFrom(placement.key, expected, event)) return;
    // A record changed in place since it was indexed sits under another key: look everywhere.
    for (const [key, partition] of this.partitions) if (this.removeFrom(key, partition, event)) return;
  }

  /** Puts `next` in the place of `current`, which has the same id, dates, status, hidden flag and language. */
  replace(current: StoredEvent, placement: Placement, next: StoredEvent): boolean {
    return this.partitions.get(placement.key)?.events.replace(current, next) ?? false;
  }

  private removeFrom(key: number, partition: Partition, event: StoredEvent): boolean {
    if (!partition.events.remove(event)) return false;
    this.count--;
    // An emptied partition goes, so that its longest span starts over.
    if (partition.events.length === 0) this.partitions.delete(key);
    return true;
  }

  /** Every event of every partition (tests compare this with a brute-force scan). */
  *partitionContents(): IterableIterator<{ key: number; maxSpan: number; events: readonly StoredEvent[] }> {
    for (const [key, partition] of this.partitions)
      yield { key, maxSpan: partition.maxSpan, events: partition.events.toArray() };
  }

  /** The wanted partitions with the range of positions the bounds leave in each (possibly empty). */
  private ranges(filter: ListingFilter): Range[] {
    const result: Range[] = [];
    for (const partition of this.partitions.values()) {
      if (!filter.statuses.has(partition.status)) continue;
      if (partition.hidden && !filter.includeHidden) continue;
      if (filter.language && partition.language !== filter.language) continue;
      const events = partition.events;
      let from = 0;
      let to = events.length;
      for (const { field, op, value } of filter.bounds) {
        if (field === 'start') {
          if (op === '>=') from = Math.max(from, events.lowerBound(value));
          else if (op === '>') from = Math.max(from, events.upperBound(value));
          else if (op === '<=') to = Math.min(to, events.upperBound(value));
          else to = Math.min(to, events.lowerBound(value));
        } else if (partition.regular) {
          // The end is not before the start, and at most `maxSpan` after it.
          if (op === '<=' || op === '<') to = Math.min(to, events.upperBound(value));
          else from = Math.max(from, events.lowerBound(wallClockBefore(value, partition.maxSpan)));
        }
      }
      result.push({ partition, from, to: Math.max(from, to) });
    }
    return result;
  }

  /** How many events the wanted partitions' ranges hold: the cost of walking them with a predicate. */
  rangeSize(filter: ListingFilter): number {
    return this.ranges(filter).reduce((sum, { from, to }) => sum + to - from, 0);
  }

  /** Events of a range that fail an end bound: only those starting near an end bound are looked at. */
  private endFailures(
    partition: Partition,
    from: number,
    to: number,
    ends: readonly WallClockBound[],
  ): number {
    const events = partition.events;
    const regions: Array<[number, number]> = [];
    if (!partition.regular) regions.push([from, to]);
    else {
      for (const { value } of ends) {
        // Starts in [value − maxSpan, value] may end on either side of `value`; see the class comment.
        const regionFrom = Math.max(from, events.lowerBound(wallClockBefore(value, partition.maxSpan)));
        const regionTo = Math.min(to, events.upperBound(value));
        if (regionFrom < regionTo) regions.push([regionFrom, regionTo]);
      }
    }
    // Overlapping regions (several end bounds) are read once.
    regions.sort((a, b) => a[0] - b[0]);
    let failures = 0;
    let done = from;
    for (const [regionFrom, regionTo] of regions) {
      for (let position = Math.max(done, regionFrom); position < regionTo; position++) {
        if (!passes(events.at(position), ends)) failures++;
      }
      done = Math.max(done, regionTo);
    }
    return failures;
  }

  /**
   * The events the filter keeps, in (start, id) order: how many, and the page from `offset`. Only the page
   * and the end-bound regions are read.
   */
  run(filter: ListingFilter, offset: number, limit: number): { total: number; items: StoredEvent[] } {
    const ranges = this.ranges(filter);
    const ends = filter.bounds.filter((bound) => bound.field === 'end');
    const keeps = (event: StoredEvent) => passes(event, filter.bounds);
    let total = 0;
    for (const { partition, from, to } of ranges) {
      if (from < to) total += to - from - (ends.length > 0 ? this.endFailures(partition, from, to, ends) : 0);
    }
    const cursors: Cursor[] = ranges.map(({ partition, from, to }) => ({
      events: partition.events,
      position: from,
      end: to,
    }));
    const items: StoredEvent[] = [];
    let seen = 0;
    const pageEnd = offset + limit;
    if (limit > 0 && offset < total) {
      mergeWalk(cursors, (event) => {
        if (!keeps(event)) return true;
        if (seen >= offset) items.push(event);
        seen++;
        return seen < pageEnd;
      });
    }
    return { total, items };
  }

  /**
   * The events of the ranges the filter's start bounds give, one array per partition in (start, id) order,
   * copied out: a query with other filters looks at every one of them (to count them), across several turns of
   * the event loop (core/eventQuery.ts), and sees them as they were when it began. Its end bounds are not
   * applied (the caller's filter checks every bound).
   */
  rangeEvents(filter: ListingFilter): StoredEvent[][] {
    const lists: StoredEvent[][] = [];
    for (const { partition, from, to } of this.ranges(filter)) {
      if (from >= to) continue;
      const events: StoredEvent[] = [];
      partition.events.forEachBetween(from, to, (event) => events.push(event));
      lists.push(events);
    }
    return lists;
  }
}

/** How many events in order a page from `offset` needs: none when the page asks for none (`limit` 0). */
export function pageEndOf(offset: number, limit: number): number {
  return limit > 0 ? offset + limit : 0;
}

/**
 * The page from `offset` of lists each in (start, id) order, merged: a list need hold only its first
 * `offset + limit` events, since the page cannot take more from one list.
 */
export function mergedPage(lists: readonly StoredEvent[][], offset: number, limit: number): StoredEvent[] {
  const pageEnd = pageEndOf(offset, limit);
  const items: StoredEvent[] = [];
  if (offset >= pageEnd) return items;
  const cursors: Cursor[] = lists
    .filter((list) => list.length > 0)
    .map((list) => ({ events: { at: (position) => list[position]! }, position: 0, end: list.length }));
  let seen = 0;
  mergeWalk(cursors, (event) => {
    if (seen >= offset) items.push(event);
    seen++;
    return seen < pageEnd;
  });
  return items;
}

const NO_EVENTS = new PartitionedEvents();

/**
 * The indexes the default archive listing does not need: listings per category and per tag, and reverse maps
 * from terms, venues, organizers, parents and the featured/ticketed flags to the events that use them.
 */
class EventLinks {
  readonly categoryListings = new Map<number, PartitionedEvents>();
  readonly tagListings = new Map<number, PartitionedEvents>();
  readonly byTerm = new Map<number, Set<number>>();
  readonly byVenue = new Map<number, Set<number>>();
  readonly byOrganizer = new Map<number, Set<number>>();
  readonly byParent = new Map<number, Set<number>>();
  readonly featured = new Set<number>();
  readonly ticketed = new Set<number>();

  /** `atEnd` when the event sorts after every event added so far (building in start order). */
  add(event: StoredEvent, placement: Placement, atEnd: boolean) {
    addToListings(this.categoryListings, event.categoryIds, event, placement, atEnd);
    addToListings(this.tagListings, event.tagIds, event, placement, atEnd);
    for (const termId of event.categoryIds) addTo(this.byTerm, termId, event.id);
    for (const termId of event.tagIds) addTo(this.byTerm, termId, event.id);
    if (event.venueId) addTo(this.byVenue, event.venueId, event.id);
    for (const organizerId of event.organizerIds) addTo(this.byOrganizer, organizerId, event.id);
    if (event.parentId) addTo(this.byParent, event.parentId, event.id);
    if (event.featured) this.featured.add(event.id);
    if (event.ticketed) this.ticketed.add(event.id);
  }

  remove(event: StoredEvent, placement: Placement) {
    removeFromListings(this.categoryListings, event.categoryIds, event, placement);
    removeFromListings(this.tagListings, event.tagIds, event, placement);
    for (const termId of event.categoryIds) removeFrom(this.byTerm, termId, event.id);
    for (const termId of event.tagIds) removeFrom(this.byTerm, termId, event.id);
    if (event.venueId) removeFrom(this.byVenue, event.venueId, event.id);
    for (const organizerId of event.organizerIds) removeFrom(this.byOrganizer, organizerId, event.id);
    if (event.parentId) removeFrom(this.byParent, event.parentId, event.id);
    this.featured.delete(event.id);
    this.ticketed.delete(event.id);
  }

  update(previous: StoredEvent | undefined, next: StoredEvent | undefined) {
    if (previous) this.remove(previous, placementOf(previous));
    if (next) this.add(next, placementOf(next), false);
  }
}

/** Changes queued during a build of the links before it is finished at once. */
const MAX_QUEUED_CHANGES = 20_000;

/** A build of the links under way: the events (in start order) still to add, and the changes made meanwhile. */
interface LinkBuild {
  events: StoredEvent[];
  next: number;
  changes: Array<[StoredEvent | undefined, StoredEvent | undefined]>;
}

/**
 * In-memory indexes over events, kept current on every put: events partitioned for archive queries (all
 * together, and per category and per tag), reverse maps from terms, venues, organizers, parents and the
 * featured/ticketed flags to the events that use them, and term counts (published events per term, as
 * WordPress counts them).
 *
 * After `reset()` (a start) only the listing of all events and the term counts are built: that is all the
 * default archive needs, so the calendar answers sooner. The other indexes (the links) are built from the
 * events as they were at the reset, in slices (`buildSome`, run in the background by the server) or all at
 * once when first asked for; changes made meanwhile are queued and applied once the build is through.
 */
export class EventIndex {
  /** All events, partitioned for archive queries. */
  readonly listing = new PartitionedEvents();
  private readonly publishedPerTerm = new Map<number, number>();
  private links = new EventLinks();
  private build: LinkBuild | null = null;
  /**
   * Called before the links are built while the listing holds placeholders (see LazyEvents): it reads every
   * record and calls `useRecords`. The links are only ever built from full records.
   */
  beforeLinks: (() => void) | null = null;

  get byTerm(): Map<number, Set<number>> {
    return this.ready().byTerm;
  }

  get byVenue(): Map<number, Set<number>> {
    return this.ready().byVenue;
  }

  get byOrganizer(): Map<number, Set<number>> {
    return this.ready().byOrganizer;
  }

  get byParent(): Map<number, Set<number>> {
    return this.ready().byParent;
  }

  get featured(): Set<number> {
    return this.ready().featured;
  }

  get ticketed(): Set<number> {
    return this.ready().ticketed;
  }

  /** Whether every index is built (false between a reset and the end of the links' build). */
  get complete(): boolean {
    return this.build === null;
  }

  termCount(termId: number): number {
    return this.publishedPerTerm.get(termId) ?? 0;
  }

  /** The events having `termId` among their categories (or tags), partitioned for archive queries. */
  termListing(taxonomy: 'category' | 'tag', termId: number): PartitionedEvents {
    const links = this.ready();
    return (taxonomy === 'category' ? links.categoryListings : links.tagListings).get(termId) ?? NO_EVENTS;
  }

  /** Term ids having a listing of their own (tests compare them with a brute-force scan). */
  termListingIds(taxonomy: 'category' | 'tag'): number[] {
    const links = this.ready();
    return [...(taxonomy === 'category' ? links.categoryListings : links.tagListings).keys()];
  }

  /**
   * Indexes exactly `events`, dropping whatever was indexed before; the links are built later. With
   * `publishedPerTerm` (a start from the data file's keys), the events may be placeholders holding only what
   * the listing reads (see LazyEvents): the term counts are taken as given. `seconds`, when given, holds each
   * event's start and end in wall-clock seconds (NaN when not canonical), two per event in `events`' order.
   */
  reset(
    events: Iterable<StoredEvent>,
    publishedPerTerm?: ReadonlyMap<number, number>,
    seconds?: Float64Array,
  ): void {
    this.listing.clear();
    this.publishedPerTerm.clear();
    const { sorted, starts, ends } = startOrder(Array.isArray(events) ? events : [...events], seconds);
    // In start order, every partition is filled by appending.
    if (starts && ends) this.placeAll(sorted, starts, ends);
    else {
      for (let at = 0; at < sorted.length; at++) {
        const event = sorted[at]!;
        this.listing.add(event, starts ? placementOf(event, starts[at]) : placementOf(event), true);
      }
    }
    if (!publishedPerTerm) for (const event of sorted) this.countTerms(event, 1);
    for (const [termId, count] of publishedPerTerm ?? []) this.publishedPerTerm.set(termId, count);
    this.links = new EventLinks();
    this.build = sorted.length > 0 ? { events: sorted, next: 0, changes: [] } : null;
  }

  /**
   * Places a start's events (sorted, with their seconds) in the listing as `placementOf` would, with one
   * placement object for all: this loop runs cold at a start, where an object and two calls per event cost
   * tens of milliseconds at 100,000 events.
   */
  private placeAll(sorted: readonly StoredEvent[], starts: Float64Array, ends: Float64Array): void {
    const placement: Placement = { key: 0, status: '', hidden: false, language: '', span: -1 };
    for (let at = 0; at < sorted.length; at++) {
      const event = sorted[at]!;
      const start = starts[at]!;
      const end = ends[at]!;
      // NaN (an end that is not canonical) compares false: irregular, as placementOf's null end.
      const span = end >= start ? end - start : -1;
      placement.status = event.status;
      placement.hidden = event.hideFromListings;
      placement.language = event.language;
      placement.span = span;
      placement.key = keyOf(event.status, event.hideFromListings, spanClassOf(span), event.language);
      this.listing.add(event, placement, true);
    }
  }

  /** Puts the full record `next` in the listing in the place of the placeholder `current` (same id). */
  replacePlaceholder(current: StoredEvent, next: StoredEvent): void {
    if (!this.listing.replace(current, placementOf(current), next))
      throw new Error(`event ${current.id} is not where the data file's keys put it`);
  }

  /**
   * The links are built from the records `recordOf` gives for the placeholders `reset` was given: the same
   * events in the same start order (nothing changes while placeholders remain), so no sort again.
   */
  useRecords(recordOf: (id: number) => StoredEvent): void {
    const build = this.build;
    if (build)
      for (let at = 0; at < build.events.length; at++) build.events[at] = recordOf(build.events[at]!.id);
  }

  /** Published events per term, as [term id, count] (what the data file's keys keep). */
  termCounts(): IterableIterator<[number, number]> {
    return this.publishedPerTerm.entries();
  }

  /** Adds up to `count` more events to the links being built; true once they are complete. */
  buildSome(count: number): boolean {
    this.beforeLinks?.();
    const build = this.build;
    if (!build) return true;
    const end = Math.min(build.events.length, build.next + count);
    for (; build.next < end; build.next++) {
      const event = build.events[build.next];
      this.links.add(event!, placementOf(event!), true);
    }
    if (build.next < build.events.length) return false;
    this.build = null;
    for (const [previous, next] of build.changes) this.links.update(previous, next);
    return true;
  }

  /** Whether the links are still to be built (in slices by `buildSome`, or all at once when first used). */
  get linksPending(): boolean {
    return this.build !== null;
  }

  /**
   * Called before the links are built all at once (first use before the background build is through); it
   * may throw to refuse that, see CalendarStore.readAfterLoading.
   */
  beforeFullBuild: (() => void) | null = null;

  private ready(): EventLinks {
    if (this.build) {
      this.beforeFullBuild?.();
      this.buildSome(Infinity);
    }
    return this.links;
  }

  /** Replaces `previous` (if any) by `next` (if any) in every index. */
  update(previous: StoredEvent | undefined, next: StoredEvent | undefined): void {
    if (previous) {
      this.listing.remove(previous, placementOf(previous));
      this.countTerms(previous, -1);
    }
    if (next) {
      this.listing.add(next, placementOf(next));
      this.countTerms(next, 1);
    }
    if (!this.build) this.links.update(previous, next);
    else if (this.build.changes.push([previous, next]) > MAX_QUEUED_CHANGES) {
      // Many changes and nobody built the links (a long command without a server): build them now.
      this.ready();
    }
  }

  private countTerms(event: StoredEvent, delta: 1 | -1) {
    if (event.status !== 'publish') return;
    for (const termIds of [event.categoryIds, event.tagIds]) {
      for (const termId of termIds) {
        const count = this.termCount(termId) + delta;
        if (count > 0) this.publishedPerTerm.set(termId, count);
        else this.publishedPerTerm.delete(termId);
      }
    }
  }
}

/** Most events, and widest range of starts in seconds, the sort by numbers takes (starts as 32-bit numbers). */
const KEY_POSITIONS = 2 ** 21;
const KEY_SPAN_LIMIT = 2 ** 32;

/**
 * `events` in compareStart order. At a start this sorts the whole calendar, so each event's start becomes one
 * number, its wall-clock seconds after the earliest start, and the positions are sorted by those numbers (a
 * radix sort that keeps positions in order for equal starts): a few milliseconds where comparing start strings
 * takes a few hundred at 100k events. Canonical dates compare as strings exactly as their seconds do, and
 * positions break ties as ids do when the ids ascend (as the data file lists them). Anything else (a
 * non-canonical date, ids out of order, more than 2^21 events, starts more than 136 years apart) is sorted by
 * compareStart itself.
 */
export function sortByStart(events: StoredEvent[]): StoredEvent[] {
  return startOrder(events).sorted;
}

/**
 * The positions 0…n−1 of `keys` (whole numbers below 2^32) in ascending key order, equal keys in position
 * order: a radix sort of two 16-bit digits, ~2 ms at 100,000 events where sorting packed numbers took ~15.
 * Integer operations only: at a start this code runs cold, where a `Math.floor` per digit cost ~20 ms.
 */
function positionsByKey(keys: Uint32Array): Uint32Array {
  let order = new Uint32Array(keys.length);
  let next = new Uint32Array(keys.length);
  for (let at = 0; at < order.length; at++) order[at] = at;
  const counts = new Uint32Array(0x10001);
  for (const shift of [0, 16]) {
    counts.fill(0);
    for (let at = 0; at < keys.length; at++) counts[((keys[at]! >>> shift) & 0xffff) + 1]!++;
    for (let digit = 1; digit <= 0x10000; digit++) counts[digit]! += counts[digit - 1]!;
    // In `order`'s order: each pass keeps the order of the one before for equal digits (stable).
    for (let at = 0; at < order.length; at++) {
      const position = order[at]!;
      next[counts[(keys[position]! >>> shift) & 0xffff]!++] = position;
    }
    [order, next] = [next, order];
  }
  return order;
}

/**
 * `events` sorted as sortByStart does, with each one's start in wall-clock seconds when the numeric sort could
 * be used (null otherwise): the start's listing reuses them instead of reading 100,000 dates twice.
 */
function startOrder(
  events: readonly StoredEvent[],
  seconds?: Float64Array,
): { sorted: StoredEvent[]; starts: Float64Array | null; ends: Float64Array | null } {
  const byComparing = () => ({ sorted: [...events].sort(compareStart), starts: null, ends: null });
  if (events.length >= KEY_POSITIONS) return byComparing();
  if (seconds && seconds.length !== 2 * events.length) seconds = undefined;
  const startSeconds = new Float64Array(events.length);
  let earliest = Infinity;
  let latest = -Infinity;
  let previousId = -Infinity;
  for (let at = 0; at < events.length; at++) {
    const start = seconds ? seconds[2 * at]! : wallClockSeconds(events[at]!.startLocal);
    if (start === null || Number.isNaN(start) || !(events[at]!.id > previousId)) return byComparing();
    previousId = events[at]!.id;
    startSeconds[at] = start;
    if (start < earliest) earliest = start;
    if (start > latest) latest = start;
  }
  if (latest - earliest >= KEY_SPAN_LIMIT) return byComparing();
  // Each start as seconds after the earliest (below 2^32), then positions sorted by it, ties in position order.
  const keys = new Uint32Array(events.length);
  for (let at = 0; at < keys.length; at++) keys[at] = startSeconds[at]! - earliest;
  const order = positionsByKey(keys);
  const sorted = new Array<StoredEvent>(events.length);
  const starts = new Float64Array(events.length);
  const ends = seconds ? new Float64Array(events.length) : null;
  for (let at = 0; at < order.length; at++) {
    const position = order[at]!;
    sorted[at] = events[position]!;
    starts[at] = startSeconds[position]!;
    if (ends) ends[at] = seconds![2 * position + 1]!;
  }
  return { sorted, starts, ends };
}

/** Adds the event to the listing of each of its terms (a term repeated in `termIds` counts once). */
function addToListings(
  listings: Map<number, PartitionedEvents>,
  termIds: readonly number[],
  event: StoredEvent,
  placement: Placement,
  atEnd: boolean,
) {
  for (let at = 0; at < termIds.length; at++) {
    if (termIds.indexOf(termIds[at]!) !== at) continue;
    let listing = listings.get(termIds[at]!);
    if (!listing) listings.set(termIds[at]!, (listing = new PartitionedEvents()));
    listing.add(event, placement, atEnd);
  }
}

function removeFromListings(
  listings: Map<number, PartitionedEvents>,
  termIds: readonly number[],
  event: StoredEvent,
  placement: Placement,
) {
  for (let at = 0; at < termIds.length; at++) {
    const listing = listings.get(termIds[at]!);
    if (!listing || termIds.indexOf(termIds[at]!) !== at) continue;
    listing.remove(event, placement);
    if (listing.size === 0) listings.delete(termIds[at]!);
  }
}
