import { createHash } from 'node:crypto';
import type { CalendarStore } from '../store/store';
import type { StoredEvent } from '../store/schema';
import { canChangePost, canReadPost, type Caller } from '../core/capabilities';
import { htmlToText } from '../core/html';
import { seriesOccurrences } from '../core/recurrence/series';
import { exportIcs } from '../exchange/ics';
import { keptOf, keptStamp, withKept } from './keptProperties';

/**
 * The calendar collection as CalDAV shows it to one user: one calendar object resource per series (its head
 * with every occurrence, RRULE/RDATE/EXDATE and RECURRENCE-ID overrides) or single event, named after the
 * event's uid, written by the `.ics` exporter (the one iCalendar writer, exchange/ics.ts) with what the
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

/** The uid a resource name `<uuid>.ics` names (in our lower case), or null for any other name. */
export const uidOfName = (name: string): string | null => {
  const match = /^([0-9a-f-]{36})\.ics$/i.exec(name);
  return match ? match[1]!.toLowerCase() : null;
};

/**
 * The name a calendar app gave a resource it created under a name of its own (`abc@host.ics`, as Evolution
 * does), kept in the store's sync state so the event stays where the app put it.
 */
const NAME_KEY = 'davname:';
export const nameKey = (uid: string) => `${NAME_KEY}${uid}`;

/** A resource name a client may choose: one path segment, printable, of reasonable length. */
export const isAcceptableName = (name: string) =>
  name.length <= 255 &&
  ![...name].some((char) => char.charCodeAt(0) < 32 || char === '\\') &&
  name !== '.' &&
  name !== '..';

/** The events of a resource that the caller may see (empty: the resource does not exist for this user). */
export function membersOf(store: CalendarStore, caller: Caller, head: StoredEvent): StoredEvent[] {
  if (!visibleTo(caller, head)) return [];
  if (!head.recurrence) return [head];
  return [head, ...seriesOccurrences(store, head)].filter((event) => visibleTo(caller, event));
}

/** Resource lists per user, rebuilt when the store changes. */
export class CalendarObjects {
  private listed: { key: string; objects: Map<string, CalendarObject> } | null = null;
  private readonly rendered = new Map<string, { text: string; etag: string }>();
  private byUid: { version: number; heads: Map<string, StoredEvent>; named: Map<string, string> } | null =
    null;

  constructor(private readonly store: CalendarStore) {}

  /** Every resource the caller may see, by name. */
  list(caller: Caller): Map<string, CalendarObject> {
    const key = `${this.store.version}|${caller.userId}|${caller.role}`;
    if (this.listed?.key === key) return this.listed.objects;
    this.store.readAllEvents();
    const objects = new Map<string, CalendarObject>();
    for (const head of this.heads().values()) {
      const members = membersOf(this.store, caller, head);
      const name = this.nameOf(head);
      if (members.length) objects.set(name, { name, head, members });
    }
    this.listed = { key, objects };
    return objects;
  }

  /** One resource, or undefined when the user may not see it (or it does not exist). */
  get(caller: Caller, name: string): CalendarObject | undefined {
    const head = this.headByName(name);
    return head ? this.list(caller).get(this.nameOf(head)) : undefined;
  }

  /** The resource name of a series or single event: the one its app chose, else `<uid>.ics`. */
  nameOf(head: StoredEvent): string {
    const chosen = this.store.syncState(nameKey(head.uid));
    return typeof chosen === 'string' ? chosen : `${head.uid}.ics`;
  }

  /** The head a resource name names (trashed ones included), whoever may see it. */
  headByName(name: string): StoredEvent | undefined {
    this.headByUid('');
    const uid = this.byUid!.named.get(name) ?? uidOfName(name);
    return uid ? this.headByUid(uid) : undefined;
  }

