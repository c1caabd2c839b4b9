import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { DateTime } from 'luxon';
import {
  defaultArchiveEnd,
  defaultArchiveStart,
  normaliseFilterDate,
} from '../../src/main/core/dates/archiveWindow';
import {
  dateDetails,
  formatSql,
  fromUtcSql,
  isoWithOffset,
  sqlToDateTime,
  toUtcSql,
  utcSqlNow,
} from '../../src/main/core/dates/sqlDates';
import { isTime, parseDateInput } from '../../src/main/core/dates/strtotime';
import { isValidTimezone, timezoneAbbr, toLuxonZone } from '../../src/main/core/dates/zones';

// The "now" of the recorded samples: Sunday; in New York it is still Saturday 21:15:33 (EST).
const NOW = new Date('2026-11-22T02:15:33Z');
const SUMMER_NOW = new Date('2026-07-01T12:00:00Z'); // Wednesday, EDT in New York

/** Parse and render as 'Y-m-d H:i:s' in the parse zone, or null. */
const local = (input: string | number, zone = 'UTC', now = NOW) => {
  const dt = parseDateInput(input, zone, now);
  return dt && formatSql(dt);
};
/** Parse and render the UTC wall clock, or null. */
const utc = (input: string | number, zone = 'UTC', now = NOW) => {
  const dt = parseDateInput(input, zone, now);
  return dt && formatSql(dt.toUTC());
};

describe('process clock', () => {
  it('runs with TZ=UTC, which the strtotime port computes on', () => {
    expect(process.env.TZ).toBe('UTC');
    expect(new Date(2026, 6, 1).getTimezoneOffset()).toBe(0);
  });

  it('leaves Date.prototype untouched after parsing', () => {
    const before = Date.prototype.getTimezoneOffset;
    parseDateInput('tomorrow 9am EST', 'UTC', NOW);
    parseDateInput('foo', 'UTC', NOW);
    expect(Date.prototype.getTimezoneOffset).toBe(before);
  });
});

