import { describe, expect, it } from 'vitest';
import { expandSeries } from '../../../src/main/core/recurrence/expand';
import { MAX_OCCURRENCES } from '../../../src/main/core/recurrence/lines';
import { asStarts, independentStarts, type SeriesCase } from '../../helpers/independentExpander';

/*
 * expandSeries against an independent RFC 5545 expander (Debian's python3-recurring-ical-events): for every
 * series below, both must find the same occurrences, at the same wall clock of the series' zone and the same
 * UTC instant (ours converted by the app's toUtcSql).
 */

const UNTIL = '2028-12-31 23:59:59';

interface Case extends SeriesCase {
  name: string;
  untilLocal?: string;
}

const rome = (startLocal: string, ...lines: string[]) => ({
  startLocal,
  timezone: 'Europe/Rome',
  allDay: false,
  lines,
});
const newYork = (startLocal: string, ...lines: string[]) => ({
  ...rome(startLocal, ...lines),
  timezone: 'America/New_York',
});
const allDay = (startLocal: string, ...lines: string[]) => ({ ...rome(startLocal, ...lines), allDay: true });

const CASES: Case[] = [
  // Frequencies, intervals and ends
  {
    name: 'daily, COUNT, across the March change',
    ...rome('2026-03-25 19:30:00', 'RRULE:FREQ=DAILY;COUNT=10'),
  },
  {
    name: 'daily every 3 days, UNTIL in UTC',
    ...rome('2026-10-20 08:00:00', 'RRULE:FREQ=DAILY;INTERVAL=3;UNTIL=20261115T070000Z'),
  },
  {
    name: 'weekly on Tuesdays, 8 times, across the October change',
    ...rome('2026-10-13 19:30:00', 'RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=8'),
  },
  {
    name: 'weekly 19:30 for a year, both changes, UNTIL in UTC',
    ...rome('2026-01-06 19:30:00', 'RRULE:FREQ=WEEKLY;UNTIL=20261231T225959Z'),
  },
  {
    name: 'every other week on Tuesday and Thursday',
    ...rome('2026-03-03 18:00:00', 'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;COUNT=10'),
  },
  {
    name: 'weekly, UNTIL as a local date-time',
    ...rome('2026-09-01 19:30:00', 'RRULE:FREQ=WEEKLY;UNTIL=20261110T120000'),
  },
  {
    name: 'weekly, start not on a BYDAY day (the start still counts)',
    ...rome('2026-05-04 10:00:00', 'RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=3'),
  },
  {
    name: 'WKST changes which weeks INTERVAL=2 counts (RFC 5545 example)',
    ...rome('2026-08-04 09:00:00', 'RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU'),
  },
  {
    name: 'monthly on the second Tuesday',
    ...rome('2026-01-13 20:00:00', 'RRULE:FREQ=MONTHLY;BYDAY=2TU;COUNT=12'),
  },
  {
    name: 'monthly on the last Friday, New York',
    ...newYork('2026-01-30 18:00:00', 'RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=12'),
  },
  {
    name: 'monthly on the last day',
    ...rome('2026-01-31 12:00:00', 'RRULE:FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=14'),
  },
  {
    name: 'monthly on the 31st skips shorter months',
    ...rome('2026-01-31 09:00:00', 'RRULE:FREQ=MONTHLY;BYMONTHDAY=31;COUNT=8'),
  },
  {
    name: 'monthly on the last weekday (BYSETPOS=-1)',
    ...rome('2026-01-30 17:00:00', 'RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=12'),
  },
  {
    name: 'every 3 months on the first Monday',
    ...rome('2026-02-02 19:00:00', 'RRULE:FREQ=MONTHLY;INTERVAL=3;BYDAY=1MO;UNTIL=20281231T230000Z'),
  },
  { name: 'yearly', ...rome('2026-04-25 10:00:00', 'RRULE:FREQ=YEARLY;COUNT=3') },
  {
    name: 'monthly from the 31st, no BY parts (short months skipped)',
    ...rome('2026-01-31 19:00:00', 'RRULE:FREQ=MONTHLY;COUNT=7'),
  },
  {
    name: 'yearly on the 15th of every month (BYMONTHDAY only)',
    ...rome('2026-01-15 19:00:00', 'RRULE:FREQ=YEARLY;BYMONTHDAY=15;COUNT=14'),
  },
  {
    name: 'monthly on the 30th and 31st',
    ...rome('2026-01-30 19:00:00', 'RRULE:FREQ=MONTHLY;BYMONTHDAY=30,31;COUNT=12'),
  },
  {
    name: 'yearly in chosen months from the 30th',
    ...rome('2026-01-30 19:00:00', 'RRULE:FREQ=YEARLY;BYMONTH=1,2,3;COUNT=5'),
  },
  {
    name: 'yearly on the DST Sunday itself (last Sunday of March)',
    ...rome('2026-03-29 10:00:00', 'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU;COUNT=3'),
  },
  {
    name: 'yearly in June and December on the 15th',
    ...rome('2026-06-15 19:00:00', 'RRULE:FREQ=YEARLY;BYMONTH=6,12;BYMONTHDAY=15;COUNT=6'),
  },
  {
    name: 'yearly on 29 February (leap years only)',
    ...rome('2024-02-29 12:00:00', 'RRULE:FREQ=YEARLY;COUNT=2'),
  },
  {
    name: 'yearly on days of the year',
    ...rome('2026-01-01 08:00:00', 'RRULE:FREQ=YEARLY;BYYEARDAY=1,100,-1;COUNT=6'),
  },

  {
    name: 'daily on weekdays, start on a Friday',
    ...rome('2026-01-30 19:30:00', 'RRULE:FREQ=DAILY;BYDAY=MO,WE;COUNT=5'),
  },
  {
    name: 'daily on the Sundays of March',
    ...rome('2026-01-30 19:30:00', 'RRULE:FREQ=DAILY;BYMONTH=3;BYDAY=SU;COUNT=6'),
  },
  { name: 'weekly in December only', ...rome('2026-01-30 19:30:00', 'RRULE:FREQ=WEEKLY;BYMONTH=12;COUNT=6') },
  {
    name: 'monthly on the fifth Friday (months without one skipped)',
    ...rome('2026-01-30 19:30:00', 'RRULE:FREQ=MONTHLY;BYDAY=5FR;COUNT=4'),
  },
  {
    name: 'monthly on the first Saturday of January and July',
    ...rome('2026-01-30 19:30:00', 'RRULE:FREQ=MONTHLY;BYMONTH=1,7;BYDAY=1SA;COUNT=4'),
  },
  {
    name: 'yearly on day 366 (leap years)',
    ...rome('2026-01-30 19:30:00', 'RRULE:FREQ=YEARLY;BYYEARDAY=366;COUNT=2'),
  },
  {
    name: 'a rule that never happens leaves the start alone (30 February)',
    ...rome('2026-01-30 19:30:00', 'RRULE:FREQ=YEARLY;BYMONTH=2'),
  },
  {
    name: 'a rule that never happens (first day of the month on a fifth Monday)',
    ...rome('2026-01-30 19:30:00', 'RRULE:FREQ=MONTHLY;BYMONTHDAY=1;BYDAY=5MO'),
  },
  {
    name: 'monthly on Friday the 13th',
    ...newYork('2026-01-30 19:30:00', 'RRULE:FREQ=MONTHLY;BYMONTHDAY=13;BYDAY=FR;COUNT=4'),
  },
  {
    name: 'monthly on the second and last of Mondays and Tuesdays',
    ...newYork('2026-01-30 19:30:00', 'RRULE:FREQ=MONTHLY;BYDAY=MO,TU;BYSETPOS=2,-1;COUNT=6'),
  },
  {
    name: 'monthly on a Monday or Friday among the last two days',
    ...newYork('2026-01-30 19:30:00', 'RRULE:FREQ=MONTHLY;BYMONTHDAY=-1,-2;BYDAY=MO,FR;COUNT=6'),
  },
  {
    name: 'monthly on the first Sunday, as BYMONTHDAY=1..7',
    ...newYork('2026-01-30 19:30:00', 'RRULE:FREQ=MONTHLY;BYDAY=SU;BYMONTHDAY=1,2,3,4,5,6,7;COUNT=4'),
  },
  {
    name: 'every other month on the second-to-last Wednesday',
    ...newYork('2026-01-30 19:30:00', 'RRULE:FREQ=MONTHLY;INTERVAL=2;BYDAY=-2WE;COUNT=5'),
  },
  {
    name: 'yearly on the Mondays of January and June',
    ...newYork('2026-01-30 19:30:00', 'RRULE:FREQ=YEARLY;BYMONTH=1,6;BYDAY=MO;COUNT=6'),
  },
  {
    name: 'yearly on day 100 when it is a Monday',
    ...newYork('2026-01-30 19:30:00', 'RRULE:FREQ=YEARLY;BYYEARDAY=100;BYDAY=MO;COUNT=2'),
  },
  {
    name: 'every 10 days, weekends only',
    ...newYork('2026-01-30 19:30:00', 'RRULE:FREQ=DAILY;INTERVAL=10;BYDAY=SA,SU;COUNT=6'),
  },
  {
    name: 'every third week on Saturday, weeks from Sunday',
    ...newYork('2026-01-30 19:30:00', 'RRULE:FREQ=WEEKLY;INTERVAL=3;BYDAY=SA;WKST=SU;COUNT=4'),
  },
  {
    name: 'all-day, monthly on the last weekday',
    ...allDay('2026-01-30 00:00:00', 'RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=12'),
  },
  {
    name: 'all-day, yearly on the last Sunday of March and October',
    ...allDay('2026-03-29 00:00:00', 'RRULE:FREQ=YEARLY;BYMONTH=3,10;BYDAY=-1SU;COUNT=6'),
  },
  // Added and removed dates
  {
    name: 'EXDATE in the zone, in UTC and as a list',
    ...rome(
      '2026-10-06 19:30:00',
      'RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=8',
      'EXDATE;TZID=Europe/Rome:20261013T193000,20261103T193000',
      'EXDATE:20261117T183000Z',
    ),
  },
  {
    name: 'RDATE in another zone and in UTC, merged in order; one equal to an occurrence',
    ...rome(
      '2026-10-06 19:30:00',
      'RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=4',
      'RDATE;TZID=America/New_York:20261016T120000',
      'RDATE:20261031T090000Z',
      'RDATE;TZID=Europe/Rome:20261020T193000',
    ),
  },
  {
    name: 'RDATE only, no rule',
    ...rome('2026-05-05 20:00:00', 'RDATE;TZID=Europe/Rome:20260512T200000,20260620T180000'),
  },
  {
    name: 'EXDATE removes the start',
    ...rome('2026-09-01 19:30:00', 'RRULE:FREQ=WEEKLY;COUNT=4', 'EXDATE;TZID=Europe/Rome:20260901T193000'),
  },
  // Zones
  {
    name: 'New York weekly across March and November',
    ...newYork('2026-02-24 19:30:00', 'RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20261201T000000Z'),
  },
  {
    name: 'Tokyo (no DST), weekly',
    ...rome('2026-03-02 19:30:00', 'RRULE:FREQ=WEEKLY;COUNT=40'),
    timezone: 'Asia/Tokyo',
  },
  { name: 'UTC, daily', ...rome('2026-03-27 02:30:00', 'RRULE:FREQ=DAILY;COUNT=5'), timezone: 'UTC' },
  {
    name: 'spring-forward gap: 02:30 on the day it does not exist in Rome',
    ...rome('2026-03-27 02:30:00', 'RRULE:FREQ=DAILY;COUNT=5'),
  },
  {
    name: 'spring-forward gap in New York, weekly on Sunday 02:30',
    ...newYork('2026-02-22 02:30:00', 'RRULE:FREQ=WEEKLY;COUNT=4'),
  },
  // All-day series
  {
    name: 'all-day, weekly on Saturday',
    ...allDay('2026-03-21 00:00:00', 'RRULE:FREQ=WEEKLY;BYDAY=SA;COUNT=6'),
  },
  {
    name: 'all-day, monthly on the last day, with EXDATE and RDATE dates',
    ...allDay(
      '2026-01-31 00:00:00',
      'RRULE:FREQ=MONTHLY;BYMONTHDAY=-1;UNTIL=20261231',
      'EXDATE;VALUE=DATE:20260430',
      'RDATE;VALUE=DATE:20260615',
    ),
  },
  {
    name: 'all-day, yearly birthday',
    ...allDay('2026-11-24 00:00:00', 'RRULE:FREQ=YEARLY;INTERVAL=2;COUNT=3'),
  },
  // The window
  {
    name: 'an endless rule stops at the window',
    ...rome('2026-03-03 19:30:00', 'RRULE:FREQ=WEEKLY;BYDAY=TU'),
    untilLocal: '2026-06-30 23:59:59',
  },
  {
    name: 'the window ends at an occurrence (inclusive)',
    ...rome('2026-03-03 19:30:00', 'RRULE:FREQ=DAILY'),
    untilLocal: '2026-03-10 19:30:00',
  },
];

