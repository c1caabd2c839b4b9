import { DateTime } from 'luxon';
import { formatSql, type SqlDate } from './sqlDates';
import { parseDateInput } from './strtotime';
import { toLuxonZone } from './zones';

// The window of GET /events: its default start and end, and the start_date/end_date filters as wall clocks.
// The defaults are PHP's strtotime('yesterday 23:59') and strtotime('+24 months'), computed with Date.UTC
// (which overflows months and days as PHP does) rather than by parsing the phrases on every list request:
// test/core/dates.test.ts holds them equal to the phrases for any instant.

/** Default `start_date` of GET /events: 'yesterday 23:59' computed in UTC, rendered in the site zone. */
export function defaultArchiveStart(now: Date, siteZone: string): SqlDate {
  const yesterday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 1, 23, 59, 0);
  return formatSql(DateTime.fromMillis(yesterday, { zone: toLuxonZone(siteZone) }));
}

/** Default `end_date` of GET /events: now + 24 months as a UTC wall clock (PHP month overflow, not clamping). */
export function defaultArchiveEnd(now: Date): SqlDate {
  const later = Date.UTC(
    now.getUTCFullYear(),
    now.getUTCMonth() + 24,
    now.getUTCDate(),
    now.getUTCHours(),
    now.getUTCMinutes(),
    now.getUTCSeconds(),
  );
  return formatSql(DateTime.fromMillis(later, { zone: 'UTC' }));
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
