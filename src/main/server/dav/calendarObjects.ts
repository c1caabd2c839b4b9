import { createHash } from 'node:crypto';
import type { CalendarStore } from '../../store/store';
import type { StoredEvent } from '../../store/schema';
import { canChangePost, canReadPost, type Caller } from '../../core/capabilities';
import { htmlToText } from '../../core/html';
import { seriesOccurrences } from '../../core/recurrence/series';
import { exportIcs } from '../../sync/exchange/ics';
import { keptOf, withKept } from './keptProperties';

/**
 * The calendar collection as CalDAV shows it to one user: one calendar object resource per series (its head
 * with every occurrence, RRULE/RDATE/EXDATE and RECURRENCE-ID overrides) or single event, named after the
 * event's uid, written by the `.ics` exporter (the one iCalendar writer, sync/exchange/ics.ts) with what the
 * user's calendar app added to it given back (keptProperties.ts).
 */

/** What one user may see of an event: readable (status and role), and a protected one only by its editors. */
export function visibleTo(caller: Caller, event: StoredEvent): boolean {
  return (
    event.status !== 'trash' &&
    canReadPost(caller, event) &&
    (event.password === '' || canChangePost(caller, event, 'edit'))
  );
}

export interface CalendarObject {
  /** The resource's name in the collection: `<uid>.ics`. */
  name: string;
  head: StoredEvent;
  /** The head and its occurrences the user may see (the head alone for a single event). */
  members: StoredEvent[];
}

export const objectName = (event: StoredEvent) => `${event.uid}.ics`;

/** The uid a resource name names, or null for a name that cannot be one of ours. */
export const uidOfName = (name: string): string | null => {
  const match = /^([0-9a-f-]{36})\.ics$/i.exec(name);
  return match ? match[1]!.toLowerCase() : null;
};

/** The events of a resource that the caller may see (empty: the resource does not exist for this user). */
function membersOf(store: CalendarStore, caller: Caller, head: StoredEvent): StoredEvent[] {
  if (!visibleTo(caller, head)) return [];
  if (!head.recurrence) return [head];
  return [head, ...seriesOccurrences(store, head)].filter((event) => visibleTo(caller, event));
}

/** Resource lists per user, rebuilt when the store changes. */
export class CalendarObjects {
  private listed: { key: string; objects: Map<string, CalendarObject> } | null = null;
  private readonly rendered = new Map<string, { key: string; text: string; etag: string }>();
  private byUid: { version: number; heads: Map<string, StoredEvent> } | null = null;

  constructor(private readonly store: CalendarStore) {}

  /** Every resource the caller may see, by name. */
  list(caller: Caller): Map<string, CalendarObject> {
    const key = `${this.store.version}|${caller.userId}|${caller.role}`;
    if (this.listed?.key === key) return this.listed.objects;
    this.store.readAllEvents();
    const objects = new Map<string, CalendarObject>();
    for (const head of this.heads().values()) {
      const members = membersOf(this.store, caller, head);
      if (members.length) objects.set(objectName(head), { name: objectName(head), head, members });
    }
    this.listed = { key, objects };
    return objects;
  }

  /** One resource, or undefined when the user may not see it (or it does not exist). */
  get(caller: Caller, name: string): CalendarObject | undefined {
    return this.list(caller).get(name);
  }

  /** The head of the series or single event with this uid (trashed ones included), whoever may see it. */
  headByUid(uid: string): StoredEvent | undefined {
    if (this.byUid?.version !== this.store.version) {
      this.store.readAllEvents();
      this.byUid = { version: this.store.version, heads: new Map() };
      for (const event of this.store.events.values())
        if (event.parentId === 0) this.byUid.heads.set(event.uid, event);
    }
    return this.byUid.heads.get(uid);
  }

  private heads(): Map<string, StoredEvent> {
    this.headByUid('');
    return this.byUid!.heads;
  }

  /** The resource as iCalendar and its ETag (from its bytes: the same content has the same tag). */
  render(caller: Caller, object: CalendarObject): { text: string; etag: string } {
    const cacheKey = `${caller.userId}|${object.name}`;
    const key = `${this.store.version}|${caller.role}`;
    const cached = this.rendered.get(cacheKey);
    if (cached?.key === key) return cached;
    const allowed = new Set(object.members.map((event) => event.id));
    const lastChange = object.members.reduce(
      (latest, event) => (event.modifiedUtc > latest ? event.modifiedUtc : latest),
      '',
    );
    // DTSTAMP is the last change, so an unchanged resource is byte-identical (and keeps its ETag).
    const stamp = new Date(`${lastChange.replace(' ', 'T')}Z`);
    const written = exportIcs(this.store, stamp, [object.head], {
      name: htmlToText(this.store.settings.siteName),
      includes: (event) => allowed.has(event.id),
    });
    const text = withKept(written, keptOf(this.store, caller, object.head.uid));
    const etag = `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
    const entry = { key, text, etag };
    if (this.rendered.size > 50_000) this.rendered.clear();
    this.rendered.set(cacheKey, entry);
    return entry;
  }
}

/** Whether any event of the resource overlaps [start, end) (UTC `Y-m-d H:i:s`; either side open when null). */
export function overlaps(object: CalendarObject, start: string | null, end: string | null): boolean {
  return object.members.some(
    (event) =>
      (end === null || event.startUtc < end) &&
      (start === null ||
        event.endUtc > start ||
        (event.endUtc === event.startUtc && event.startUtc >= start)),
  );
}