describe('parseDateInput: accepted forms (CONTRACT §3)', () => {
  it.each([
    ['tomorrow 9am', '2026-11-23 09:00:00'],
    ['next wednesday 4pm', '2026-11-25 16:00:00'],
    ['next wednesday 5pm', '2026-11-25 17:00:00'],
    ['+5 weeks', '2026-12-27 02:15:33'],
    ['yesterday 23:59', '2026-11-21 23:59:00'],
    ['2018-01-01 4pm', '2018-01-01 16:00:00'],
    ['2018-01-01 16:30:15', '2018-01-01 16:30:15'],
    ['2018-01-01', '2018-01-01 00:00:00'],
    ['2018-01-01T16:30:00', '2018-01-01 16:30:00'],
    ['Tomorrow 9AM', '2026-11-23 09:00:00'],
    ['  tomorrow 9am  ', '2026-11-23 09:00:00'],
    ['now', '2026-11-22 02:15:33'],
    ['today', '2026-11-22 00:00:00'],
    ['tomorrow noon', '2026-11-23 12:00:00'],
    ['1 hour ago', '2026-11-22 01:15:33'],
    ['last monday', '2026-11-16 00:00:00'],
    ['first day of next month', '2026-12-01 02:15:33'],
    ['March 5 2027 10am', '2027-03-05 10:00:00'],
    // PHP: a time before "tomorrow" is reset by it (strtotime manual's own example).
    ['11:00 tomorrow', '2026-11-23 00:00:00'],
    // PHP overflows impossible days instead of rejecting them.
    ['2026-02-30', '2026-03-02 00:00:00'],
  ])('%j → %s', (input, expected) => {
    expect(local(input)).toBe(expected);
  });

  it('follows PHP month overflow for relative months', () => {
    expect(local('next month', 'UTC', new Date('2026-01-31T10:00:00Z'))).toBe('2026-03-03 10:00:00');
  });

  it('reads "next <weekday>" on that weekday as a week later, a bare weekday as today (PHP)', () => {
    const wednesday = new Date('2026-11-25T10:00:00Z');
    expect(local('next wednesday 4pm', 'UTC', wednesday)).toBe('2026-12-02 16:00:00');
    expect(local('wednesday 4pm', 'UTC', wednesday)).toBe('2026-11-25 16:00:00');
    expect(local('next thursday', 'UTC', wednesday)).toBe('2026-11-26 00:00:00');
  });

  it('honours the offset an ISO 8601 or SQL text carries', () => {
    expect(utc('2018-01-01T10:00:00+02:00', 'America/New_York')).toBe('2018-01-01 08:00:00');
    expect(utc('2018-01-01T10:00:00Z', 'America/New_York')).toBe('2018-01-01 10:00:00');
    expect(utc('2018-01-01T10:00:00.250-05:00', 'Asia/Hong_Kong')).toBe('2018-01-01 15:00:00');
    expect(utc('2027-01-01 10:00:00 +0200', 'America/New_York')).toBe('2027-01-01 08:00:00');
    expect(utc('2027-01-01 10:00:00 Europe/Berlin', 'America/New_York')).toBe('2027-01-01 09:00:00');
    expect(utc('2018-01-01 10:00 UTC', 'America/New_York')).toBe('2018-01-01 10:00:00');
    // The result is still expressed in the requested zone.
    expect(local('2018-01-01T10:00:00Z', 'America/New_York')).toBe('2018-01-01 05:00:00');
  });

  it('honours zones named inside relative texts', () => {
    expect(utc('tomorrow 9am UTC', 'America/New_York')).toBe('2026-11-22 09:00:00');
    expect(utc('2018-01-01 10:00:00 EST', 'Europe/Berlin')).toBe('2018-01-01 15:00:00');
    expect(utc('2018-01-01 4pm GMT', 'Asia/Hong_Kong')).toBe('2018-01-01 16:00:00');
  });

  it('reads numbers and digit strings as Unix timestamps', () => {
    expect(utc(1700000000, 'America/New_York')).toBe('2023-11-14 22:13:20');
    expect(utc('1700000000', 'America/New_York')).toBe('2023-11-14 22:13:20');
    expect(local('1700000000', 'America/New_York')).toBe('2023-11-14 17:13:20');
    expect(utc('-100')).toBe('1969-12-31 23:58:20');
    expect(utc(0)).toBe('1970-01-01 00:00:00');
    expect(utc('@1700000000', 'Asia/Hong_Kong')).toBe('2023-11-14 22:13:20');
  });

  it.each([
    'before my birthday',
    'not a strtotime parsable string',
    '',
    '   ',
    'foo',
    '2026-13-01',
    'tomorrow 25:00',
  ])('rejects %j', (input) => {
    expect(parseDateInput(input, 'UTC', NOW)).toBeNull();
    expect(parseDateInput(input, 'America/New_York', NOW)).toBeNull();
  });

  it('rejects non-finite numbers', () => {
    expect(parseDateInput(Number.NaN, 'UTC', NOW)).toBeNull();
    expect(parseDateInput(Number.POSITIVE_INFINITY, 'UTC', NOW)).toBeNull();
  });

  it('throws on an invalid zone', () => {
    expect(() => parseDateInput('tomorrow', 'Mars/Base', NOW)).toThrow();
  });
});

describe('isTime (WordPress is_time)', () => {
  it('accepts timestamps and strtotime texts', () => {
    for (const v of [
      0,
      1700000000,
      -5,
      '1700000000',
      'tomorrow 9am',
      'next wednesday 5pm',
      '+5 weeks',
      'yesterday 23:59',
      '2026-11-22 19:00:00',
      ' 2026-11-22 19:00 ',
      '2026-11-22T19:00:00',
      '2026-11-22',
    ])
      expect(isTime(v)).toBe(true);
  });
  it('rejects unparseable texts and non-strings', () => {
    for (const v of [
      'before my birthday',
      'not a strtotime parsable string',
      '',
      'foo',
      '2026-13-45 25:61:00',
      '   ',
      null,
      undefined,
      true,
      {},
      [],
      NaN,
    ])
      expect(isTime(v)).toBe(false);
  });
});

