import fc from 'fast-check';
import { DateTime, IANAZone, type Zone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { formatSql, fromUtcSql, sqlToDateTime, toUtcSql } from '../../src/main/core/dates/sqlDates';
import { parseDateInput } from '../../src/main/core/dates/strtotime';
import { timezoneAbbr, timezoneAbbrAt, toLuxonZone } from '../../src/main/core/dates/zones';
import { normaliseFilterDate } from '../../src/main/core/dates/archiveWindow';

// The conversions as they were written with Luxon alone: the fast paths must give exactly the same.
function luxonAtWallClock(sql: string, zone: Zone): DateTime {
  const wall = DateTime.fromSQL(sql, { zone: 'utc' });
  const asUtc = wall.toMillis();
  const day = 86_400_000;
  const matches = [asUtc - day, asUtc, asUtc + day]
    .map((probe) => asUtc - zone.offset(probe) * 60_000)
    .filter((instant) => asUtc - instant === zone.offset(instant) * 60_000);
  if (matches.length) return DateTime.fromMillis(Math.min(...matches), { zone });
  const { year, month, day: d, hour, minute, second } = wall;
  return DateTime.fromObject({ year, month, day: d, hour, minute, second }, { zone });
}
const SQL = 'yyyy-MM-dd HH:mm:ss';
const luxonToUtc = (sql: string, zone: string) =>
  luxonAtWallClock(sql, toLuxonZone(zone)).toUTC().toFormat(SQL);
const luxonFromUtc = (sql: string, zone: string) =>
  luxonAtWallClock(sql, toLuxonZone('UTC')).setZone(toLuxonZone(zone)).toFormat(SQL);

const zones = [
  'UTC',
  'Europe/Rome',
  'America/New_York',
  'Australia/Lord_Howe',
  'America/Santiago',
  'Asia/Kolkata',
  'UTC+5.5',
  'UTC-3:30',
];
const pad = (value: number, width = 2) => String(value).padStart(width, '0');
// Dates around this century's transitions (late March/October, early November, April) and the year limits.
const sqlDate = fc
  .record({
    year: fc.oneof(fc.integer({ min: 1990, max: 2040 }), fc.constantFrom(1000, 1001, 9998, 999, 9999)),
    month: fc.oneof(fc.constantFrom(3, 4, 9, 10, 11), fc.integer({ min: 1, max: 12 })),
    day: fc.integer({ min: 1, max: 31 }),
    hour: fc.oneof(fc.constantFrom(0, 1, 2, 3, 23), fc.integer({ min: 0, max: 23 })),
    minute: fc.constantFrom(0, 15, 30, 59),
    second: fc.constantFrom(0, 1, 59),
  })
  .map(
    ({ year, month, day, hour, minute, second }) =>
      `${pad(year, 4)}-${pad(month)}-${pad(day)} ${pad(hour)}:${pad(minute)}:${pad(second)}`,
  );

describe('date conversions', () => {
  it('convert stored dates between wall clocks and UTC exactly as Luxon does, gaps and repeats included', () => {
    fc.assert(
      fc.property(sqlDate, fc.constantFrom(...zones), (sql, zone) => {
        if (!DateTime.fromSQL(sql, { zone: 'utc' }).isValid) {
          expect(() => toUtcSql(sql, zone)).toThrow();
          return;
        }
        expect(toUtcSql(sql, zone)).toBe(luxonToUtc(sql, zone));
        expect(fromUtcSql(sql, zone)).toBe(luxonFromUtc(sql, zone));
        expect(sqlToDateTime(sql, zone).toMillis()).toBe(luxonAtWallClock(sql, toLuxonZone(zone)).toMillis());
        const parsed = parseDateInput(sql, zone, new Date(0))!;
        expect(parsed.toMillis()).toBe(luxonAtWallClock(sql, toLuxonZone(zone)).toMillis());
        expect(formatSql(parsed)).toBe(parsed.toFormat(SQL));
      }),
      { numRuns: 3000 },
    );
  });

  it("remember each zone's offsets per day without missing a transition inside a day", () => {
    // Instants anywhere in 1995-2035, most of them in the hours around this century's transitions.
    const instant = fc.oneof(
      fc.integer({ min: Date.UTC(1995, 0, 1), max: Date.UTC(2035, 0, 1) }),
      fc
        .record({
          year: fc.integer({ min: 1995, max: 2034 }),
          month: fc.constantFrom(2, 3, 8, 9, 10),
          day: fc.integer({ min: 1, max: 31 }),
          minute: fc.integer({ min: -48 * 60, max: 48 * 60 }),
        })
        .map(({ year, month, day, minute }) => Date.UTC(year, month, day) + minute * 60_000),
    );
    const iana = zones.filter((zone) => IANAZone.isValidZone(zone) && zone !== 'UTC');
    fc.assert(
      fc.property(instant, fc.constantFrom(...iana), (ms, zone) => {
        expect(toLuxonZone(zone).offset(ms)).toBe(IANAZone.create(zone).offset(ms));
        expect(timezoneAbbrAt(zone, ms)).toBe(timezoneAbbr(zone, DateTime.fromMillis(ms)));
      }),
      { numRuns: 5000 },
    );
  });

  it('read a bare date as its midnight, and filter dates to the day, as Luxon does', () => {
    const day = sqlDate.map((sql) => sql.slice(0, 10));
    fc.assert(
      fc.property(day, fc.constantFrom(...zones), (text, zone) => {
        const luxon = DateTime.fromISO(text, { zone: toLuxonZone(zone), setZone: true });
        const parsed = parseDateInput(text, zone, new Date(0));
        if (luxon.isValid && !luxon.zone.equals(toLuxonZone(zone))) return;
        if (luxon.isValid) {
          expect(parsed?.toMillis()).toBe(luxonAtWallClock(`${text} 00:00:00`, toLuxonZone(zone)).toMillis());
          expect(normaliseFilterDate(text, 'dayEnd', false, zone, new Date(0))).toBe(
            `${parsed!.toFormat('yyyy-MM-dd')} 23:59:59`,
          );
        }
      }),
      { numRuns: 3000 },
    );
  });
});
