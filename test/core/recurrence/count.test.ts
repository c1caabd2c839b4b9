import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { occurrenceBound, occurrenceCount } from '../../../src/main/core/recurrence/count';
import { parseRecurrenceLines } from '../../../src/main/core/recurrence/lines';

// An import counts its series from their rules before making any (issue 26 item 3): the bound must never be
// below what the series then makes, or a file over the budget would get in.

const HORIZON = '2028-12-01 09:00:00';

const rule = fc
  .record({
    freq: fc.constantFrom('DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'),
    interval: fc.integer({ min: 1, max: 5 }),
    end: fc.oneof(
      fc.constant(''),
      fc.integer({ min: 1, max: 5000 }).map((count) => `;COUNT=${count}`),
      fc
        .date({
          min: new Date('2026-01-01T00:00:00Z'),
          max: new Date('2030-12-31T00:00:00Z'),
          noInvalidDate: true,
        })
        .map((date) => `;UNTIL=${date.toISOString().slice(0, 10).replaceAll('-', '')}T235959Z`),
    ),
    by: fc.constantFrom('', ';BYDAY=MO,WE,FR', ';BYMONTHDAY=1,15,-1', ';BYDAY=2TU', ';BYMONTH=3,9'),
  })
  .map(({ freq, interval, end, by }) => `RRULE:FREQ=${freq};INTERVAL=${interval}${end}${by}`);

describe('occurrenceBound', () => {
  it('is never below the events a series makes up to the horizon', () => {
    fc.assert(
      fc.property(
        fc.array(rule, { minLength: 1, maxLength: 3 }),
        fc.constantFrom(
          '2026-03-29 02:30:00',
          '2027-01-05 10:00:00',
          '2028-11-30 23:00:00',
          '2020-02-29 09:00:00',
        ),
        fc.boolean(),
        fc.constantFrom([], ['RDATE:20270301T100000,20270302T100000'], ['EXDATE:20270106T100000']),
        (rules, startLocal, allDay, extra) => {
          const checked = parseRecurrenceLines([...rules, ...extra]);
          if (!checked.ok) return;
          const pattern = {
            startLocal: allDay ? `${startLocal.slice(0, 10)} 00:00:00` : startLocal,
            timezone: 'Europe/Rome',
            allDay,
            lines: checked.lines,
          };
          expect(occurrenceBound(pattern, HORIZON)).toBeGreaterThanOrEqual(occurrenceCount(pattern, HORIZON));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('is close to the count for the rules hostile files use: a long COUNT, an UNTIL', () => {
    const daily = {
      startLocal: '2027-01-05 10:00:00',
      timezone: 'UTC',
      allDay: false,
      lines: ['RRULE:FREQ=DAILY;COUNT=5000'],
    };
    expect(occurrenceCount(daily, HORIZON)).toBe(696);
    expect(occurrenceBound(daily, HORIZON)).toBe(698);
    const weekly = { ...daily, lines: ['RRULE:FREQ=WEEKLY;UNTIL=20271231T235959Z'] };
    expect(occurrenceCount(weekly, HORIZON)).toBe(52);
    expect(occurrenceBound(weekly, HORIZON)).toBe(53);
    // Past the per-series ceiling: a series never makes 5000 events or more (the write refuses it).
    const long = { ...daily, startLocal: '2010-01-01 10:00:00' };
    expect(occurrenceBound(long, HORIZON)).toBe(5000);
  });
});
