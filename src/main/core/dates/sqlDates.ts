import { DateTime } from 'luxon';
import { atWallClock, instantAtWallClock, toLuxonZone, wallOf } from './zones';

/*
 * SQL dates, 'Y-m-d H:i:s' wall clocks as WordPress stores them: formatting, reading them as instants of a
 * zone, and converting them between a zone's wall clock and UTC.
 */

export type SqlDate = string; // 'YYYY-MM-DD HH:mm:ss'

const SQL_FORMAT = 'yyyy-MM-dd HH:mm:ss';
const ZERO_DATE = '0000-00-00 00:00:00'; // WordPress' "no date" (e.g. date_gmt of drafts)

// Fast paths. Luxon's SQL parser, `fromObject` and formatter cost tens of microseconds per date, and every event
// written or presented converts several. Canonical 'Y-m-d H:i:s' texts of years 1000–9998 (everything stored)
// are converted here with Date arithmetic and the zone's offsets, by exactly Luxon's rules; anything else, and
// spring-forward gaps, take the Luxon path.
const CANONICAL_SQL = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** Milliseconds of a canonical SQL wall clock read as UTC, or null for anything else (Luxon decides then). */
export function canonicalSqlMs(sql: string): number | null {
  const m = CANONICAL_SQL.exec(sql);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  if (year < 1000 || year > 9998 || month < 1 || month > 12 || day < 1) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  // Day 31 of a 30-day month rolls over: not a real date.
  return new Date(ms).getUTCDate() === day ? ms : null;
}

/**
 * True for a 'Y-m-d H:i:s' the calendar can hold: a four-digit year, so 0000-01-01 00:00:00 to 9999-12-31
 * 23:59:59. Luxon formats dates past that range as '10000-…' or '-0001-…', which no part of the app reads back.
 */
export const isCalendarSql = (sql: SqlDate): boolean => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(sql);

/** 'Y-m-d H:i:s' of a UTC wall clock in milliseconds; null outside years 0000–9999. */
function sqlOfMs(ms: number): SqlDate | null {
  const iso = new Date(ms).toISOString();
  return iso.length === 24 ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}` : null;
}

/** 'Y-m-d H:i:s' of `dt` in its own zone. */
export function formatSql(dt: DateTime): SqlDate {
  return (dt.isValid ? sqlOfMs(dt.toMillis() + dt.offset * 60_000) : null) ?? dt.toFormat(SQL_FORMAT);
}

/** The instant of a 'Y-m-d H:i:s' wall clock in `zone` (throws on malformed input). */
export function sqlToDateTime(sql: SqlDate, zone: string): DateTime {
  const z = toLuxonZone(zone);
  const asUtc = canonicalSqlMs(sql);
  const instant = asUtc === null ? null : instantAtWallClock(asUtc, z);
  if (instant !== null) return DateTime.fromMillis(instant, { zone: z });
  const wall = DateTime.fromSQL(sql, { zone: 'utc' });
  if (!wall.isValid) throw new Error(`Invalid SQL date: ${JSON.stringify(sql)}`);
  return atWallClock(wallOf(wall), z);
}

/** The instant, in milliseconds, of a 'Y-m-d H:i:s' wall clock in `zone` (throws on malformed input). */
export function sqlToMillis(sql: SqlDate, zone: string): number {
  const asUtc = canonicalSqlMs(sql);
  const instant = asUtc === null ? null : instantAtWallClock(asUtc, toLuxonZone(zone));
  return instant ?? sqlToDateTime(sql, zone).toMillis();
}

/** The `*_details` object of a 'Y-m-d H:i:s' string: zero-padded parts (epoch parts when unparseable, as PHP). */
export function dateDetails(sql: SqlDate): {
  year: string;
  month: string;
  day: string;
  hour: string;
  minutes: string;
  seconds: string;
} {
  const m = /^(\d{1,4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2}))?)?/.exec(sql.trim()) ?? [
    '',
    '1970',
    '1',
    '1',
  ];
  const pad = (v: string | undefined, n = 2) => (v ?? '0').padStart(n, '0');
  return {
    year: pad(m[1], 4),
    month: pad(m[2]),
    day: pad(m[3]),
    hour: pad(m[4]),
    minutes: pad(m[5]),
    seconds: pad(m[6]),
  };
}

const CANONICAL_DIGITS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** `JSON.stringify(dateDetails(sql))`, of a canonical date straight from its digits (lists write four per event). */
export function dateDetailsJson(sql: SqlDate): string {
  if (!CANONICAL_DIGITS.test(sql)) return JSON.stringify(dateDetails(sql));
  return (
    `{"year":"${sql.slice(0, 4)}","month":"${sql.slice(5, 7)}","day":"${sql.slice(8, 10)}",` +
    `"hour":"${sql.slice(11, 13)}","minutes":"${sql.slice(14, 16)}","seconds":"${sql.slice(17, 19)}"}`
  );
}

/** Current UTC wall clock as 'Y-m-d H:i:s'. */
export function utcSqlNow(now: Date): SqlDate {
  // Every write stamps its time: straight from the milliseconds, Luxon only for what they cannot show.
  const ms = now.getTime();
  return (Number.isNaN(ms) ? null : sqlOfMs(ms)) ?? formatSql(DateTime.fromJSDate(now, { zone: 'utc' }));
}

/** Converts a wall clock of `zone` to the UTC wall clock (WordPress' zero date passes through). */
export function toUtcSql(localSql: SqlDate, zone: string): SqlDate {
  if (localSql === ZERO_DATE) return localSql;
  const asUtc = canonicalSqlMs(localSql);
  const instant = asUtc === null ? null : instantAtWallClock(asUtc, toLuxonZone(zone));
  return (instant === null ? null : sqlOfMs(instant)) ?? formatSql(sqlToDateTime(localSql, zone).toUTC());
}

/** Converts a UTC wall clock to the wall clock of `zone` (WordPress' zero date passes through). */
export function fromUtcSql(utcSql: SqlDate, zone: string): SqlDate {
  if (utcSql === ZERO_DATE) return utcSql;
  const ms = canonicalSqlMs(utcSql);
  const local = ms === null ? null : sqlOfMs(ms + toLuxonZone(zone).offset(ms) * 60_000);
  return local ?? formatSql(sqlToDateTime(utcSql, 'UTC').setZone(toLuxonZone(zone)));
}

/** ISO 8601 with a numeric offset, as PHP's 'c' format: '2026-12-01T08:00:00+00:00'. */
export function isoWithOffset(localSql: SqlDate, zone: string): string {
  return sqlToDateTime(localSql, zone).toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
}