describe('time zones on create (REFERENCE §5.1)', () => {
  it('reads "tomorrow 9am" on the New York wall clock: 14:00 UTC in winter', () => {
    const dt = parseDateInput('tomorrow 9am', 'America/New_York', NOW)!;
    // Still Saturday evening in New York, so "tomorrow" is Sunday the 22nd.
    expect(formatSql(dt)).toBe('2026-11-22 09:00:00');
    expect(formatSql(dt.toUTC())).toBe('2026-11-22 14:00:00');
  });

  it('reads "tomorrow 9am" on the New York wall clock: 13:00 UTC in summer', () => {
    const dt = parseDateInput('tomorrow 9am', 'America/New_York', SUMMER_NOW)!;
    expect(formatSql(dt)).toBe('2026-07-02 09:00:00');
    expect(formatSql(dt.toUTC())).toBe('2026-07-02 13:00:00');
  });

  it('reads "2018-01-01 4pm" in Asia/Hong_Kong as 08:00 UTC', () => {
    const dt = parseDateInput('2018-01-01 4pm', 'Asia/Hong_Kong', NOW)!;
    expect(formatSql(dt)).toBe('2018-01-01 16:00:00');
    expect(formatSql(dt.toUTC())).toBe('2018-01-01 08:00:00');
  });

  it('counts relative days from the wall clock of the zone', () => {
    expect(local('yesterday 23:59', 'America/New_York')).toBe('2026-11-20 23:59:00');
    expect(local('today', 'Asia/Tokyo')).toBe('2026-11-22 00:00:00');
    expect(local('+5 weeks', 'Asia/Tokyo')).toBe('2026-12-27 11:15:33');
  });

  it('moves a time in a spring-forward gap forward by the gap', () => {
    expect(utc('2027-03-14 02:30:00', 'America/New_York')).toBe('2027-03-14 07:30:00');
    expect(local('2027-03-14 02:30:00', 'America/New_York')).toBe('2027-03-14 03:30:00');
    expect(local('tomorrow 2:30am', 'America/New_York', new Date('2027-03-13T17:00:00Z'))).toBe(
      '2027-03-14 03:30:00',
    );
    expect(formatSql(sqlToDateTime('2027-03-28 02:30:00', 'Europe/Berlin'))).toBe('2027-03-28 03:30:00');
  });

  it('takes the first of the two instants of a fall-back repeat', () => {
    const ny = parseDateInput('2026-11-01 01:30:00', 'America/New_York', NOW)!;
    expect(ny.offset).toBe(-240);
    expect(formatSql(ny.toUTC())).toBe('2026-11-01 05:30:00');
    expect(utc('2026-11-01 1:30am', 'America/New_York')).toBe('2026-11-01 05:30:00');
    expect(toUtcSql('2026-10-25 02:30:00', 'Europe/Berlin')).toBe('2026-10-25 00:30:00');
    expect(toUtcSql('2026-10-25 03:30:00', 'Europe/Berlin')).toBe('2026-10-25 02:30:00');
  });

  it('parses in offset zones', () => {
    expect(utc('tomorrow 9am', 'UTC+5')).toBe('2026-11-23 04:00:00');
    expect(utc('tomorrow 9am', 'UTC-3:30')).toBe('2026-11-22 12:30:00');
    expect(local('tomorrow 9am', 'UTC-3:30')).toBe('2026-11-22 09:00:00');
    expect(utc('2018-01-01 4pm', 'UTC+5.5')).toBe('2018-01-01 10:30:00');
    expect(utc('2018-01-01 4pm', '+02:00')).toBe('2018-01-01 14:00:00');
  });
});

describe('zone strings', () => {
  it.each([
    'America/New_York',
    'Europe/Berlin',
    'UTC',
    'UTC+5',
    'UTC-3:30',
    'UTC+5.5',
    'UTC+5.75',
    'UTC+0',
    '+02:00',
    '-0330',
  ])('%j is valid', (tz) => {
    expect(isValidTimezone(tz)).toBe(true);
  });

  it.each(['', 'Mars/Base', 'UTC+15', 'UTC+5:75', 'UTC+', 'EST+5', 'New York'])('%j is invalid', (tz) => {
    expect(isValidTimezone(tz)).toBe(false);
    expect(() => toLuxonZone(tz)).toThrow(/Invalid time zone/);
  });

  it('maps offsets to fixed Luxon zones', () => {
    expect(toLuxonZone('UTC+5').offset(0)).toBe(300);
    expect(toLuxonZone('UTC-3:30').offset(0)).toBe(-210);
    expect(toLuxonZone('UTC+5.5').offset(0)).toBe(330);
    expect(toLuxonZone('UTC+5.75').offset(0)).toBe(345);
    expect(toLuxonZone('+02:00').offset(0)).toBe(120);
    expect(toLuxonZone('America/New_York').isUniversal).toBe(false);
  });
});

