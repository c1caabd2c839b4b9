import type ICAL from 'ical.js';
import type { StoredEvent } from '../store/schema';
import { fromUtcSql, toUtcSql } from '../core/dates/sqlDates';
import { isValidTimezone } from '../core/dates/zones';
import { expandSeries } from '../core/recurrence/expand';
import {
  formatDateValue,
  parseRecurrenceLines,
  readRecurrenceLines,
  type DateValue,
} from '../core/recurrence/lines';
import type { ImportProblem } from './errors';
import type { IcsVeventText } from './icsText';

/*
 * Series in iCalendar (RFC 5545; issue 13 item 5). A series is one VEVENT with RRULE / RDATE / EXDATE, and one
 * VEVENT per changed occurrence with the series' UID and a RECURRENCE-ID (its original start). Our `recurrence`
 * lines are the same lines, so the import checks the file's own text with the rules of the API
 * (parseRecurrenceLines) and the export writes them back in the form every reader agrees on: dates in the
 * series' zone with its TZID (UNTIL in UTC, as RFC 5545 wants with a zoned start), all-day as VALUE=DATE.
 */

/** What a series needs to read and write its dates: its zone, all-day or not, and its first start. */
export interface SeriesClock {
  timezone: string;
  allDay: boolean;
  /** The series' first start, 'Y-m-d H:i:s' wall clock in `timezone`. */
  startLocal: string;
  /** False for zones without a VTIMEZONE (UTC offsets): their times are written in UTC. */
  zoned: boolean;
}

const RECURRENCE_NAMES = ['RRULE', 'RDATE', 'EXDATE', 'EXRULE'];

/**
 * The recurrence lines of a VEVENT as written in the file, checked and normalised as the API checks them; a
 * line we cannot represent (EXRULE, FREQ=HOURLY, an unknown TZID…) is a problem naming its line, never dropped.
 */
export function recurrenceOfVevent(vevent: IcsVeventText, problems: ImportProblem[]): string[] {
  const found = vevent.properties.filter((property) => RECURRENCE_NAMES.includes(property.name));
  if (found.length === 0) return [];
  const checked = parseRecurrenceLines(found.map((property) => property.text));
  if (checked.ok) return checked.lines;
  const property = found[checked.index] ?? found[0]!;
  problems.push({ line: property.line, message: checked.message.replace(/^Line \d+/, property.name) });
  return [];
}

const pad = (value: number) => String(value).padStart(2, '0');
/** An ical.js time as written, 'Y-m-d H:i:s' (its zone aside). */
export const wallClock = (time: ICAL.Time) =>
  `${time.year}-${pad(time.month)}-${pad(time.day)} ${pad(time.hour)}:${pad(time.minute)}:${pad(time.second)}`;

/**
 * A date property of the file (RECURRENCE-ID) as a wall clock of the series: UTC and other zones converted,
 * a date on a timed series taken at the series' time of day. A string is the problem.
 */
export function wallOfProperty(property: ICAL.Property, series: SeriesClock): { wall: string } | string {
  const time = property.getFirstValue() as ICAL.Time;
  const tzid = property.getParameter('tzid');
  const day = wallClock(time).slice(0, 10);
  if (time.isDate) return { wall: `${day} ${series.allDay ? '00:00:00' : series.startLocal.slice(11)}` };
  let wall = wallClock(time);
  if (time.zone?.tzid === 'UTC') wall = fromUtcSql(wall, series.timezone);
  else if (typeof tzid === 'string' && tzid !== series.timezone) {
    if (!isValidTimezone(tzid))
      return `the time zone ${tzid} is not one Calendar Desk knows: use an IANA name such as Europe/Rome.`;
    wall = fromUtcSql(toUtcSql(wall, tzid), series.timezone);
  }
  return { wall: series.allDay ? `${wall.slice(0, 10)} 00:00:00` : wall };
}