  /** The head of the series or single event with this uid (trashed ones included), whoever may see it. */
  headByUid(uid: string): StoredEvent | undefined {
    if (this.byUid?.version !== this.store.version) {
      this.store.readAllEvents();
      this.byUid = { version: this.store.version, heads: new Map(), named: new Map() };
      for (const event of this.store.events.values())
        if (event.parentId === 0) this.byUid.heads.set(event.uid, event);
      for (const key of this.store.syncKeys(NAME_KEY)) {
        const name = this.store.syncState(key);
        if (typeof name === 'string') this.byUid.named.set(name, key.slice(NAME_KEY.length));
      }
    }
    return this.byUid.heads.get(uid);
  }

  private heads(): Map<string, StoredEvent> {
    this.headByUid('');
    return this.byUid!.heads;
  }

  /**
   * The resource's ETag, without writing it: a hash of everything its bytes are made of (its events' revisions,
   * the venues, organizers and terms they show, the settings, what the user's app added), so a listing of
   * thousands costs no rendering, and the same state has the same tag after a restart.
   */
  etag(caller: Caller, object: CalendarObject): string {
    return `"${this.contentStamp(object, String(keptStamp(this.store, caller, object.head.uid)))}"`;
  }

  /**
   * A hash of what the resource's modelled content is made of (its events' revisions, the venues, organizers and
   * terms they show, the settings), with `extra` mixed in: the ETag's body, and what the sync with a CalDAV
   * remote compares to know whether a resource changed here since it was sent.
   */
  contentStamp(object: CalendarObject, extra = ''): string {
    const { store } = this;
    const parts: string[] = [ETAG_FORMAT, this.settingsHash(), extra];
    for (const event of object.members) {
      parts.push(`e${event.id}:${event.revision}:${event.modifiedUtc}:${event.status}`);
      const venue = event.venueId ? store.venues.get(event.venueId) : undefined;
      if (venue) parts.push(`v${venue.id}:${venue.revision}:${venue.status}`);
      for (const id of event.organizerIds) {
        const organizer = store.organizers.get(id);
        if (organizer) parts.push(`o${id}:${organizer.revision}:${organizer.status}`);
      }
      for (const id of [...event.categoryIds, ...event.tagIds])
        parts.push(`t${id}:${store.terms.get(id)?.revision ?? '-'}`);
    }
    return createHash('sha256').update(parts.join('|')).digest('base64url').slice(0, 27);
  }

  private settings: { version: number; hash: string } | null = null;
  private settingsHash(): string {
    if (this.settings?.version !== this.store.version)
      this.settings = {
        version: this.store.version,
        hash: createHash('sha256')
          .update(JSON.stringify(this.store.settings))
          .digest('base64url')
          .slice(0, 16),
      };
    return this.settings.hash;
  }

  /**
   * The resource as iCalendar, with its ETag; `withAppLines: false` leaves out what the user's calendar app
   * added (what the sync with a CalDAV remote sends: one user's reminders are not the team's).
   */
  render(caller: Caller, object: CalendarObject, withAppLines = true): { text: string; etag: string } {
    const cacheKey = `${caller.userId}|${withAppLines}|${object.name}`;
    const etag = this.etag(caller, object);
    const cached = this.rendered.get(cacheKey);
    if (cached?.etag === etag) return cached;
    const allowed = new Set(object.members.map((event) => event.id));
    const lastChange = object.members.reduce(
      (latest, event) => (event.modifiedUtc > latest ? event.modifiedUtc : latest),
      '',
    );
    // DTSTAMP is the last change, so an unchanged resource is byte-identical.
    const stamp = new Date(`${lastChange.replace(' ', 'T')}Z`);
    const written = exportIcs(this.store, stamp, [object.head], {
      name: htmlToText(this.store.settings.siteName),
      includes: (event) => allowed.has(event.id),
    });
    const text = withAppLines ? withKept(written, keptOf(this.store, caller, object.head.uid)) : written;
    const entry = { text, etag };
    if (this.rendered.size > 20_000) this.rendered.clear();
    this.rendered.set(cacheKey, entry);
    return entry;
  }
}

/** Changes when the way resources are written changes, so an upgrade gives every resource a new ETag. */
const ETAG_FORMAT = 'caldav-2';

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
