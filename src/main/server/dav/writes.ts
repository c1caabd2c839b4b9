import type { CalendarStore } from '../../store/store';
import { canChangePost, type Caller } from '../../core/capabilities';
import { WriteRefused } from '../../core/writes';
import { trashEvent } from '../../core/events';
import type { ApiContext } from '../state';
import type { CalendarObjects } from '../../dav/calendarObjects';
import { forbidden, writeObject } from '../../dav/objectWrites';
import { CALENDAR_DESK_NS, DavError } from './multistatus';
import { CALDAV } from '../../dav/xml';

/**
 * PUT and DELETE of a calendar object resource, through the same core writes as the API and the `.ics` import
 * (validation, permissions, the contributor's pending status, series writes, slugs, the write budget, the
 * journal): one store change each, so a refused PUT leaves nothing half-written.
 */
export interface WriteDeps {
  store: CalendarStore;
  objects: CalendarObjects;
  caller: Caller;
  clock: () => Date;
}

const tagsOf = (header: string) =>
  header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .filter(Boolean);

/** If-Match / If-None-Match against the resource's current ETag (null: it does not exist for this user). */
function checkPreconditions(ctx: ApiContext, etag: string | null): void {
  const ifMatch = ctx.get('If-Match');
  const ifNoneMatch = ctx.get('If-None-Match');
  if (ifNoneMatch && etag !== null && tagsOf(ifNoneMatch).some((tag) => tag === '*' || tag === etag))
    throw new DavError(412, CALENDAR_DESK_NS, 'already-exists', 'An event already exists at this address.');
  if (ifMatch && (etag === null || !tagsOf(ifMatch).some((tag) => tag === '*' || tag === etag)))
    throw new DavError(
      412,
      CALENDAR_DESK_NS,
      'stale-etag',
      'The event changed since your calendar app read it: sync again, then make the change anew.',
    );
}

export async function putObject(ctx: ApiContext, deps: WriteDeps, name: string, text: string): Promise<void> {
  const type = ctx.get('Content-Type');
  if (type && !/^text\/calendar\b/i.test(type))
    throw new DavError(415, CALDAV, 'supported-calendar-data', 'Send the event as text/calendar.');
  const { head, created } = await writeObject(deps, name, text, {
    precondition: (etag) => checkPreconditions(ctx, etag),
  });
  const object = deps.objects.get(deps.caller, deps.objects.nameOf(head));
  if (object) ctx.set('ETag', deps.objects.etag(deps.caller, object));
  ctx.status = created ? 201 : 204;
  ctx.body = '';
}

/** DELETE moves the event (a whole series) to the trash, restorable in Calendar Desk as any trashed event. */
export async function deleteObject(ctx: ApiContext, deps: WriteDeps, name: string): Promise<void> {
  const { store, objects, caller, clock } = deps;
  await store.readSettled(() => undefined);
  const object = objects.get(caller, name);
  if (!object) {
    ctx.status = 404;
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = 'No event of yours is at this address (it was deleted, or you may not see it).\n';
    return;
  }
  checkPreconditions(ctx, objects.etag(caller, object));
  if (!canChangePost(caller, object.head, 'delete'))
    throw forbidden('You may read this event but not delete it (your role does not allow it).');
  try {
    await trashEvent(object.head.id, { store, caller, now: clock(), scope: 'all' });
  } catch (error) {
    if (error instanceof WriteRefused) throw forbidden(error.message);
    throw error;
  }
  ctx.status = 204;
  ctx.body = '';
}
