import ICAL from 'ical.js';
import type { CalendarStore } from '../../store/store';
import { canChangePost, canEditPosts, type Caller } from '../../core/capabilities';
import { EventRuleError } from '../../core/eventRecord';
import { WriteRefused } from '../../core/writes';
import { withinWriteBudget } from '../../core/writeBudget';
import { trashEvent } from '../../core/events';
import { icsUidOf, identityOfIcsUid } from '../../exchange/ics';
import { parseIcs } from '../../exchange/icsImport';
import { importIcsEvent } from '../../exchange/importFile';
import type { ImportProblem } from '../../exchange/errors';
import type { ApiContext } from '../state';
import { isAcceptableName, nameKey, uidOfName, type CalendarObjects } from './calendarObjects';
import { keptFrom, saveKept } from './keptProperties';
import { CALENDAR_DESK_NS, DavError } from './multistatus';
import { objectPath } from './paths';
import { CALDAV, DAV } from './xml';

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

const invalidData = (message: string) => new DavError(403, CALDAV, 'valid-calendar-data', message);
const invalidObject = (message: string) =>
  new DavError(403, CALDAV, 'valid-calendar-object-resource', message);
const forbidden = (message: string) => new DavError(403, DAV, 'need-privileges', message);

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

/** The one VCALENDAR of a PUT, checked as a calendar object resource (RFC 4791 §4.1). */
function readCalendar(text: string): { root: ICAL.Component; uid: string } {
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(text));
  } catch (error) {
    throw invalidData(`This is not valid iCalendar data (${(error as Error).message}).`);
  }
  if (root.name !== 'vcalendar') throw invalidData('The body must be one VCALENDAR.');
  if (root.getFirstProperty('method'))
    throw invalidObject('A calendar object must not carry METHOD (that is for invitations, not storage).');
  const others = root.getAllSubcomponents().filter((one) => !['vevent', 'vtimezone'].includes(one.name));
  if (others.length)
    throw new DavError(
      403,
      CALDAV,
      'supported-calendar-component',
      `Only events (VEVENT) are kept here, not ${others[0]!.name.toUpperCase()}.`,
    );
  const vevents = root.getAllSubcomponents('vevent');
  if (vevents.length === 0) throw invalidObject('The calendar holds no VEVENT.');
  const uids = new Set(vevents.map((vevent) => String(vevent.getFirstPropertyValue('uid') ?? '').trim()));
  if (uids.size !== 1 || uids.has(''))
    throw invalidObject('Every VEVENT of one resource must carry the same, non-empty UID.');
  return { root, uid: [...uids][0]! };
}

const problemText = (problems: ImportProblem[]) =>
  problems
    .map((problem) => (problem.line ? `line ${problem.line}: ${problem.message}` : problem.message))
    .join('; ');

export async function putObject(ctx: ApiContext, deps: WriteDeps, name: string, text: string): Promise<void> {
  const { store, objects, caller, clock } = deps;
  const type = ctx.get('Content-Type');
  if (type && !/^text\/calendar\b/i.test(type))
    throw new DavError(415, CALDAV, 'supported-calendar-data', 'Send the event as text/calendar.');
  const { root, uid: icsUid } = readCalendar(text);
  const parsed = await parseIcs(text);
  if (parsed.problems.length) throw invalidData(`The event cannot be read: ${problemText(parsed.problems)}.`);
  const row = parsed.events[0];
  if (!row || parsed.events.length !== 1)
    throw invalidObject(
      'A resource holds one event or one repeating series (one VEVENT without RECURRENCE-ID).',
    );
  const kept = keptFrom(root);
  await store.readSettled(() => undefined);
  const now = clock();
  const nameUid = uidOfName(name);
  const existing = objects.headByName(name);
  const visible = existing ? objects.get(caller, name) : undefined;
  checkPreconditions(ctx, visible ? objects.etag(caller, visible) : null);
  if (existing && !visible) {
    if (existing.status === 'trash' && canChangePost(caller, existing, 'edit'))
      throw forbidden(
        'This event is in the trash: restore it in Calendar Desk, or create it under a new name.',
      );
    throw forbidden('You may not change the event at this address.');
  }
  if (existing && icsUidOf(existing) !== icsUid)
    throw invalidObject(
      `The UID ${icsUid} is not that of the event at this address (${icsUidOf(existing)}).`,
    );
  if (existing && !canChangePost(caller, existing, 'edit'))
    throw forbidden('You may read this event but not change it (your role does not allow it).');
  if (!existing) {
    if (!isAcceptableName(name))
      throw invalidObject('This resource name cannot be used: choose a plain file name.');
    if (!canEditPosts(caller)) throw forbidden('Your role may read the calendar but not add events to it.');
    const clash = [...store.events.values()].find(
      (event) => event.parentId === 0 && icsUidOf(event) === icsUid,
    );
    if (clash)
      throw new DavError(
        403,
        CALDAV,
        'no-uid-conflict',
        `An event with the UID ${icsUid} already exists here, at ${objectPath(caller.login, objects.nameOf(clash))}.`,
      );
  }
  // A new event at `<uuid>.ics` takes that uuid (the app finds it where it put it); its UID is kept beside.
  const identity = existing
    ? identityOfIcsUid(icsUid)
    : nameUid && !objects.headByUid(nameUid)
      ? { uid: nameUid, ...(icsUid === nameUid ? {} : { icsUid }) }
      : identityOfIcsUid(icsUid);
  // A new event is asked for published: a contributor's is scaled back to pending, as through the API.
  const input = existing ? row.input : { ...row.input, status: 'publish' };
  const problems: ImportProblem[] = [];
  let written;
  try {
    written = await withinWriteBudget(
      { store, caller, now },
      (tx) => {
        const context = { tx, store, caller, now, language: existing?.language ?? ('en' as const) };
        // Without a series deadline the import's steps never pause: run them to their end in this one change.
        const steps = importIcsEvent(
          { ...row, input },
          existing,
          identity,
          context,
          problems,
          () => undefined,
        );
        for (let step = steps.next(); !step.done; step = steps.next(context));
        if (problems.length) throw invalidObject(problemText(problems));
        const head =
          [...store.events.values()].find(
            (event) => event.parentId === 0 && event.uid === (existing?.uid ?? identity.uid ?? ''),
          ) ??
          [...store.events.values()].find((event) => event.parentId === 0 && icsUidOf(event) === icsUid)!;
        saveKept(tx, store, caller, head.uid, kept);
        // A new event under a name of the app's own stays there (the name is not `<its uid>.ics`).
        if (!existing && name !== `${head.uid}.ics`) tx.setSyncState(nameKey(head.uid), name);
        return head;
      },
      { creates: existing ? 0 : 1, occurrences: !existing && row.input.recurrence?.length ? 1 : 0 },
    );
  } catch (error) {
    if (error instanceof DavError) throw error;
    if (error instanceof EventRuleError) throw invalidObject(`${error.field}: ${error.message}`);
    if (error instanceof WriteRefused) {
      if (error.status === 429) throw new DavError(429, CALENDAR_DESK_NS, 'write-budget', error.message);
      if (error.status === 401 || error.status === 403) throw forbidden(error.message);
      throw invalidObject(error.message);
    }
    throw error;
  }
  const object = objects.get(caller, objects.nameOf(written));
  if (object) ctx.set('ETag', objects.etag(caller, object));
  ctx.status = existing ? 204 : 201;
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
