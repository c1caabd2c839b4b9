import type { Language, PostStatus } from '../../shared/enums';
import type { CalendarStore } from '../store/store';
import type { StoredEvent } from '../store/schema';
import { mergedPage, pageEndOf, type ListingFilter, type PartitionedEvents } from '../store/eventIndex';
import { TimeSlices } from './timeSlices';
import { shownOrganizerIds, shownVenueId } from './eventLinks';

/** A comparison of an event's local start or end with a site-zone wall-clock value. */
export interface DateBound {
  field: 'start' | 'end';
  op: '>=' | '>' | '<=' | '<';
  value: string;
}

/** Everything `GET /events` can filter on, already resolved to ids and wall-clock values. */
export interface EventQuery {
  bounds: DateBound[];
  statuses: ReadonlySet<PostStatus>;
  /** Each word must occur in the title, excerpt or description. */
  searchWords?: string[];
  /** Any of these category ids (OR); ANDed with `tagIds`. */
  categoryIds?: ReadonlySet<number>;
  tagIds?: ReadonlySet<number>;
  venueIds?: ReadonlySet<number>;
  organizerIds?: ReadonlySet<number>;
  featured?: boolean;
  ticketed?: boolean;
  include?: ReadonlySet<number>;
  parentId?: number;
  /** Venue with coordinates, optionally within `radiusKm` of a point. */
  geo?: { lat?: number; lng?: number; radiusKm: number };
  includeHidden: boolean;
  language?: Language;
}

const EARTH_RADIUS_KM = 6371;

function distanceKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(a));
}

function compare(actual: string, op: DateBound['op'], value: string): boolean {
  switch (op) {
    case '>=':
      return actual >= value;
    case '>':
      return actual > value;
    case '<=':
      return actual <= value;
    case '<':
      return actual < value;
  }
}

const anyIn = (ids: readonly number[], wanted: ReadonlySet<number>) => ids.some((id) => wanted.has(id));

/** The two characters whose lower case holds an ASCII letter: 'İ' (to 'i' and a dot) and the Kelvin sign. */
const LOWERS_TO_ASCII = /[\u0130\u212a]/;

/**
 * Whether `text.toLowerCase()` contains `word`, without lowering every text a search walks past: a word
 * of printable ASCII without capitals is looked for with a case-insensitive regular expression (without
 * the `u` flag it matches an ASCII letter of either case and no other character), so only the two
 * characters above can make the answers differ. Any other word is looked for in the lowered text.
 */
