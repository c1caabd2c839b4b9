import type { Language, PostStatus } from '../../shared/enums';
import type { CalendarStore } from '../store/store';
import type { StoredEvent } from '../store/schema';

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

/** Whether one event passes every filter of the query. */
export function matchesQuery(event: StoredEvent, query: EventQuery, store: CalendarStore): boolean {
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
  if (query.venueIds && !query.venueIds.has(event.venueId)) return false;
  if (query.organizerIds && !anyIn(event.organizerIds, query.organizerIds)) return false;
  if (query.geo) {
    const venue = event.venueId ? store.venues.get(event.venueId) : undefined;
    if (!venue || venue.geoLat === null || venue.geoLng === null) return false;
    const { lat, lng, radiusKm } = query.geo;
    if (lat !== undefined && lng !== undefined && distanceKm(lat, lng, venue.geoLat, venue.geoLng) > radiusKm)
      return false;
  }
  if (query.searchWords) {
    const haystack = `${event.title}\n${event.excerpt}\n${event.description}`.toLowerCase();
    if (!query.searchWords.every((word) => haystack.includes(word))) return false;
  }
  return true;
}

/** The smallest id set an index offers for the query, or null to walk the start-sorted list. */
function candidateIds(query: EventQuery, store: CalendarStore): Set<number> | null {
  const index = store.eventIndex;
  const options: Set<number>[] = [];
  const union = (ids: Iterable<number>, map: Map<number, Set<number>>) => {
    const result = new Set<number>();
    for (const id of ids) for (const eventId of map.get(id) ?? []) result.add(eventId);
    return result;
  };
  if (query.include) options.push(new Set(query.include));
  if (query.venueIds) options.push(union(query.venueIds, index.byVenue));
  if (query.organizerIds) options.push(union(query.organizerIds, index.byOrganizer));
  if (query.categoryIds) options.push(union(query.categoryIds, index.byTerm));
  if (query.tagIds) options.push(union(query.tagIds, index.byTerm));
  if (query.parentId !== undefined) options.push(new Set(index.byParent.get(query.parentId) ?? []));
  if (options.length === 0) return null;
  return options.reduce((smallest, next) => (next.size < smallest.size ? next : smallest));
}

function startRange(query: EventQuery, store: CalendarStore): [number, number] {
  const index = store.eventIndex;
  let from = 0;
  let to = index.byStart.length;
  for (const bound of query.bounds) {
    if (bound.field !== 'start') continue;
    if (bound.op === '>=') from = Math.max(from, index.lowerBound(bound.value));
    if (bound.op === '>') from = Math.max(from, index.upperBound(bound.value));
    if (bound.op === '<=') to = Math.min(to, index.upperBound(bound.value));
    if (bound.op === '<') to = Math.min(to, index.lowerBound(bound.value));
  }
  return [from, to];
}

/**
 * Runs the query: matching events in archive order (start, then id; with `include`, post date then id) and
 * the page asked for. Candidates come from the smallest index that applies; the start bounds narrow the
 * start-sorted list by binary search.
 */
export function runEventQuery(
  query: EventQuery,
  store: CalendarStore,
  page: { offset: number; limit: number },
): { total: number; items: StoredEvent[] } {
  const matching: StoredEvent[] = [];
  const candidates = candidateIds(query, store);
  if (candidates) {
    for (const id of candidates) {
      const event = store.events.get(id);
      if (event && matchesQuery(event, query, store)) matching.push(event);
    }
    matching.sort((a, b) =>
      a.startLocal < b.startLocal ? -1 : a.startLocal > b.startLocal ? 1 : a.id - b.id,
    );
  } else {
    const [from, to] = startRange(query, store);
    const sorted = store.eventIndex.byStart;
    for (let position = from; position < to; position++) {
      if (matchesQuery(sorted[position], query, store)) matching.push(sorted[position]);
    }
  }
  if (query.include) {
    matching.sort((a, b) => (a.dateUtc < b.dateUtc ? -1 : a.dateUtc > b.dateUtc ? 1 : a.id - b.id));
  }
  return { total: matching.length, items: matching.slice(page.offset, page.offset + page.limit) };
}
