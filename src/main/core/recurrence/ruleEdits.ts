import { fromUtcSql, toUtcSql } from '../dates/sqlDates';
import { isValidTimezone } from '../dates/zones';
import { parseDateValue, parseRecurrenceLines } from './lines';

/*
 * Edits of a series' RFC 5545 lines that a split or a deletion needs: end a rule before a date, restart it from
 * a date, remove one date. The expansion itself is expand.ts's (a library's, never hand-written); these only
 * rewrite the lines it reads. Dates are the series' `Y-m-d H:i:s` wall clocks in its time zone.
 */

/** `20261215T193000` of a wall clock `2026-12-15 19:30:00` (`20261215` for an all-day series). */
function icsStamp(local: string, allDay: boolean): string {
  const digits = local.replace(/[-: ]/g, '');
  return allDay ? digits.slice(0, 8) : `${digits.slice(0, 8)}T${digits.slice(8, 14)}`;
}

/** The wall clock of an iCalendar date value (`20261215`, `20261215T193000`, `…Z`) in the series' zone. */
function localOfValue(text: string, tzid: string | undefined, zone: string): string | null {
  const value = parseDateValue(text);
  if (!value) return null;
  const sql = `${value.date} ${value.time ?? '00:00:00'}`;
  if (value.utc) return fromUtcSql(sql, zone);
  if (tzid && tzid !== zone && isValidTimezone(tzid)) return fromUtcSql(toUtcSql(sql, tzid), zone);
  return sql;
}

/** Splits `NAME;PARAM=x:value` into its name with parameters, its TZID and its value. */
function splitLine(line: string): { head: string; tzid: string | undefined; value: string } {
  const colon = line.indexOf(':');
  const head = line.slice(0, colon);
  const tzid = /;TZID=([^;:]+)/i.exec(head)?.[1];
  return { head, tzid, value: line.slice(colon + 1) };
}

/** RDATE/EXDATE lines keeping only the dates `keep` accepts (a line left without dates is dropped). */
function filterDateLines(
  lines: string[],
  name: 'RDATE' | 'EXDATE',
  zone: string,
  keep: (local: string) => boolean,
) {
  return lines.flatMap((line) => {
    if (!line.toUpperCase().startsWith(name)) return [line];
    const { head, tzid, value } = splitLine(line);
    const kept = value.split(',').filter((part) => {
      const local = localOfValue(part, tzid, zone);
      return local === null || keep(local);
    });
    return kept.length > 0 ? [`${head}:${kept.join(',')}`] : [];
  });
}

/** An RRULE line with its COUNT and UNTIL parts replaced by `parts` (none: the rule has no end). */
function withEnd(line: string, parts: string[]): string {
  const rule = line
    .slice('RRULE:'.length)
    .split(';')
    .filter((part) => !/^(COUNT|UNTIL)=/i.test(part));
  return `RRULE:${[...rule, ...parts].join(';')}`;
}

const isRule = (line: string) => line.toUpperCase().startsWith('RRULE:');

/** The COUNT of an RRULE line, if it has one. */
export function ruleCount(line: string): number | undefined {
  const m = /[:;]COUNT=(\d+)/i.exec(line);
  return m ? Number(m[1]) : undefined;
}

/**
 * The lines of a series that ends just before `local`: its rules get an UNTIL one second (all-day: one day)
 * before it, and its added dates from `local` on are dropped.
 */
export function linesEndingBefore(lines: string[], local: string, zone: string, allDay: boolean): string[] {
  const untilLocal = allDay ? shiftLocal(local, -86_400_000) : shiftLocal(local, -1000);
  // RFC 5545: with a zoned start, UNTIL is written in UTC.
  const until = allDay ? icsStamp(untilLocal, true) : `${icsStamp(toUtcSql(untilLocal, zone), false)}Z`;
  const ended = lines.map((line) => (isRule(line) ? withEnd(line, [`UNTIL=${until}`]) : line));
  return normalised(filterDateLines(ended, 'RDATE', zone, (date) => date < local));
}

/**
 * The lines of the same series restarted at `local` (one of its dates): a COUNT becomes what is left of it
 * after `usedBefore(line)` occurrences, and added or removed dates before `local` are dropped.
 */
export function linesFrom(
  lines: string[],
  local: string,
  zone: string,
  usedBefore: (ruleLine: string) => number,
): string[] {
  const restarted = lines.map((line) => {
    const count = isRule(line) ? ruleCount(line) : undefined;
    return count === undefined ? line : withEnd(line, [`COUNT=${Math.max(1, count - usedBefore(line))}`]);
  });
  const keep = (date: string) => date >= local;
  return normalised(filterDateLines(filterDateLines(restarted, 'RDATE', zone, keep), 'EXDATE', zone, keep));
}

/** Lines edited here in the normal form lines.ts writes (so equal series keep equal lines). */
export function normalised(lines: string[]): string[] {
  const result = parseRecurrenceLines(lines);
  if (!result.ok) throw new Error(`A series edit wrote an invalid line: ${result.message}`);
  return result.lines;
}

/** An EXDATE line removing the date `local` (in the series' zone; UTC when the zone has no IANA name). */
export function exdateLine(local: string, zone: string, allDay: boolean): string {
  if (allDay) return `EXDATE;VALUE=DATE:${icsStamp(local, true)}`;
  if (/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)+$/.test(zone)) return `EXDATE;TZID=${zone}:${icsStamp(local, false)}`;
  return `EXDATE:${icsStamp(toUtcSql(local, zone), false)}Z`;
}

/** A `Y-m-d H:i:s` wall clock moved by `ms` (wall-clock arithmetic: no time zone involved). */
export function shiftLocal(local: string, ms: number): string {
  if (ms === 0) return local;
  const iso = new Date(wallMs(local) + ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** Milliseconds of a `Y-m-d H:i:s` wall clock read as if it were UTC: for differences of wall clocks. */
export function wallMs(local: string): number {
  return Date.parse(`${local.replace(' ', 'T')}Z`);
}
