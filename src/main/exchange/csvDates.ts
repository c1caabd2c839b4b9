import { parseDateInput } from '../core/dates/strtotime';
import { formatSql } from '../core/dates/sqlDates';

/** How the dates of a CSV file are read. */
export interface CsvDateOptions {
  /** `05/06/2026` is 5 June (day/month/year) instead of PHP's month/day/year. */
  dayFirst?: boolean;
  /** Relative forms ("next friday") count from here. */
  now: Date;
}

// PHP reads n/n/y as month/day/year but n.n.y and n-n-y as day.month.year; only the slash form is ambiguous.
const SLASHED = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})\b/;

/** The date text as strtotime should read it: with the day-first option, day and month of `d/m/y` swap. */
function asWritten(text: string, dayFirst: boolean): string {
  return dayFirst ? text.replace(SLASHED, (_all, day, month, year) => `${month}/${day}/${year}`) : text;
}

/**
 * A date cell (and an optional time cell) as the `Y-m-d H:i:s` wall clock in `zone`, read as the API reads dates
 * (the original importer runs them through strtotime): ISO/SQL, `m/d/Y`, `d.m.Y`, "next friday", "tomorrow 19:30".
 * Null when the text is not a date.
 */
export function csvWallClock(
  day: string,
  clock: string,
  zone: string,
  options: CsvDateOptions,
): string | null {
  const text = asWritten(day.trim(), options.dayFirst ?? false) + (clock.trim() ? ` ${clock.trim()}` : '');
  const parsed = parseDateInput(text, zone, options.now);
  return parsed ? formatSql(parsed) : null;
}