describe('timezoneAbbr', () => {
  const at = (sql: string, tz: string) => timezoneAbbr(tz, sqlToDateTime(sql, tz));
  it('names IANA zones by season', () => {
    expect(at('2027-01-15 12:00:00', 'America/New_York')).toBe('EST');
    expect(at('2027-07-15 12:00:00', 'America/New_York')).toBe('EDT');
    expect(at('2027-03-01 18:00:00', 'Europe/Berlin')).toBe('CET'); // sample 40-create-event-201
    expect(at('2027-07-01 18:00:00', 'Europe/Berlin')).toBe('CEST');
    expect(at('2027-01-15 12:00:00', 'Europe/London')).toBe('GMT');
    expect(at('2027-07-15 12:00:00', 'Europe/London')).toBe('BST');
    expect(at('2027-01-15 12:00:00', 'Australia/Sydney')).toBe('AEDT');
    expect(at('2027-01-15 12:00:00', 'Asia/Kolkata')).toBe('IST');
    expect(at('2027-01-15 12:00:00', 'Asia/Hong_Kong')).toBe('HKT');
  });
  it('uses the numeric tzdata form where no abbreviation exists', () => {
    expect(at('2027-01-15 12:00:00', 'America/Sao_Paulo')).toBe('-03');
    expect(at('2027-01-15 12:00:00', 'Asia/Kathmandu')).toBe('+0545');
  });
  it('names UTC and offset zones', () => {
    expect(at('2026-12-01 08:00:00', 'UTC')).toBe('UTC');
    expect(at('2026-12-01 08:00:00', 'UTC+5')).toBe('UTC+5');
    expect(at('2026-12-01 08:00:00', 'UTC-3:30')).toBe('UTC-3:30');
    expect(at('2026-12-01 08:00:00', 'UTC+0')).toBe('UTC');
  });
});

describe('SQL dates', () => {
  it('builds zero-padded details', () => {
    expect(dateDetails('2017-01-05 14:23:36')).toEqual({
      year: '2017',
      month: '01',
      day: '05',
      hour: '14',
      minutes: '23',
      seconds: '36',
    });
    expect(dateDetails('2027-03-01 08:05:09')).toEqual({
      year: '2027',
      month: '03',
      day: '01',
      hour: '08',
      minutes: '05',
      seconds: '09',
    });
    expect(dateDetails('2027-03-01')).toMatchObject({ day: '01', hour: '00', minutes: '00', seconds: '00' });
    expect(dateDetails('')).toEqual({
      year: '1970',
      month: '01',
      day: '01',
      hour: '00',
      minutes: '00',
      seconds: '00',
    });
  });

  it('converts between zone and UTC wall clocks', () => {
    expect(utcSqlNow(NOW)).toBe('2026-11-22 02:15:33');
    expect(utcSqlNow(new Date('2026-11-22T02:15:33.999Z'))).toBe('2026-11-22 02:15:33');
    expect(utcSqlNow(new Date('0001-01-01T00:00:00Z'))).toBe('0001-01-01 00:00:00');
    expect(toUtcSql('2027-03-01 18:00:00', 'Europe/Berlin')).toBe('2027-03-01 17:00:00');
    expect(toUtcSql('2018-01-01 16:00:00', 'Asia/Hong_Kong')).toBe('2018-01-01 08:00:00');
    expect(toUtcSql('2026-07-02 09:00:00', 'America/New_York')).toBe('2026-07-02 13:00:00');
    expect(toUtcSql('2026-12-01 09:00:00', 'UTC-3:30')).toBe('2026-12-01 12:30:00');
    expect(fromUtcSql('2026-11-22 02:15:33', 'America/New_York')).toBe('2026-11-21 21:15:33');
    expect(fromUtcSql('2026-11-22 02:15:33', 'UTC+5.5')).toBe('2026-11-22 07:45:33');
    expect(fromUtcSql('2026-11-22 02:15:33', 'UTC')).toBe('2026-11-22 02:15:33');
  });

  it("passes WordPress' zero date through", () => {
    expect(fromUtcSql('0000-00-00 00:00:00', 'America/New_York')).toBe('0000-00-00 00:00:00');
    expect(toUtcSql('0000-00-00 00:00:00', 'America/New_York')).toBe('0000-00-00 00:00:00');
  });

  it('reads a wall clock in a zone', () => {
    const dt = sqlToDateTime('2026-12-01 08:00:00', 'America/New_York');
    expect(dt.toUTC().toISO()).toBe('2026-12-01T13:00:00.000Z');
    expect(() => sqlToDateTime('not a date', 'UTC')).toThrow();
  });

  it('renders ISO 8601 with a numeric offset (json_ld)', () => {
    expect(isoWithOffset('2026-12-01 08:00:00', 'UTC')).toBe('2026-12-01T08:00:00+00:00'); // sample 10-event-single
    expect(isoWithOffset('2027-03-01 18:00:00', 'Europe/Berlin')).toBe('2027-03-01T18:00:00+01:00');
    expect(isoWithOffset('2027-07-01 18:00:00', 'America/New_York')).toBe('2027-07-01T18:00:00-04:00');
    expect(isoWithOffset('2027-07-01 18:00:00', 'UTC+5.5')).toBe('2027-07-01T18:00:00+05:30');
  });

  it('formats in the DateTime own zone', () => {
    expect(formatSql(DateTime.fromISO('2026-11-22T02:15:33Z').setZone('Asia/Tokyo'))).toBe(
      '2026-11-22 11:15:33',
    );
  });
});

