import ICAL from 'ical.js';
import type { CalendarStore } from '../store/store';
import type { StoredEvent } from '../store/schema';
import { canChangePost, canEditPosts, type Caller } from '../core/capabilities';
import { EventRuleError } from '../core/eventRecord';
import { WriteRefused } from '../core/writes';
import { withinWriteBudget } from '../core/writeBudget';
import { icsUidOf, identityOfIcsUid } from '../exchange/ics';
import { parseIcs } from '../exchange/icsImport';
import { importIcsEvent } from '../exchange/importFile';
import { parseResource } from './resourceFields';
import type { ImportProblem } from '../exchange/errors';
import { isAcceptableName, nameKey, uidOfName, type CalendarObjects } from './calendarObjects';
import { keptFrom, saveKept } from './keptProperties';
import { CALENDAR_DESK_NS, DavError } from './davError';
import { CALDAV, DAV } from './xml';

/**
 * A calendar object resource written into the calendar: through the same core writes as the API and the `.ics`
 * import (validation, permissions, the contributor's pending status, series writes, slugs, the write budget,
 * the journal), in one store change, so a refused resource leaves nothing half-written. Used by the CalDAV
 * server's PUT and by the sync with a CalDAV remote, which takes the remote's resources in the same way.
 */
export interface ObjectWriteDeps {
  store: CalendarStore;
  objects: CalendarObjects;
  caller: Caller;
  clock: () => Date;
}

export interface ObjectWriteOptions {
  /** Judges the resource's current ETag for this user (null: none) before anything is written; throws to refuse. */
  precondition?: (etag: string | null) => void;
  /**
   * Keep what the app added that we do not model (VALARM, ATTENDEE, `X-*`) for this user (the CalDAV server);
   * false for a remote's resource, whose own lines stay on the remote (default true).
   */
  keepAppLines?: boolean;
}

export const invalidData = (message: string) => new DavError(403, CALDAV, 'valid-calendar-data', message);
export const invalidObject = (message: string) =>
  new DavError(403, CALDAV, 'valid-calendar-object-resource', message);
export const forbidden = (message: string) => new DavError(403, DAV, 'need-privileges', message);

/** The one VCALENDAR of a resource, checked as a calendar object resource (RFC 4791 §4.1). */
export function readCalendar(text: string): { root: ICAL.Component; uid: string } {
  let root: ICAL.Component;
  try {
    root = parseResource(text);
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

/** Refuses a write the caller may not make at this name (an existing event, or a new one). */
function checkWriteAllowed(
  deps: ObjectWriteDeps,
  name: string,
  icsUid: string,
  existing: StoredEvent | undefined,
  visible: boolean,
): void {
  const { store, caller } = deps;
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
  if (existing) return;
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
      `An event with the UID ${icsUid} already exists here, under the name ${deps.objects.nameOf(clash)}.`,
    );
}

/** A core refusal as the CalDAV precondition it stands for. */
function davErrorOf(error: unknown): unknown {
  if (error instanceof DavError) return error;
  if (error instanceof EventRuleError) return invalidObject(`${error.field}: ${error.message}`);
  if (error instanceof WriteRefused) {
    if (error.status === 429) return new DavError(429, CALENDAR_DESK_NS, 'write-budget', error.message);
    if (error.status === 401 || error.status === 403) return forbidden(error.message);
    return invalidObject(error.message);
  }
  return error;
}

/**
 * Writes the resource `name` from its iCalendar text: creates the event (or series) or replaces what we model
 * of it. Returns the head written and whether it is new.
 */
export async function writeObject(
  deps: ObjectWriteDeps,
  name: string,
  text: string,
  options: ObjectWriteOptions = {},
): Promise<{ head: StoredEvent; created: boolean }> {
  const { store, objects, caller, clock } = deps;
  const { root, uid: icsUid } = readCalendar(text);
  const parsed = await parseIcs(text);
  if (parsed.problems.length) throw invalidData(`The event cannot be read: ${problemText(parsed.problems)}.`);
  const row = parsed.events[0];
  if (!row || parsed.events.length !== 1)
    throw invalidObject(
      'A resource holds one event or one repeating series (one VEVENT without RECURRENCE-ID).',
    );
  const kept = options.keepAppLines === false ? null : keptFrom(root);
  await store.readSettled(() => undefined);
  const now = clock();
  const nameUid = uidOfName(name);
  const existing = objects.headByName(name);
  const visible = existing ? objects.get(caller, name) : undefined;
  options.precondition?.(visible ? objects.etag(caller, visible) : null);
  checkWriteAllowed(deps, name, icsUid, existing, visible !== undefined);
  // A new event at `<uuid>.ics` takes that uuid (the app finds it where it put it); its UID is kept beside.
  const identity = existing
    ? identityOfIcsUid(icsUid)
    : nameUid && !objects.headByUid(nameUid)
      ? { uid: nameUid, ...(icsUid === nameUid ? {} : { icsUid }) }
      : identityOfIcsUid(icsUid);
  // A new event is asked for published: a contributor's is scaled back to pending, as through the API.
  const input = existing ? row.input : { ...row.input, status: 'publish' };
  const problems: ImportProblem[] = [];
  try {
    const head = await withinWriteBudget(
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
        const written =
          [...store.events.values()].find(
            (event) => event.parentId === 0 && event.uid === (existing?.uid ?? identity.uid ?? ''),
          ) ??
          [...store.events.values()].find((event) => event.parentId === 0 && icsUidOf(event) === icsUid)!;
        if (kept) saveKept(tx, store, caller, written.uid, kept);
        // A new event under a name of the app's own stays there (the name is not `<its uid>.ics`).
        if (!existing && name !== `${written.uid}.ics`) tx.setSyncState(nameKey(written.uid), name);
        return written;
      },
      { creates: existing ? 0 : 1, occurrences: !existing && row.input.recurrence?.length ? 1 : 0 },
    );
    return { head, created: !existing };
  } catch (error) {
    throw davErrorOf(error);
  }
}
