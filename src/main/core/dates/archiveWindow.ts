import type { DateTime } from 'luxon';
import { formatSql, type SqlDate } from './sqlDates';
import { parseDateInput } from './strtotime';
import { toLuxonZone } from './zones';

// The window of GET /events: its default start and end, and the start_date/end_date filters as wall clocks.

/** Default `start_date` of GET /events: 'yesterday 23:59' computed in UTC, rendered in the site zone. */
export function defaultArchiveStart(now: Date, siteZone: string): SqlDate {
  const utc = parseDateInput('yesterday 23:59', 'UTC', now) as DateTime;
  return formatSql(utc.setZone(toLuxonZone(siteZone)));
}

/** Default `end_date` of GET /events: now + 24 months as a UTC wall clock (PHP month overflow, not clamping). */
export function defaultArchiveEnd(now: Date): SqlDate {
  return formatSql(parseDateInput('+24 months', 'UTC', now) as DateTime);
}

/**
 * Normalise a date filter value to the site-zone wall clock it is compared with.
 * Inclusive mode: only the calendar date of the input (parsed in the site zone) counts; 'dayStart' gives its
 * 00:00:00, 'dayEnd' its 23:59:59. Strict mode: the exact instant (zone-less input read as UTC) in the site zone.
 * Null if unparseable.
 */
export function normaliseFilterDate(
  input: string | number,
  kind: 'dayStart' | 'dayEnd',
  strict: boolean,
  siteZone: string,
  now: Date,
): SqlDate | null {
  if (strict) {
    const dt = parseDateInput(input, 'UTC', now);
    return dt && formatSql(dt.setZone(toLuxonZone(siteZone)));
  }
  const dt = parseDateInput(input, siteZone, now);
  if (!dt) return null;
  // formatSql's fast path (Luxon's formatter costs tens of microseconds); other years take toFormat.
  const sql = formatSql(dt);
  const day = /^\d{4}-/.test(sql) ? sql.slice(0, 10) : dt.toFormat('yyyy-MM-dd');
  return day + (kind === 'dayStart' ? ' 00:00:00' : ' 23:59:59');
}