/** A wall clock of the series as an .ics property line: `NAME;TZID=zone:…`, `NAME;VALUE=DATE:…` or UTC. */
export function icsDateLine(name: string, walls: string[], series: SeriesClock): string {
  const compact = (sql: string) => sql.replace(/[- :]/g, '').replace(/^(\d{8})(\d{6})$/, '$1T$2');
  if (series.allDay) return `${name};VALUE=DATE:${walls.map((wall) => compact(wall).slice(0, 8)).join(',')}`;
  if (series.zoned) return `${name};TZID=${series.timezone}:${walls.map(compact).join(',')}`;
  return `${name}:${walls.map((wall) => `${compact(toUtcSql(wall, series.timezone))}Z`).join(',')}`;
}

/** The same as {@link icsDateLine}, split as ical-generator's `x` takes a property: name with parameters, value. */
export function icsDateProperty(name: string, wall: string, series: SeriesClock): [string, string] {
  const line = icsDateLine(name, [wall], series);
  const colon = line.lastIndexOf(':');
  return [line.slice(0, colon), line.slice(colon + 1)];
}

/** A date value of a stored line as a wall clock of the series (dates: null, the caller decides). */
function wallOfValue(value: DateValue, tzid: string | null, series: SeriesClock): string | null {
  if (value.time === null) return null;
  const sql = `${value.date} ${value.time}`;
  if (value.utc) return fromUtcSql(sql, series.timezone);
  if (tzid !== null && tzid !== series.timezone) return fromUtcSql(toUtcSql(sql, tzid), series.timezone);
  return sql;
}

/** An RRULE's UNTIL as RFC 5545 §3.3.10 wants it: a date for an all-day series, else a UTC date-time. */
function icsUntil(until: DateValue, series: SeriesClock): string {
  if (series.allDay) return until.date.replaceAll('-', '');
  if (until.utc) return formatDateValue(until);
  const wall = wallOfValue(until, null, series) ?? `${until.date} 23:59:59`;
  return `${toUtcSql(wall, series.timezone)
    .replace(/[- :]/g, '')
    .replace(/^(\d{8})/, '$1T')}Z`;
}

/**
 * A series' stored lines as the export writes them, line for line (so that an import of the export stores the
 * same lines): RRULE as stored but for UNTIL ({@link icsUntil}); RDATE and EXDATE as wall clocks of the
 * series' zone. An EXDATE date on a timed series removes that day's occurrences: the export names them, as
 * readers expect values of the start's type.
 */
export function icsRecurrenceLines(lines: readonly string[], series: SeriesClock): string[] {
  const parsed = readRecurrenceLines(lines);
  const removedDays = parsed.flatMap((line) =>
    line.kind === 'EXDATE' && !series.allDay
      ? line.values.filter((v) => v.time === null).map((v) => v.date)
      : [],
  );
  const occurrencesOnRemovedDays =
    removedDays.length === 0
      ? []
      : expandSeries(
          {
            ...series,
            allDay: false,
            lines: lines.filter((line) => !line.toUpperCase().startsWith('EXDATE')),
          },
          { untilLocal: `${removedDays.sort().at(-1)!} 23:59:59` },
        );
  return parsed.flatMap((line) => {
    if (line.kind === 'RRULE') {
      const parts = [...line.parts].map(([name, text]) =>
        name === 'UNTIL' && line.until ? `UNTIL=${icsUntil(line.until, series)}` : `${name}=${text}`,
      );
      return [`RRULE:${parts.join(';')}`];
    }
    const walls = line.values.flatMap((value) => {
      const wall = wallOfValue(value, line.tzid, series);
      if (wall !== null) return [series.allDay ? `${wall.slice(0, 10)} 00:00:00` : wall];
      if (series.allDay) return [`${value.date} 00:00:00`];
      if (line.kind === 'RDATE') return [`${value.date} ${series.startLocal.slice(11)}`];
      return occurrencesOnRemovedDays.filter((start) => start.startsWith(value.date));
    });
    const unique = [...new Set(walls)];
    return unique.length > 0 ? [icsDateLine(line.kind, unique, series)] : [];
  });
}

/** The clock of a stored series head. */
export function seriesClockOf(head: StoredEvent, zoned: boolean): SeriesClock {
  return {
    timezone: head.timezone,
    allDay: head.allDay,
    startLocal: head.recurrenceId ?? head.startLocal,
    zoned,
  };
}
