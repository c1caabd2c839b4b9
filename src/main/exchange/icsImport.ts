import ICAL from 'ical.js';
import type { EventInput } from '../core/eventRecord';
import { isValidTimezone } from '../core/dates/zones';
import { expandSeries } from '../core/recurrence/expand';
import { parseRecurrenceLines } from '../core/recurrence/lines';
import type { ImportProblem } from './errors';
import { costInput } from './icsCost';
import { descriptionInput, flagInput, geoInput, organizerInput, statusInput } from './icsFields';
import { icsDateLine, recurrenceOfVevent, wallClock, wallOfProperty, type SeriesClock } from './icsSeries';
import { lineOf, veventTexts, type IcsVeventText } from './icsText';
import { TimeSlices } from '../core/timeSlices';

/** A changed occurrence of a series in the file: a VEVENT with the series' UID and a RECURRENCE-ID. */
export interface IcsOverride {
  /** The line of its RECURRENCE-ID. */
  line: number;
  /** The line of its BEGIN:VEVENT. */
  veventLine: number;
  /** Its original start, 'Y-m-d H:i:s' wall clock in the series' zone (the occurrence's `recurrenceId`). */
  recurrenceId: string;
  input: EventInput;
}

export interface IcsEvent {
  line: number;
  /** The event's fields; a series carries its `recurrence` lines. */
  input: EventInput;
  /** The VEVENT's UID ('' when it has none). */
  uid: string;
  /** A series' changed occurrences ([] for a single event). */
  overrides: IcsOverride[];
}

/** The zone of a DTSTART: its TZID (an IANA name), UTC for UTC and floating times; a string is the problem. */
function zoneOf(component: ICAL.Component, start: ICAL.Time): { zone: string } | string {
  const tzid = component.getFirstProperty('dtstart')?.getParameter('tzid');
  if (typeof tzid !== 'string' || start.isDate) return { zone: 'UTC' };
  if (!isValidTimezone(tzid))
    return `DTSTART: the time zone ${tzid} is not one Calendar Desk knows: use an IANA name such as Europe/Rome.`;
  return { zone: tzid };
}

/** The fields of one VEVENT as an event input (checked by the import's writes), or null when it has no start. */
function eventInputOf(
  component: ICAL.Component,
  vevent: IcsVeventText | undefined,
  problems: ImportProblem[],
): EventInput | null {
  const line = vevent?.line ?? 0;
  // No exceptions given: else ical.js reads every sibling's RECURRENCE-ID here, and a malformed one throws.
  const event = new ICAL.Event(component, { exceptions: [] });
  if (!event.summary) problems.push({ line, message: 'the event has no SUMMARY (its title)' });
  if (!event.startDate) {
    problems.push({ line, message: 'the event has no DTSTART' });
    return null;
  }
  const start = event.startDate;
  const end = event.endDate ?? start;
  const zone = zoneOf(component, start);
  if (typeof zone === 'string') {
    problems.push({ line: lineOf(vevent, 'DTSTART'), message: zone });
    return null;
  }
  const allDay = start.isDate;
  // DTEND of an all-day event is the day after its last day (exclusive).
  const lastDay = end.clone();
  if (allDay && end.compare(start) > 0) lastDay.adjust(-1, 0, 0, 0);
  const categories = component
    .getAllProperties('categories')
    .flatMap((property) => property.getValues().map(String))
    .filter((name) => name !== '');
  const url = component.getFirstPropertyValue('url');
  return {
    title: event.summary ?? '',
    description: descriptionInput(component, event.description),
    start_date: allDay ? `${wallClock(start).slice(0, 10)} 00:00:00` : wallClock(start),
    end_date: allDay ? `${wallClock(lastDay).slice(0, 10)} 23:59:59` : wallClock(end),
    all_day: allDay,
    timezone: zone.zone,
    ...(categories.length ? { categories } : {}),
    ...(typeof url === 'string' && url ? { website: url } : {}),
    ...(event.location
      ? { venue: { venue: event.location.split(',')[0]!.trim(), ...geoInput(component) } }
      : {}),
    ...organizerInput(component),
    ...costInput(component, line, problems),
    ...statusInput(component, line, problems),
    ...flagInput(component, line, problems),
  };
}

const uidOf = (component: ICAL.Component) => {
  const uid = component.getFirstPropertyValue('uid');
  return typeof uid === 'string' ? uid.trim() : '';
};

interface SeriesInFile {
  event: IcsEvent;
  clock: SeriesClock;
  /** Lines the overrides add: an EXDATE for a cancelled date, an RDATE for a date the rules do not give. */
  added: string[];
}

/**
 * Attaches a RECURRENCE-ID VEVENT to its series. A date the rules do not give (the source calendar moved its
 * rules since) becomes an added date (RDATE) of the series, changed as the VEVENT says: nothing in the file is
 * dropped. A cancelled date (STATUS:CANCELLED, as some calendars write deletions) becomes an EXDATE.
 */
