import ical, { type ICalCalendar, type ICalEventStatus } from 'ical-generator';
import { DateTime } from 'luxon';
import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import type { CalendarStore } from '../store/store';
import { recordUid, type StoredEvent } from '../store/schema';
import type { EventIdentity } from '../core/eventRecord';
import { htmlToText } from '../core/html';
import { shownOrganizerIds, shownVenueId } from '../core/eventLinks';
import { costProperties } from './icsCost';
import { deskProperties, geoOf, icalStatusOf } from './icsFields';
import { toUtcSql } from '../core/dates/sqlDates';
import { seriesHeadOf, seriesOccurrences } from '../core/recurrence/series';
import { exdateLine, shiftLocal, wallMs } from '../core/recurrence/ruleEdits';
import { icsDateProperty, icsRecurrenceLines, seriesClockOf } from './icsSeries';

/** VTIMEZONE of an IANA zone, or null for zones it does not know (UTC offsets): those events are written in UTC. */
const vtimezone = (zone: string) => {
  try {
    return getVtimezoneComponent(zone);
  } catch {
    return null;
  }
};

/**
 * Whether an event's times are written with a TZID: not in UTC (written with Z, as ical-generator writes a UTC
 * start, so that RDATE and EXDATE are written the same way as DTSTART) nor in zones without a VTIMEZONE.
 */
const isZoned = (zone: string) => zone !== 'UTC' && vtimezone(zone) !== null;

const sqlToDate = (sql: string) => new Date(`${sql.replace(' ', 'T')}Z`);

/** LOCATION (the venue's name and address, read back by name) and GEO when the venue has coordinates. */
function location(
  store: CalendarStore,
  event: StoredEvent,
): { title: string; geo?: { lat: number; lon: number } } | null {
  const venueId = shownVenueId(store, event);
  const venue = venueId ? store.venues.get(venueId) : undefined;
  if (!venue) return null;
  const title = [venue.name, venue.address, venue.city, venue.zip, venue.country]
    .map(htmlToText)
    .filter((part) => part !== '')
    .join(', ');
  const geo = geoOf(venue);
  return geo ? { title, geo } : { title };
}

/** The mapped properties other than ical-generator's own (icsFields.ts): cost, status, organizers, flags. */
function xProperties(store: CalendarStore, event: StoredEvent): [string, string][] {
  const organizers = shownOrganizerIds(store, event).map((id) => {
    const organizer = store.organizers.get(id)!;
    return { organizer, name: htmlToText(organizer.name) };
  });
  return [...costProperties(event, store), ...deskProperties(event, organizers)];
}

/**
 * An event's `.ics` UID: its `uid`, or the UID the file it was imported from gave it (`abc@google.com`), so the
 * calendar it came from recognises it when our export goes back there.
 */
export const icsUidOf = (event: StoredEvent): string => event.icsUid ?? event.uid;

/**
 * Who a VEVENT's UID says the event is: a UUID is taken as the event's `uid` (our own exports, another Calendar
 * Desk); any other UID is kept as `icsUid` beside a new uid. Either way re-importing the file finds the event.
 */
export function identityOfIcsUid(uid: string): EventIdentity {
  if (!uid) return {};
  if (!recordUid.safeParse(uid).success) return { icsUid: uid };
  // UIDs compare case-sensitively (RFC 5545): an upper-case UUID is stored in our form and written back as it came.
  const lower = uid.toLowerCase();
  return lower === uid ? { uid } : { uid: lower, icsUid: uid };
}

/** What a caller other than the export may change (the subscribable feeds: server/routes/feeds.ts). */
export interface IcsExportOptions {
  /** The calendar's name (default: the site name). */
  name?: string;
  /** The event's `URL` (default: its website). */
  urlOf?: (event: StoredEvent) => string | null;
  /**
   * Which events of a series may be written (default: all not trashed). A series brings its whole self into the
   * file, so a feed passes its rule here: an occurrence left out (a draft, a private date) is removed by EXDATE.
   */
  includes?: (event: StoredEvent) => boolean;
}

/** The VEVENT fields of one stored event (a single event, a series' pattern or one of its overrides). */
function veventData(store: CalendarStore, event: StoredEvent, now: Date, options: IcsExportOptions) {
  const zoned = isZoned(event.timezone);
  const withEmail = shownOrganizerIds(store, event)
    .map((id) => store.organizers.get(id)!)
    .find((organizer) => organizer.email);
  return {
    stamp: now,
    start: sqlToDate(event.startUtc),
    end: sqlToDate(event.endUtc),
    // Zoned times go in as Luxon dates in their zone: ical-generator writes their wall clock with the TZID.
    ...(event.allDay
      ? {
          allDay: true,
          start: sqlToDate(event.startLocal),
          end: new Date(sqlToDate(event.endLocal).getTime() + 1000),
        }
      : zoned
        ? {
            timezone: event.timezone,
            start: DateTime.fromSQL(event.startLocal, { zone: event.timezone }),
            end: DateTime.fromSQL(event.endLocal, { zone: event.timezone }),
          }
        : {}),
    // Plain text: calendar apps show SUMMARY and DESCRIPTION as text, so the stored HTML is reduced to it.
    summary: htmlToText(event.title),
    // …and the HTML beside it as X-ALT-DESC;FMTTYPE=text/html (read back first: icsFields.ts).
    description: htmlToText(event.description)
      ? { plain: htmlToText(event.description), html: event.description }
      : null,
    location: location(store, event),
    url: options.urlOf ? options.urlOf(event) : event.website,
    categories: event.categoryIds
      .map((id) => store.terms.get(id)?.name)
      .filter((name): name is string => name !== undefined)
      .map((name) => ({ name: htmlToText(name) })),
    // ORGANIZER is a calendar address (RFC 5545 §3.8.4.3), one per VEVENT: the first organizer with an e-mail
    // (all of them go as X-CALENDAR-DESK-ORGANIZER).
    organizer: withEmail ? { name: htmlToText(withEmail.name), email: withEmail.email } : null,
    status: icalStatusOf(event.status) as ICalEventStatus | null,
    lastModified: sqlToDate(event.modifiedUtc),
  };
}

