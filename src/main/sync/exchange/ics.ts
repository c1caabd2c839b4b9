import ical from 'ical-generator';
import { DateTime } from 'luxon';
import ICAL from 'ical.js';
import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import type { CalendarStore } from '../../store/store';
import { recordUid, type StoredEvent } from '../../store/schema';
import type { EventIdentity, EventInput } from '../../core/events';
import { htmlToText } from '../../core/html';
import { shownOrganizerIds, shownVenueId } from '../../core/eventLinks';
import type { ImportProblem } from './errors';
import { eventCurrency, siteCurrency, typedCost } from '../../core/cost';
import { eventCurrencySchemas } from '../../../shared/schemas/currency';

/**
 * iCalendar has no cost property: ours carry the cost as typed and the currency it is shown in (the event's,
 * else this site's), so another Calendar Desk imports the same price.
 */
const X_COST = 'X-CALENDAR-DESK-COST';
const X_SYMBOL = 'X-CALENDAR-DESK-CURRENCY-SYMBOL';
const X_POSITION = 'X-CALENDAR-DESK-CURRENCY-POSITION';
const X_CODE = 'X-CALENDAR-DESK-CURRENCY-CODE';

function costProperties(event: StoredEvent, store: CalendarStore): Record<string, string> {
  if (event.cost.length === 0) return {};
  const currency = eventCurrency(event, siteCurrency(store.settings));
  return {
    [X_COST]: typedCost(event.cost),
    [X_SYMBOL]: currency.symbol,
    [X_POSITION]: currency.position,
    [X_CODE]: currency.code,
  };
}

/** The cost and currency of a VEVENT's X- properties, checked as the API checks them. */
function costInput(component: ICAL.Component, line: number, problems: ImportProblem[]): Partial<EventInput> {
  const text = (name: string) => {
    const value = component.getFirstPropertyValue(name.toLowerCase());
    return typeof value === 'string' ? value : '';
  };
  const cost = text(X_COST);
  if (!cost) return {};
  const input: Partial<EventInput> = { cost };
  const fields = [
    ['currency_symbol', X_SYMBOL, eventCurrencySchemas.symbol],
    ['currency_position', X_POSITION, eventCurrencySchemas.position],
    ['currency_code', X_CODE, eventCurrencySchemas.code],
  ] as const;
  for (const [field, property, schema] of fields) {
    const parsed = schema.safeParse(text(property));
    if (parsed.success) Object.assign(input, { [field]: parsed.data });
    else
      problems.push({
        line,
        message: `${property}: ${parsed.error.issues[0]!.message.replace('%s', field)}`,
      });
  }
  return input;
}

/** VTIMEZONE of an IANA zone, or null for zones it does not know (UTC offsets): those events are written in UTC. */
const vtimezone = (zone: string) => {
  try {
    return getVtimezoneComponent(zone);
  } catch {
    return null;
  }
};

const sqlToDate = (sql: string) => new Date(`${sql.replace(' ', 'T')}Z`);

function location(store: CalendarStore, event: StoredEvent): string | null {
  const venueId = shownVenueId(store, event);
  const venue = venueId ? store.venues.get(venueId) : undefined;
  if (!venue) return null;
  return [venue.name, venue.address, venue.city, venue.zip, venue.country]
    .map(htmlToText)
    .filter((part) => part !== '')
    .join(', ');
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
}