function wordFinder(word: string): (text: string) => boolean {
  if (!/^[ -@[-~]*$/.test(word)) return (text) => text.toLowerCase().includes(word);
  const pattern = new RegExp(word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
  return (text) => pattern.test(text) || (LOWERS_TO_ASCII.test(text) && text.toLowerCase().includes(word));
}

/** Whether an event's title, excerpt or description holds every one of the search words. */
function searcherOf(words: readonly string[]): (event: StoredEvent) => boolean {
  // Lowering the three texts joined by new lines lowers each on its own (a new line also ends a word for the
  // final sigma), so a word without a new line is in the joined text exactly when it is in one of them.
  if (words.some((word) => word.includes('\n'))) {
    return (event) => {
      const haystack = `${event.title}\n${event.excerpt}\n${event.description}`.toLowerCase();
      return words.every((word) => haystack.includes(word));
    };
  }
  const finders = words.map(wordFinder);
  return (event) => {
    for (const finds of finders) {
      if (!finds(event.title) && !finds(event.excerpt) && !finds(event.description)) return false;
    }
    return true;
  };
}

/** Whether one event passes every filter of the query. */
export function matchesQuery(event: StoredEvent, query: EventQuery, store: CalendarStore): boolean {
  return matches(event, query, store, query.searchWords ? searcherOf(query.searchWords) : null);
}

/** `matchesQuery` for the many events of one query: its search is prepared once. */
function matcherOf(query: EventQuery, store: CalendarStore): (event: StoredEvent) => boolean {
  const search = query.searchWords ? searcherOf(query.searchWords) : null;
  return (event) => matches(event, query, store, search);
}

function matches(
  event: StoredEvent,
  query: EventQuery,
  store: CalendarStore,
  search: ((event: StoredEvent) => boolean) | null,
): boolean {
  if (!query.statuses.has(event.status)) return false;
  if (event.hideFromListings && !query.includeHidden) return false;
  if (query.include && !query.include.has(event.id)) return false;
  for (const bound of query.bounds) {
    if (!compare(bound.field === 'start' ? event.startLocal : event.endLocal, bound.op, bound.value))
      return false;
  }
  if (query.language && event.language !== query.language) return false;
  if (query.featured !== undefined && event.featured !== query.featured) return false;
  if (query.ticketed !== undefined && event.ticketed !== query.ticketed) return false;
  if (query.parentId !== undefined && event.parentId !== query.parentId) return false;
  if (query.categoryIds && !anyIn(event.categoryIds, query.categoryIds)) return false;
  if (query.tagIds && !anyIn(event.tagIds, query.tagIds)) return false;
  if (query.venueIds && !query.venueIds.has(shownVenueId(store, event))) return false;
  if (query.organizerIds && !anyIn(shownOrganizerIds(store, event), query.organizerIds)) return false;
  if (query.geo) {
    const venueId = shownVenueId(store, event);
    const venue = venueId ? store.venues.get(venueId) : undefined;
    if (!venue || venue.geoLat === null || venue.geoLng === null) return false;
    const { lat, lng, radiusKm } = query.geo;
    if (lat !== undefined && lng !== undefined && distanceKm(lat, lng, venue.geoLat, venue.geoLng) > radiusKm)
      return false;
  }
  if (search && !search(event)) return false;
  return true;
}

/** Ids an index offers for a filter: every matching event is among them. */
interface IdSource {
  size: number;
  ids: () => Iterable<number>;
}

/** The events of any of `keys` in `map`: sized without building the union, built only when chosen. */
function unionSource(keys: ReadonlySet<number>, map: Map<number, Set<number>>): IdSource {
  let size = 0;
  for (const key of keys) size += map.get(key)?.size ?? 0;
  return {
    size,
    ids: () => {
      if (keys.size === 1) return map.get([...keys][0]!) ?? [];
      const union = new Set<number>();
      for (const key of keys) for (const id of map.get(key) ?? []) union.add(id);
      return union;
    },
  };
}

/** The smallest id set the indexes offer for the query's other filters, or null when none applies. */
function smallestIdSource(query: EventQuery, store: CalendarStore): IdSource | null {
  const index = store.eventIndex;
  const sources: IdSource[] = [];
  const fixed = (ids: ReadonlySet<number>) => ({ size: ids.size, ids: () => ids });
  if (query.include) sources.push(fixed(query.include));
  // Events without a venue or parent are not indexed under 0: those filters then walk instead.
  if (query.venueIds && !query.venueIds.has(0)) sources.push(unionSource(query.venueIds, index.byVenue));
  if (query.organizerIds) sources.push(unionSource(query.organizerIds, index.byOrganizer));
  if (query.categoryIds) sources.push(unionSource(query.categoryIds, index.byTerm));
  if (query.tagIds) sources.push(unionSource(query.tagIds, index.byTerm));
  if (query.parentId !== undefined && query.parentId !== 0) {
    sources.push(fixed(index.byParent.get(query.parentId) ?? new Set()));
  }
  if (query.featured === true) sources.push(fixed(index.featured));
  if (query.ticketed === true) sources.push(fixed(index.ticketed));
  if (query.geo) {
    // Only events at a venue with coordinates (in the radius) can match: venues are few.
    const { lat, lng, radiusKm } = query.geo;
    const venues = new Set<number>();
    for (const venue of store.venues.values()) {
      if (venue.geoLat === null || venue.geoLng === null || !index.byVenue.has(venue.id)) continue;
      if (
        lat !== undefined &&
        lng !== undefined &&
        distanceKm(lat, lng, venue.geoLat, venue.geoLng) > radiusKm
      )
        continue;
      venues.add(venue.id);
    }
    sources.push(unionSource(venues, index.byVenue));
  }
  if (sources.length === 0) return null;
  return sources.reduce((smallest, next) => (next.size < smallest.size ? next : smallest));
}

/** Whether a listing answers the query alone: no filter beyond statuses, hidden flag, language and dates. */
function listingAnswers(query: EventQuery): boolean {
  return (
    !query.searchWords?.length &&
    !query.categoryIds &&
    !query.tagIds &&
    !query.venueIds &&
    !query.organizerIds &&
    query.featured === undefined &&
    query.ticketed === undefined &&
    !query.include &&
    query.parentId === undefined &&
    !query.geo
  );
}

const byStart = (a: StoredEvent, b: StoredEvent) =>
  a.startLocal < b.startLocal ? -1 : a.startLocal > b.startLocal ? 1 : a.id - b.id;
const byPostDate = (a: StoredEvent, b: StoredEvent) =>
  a.dateUtc < b.dateUtc ? -1 : a.dateUtc > b.dateUtc ? 1 : a.id - b.id;

/**
 * Runs the query: matching events in archive order (start, then id; with `include`, post date then id) and
 * the page asked for. No plan scans or sorts the whole calendar:
 *
 * - Statuses, hidden flag, language and date bounds alone (the default archive) are answered by the
 *   partitioned listing of all events, as is a single category or tag with its own listing: the cost grows
 *   with the page, not with the calendar (see `PartitionedEvents`).
 * - Other filters take the cheaper of: the smallest id set an index offers (venue, organizer, terms, parent,
 *   include, featured/ticketed, geo), filtered and sorted, so the cost grows with the matches; or a filtered
 *   walk, in order, of the smallest listing range (e.g. a search in the default window).
 *
 * Those two look at every candidate (a search over three months at 100,000 events: ~8,000 texts, tens of
 * milliseconds): they do it in time slices (`TimeSlices`), so other requests are answered meanwhile (issue 32:
 * no stall of the event loop over 50 ms). The candidates are taken in one piece first, so the answer is the
 * calendar as it was when the query began, whatever is written meanwhile.
 */
export async function runEventQuery(
  query: EventQuery,
  store: CalendarStore,
  page: { offset: number; limit: number },
  slices = new TimeSlices(),
): Promise<{ total: number; items: StoredEvent[] }> {
  const index = store.eventIndex;
  const filter: ListingFilter = {
    bounds: query.bounds,
    statuses: query.statuses,
    includeHidden: query.includeHidden,
    language: query.language,
  };
  const listings: Array<{ listing: PartitionedEvents; rest: EventQuery }> = [
    { listing: index.listing, rest: query },
  ];
  if (!query.include) {
    const only = (ids: ReadonlySet<number> | undefined) => (ids?.size === 1 ? [...ids][0] : undefined);
    const category = only(query.categoryIds);
    const tag = only(query.tagIds);
    if (category !== undefined) {
      listings.push({
        listing: index.termListing('category', category),
        rest: { ...query, categoryIds: undefined },
      });
    }
    if (tag !== undefined) {
      listings.push({ listing: index.termListing('tag', tag), rest: { ...query, tagIds: undefined } });
    }
  }
  for (const { listing, rest } of listings) {
    if (!listingAnswers(rest)) continue;
    const { total, items } = listing.run(filter, page.offset, page.limit);
    // Soon after a start the listing may hold placeholders (see CalendarStore's `lazy`): the store hands out
    // their records, read now.
    return {
      total,
      items: store.unreadEvents > 0 ? items.map((event) => store.events.get(event.id)!) : items,
    };
  }
  // The filters below read any field of the events they look at.
  store.readAllEvents();

  const source = smallestIdSource(query, store);
  let walk = listings[0]!.listing;
  let walkSize = Infinity;
  if (!query.include) {
    for (const { listing } of listings) {
      const size = listing.rangeSize(filter);
      if (size < walkSize) [walk, walkSize] = [listing, size];
    }
  }
  const matchesIt = matcherOf(query, store);
  if (source && source.size <= walkSize) {
    const candidates: StoredEvent[] = [];
    for (const id of source.ids()) {
      const event = store.events.get(id);
      if (event) candidates.push(event);
    }
    const matching: StoredEvent[] = [];
    await eachMatchInSlices(candidates, matchesIt, slices, (event) => matching.push(event));
    matching.sort(query.include ? byPostDate : byStart);
    return { total: matching.length, items: matching.slice(page.offset, page.offset + page.limit) };
  }
  // Each range is read in order; it can give the page only its first `offset + limit` events it keeps.
  const keep = pageEndOf(page.offset, page.limit);
  let total = 0;
  const kept: StoredEvent[][] = [];
  for (const events of walk.rangeEvents(filter)) {
    const firsts: StoredEvent[] = [];
    await eachMatchInSlices(events, matchesIt, slices, (event) => {
      if (firsts.length < keep) firsts.push(event);
      total++;
    });
    kept.push(firsts);
  }
  return { total, items: mergedPage(kept, page.offset, page.limit) };
}

/** How many candidates are looked at between two looks at the clock (each takes a few microseconds). */
const CHECK_EVERY = 64;

/** Calls `found` with each of `events` that `matches`, in order, pausing between slices. */
async function eachMatchInSlices(
  events: readonly StoredEvent[],
  matches: (event: StoredEvent) => boolean,
  slices: TimeSlices,
  found: (event: StoredEvent) => void,
): Promise<void> {
  for (let at = 0; at < events.length; at++) {
    if (at % CHECK_EVERY === 0) await slices.pause();
    if (matches(events[at]!)) found(events[at]!);
  }
}