function attachOverride(
  component: ICAL.Component,
  vevent: IcsVeventText | undefined,
  series: Map<string, SeriesInFile>,
  problems: ImportProblem[],
): void {
  const uid = uidOf(component);
  const at = lineOf(vevent, 'RECURRENCE-ID');
  const refuse = (message: string) => problems.push({ line: at, message });
  const master = series.get(uid);
  if (!master) {
    refuse(
      `RECURRENCE-ID changes one date of a repeating event (UID ${uid || 'missing'}) that the file does not ` +
        'hold as a repeating VEVENT (with RRULE or RDATE): export the whole series from its calendar.',
    );
    return;
  }
  const property = component.getFirstProperty('recurrence-id')!;
  if (property.getParameter('range'))
    return void refuse(
      'RECURRENCE-ID;RANGE=THISANDFUTURE (a change of every later date) is not supported: ' +
        'export the series again from its calendar, which then writes it as two series.',
    );
  let wall: ReturnType<typeof wallOfProperty>;
  try {
    wall = wallOfProperty(property, master.clock);
  } catch {
    // ical.js reads the value only now, and throws on one that is not a date.
    wall = 'its value is not a date or date-time such as 20261215 or 20261215T193000.';
  }
  if (typeof wall === 'string') return void refuse(`RECURRENCE-ID: ${wall}`);
  const recurrenceId = wall.wall;
  if (master.event.overrides.some((override) => override.recurrenceId === recurrenceId))
    return void refuse(`a second VEVENT changes the date ${recurrenceId} of this series: keep one.`);
  const clockLine = (name: string) => icsDateLine(name, [recurrenceId], master.clock);
  if (String(component.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED') {
    master.added.push(clockLine('EXDATE'));
    return;
  }
  const lines = master.event.input.recurrence ?? [];
  const pattern = { ...master.clock, lines };
  if (expandSeries(pattern, { untilLocal: recurrenceId }).at(-1) !== recurrenceId) {
    if (recurrenceId < master.clock.startLocal)
      return void refuse(
        `RECURRENCE-ID ${recurrenceId} is before the first date of its series (${master.clock.startLocal}).`,
      );
    const withoutRemovals = lines.filter((line) => !line.startsWith('EXDATE'));
    if (
      expandSeries({ ...pattern, lines: withoutRemovals }, { untilLocal: recurrenceId }).at(-1) ===
      recurrenceId
    )
      return void refuse(
        `the date ${recurrenceId} is removed from its series by an EXDATE and changed by this VEVENT: keep one.`,
      );
    master.added.push(clockLine('RDATE'));
  }
  const input = eventInputOf(component, vevent, problems);
  if (input) master.event.overrides.push({ line: at, veventLine: vevent?.line ?? at, recurrenceId, input });
}

/**
 * Reads the VEVENTs of an .ics file as event inputs (validated by the import before anything is stored): a
 * repeating VEVENT as a series with its `recurrence` lines and its changed dates (RECURRENCE-ID VEVENTs).
 * What a series cannot represent is a problem with its line, never dropped.
 */
export async function parseIcs(text: string): Promise<{ events: IcsEvent[]; problems: ImportProblem[] }> {
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(text) as unknown[]);
  } catch (error) {
    return {
      events: [],
      problems: [{ line: 0, message: `not a valid iCalendar file (${(error as Error).message})` }],
    };
  }
  const events: IcsEvent[] = [];
  const problems: ImportProblem[] = [];
  const texts = veventTexts(text);
  const components = root.getAllSubcomponents('vevent');
  const series = new Map<string, SeriesInFile>();
  // A file of thousands of VEVENTs takes a second to read: read in slices, the server answering meanwhile.
  const slices = new TimeSlices();
  for (const [index, component] of components.entries()) {
    await slices.pause();
    if (component.hasProperty('recurrence-id')) continue;
    const vevent = texts[index];
    const input = eventInputOf(component, vevent, problems);
    if (!input) continue;
    const recurrence = vevent ? recurrenceOfVevent(vevent, problems) : [];
    const uid = uidOf(component);
    const event: IcsEvent = {
      line: vevent?.line ?? 0,
      input: recurrence.length > 0 ? { ...input, recurrence } : input,
      uid,
      overrides: [],
    };
    events.push(event);
    if (recurrence.length > 0 && uid && !series.has(uid)) {
      const clock = {
        timezone: input.timezone!,
        allDay: input.all_day!,
        startLocal: String(input.start_date),
        zoned: true,
      };
      series.set(uid, { event, clock, added: [] });
    }
  }
  for (const [index, component] of components.entries()) {
    await slices.pause();
    if (component.hasProperty('recurrence-id')) attachOverride(component, texts[index], series, problems);
  }
  for (const { event, added } of series.values()) {
    if (added.length === 0) continue;
    const checked = parseRecurrenceLines([...(event.input.recurrence ?? []), ...added]);
    if (checked.ok) event.input.recurrence = checked.lines;
    else problems.push({ line: event.line, message: checked.message });
  }
  return { events, problems };
}
