import { canonicalSqlMs, fromUtcSql, toUtcSql } from '../dates/sqlDates';
import { isValidTimezone } from '../dates/zones';
import { MAX_OCCURRENCES, readRecurrenceLines, type DateValue } from './lines';
import { ruleStarts, type Wall } from './rule';

export { parseRecurrenceLines } from './lines';

/*
 * The occurrences of a series: its start plus what its RRULE lines produce, plus RDATE, minus EXDATE (RFC 5545).
 * ical.js's recurrence iterator does the rule arithmetic (rule.ts). It runs on the series' wall clock (floating
 * times), so a weekly 19:30 Europe/Rome rehearsal stays at 19:30 across the March and October changes; values
 * written in UTC or another zone (UNTIL…Z, EXDATE;TZID=…) are first converted to that wall clock.
 */

export interface SeriesPattern {
  /** The first occurrence, 'Y-m-d H:i:s' wall clock in `timezone` (all-day: 'Y-m-d 00:00:00'). */
  startLocal: string;
  timezone: string;
  allDay: boolean;
  /** Valid recurrence lines (parseRecurrenceLines' output, or stored). */
  lines: readonly string[];
}

export interface ExpansionWindow {
  /** The last wall clock an occurrence may start at (inclusive), 'Y-m-d H:i:s' in the series' zone. */
  untilLocal: string;
  /** At most this many occurrences (never more than MAX_OCCURRENCES). */
  limit?: number;
}

/**
 * A date-time value as a wall clock of the series' zone: UTC values and values of another TZID are converted;
 * floating ones are taken as written. Null for a plain date (the caller decides what a date means).
 */
function wallOfDateTime(value: DateValue, tzid: string | null, zone: string): Wall | null {
  if (value.time === null) return null;
  const sql = `${value.date} ${value.time}`;
  if (value.utc) return fromUtcSql(sql, zone);
  if (tzid !== null && tzid !== zone) return fromUtcSql(toUtcSql(sql, tzid), zone);
  return sql;
}

/**
 * A rule's UNTIL as a wall clock of the series. A date on a timed series keeps that whole day (RFC 5545 wants
 * UNTIL of the same type as the start; people who write a date mean "up to and including that day").
 */
function untilWall(until: DateValue, pattern: SeriesPattern): Wall {
  const wall = wallOfDateTime(until, null, pattern.timezone) ?? `${until.date} 23:59:59`;
  return pattern.allDay ? `${wall.slice(0, 10)} 00:00:00` : wall;
}

/** The pattern checked, its start as a series of its kind has it (all-day: midnight). */
function checkedPattern(pattern: SeriesPattern, window: ExpansionWindow): SeriesPattern {
  for (const [name, wall] of [
    ['startLocal', pattern.startLocal],
    ['untilLocal', window.untilLocal],
  ])
    if (canonicalSqlMs(wall!) === null)
      throw new Error(`expandSeries: ${name} ${JSON.stringify(wall)} is not Y-m-d H:i:s`);
  if (!isValidTimezone(pattern.timezone))
    throw new Error(`expandSeries: ${JSON.stringify(pattern.timezone)} is not a time zone`);
  return pattern.allDay ? { ...pattern, startLocal: `${pattern.startLocal.slice(0, 10)} 00:00:00` } : pattern;
}

/**
 * The local 'Y-m-d H:i:s' starts of a series' occurrences up to `window.untilLocal`, in order, without
 * duplicates: the start itself (RFC 5545 counts DTSTART as the first occurrence), each RRULE's occurrences,
 * the RDATEs from the start on, less the EXDATEs. An EXDATE or RDATE given as a date on a timed series means
 * that day (removes its occurrences, adds one at the series' time of day). At most MAX_OCCURRENCES.
 */
export function expandSeries(given: SeriesPattern, window: ExpansionWindow): string[] {
  const pattern = checkedPattern(given, window);
  const lines = readRecurrenceLines(pattern.lines);
  const limit = Math.max(0, Math.min(window.limit ?? MAX_OCCURRENCES, MAX_OCCURRENCES));
  const untilLocal = window.untilLocal;
  const asWall = (value: DateValue, tzid: string | null): Wall => {
    const wall =
      wallOfDateTime(value, tzid, pattern.timezone) ?? `${value.date} ${pattern.startLocal.slice(11)}`;
    return pattern.allDay ? `${wall.slice(0, 10)} 00:00:00` : wall;
  };

  const removed = new Set<Wall>();
  const removedDays = new Set<string>(); // EXDATE;VALUE=DATE on a timed series: every occurrence that day
  for (const line of lines) {
    if (line.kind !== 'EXDATE') continue;
    for (const value of line.values) {
      if (value.time === null && !pattern.allDay) removedDays.add(value.date);
      else removed.add(asWall(value, line.tzid));
    }
  }
  // Enough candidates from each source that `limit` remain after the removals (a rule gives at most one a day).
  const most = Math.min(limit + removed.size + removedDays.size, MAX_OCCURRENCES * 2);

  const candidates = new Set<Wall>();
  if (pattern.startLocal <= untilLocal) candidates.add(pattern.startLocal);
  for (const line of lines) {
    if (line.kind === 'RRULE') {
      const ruleUntil = line.until === null ? null : untilWall(line.until, pattern);
      const start = { startLocal: pattern.startLocal, allDay: pattern.allDay, ruleUntil };
      for (const wall of ruleStarts(line.parts, start, untilLocal, most)) candidates.add(wall);
    } else if (line.kind === 'RDATE') {
      for (const value of line.values) {
        const wall = asWall(value, line.tzid);
        // An added date before the start would come before the series' first event: not part of the series.
        if (wall >= pattern.startLocal && wall <= untilLocal) candidates.add(wall);
      }
    }
  }
  return [...candidates]
    .filter((wall) => !removed.has(wall) && !removedDays.has(wall.slice(0, 10)))
    .sort()
    .slice(0, limit);
}