describe('event archive window (REFERENCE §2.1, §4.4)', () => {
  it('defaults as in the samples for a UTC site (01-namespace-root)', () => {
    expect(defaultArchiveStart(NOW, 'UTC')).toBe('2026-11-21 23:59:00');
    expect(defaultArchiveEnd(NOW)).toBe('2028-11-22 02:15:33');
  });

  it("computes the defaults as PHP's phrases 'yesterday 23:59' and '+24 months' do, at any instant", () => {
    // The defaults are computed directly (no phrase parsed per request): the phrases, as strtotime reads
    // them, are the reference. Leap days and month ends are where month overflow differs from clamping.
    const phrases = (now: Date, zone: string) => ({
      start: formatSql(parseDateInput('yesterday 23:59', 'UTC', now)!.setZone(toLuxonZone(zone))),
      end: formatSql(parseDateInput('+24 months', 'UTC', now)!),
    });
    const direct = (now: Date, zone: string) => ({
      start: defaultArchiveStart(now, zone),
      end: defaultArchiveEnd(now),
    });
    for (const at of ['2028-02-29T12:00:00Z', '2027-01-31T23:59:59Z', '2026-03-01T00:00:00Z']) {
      expect(direct(new Date(at), 'UTC')).toEqual(phrases(new Date(at), 'UTC'));
    }
    expect(defaultArchiveEnd(new Date('2028-02-29T12:00:00Z'))).toBe('2030-03-01 12:00:00');
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1971-01-01T00:00:00Z'),
          max: new Date('2100-12-31T23:59:59Z'),
          noInvalidDate: true,
        }),
        fc.constantFrom(
          'UTC',
          'America/New_York',
          'Asia/Kolkata',
          'Pacific/Chatham',
          'UTC-9:30',
          'Europe/Berlin',
        ),
        (now, zone) => {
          expect(direct(now, zone)).toEqual(phrases(now, zone));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('normalises the defaults inclusively as in the rest_url of 03-events-archive', () => {
    const start = normaliseFilterDate(defaultArchiveStart(NOW, 'UTC'), 'dayStart', false, 'UTC', NOW);
    const end = normaliseFilterDate(defaultArchiveEnd(NOW), 'dayEnd', false, 'UTC', NOW);
    expect(start).toBe('2026-11-21 00:00:00');
    expect(end).toBe('2028-11-22 23:59:59');
  });

  it('renders the default start in a non-UTC site zone (UTC yesterday 23:59 converted)', () => {
    expect(defaultArchiveStart(NOW, 'America/New_York')).toBe('2026-11-21 18:59:00');
    expect(defaultArchiveStart(NOW, 'Asia/Tokyo')).toBe('2026-11-22 08:59:00');
    expect(defaultArchiveStart(NOW, 'UTC+5')).toBe('2026-11-22 04:59:00');
    expect(
      normaliseFilterDate(defaultArchiveStart(NOW, 'Asia/Tokyo'), 'dayStart', false, 'Asia/Tokyo', NOW),
    ).toBe('2026-11-22 00:00:00');
    // The end default is a UTC wall clock whatever the site zone.
    expect(defaultArchiveEnd(NOW)).toBe('2028-11-22 02:15:33');
  });

  it('overflows the end default like PHP on a leap day', () => {
    expect(defaultArchiveEnd(new Date('2028-02-29T10:00:00Z'))).toBe('2030-03-01 10:00:00');
  });

  it('uses only the calendar date in inclusive mode', () => {
    expect(normaliseFilterDate('2018-01-01 15:00:00', 'dayStart', false, 'UTC', NOW)).toBe(
      '2018-01-01 00:00:00',
    );
    expect(normaliseFilterDate('2018-01-01 18:00:00', 'dayEnd', false, 'UTC', NOW)).toBe(
      '2018-01-01 23:59:59',
    );
    expect(normaliseFilterDate('tomorrow 9am', 'dayEnd', false, 'UTC', NOW)).toBe('2026-11-23 23:59:59');
    // In New York "tomorrow" from this instant is the 22nd.
    expect(normaliseFilterDate('tomorrow 9am', 'dayStart', false, 'America/New_York', NOW)).toBe(
      '2026-11-22 00:00:00',
    );
    // A timestamp counts by its date in the site zone.
    const ts = Date.parse('2026-12-01T03:00:00Z') / 1000;
    expect(normaliseFilterDate(ts, 'dayStart', false, 'America/New_York', NOW)).toBe('2026-11-30 00:00:00');
    expect(normaliseFilterDate(String(ts), 'dayEnd', false, 'UTC', NOW)).toBe('2026-12-01 23:59:59');
  });

  it('uses the exact instant in strict mode, reading zone-less input as UTC', () => {
    expect(normaliseFilterDate('2018-01-01 15:00:00', 'dayStart', true, 'UTC', NOW)).toBe(
      '2018-01-01 15:00:00',
    );
    expect(normaliseFilterDate('2018-01-01 18:00:00', 'dayEnd', true, 'UTC', NOW)).toBe(
      '2018-01-01 18:00:00',
    );
    expect(normaliseFilterDate('2018-01-01 15:00:00', 'dayStart', true, 'America/New_York', NOW)).toBe(
      '2018-01-01 10:00:00',
    );
    expect(normaliseFilterDate('2018-01-01T15:00:00+01:00', 'dayEnd', true, 'America/New_York', NOW)).toBe(
      '2018-01-01 09:00:00',
    );
    expect(normaliseFilterDate('tomorrow 9am', 'dayStart', true, 'Asia/Tokyo', NOW)).toBe(
      '2026-11-23 18:00:00',
    );
    const ts = Date.parse('2026-12-01T03:00:00Z') / 1000;
    expect(normaliseFilterDate(ts, 'dayEnd', true, 'America/New_York', NOW)).toBe('2026-11-30 22:00:00');
  });

  it('returns null for unparseable filter values', () => {
    expect(normaliseFilterDate('before my birthday', 'dayStart', false, 'UTC', NOW)).toBeNull();
    expect(normaliseFilterDate('foo', 'dayEnd', true, 'America/New_York', NOW)).toBeNull();
    expect(normaliseFilterDate('', 'dayEnd', false, 'UTC', NOW)).toBeNull();
  });
});

describe('weekday forms the strtotime port lacks', () => {
  const sunday = new Date('2026-11-22T10:00:00Z');
  const at = (text: string, zone = 'Europe/Rome') => {
    const parsed = parseDateInput(text, zone, sunday);
    return parsed ? formatSql(parsed) : null;
  };
  it('reads "<ordinal>|last <weekday> of <month>", at midnight unless a time is given', () => {
    expect(at('first monday of january 2028')).toBe('2028-01-03 00:00:00');
    expect(at('first monday of next month')).toBe('2026-12-07 00:00:00');
    expect(at('last friday of next month')).toBe('2026-12-25 00:00:00');
    expect(at('second tuesday of december 2026 9am')).toBe('2026-12-08 09:00:00');
    expect(at('Third Sunday of March 2027 18:30')).toBe('2027-03-21 18:30:00');
    expect(at('fifth monday of february 2027')).toBeNull();
  });
  it('reads "<weekday> this|next|last week" on Monday-first weeks', () => {
    expect(at('saturday this week')).toBe('2026-11-21 00:00:00');
    expect(at('monday next week')).toBe('2026-11-23 00:00:00');
    expect(at('friday last week 14:30')).toBe('2026-11-13 14:30:00');
  });
});
