import { createHash } from 'node:crypto';
import type { CalendarStore } from '../store/store';
import type { StoredEvent } from '../store/schema';
import type { Caller } from '../core/capabilities';
import { icsUidOf } from '../exchange/ics';
import { membersOf, type CalendarObject, type CalendarObjects } from '../dav/calendarObjects';
import { parseResource, resourceFields } from '../dav/resourceFields';
import type { Link, LocalRecord, RemoteRecord } from '../sync/model';
import type { LinkState } from '../sync/linkState';

/**
 * The two sides of a sync with a CalDAV calendar as the planner (sync/planner.ts) sees them: one record of
 * kind `event` per resource (a single event, or a series with its exceptions), its fields the resource's
 * (dav/resourceFields.ts), compared the same way on both sides.
 */

/** What goes to a shared calendar server: published events (and those waiting for review), never private ones. */
const SHARED_STATUSES = new Set(['publish', 'future', 'pending']);
const shared = (event: StoredEvent) => SHARED_STATUSES.has(event.status) && event.password === '';

/** A number that stands for a text (an href, a content stamp): 48 bits of its hash, as link ids are numbers. */
export const numberOf = (text: string) => createHash('sha256').update(text).digest().readUIntBE(0, 6);

/** A local resource to sync: the planner's record, and the resource (absent when it is gone or kept private). */
export interface LocalResource {
  record: LocalRecord;
  object?: CalendarObject;
}

/** The resource of a head as shared with the server (its shared events), or null when it is not shared. */
export function sharedObject(
  store: CalendarStore,
  objects: CalendarObjects,
  caller: Caller,
  head: StoredEvent,
): CalendarObject | null {
  if (!shared(head)) return null;
  const members = membersOf(store, caller, head).filter(shared);
  return members[0] === head ? { name: objects.nameOf(head), head, members } : null;
}

/** The planner's record of a shared resource: its fields read again only when it changed since the last sync. */
export function localRecordOf(
  objects: CalendarObjects,
  caller: Caller,
  object: CalendarObject,
  link: Link | undefined,
): LocalRecord {
  const revision = numberOf(objects.contentStamp(object));
  const fields =
    link?.base && link.pushedRevision === revision
      ? (link.base as Record<string, string>)
      : resourceFields(parseResource(objects.render(caller, object, false).text));
  const uid = icsUidOf(object.head);
  return {
    kind: 'event',
    id: object.head.id,
    revision,
    slug: uid,
    deleted: false,
    fields,
    refs: {},
    send: { uid },
  };
}

/** The resources of this calendar the sync's caller may share, and those linked that are no longer shared. */
export function localResources(
  store: CalendarStore,
  objects: CalendarObjects,
  caller: Caller,
  links: LinkState,
): Map<number, LocalResource> {
  const found = new Map<number, LocalResource>();
  for (const listed of objects.list(caller).values()) {
    const object = sharedObject(store, objects, caller, listed.head);
    if (object)
      found.set(object.head.id, {
        object,
        record: localRecordOf(objects, caller, object, links.get('event', object.head.id)),
      });
  }
  // Linked but no longer shared (trashed, made private or a draft): deleted there, as the policy says.
  for (const link of links.all()) {
    if (link.kind !== 'event' || found.has(link.localId)) continue;
    const head = store.events.get(link.localId);
    if (!head) continue;
    found.set(link.localId, {
      record: {
        kind: 'event',
        id: head.id,
        revision: numberOf(`${head.revision}:${head.status}`),
        slug: icsUidOf(head),
        deleted: true,
        fields: {},
        refs: {},
        send: { uid: icsUidOf(head) },
      },
    });
  }
  return found;
}

/** A resource read from the server: its href, ETag and text. */
export interface RemoteResource {
  href: string;
  etag: string | null;
  text: string;
}

/** The planner's record of a resource read from the server; null when it holds no event (a task, a journal). */
export function remoteRecordOf(resource: RemoteResource): RemoteRecord | null {
  const root = parseResource(resource.text);
  const vevent = root.getFirstSubcomponent('vevent');
  if (!vevent) return null;
  const uid = String(vevent.getFirstPropertyValue('uid') ?? '').trim();
  return {
    kind: 'event',
    id: numberOf(resource.href),
    slug: uid || resource.href,
    uid,
    modifiedUtc: null,
    etag: resource.etag,
    fields: resourceFields(root),
    texts: { title: String(vevent.getFirstPropertyValue('summary') ?? ''), description: '' },
  };
}

/** A linked resource the server says is unchanged: as agreed at the last sync (nothing of it was read). */
export function unchangedRecordOf(link: Link): RemoteRecord {
  return {
    kind: 'event',
    id: link.remoteId!,
    slug: link.remoteHref ?? String(link.remoteId),
    modifiedUtc: null,
    etag: link.remoteEtag,
    fields: link.base ?? {},
  };
}