describe('expandSeries matches an independent RFC 5545 expander', () => {
  it.each(CASES)('$name', (series) => {
    const untilLocal = series.untilLocal ?? UNTIL;
    const expected = independentStarts(series, untilLocal);
    const ours = expandSeries(series, { untilLocal });
    expect(ours.length).toBeGreaterThan(0);
    expect(asStarts(series, ours)).toEqual(expected);
  });
});

describe('expandSeries', () => {
  const weekly = rome('2026-10-06 19:30:00', 'RRULE:FREQ=WEEKLY;BYDAY=TU');

  it('keeps 19:30 local time across the March and October changes (the UTC hour moves)', () => {
    const starts = expandSeries(rome('2026-03-17 19:30:00', 'RRULE:FREQ=WEEKLY;COUNT=34'), {
      untilLocal: UNTIL,
    });
    expect(starts).toHaveLength(34);
    expect(new Set(starts.map((start) => start.slice(11)))).toEqual(new Set(['19:30:00']));
    expect(starts.slice(1, 3)).toEqual(['2026-03-24 19:30:00', '2026-03-31 19:30:00']);
    expect(asStarts(weekly, starts.slice(1, 3)).map((start) => start.slice(20))).toEqual([
      '2026-03-24 18:30:00',
      '2026-03-31 17:30:00',
    ]);
  });

  it('stops at `limit`, counting only what EXDATE leaves', () => {
    const series = { ...weekly, lines: [...weekly.lines, 'EXDATE;TZID=Europe/Rome:20261013T193000'] };
    expect(expandSeries(series, { untilLocal: UNTIL, limit: 3 })).toEqual([
      '2026-10-06 19:30:00',
      '2026-10-20 19:30:00',
      '2026-10-27 19:30:00',
    ]);
  });

  it(`never returns more than ${MAX_OCCURRENCES} occurrences, however far the window`, () => {
    const daily = rome('2026-01-01 09:00:00', 'RRULE:FREQ=DAILY');
    const starts = expandSeries(daily, { untilLocal: '9000-01-01 00:00:00' });
    expect(starts).toHaveLength(MAX_OCCURRENCES);
    expect(starts.at(-1)).toBe('2039-09-09 09:00:00');
  });

  it('answers at once for a rule that never happens, however far the window', () => {
    // Every February 30th, and a fifth Monday on the 1st: ical.js alone searched until the year 20000 (4 s).
    for (const rule of ['RRULE:FREQ=YEARLY;BYMONTH=2', 'RRULE:FREQ=MONTHLY;BYMONTHDAY=1;BYDAY=5MO']) {
      const began = Date.now();
      const never = rome('2026-01-30 19:30:00', rule);
      expect(expandSeries(never, { untilLocal: '2200-01-01 00:00:00' })).toEqual(['2026-01-30 19:30:00']);
      expect(Date.now() - began).toBeLessThan(1000);
    }
  });

  it('on a fall-back repeat, has the wall clock the independent expander has; the instant is the earlier one', () => {
    // 02:30 happens twice in Rome on 25 October 2026. dateutil with pytz takes the second (01:30 UTC); the app
    // reads a repeated wall clock as its first instant, as PHP does (toUtcSql), so only the instant differs.
    const series = rome('2026-10-23 02:30:00', 'RRULE:FREQ=DAILY;COUNT=5');
    const ours = asStarts(series, expandSeries(series, { untilLocal: UNTIL }));
    const theirs = independentStarts(series, UNTIL);
    expect(ours.map((start) => start.slice(0, 19))).toEqual(theirs.map((start) => start.slice(0, 19)));
    expect(ours[2]).toBe('2026-10-25 02:30:00|2026-10-25 00:30:00');
    expect(theirs[2]).toBe('2026-10-25 02:30:00|2026-10-25 01:30:00');
    expect(ours.filter((start, i) => start !== theirs[i])).toHaveLength(1);
  });

  it('is empty when the window ends before the start', () => {
    expect(expandSeries(weekly, { untilLocal: '2026-10-06 19:29:59' })).toEqual([]);
  });

  it('gives a single event (no lines) its own start only', () => {
    expect(expandSeries(rome('2026-10-06 19:30:00'), { untilLocal: UNTIL })).toEqual(['2026-10-06 19:30:00']);
  });

  it('reads an EXDATE date on a timed series as that whole day', () => {
    const series = { ...weekly, lines: [...weekly.lines, 'EXDATE;VALUE=DATE:20261013'] };
    expect(expandSeries(series, { untilLocal: '2026-10-31 00:00:00' })).toEqual([
      '2026-10-06 19:30:00',
      '2026-10-20 19:30:00',
      '2026-10-27 19:30:00',
    ]);
  });

  it('adds an RDATE date at the series time of day, and ignores added dates before the start', () => {
    const series = rome('2026-10-06 19:30:00', 'RDATE;VALUE=DATE:20261009', 'RDATE:20261001T120000Z');
    expect(expandSeries(series, { untilLocal: UNTIL })).toEqual([
      '2026-10-06 19:30:00',
      '2026-10-09 19:30:00',
    ]);
  });

  it('reads date-times of an all-day series as their dates in its zone', () => {
    // 23:30 UTC on 10 October is already 11 October in Rome.
    const series = allDay('2026-10-06 00:00:00', 'RRULE:FREQ=DAILY;COUNT=8', 'EXDATE:20261010T233000Z');
    expect(expandSeries(series, { untilLocal: UNTIL })).toEqual([
      '2026-10-06 00:00:00',
      '2026-10-07 00:00:00',
      '2026-10-08 00:00:00',
      '2026-10-09 00:00:00',
      '2026-10-10 00:00:00',
      '2026-10-12 00:00:00',
      '2026-10-13 00:00:00',
    ]);
  });

  it('refuses a malformed start, window or zone (a caller bug, not a user error)', () => {
    expect(() => expandSeries({ ...weekly, startLocal: '2026-10-06T19:30' }, { untilLocal: UNTIL })).toThrow(
      /startLocal "2026-10-06T19:30" is not Y-m-d H:i:s/,
    );
    expect(() => expandSeries(weekly, { untilLocal: '2027' })).toThrow(/untilLocal/);
    expect(() => expandSeries({ ...weekly, timezone: 'Mars/Olympus' }, { untilLocal: UNTIL })).toThrow(
      /not a time zone/,
    );
  });

  it('keeps the whole UNTIL day when UNTIL is a date on a timed series', () => {
    const series = rome('2026-10-06 19:30:00', 'RRULE:FREQ=WEEKLY;UNTIL=20261020');
    expect(expandSeries(series, { untilLocal: UNTIL })).toEqual([
      '2026-10-06 19:30:00',
      '2026-10-13 19:30:00',
      '2026-10-20 19:30:00',
    ]);
  });

  it('merges several RRULE lines as the union of what each gives', () => {
    const tuesdays = 'RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=4';
    const lastFriday = 'RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=3';
    const both = rome('2026-10-06 19:30:00', tuesdays, lastFriday);
    const union = [
      ...independentStarts(rome('2026-10-06 19:30:00', tuesdays), UNTIL),
      ...independentStarts(rome('2026-10-06 19:30:00', lastFriday), UNTIL),
    ];
    const expected = [...new Set(union)].sort((a, b) => a.slice(20).localeCompare(b.slice(20)));
    expect(asStarts(both, expandSeries(both, { untilLocal: UNTIL }))).toEqual(expected);
  });
});
