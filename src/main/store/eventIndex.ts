import type { StoredEvent } from './schema';

/** Orders events as the reference lists them: by local start, then by id (creation order). */
function compareStart(a: StoredEvent, b: StoredEvent): number {
  if (a.startLocal < b.startLocal) return -1;
  if (a.startLocal > b.startLocal) return 1;
  return a.id - b.id;
}

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

/**
 * In-memory indexes over events, kept current on every put: events sorted by start, and reverse maps from
 * terms, venues, organizers and parents to the events that use them. Term counts (published events per term,
 * as WordPress counts them) are kept incrementally.
 */
export class EventIndex {
  /** All events, sorted by (startLocal, id). */
  readonly byStart: StoredEvent[] = [];
  readonly byTerm = new Map<number, Set<number>>();
  readonly byVenue = new Map<number, Set<number>>();
  readonly byOrganizer = new Map<number, Set<number>>();
  readonly byParent = new Map<number, Set<number>>();
  private readonly publishedPerTerm = new Map<number, number>();

  /** Position of the first event whose start is >= `startLocal`. */
  lowerBound(startLocal: string): number {
    let lo = 0;
    let hi = this.byStart.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.byStart[mid].startLocal < startLocal) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Position of the first event whose start is > `startLocal`. */
  upperBound(startLocal: string): number {
    let lo = 0;
    let hi = this.byStart.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.byStart[mid].startLocal <= startLocal) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  termCount(termId: number): number {
    return this.publishedPerTerm.get(termId) ?? 0;
  }

  /** Indexes exactly `events`, dropping whatever was indexed before (one sort instead of n insertions). */
  reset(events: Iterable<StoredEvent>): void {
    this.byStart.length = 0;
    this.byTerm.clear();
    this.byVenue.clear();
    this.byOrganizer.clear();
    this.byParent.clear();
    this.publishedPerTerm.clear();
    for (const event of events) {
      this.byStart.push(event);
      this.addLinks(event);
    }
    this.byStart.sort(compareStart);
  }

  /** Replaces `previous` (if any) by `next` (if any) in every index. */
  update(previous: StoredEvent | undefined, next: StoredEvent | undefined): void {
    if (previous) this.remove(previous);
    if (next) this.add(next);
  }

  private add(event: StoredEvent) {
    this.byStart.splice(this.insertionPoint(event), 0, event);
    this.addLinks(event);
  }

  private addLinks(event: StoredEvent) {
    for (const termId of [...event.categoryIds, ...event.tagIds]) {
      addTo(this.byTerm, termId, event.id);
      if (event.status === 'publish') this.publishedPerTerm.set(termId, this.termCount(termId) + 1);
    }
    if (event.venueId) addTo(this.byVenue, event.venueId, event.id);
    for (const organizerId of event.organizerIds) addTo(this.byOrganizer, organizerId, event.id);
    if (event.parentId) addTo(this.byParent, event.parentId, event.id);
  }

  private remove(event: StoredEvent) {
    const at = this.insertionPoint(event);
    if (this.byStart[at]?.id === event.id) this.byStart.splice(at, 1);
    else {
      // The stored copy must be the one indexed; a miss means a caller mutated a record in place.
      const index = this.byStart.findIndex((candidate) => candidate.id === event.id);
      if (index >= 0) this.byStart.splice(index, 1);
    }
    for (const termId of [...event.categoryIds, ...event.tagIds]) {
      removeFrom(this.byTerm, termId, event.id);
      if (event.status === 'publish') {
        const count = this.termCount(termId) - 1;
        if (count > 0) this.publishedPerTerm.set(termId, count);
        else this.publishedPerTerm.delete(termId);
      }
    }
    if (event.venueId) removeFrom(this.byVenue, event.venueId, event.id);
    for (const organizerId of event.organizerIds) removeFrom(this.byOrganizer, organizerId, event.id);
    if (event.parentId) removeFrom(this.byParent, event.parentId, event.id);
  }

  private insertionPoint(event: StoredEvent): number {
    let lo = 0;
    let hi = this.byStart.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareStart(this.byStart[mid], event) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
