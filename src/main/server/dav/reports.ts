import type { CalendarObject } from '../../dav/calendarObjects';
import { nameKey, overlaps } from '../../dav/calendarObjects';
import { objectProperties, type PropertyContext } from './properties';
import { calendarPath, objectNameOfHref, objectPath } from './paths';
import { changedSince, syncTokenOf, SyncTokenExpired } from './syncTokens';
import { DavError, type Requested, propstats, statusResponse } from './multistatus';
import { CALDAV, DAV, child, childrenNamed, el, type XmlElement, type XmlOut } from '../../dav/xml';

/** `20261201T000000Z` → `2026-12-01 00:00:00` (UTC), or a DavError for anything else. */
function utcOf(value: string | undefined): string | null {
  if (value === undefined) return null;
  const match = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z)?$/.exec(value.trim());
  if (!match)
    throw new DavError(
      400,
      CALDAV,
      'valid-filter',
      `The time-range value "${value}" is not a UTC date-time such as 20261201T000000Z.`,
    );
  const [, y, mo, d, h = '00', mi = '00', s = '00'] = match;
  return `${y}-${mo}-${d} ${h}:${mi}:${s}`;
}

/** A calendar-query filter (RFC 4791 §9.7) as a test of a resource: VEVENTs, time-range, UID text-match. */
function filterOf(filter: XmlElement | undefined): (object: CalendarObject) => boolean {
  const calendar = child(filter, CALDAV, 'comp-filter');
  if (!calendar) return () => true;
  if (calendar.attributes.name?.toUpperCase() !== 'VCALENDAR') return () => false;
  const components = childrenNamed(calendar, CALDAV, 'comp-filter');
  if (components.length === 0) return () => true;
  const tests = components.map((component) => {
    if (component.attributes.name?.toUpperCase() !== 'VEVENT') return () => false;
    if (child(component, CALDAV, 'is-not-defined')) return () => false;
    const range = child(component, CALDAV, 'time-range');
    const start = utcOf(range?.attributes.start);
    const end = utcOf(range?.attributes.end);
    const propertyTests = childrenNamed(component, CALDAV, 'prop-filter').map((propFilter) => {
      const name = propFilter.attributes.name?.toUpperCase();
      const match = child(propFilter, CALDAV, 'text-match');
      if (name !== 'UID')
        throw new DavError(
          403,
          CALDAV,
          'supported-filter',
          `Filtering on ${name ?? 'a nameless property'} is not supported; filter on UID or by time-range.`,
        );
      const wanted = match?.text ?? '';
      const negate = match?.attributes['negate-condition'] === 'yes';
      return (object: CalendarObject) => {
        const uid = object.head.icsUid ?? object.head.uid;
        const found = match ? uid.toLowerCase().includes(wanted.toLowerCase()) : true;
        return negate ? !found : found;
      };
    });
    return (object: CalendarObject) =>
      (range ? overlaps(object, start, end) : true) && propertyTests.every((test) => test(object));
  });
  return (object) => tests.every((test) => test(object));
}

/** The properties a report asks for (`<prop>`), else every one. */
export function requestedOf(report: XmlElement): Requested {
  const prop = child(report, DAV, 'prop');
  if (!prop) return { all: true, names: [] };
  return { all: false, names: prop.children.map(({ ns, name }) => ({ ns, name })) };
}

/** REPORT on the calendar collection: calendar-multiget, calendar-query or sync-collection. */
export function runReport(context: PropertyContext, report: XmlElement): XmlOut[] {
  const { objects, caller } = context;
  const requested = requestedOf(report);
  const answer = (object: CalendarObject) =>
    el(DAV, 'response', [
      el(DAV, 'href', objectPath(caller.login, object.name)),
      ...propstats(objectProperties(context, object), requested),
    ]);
  const name = `${report.ns} ${report.name}`;
  if (name === `${CALDAV} calendar-multiget`) {
    return childrenNamed(report, DAV, 'href').map((href) => {
      const objectName = objectNameOfHref(href.text, caller.login);
      const object = objectName === null ? undefined : objects.get(caller, objectName);
      return object ? answer(object) : statusResponse(href.text, 404);
    });
  }
  if (name === `${CALDAV} calendar-query`) {
    const test = filterOf(child(report, CALDAV, 'filter'));
    return [...objects.list(caller).values()].filter(test).map(answer);
  }
  if (name === `${DAV} sync-collection`) return syncCollection(context, report, answer);
  throw new DavError(403, DAV, 'supported-report', `The report ${report.name} is not supported here.`);
}

/** RFC 6578: what changed since the client's token (deletions as 404), or everything for an empty token. */
function syncCollection(
  context: PropertyContext,
  report: XmlElement,
  answer: (object: CalendarObject) => XmlOut,
): XmlOut[] {
  const { store, objects, caller } = context;
  const given = child(report, DAV, 'sync-token')?.text.trim() ?? '';
  const token = syncTokenOf(store, caller);
  const all = objects.list(caller);
  if (!given) return [...[...all.values()].map(answer), el(DAV, 'sync-token', token)];
  let changed;
  try {
    changed = changedSince(store, caller, given);
  } catch (error) {
    if (error instanceof SyncTokenExpired)
      throw new DavError(403, DAV, 'valid-sync-token', `${error.message} Sync again from the start.`);
    throw error;
  }
  const nameOfUid = (uid: string) => {
    const head = objects.headByUid(uid);
    if (head) return objects.nameOf(head);
    const chosen = store.syncState(nameKey(uid));
    return typeof chosen === 'string' ? chosen : `${uid}.ics`;
  };
  const names = new Set([...changed.eventUids, ...changed.keptUids].map(nameOfUid));
  const { venues, organizers, terms } = changed.linkedChanged;
  if (venues.size || organizers.size || terms.size)
    for (const object of all.values())
      if (
        object.members.some(
          (event) =>
            venues.has(event.venueId) ||
            event.organizerIds.some((id) => organizers.has(id)) ||
            [...event.categoryIds, ...event.tagIds].some((id) => terms.has(id)),
        )
      )
        names.add(object.name);
  const responses = [...names].map((objectName) => {
    const object = all.get(objectName);
    return object ? answer(object) : statusResponse(objectPath(caller.login, objectName), 404);
  });
  return [...responses, el(DAV, 'sync-token', token)];
}

export const calendarHref = calendarPath;