/**
 * A series as RFC 5545 has it: one VEVENT with the series' start, fields and recurrence lines, and one VEVENT
 * per occurrence changed on its own, with the series' UID and its original start as RECURRENCE-ID (an
 * occurrence's own uid is ours alone). The series' fields are those of its first event that follows the
 * series, as every occurrence not changed on its own has them.
 */
function addSeries(
  calendar: ICalCalendar,
  store: CalendarStore,
  head: StoredEvent,
  now: Date,
  options: IcsExportOptions,
) {
  const living = [head, ...seriesOccurrences(store, head)].filter((event) => event.status !== 'trash');
  const members = options.includes ? living.filter(options.includes) : living;
  // The series' fields come from an event that follows it; when none may be written (only some changed dates
  // are public), the series is left out rather than shown with the fields of one changed date.
  const pattern = members.find((event) => !event.override) ?? (options.includes ? undefined : head);
  if (!pattern) {
    // Its changed dates that may be written (one moved to a feed's category) go as events of their own.
    for (const event of members) addSingle(calendar, store, event, now, options);
    return;
  }
  const clock = seriesClockOf(head, isZoned(head.timezone));
  // Dates left out (a draft or private occurrence in a feed) must not appear through the rule either.
  const leftOut = living
    .filter((event) => !members.includes(event) && event.recurrenceId)
    .map((event) => exdateLine(event.recurrenceId!, head.timezone, head.allDay));
  const endLocal = shiftLocal(clock.startLocal, wallMs(pattern.endLocal) - wallMs(pattern.startLocal));
  const first = {
    ...pattern,
    startLocal: clock.startLocal,
    endLocal,
    startUtc: toUtcSql(clock.startLocal, head.timezone),
    endUtc: toUtcSql(endLocal, head.timezone),
  };
  const uid = icsUidOf(head);
  calendar.createEvent({
    ...veventData(store, first, now, options),
    id: uid,
    // Written as given (ical-generator inserts a string as it is, folding long lines).
    repeating: icsRecurrenceLines([...(head.recurrence ?? []), ...leftOut], clock).join('\r\n'),
    x: xProperties(store, first),
  });
  for (const event of members.filter((member) => member.override)) {
    const original = event.recurrenceId!;
    calendar.createEvent({
      ...veventData(store, event, now, options),
      id: uid,
      // ical-generator writes a date-time RECURRENCE-ID (with the event's TZID); a date goes as a raw property.
      ...(clock.allDay
        ? { x: [icsDateProperty('RECURRENCE-ID', original, clock), ...xProperties(store, event)] }
        : {
            recurrenceId: clock.zoned
              ? DateTime.fromSQL(original, { zone: clock.timezone })
              : sqlToDate(toUtcSql(original, clock.timezone)),
            x: xProperties(store, event),
          }),
    });
  }
}

/**
 * The calendar as iCalendar (RFC 5545): one VEVENT per event that is not trashed, in its own time zone with
 * the matching VTIMEZONE; a series as one VEVENT with its rules plus its changed occurrences. ical-generator
 * does the escaping and line folding. `events` (default: all) picks what is written; an event of a series
 * brings its whole series (as far as `options.includes` lets it).
 */
export function exportIcs(
  store: CalendarStore,
  now: Date,
  events: Iterable<StoredEvent> = store.events.values(),
  options: IcsExportOptions = {},
): string {
  const calendar = ical({
    name: options.name ?? store.settings.siteName,
    prodId: { company: 'Calendar Desk', product: 'calendar-desk', language: 'EN' },
    timezone: { name: null, generator: vtimezone },
  });
  const seriesWritten = new Set<number>();
  for (const event of events) {
    if (event.status === 'trash') continue;
    const head = seriesHeadOf(store, event);
    if (head) {
      if (head.status !== 'trash' && !seriesWritten.has(head.id))
        addSeries(calendar, store, head, now, options);
      seriesWritten.add(head.id);
      continue;
    }
    addSingle(calendar, store, event, now, options);
  }
  return calendar.toString();
}

/** One event that is not (written as part of) a series. */
function addSingle(
  calendar: ICalCalendar,
  store: CalendarStore,
  event: StoredEvent,
  now: Date,
  options: IcsExportOptions,
) {
  calendar.createEvent({
    ...veventData(store, event, now, options),
    // The same UID every time, so calendars that subscribe or re-import recognise the event (CONTRACT §2).
    id: icsUidOf(event),
    x: xProperties(store, event),
  });
}