/**
 * The calendar as iCalendar (RFC 5545): one VEVENT per event that is not trashed, in its own time zone with
 * the matching VTIMEZONE; ical-generator does the escaping and line folding. `events` (default: all) picks
 * what is written.
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
  for (const event of events) {
    if (event.status === 'trash') continue;
    const zoned = vtimezone(event.timezone) !== null;
    const organizers = shownOrganizerIds(store, event).map((id) => store.organizers.get(id)!);
    calendar.createEvent({
      // The same UID every time, so calendars that subscribe or re-import recognise the event (CONTRACT §2).
      id: icsUidOf(event),
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
      description: htmlToText(event.description) || null,
      location: location(store, event),
      url: options.urlOf ? options.urlOf(event) : event.website,
      categories: event.categoryIds
        .map((id) => store.terms.get(id)?.name)
        .filter((name): name is string => name !== undefined)
        .map((name) => ({ name: htmlToText(name) })),
      // ORGANIZER is a calendar address (RFC 5545 §3.8.4.3): only an organizer with an e-mail has one.
      organizer: organizers[0]?.email
        ? { name: htmlToText(organizers[0].name), email: organizers[0].email }
        : null,
      lastModified: sqlToDate(event.modifiedUtc),
      x: costProperties(event, store),
    });
  }
  return calendar.toString();
}

/** The 1-based line of the n-th (0-based) `BEGIN:VEVENT`, for error messages. */
function veventLine(text: string, index: number): number {
  let seen = -1;
  const lines = text.split(/\r?\n/);
  for (const [number, line] of lines.entries())
    if (line.trim() === 'BEGIN:VEVENT' && ++seen === index) return number + 1;
  return 0;
}

export interface IcsEvent {
  line: number;
  input: EventInput;
  /** The VEVENT's UID ('' when it has none). */
  uid: string;
}

const pad = (value: number) => String(value).padStart(2, '0');
const wallClock = (time: ICAL.Time) =>
  `${time.year}-${pad(time.month)}-${pad(time.day)} ${pad(time.hour)}:${pad(time.minute)}:${pad(time.second)}`;

/** Reads the VEVENTs of an .ics file as event inputs (validated by the import before anything is stored). */
export function parseIcs(text: string): { events: IcsEvent[]; problems: ImportProblem[] } {
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(text));
  } catch (error) {
    return {
      events: [],
      problems: [{ line: 0, message: `not a valid iCalendar file (${(error as Error).message})` }],
    };
  }
  const events: IcsEvent[] = [];
  const problems: ImportProblem[] = [];
  for (const [index, component] of root.getAllSubcomponents('vevent').entries()) {
    const line = veventLine(text, index);
    const vevent = new ICAL.Event(component);
    if (!vevent.summary) problems.push({ line, message: 'the event has no SUMMARY (its title)' });
    if (!vevent.startDate) {
      problems.push({ line, message: 'the event has no DTSTART' });
      continue;
    }
    const start = vevent.startDate;
    const end = vevent.endDate ?? start;
    const zone = start.zone?.tzid && start.zone.tzid !== 'floating' ? start.zone.tzid : 'UTC';
    const allDay = start.isDate;
    // DTEND of an all-day event is the day after its last day (exclusive).
    const lastDay = end.clone();
    if (allDay && end.compare(start) > 0) lastDay.adjust(-1, 0, 0, 0);
    const categories = component
      .getAllProperties('categories')
      .flatMap((property) => property.getValues().map(String))
      .filter((name) => name !== '');
    const url = component.getFirstPropertyValue('url');
    const input: EventInput = {
      title: vevent.summary ?? '',
      description: vevent.description ?? undefined,
      start_date: allDay ? `${wallClock(start).slice(0, 10)} 00:00:00` : wallClock(start),
      end_date: allDay ? `${wallClock(lastDay).slice(0, 10)} 23:59:59` : wallClock(end),
      all_day: allDay,
      timezone: zone === 'Z' ? 'UTC' : zone,
      ...(categories.length ? { categories } : {}),
      ...(typeof url === 'string' && url ? { website: url } : {}),
      ...(vevent.location ? { venue: { venue: vevent.location.split(',')[0]!.trim() } } : {}),
      ...costInput(component, line, problems),
    };
    const uid = component.getFirstPropertyValue('uid');
    events.push({ line, input, uid: typeof uid === 'string' ? uid.trim() : '' });
  }
  return { events, problems };
}
