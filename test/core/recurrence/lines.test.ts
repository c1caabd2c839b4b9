import { describe, expect, it } from 'vitest';
import {
  MAX_RECURRENCE_LINE_LENGTH,
  MAX_RECURRENCE_LINES,
  parseRecurrenceLines,
  recurrenceLinesSchema,
} from '../../../src/main/core/recurrence/lines';

/* The `recurrence` lines a series accepts from outside: normal form for what is valid, a message for the rest. */

describe('parseRecurrenceLines accepts RFC 5545 lines and writes them in normal form', () => {
  it.each([
    [[], []],
    [['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=8'], ['RRULE:FREQ=WEEKLY;COUNT=8;BYDAY=TU']],
    [['rrule:byday=tu,th;freq=weekly;interval=2'], ['RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH']],
    [['RRULE:FREQ=MONTHLY;BYDAY=+2TU'], ['RRULE:FREQ=MONTHLY;BYDAY=2TU']],
    [
      ['RRULE:FREQ=MONTHLY;BYDAY=-1FR;UNTIL=20261231T225959Z'],
      ['RRULE:FREQ=MONTHLY;UNTIL=20261231T225959Z;BYDAY=-1FR'],
    ],
    [['RRULE:FREQ=MONTHLY;BYMONTHDAY=-1'], ['RRULE:FREQ=MONTHLY;BYMONTHDAY=-1']],
    [
      ['RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1'],
      ['RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1'],
    ],
    [['RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU;WKST=MO'], ['RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU;WKST=MO']],
    [['RRULE:FREQ=DAILY;UNTIL=20261215'], ['RRULE:FREQ=DAILY;UNTIL=20261215']],
    [['EXDATE;TZID=Europe/Rome:20261215T193000'], ['EXDATE;TZID=Europe/Rome:20261215T193000']],
    [
      ['EXDATE;tzid="Europe/Rome":20261215T193000,20261222T193000'],
      ['EXDATE;TZID=Europe/Rome:20261215T193000,20261222T193000'],
    ],
    [['EXDATE:20261215T183000Z'], ['EXDATE:20261215T183000Z']],
    [['RDATE;VALUE=DATE:20261224'], ['RDATE;VALUE=DATE:20261224']],
    [['RDATE:20261224'], ['RDATE;VALUE=DATE:20261224']],
    [['RDATE;VALUE=DATE-TIME:20261224T100000'], ['RDATE:20261224T100000']],
    [['EXDATE:20261215T183000Z,20261215T183000Z'], ['EXDATE:20261215T183000Z']],
    [['RRULE:FREQ=DAILY', ' RRULE:FREQ=DAILY '], ['RRULE:FREQ=DAILY']],
  ])('%j → %j', (input, normal) => {
    expect(parseRecurrenceLines(input)).toEqual({ ok: true, lines: normal });
  });

  it('accepts the most lines and the longest line it allows', () => {
    const value = (i: number) =>
      new Date(Date.UTC(2027, 0, 1 + i)).toISOString().slice(0, 10).replaceAll('-', '') + 'T100000Z';
    let longest = 'EXDATE:' + value(0);
    for (let i = 1; longest.length + 17 <= MAX_RECURRENCE_LINE_LENGTH; i++) longest += ',' + value(i);
    const lines = [
      longest,
      ...Array.from({ length: MAX_RECURRENCE_LINES - 1 }, (_, i) => `RDATE:${value(i)}`),
    ];
    const result = parseRecurrenceLines(lines);
    expect(result.ok && result.lines[0].length).toBeGreaterThan(MAX_RECURRENCE_LINE_LENGTH - 17);
  });
});

describe('parseRecurrenceLines refuses what a series cannot represent, saying what to do', () => {
  it.each([
    [
      'RRULE:FREQ=FORTNIGHTLY',
      'Line 1: FREQ=FORTNIGHTLY is not a repetition frequency (use DAILY, WEEKLY, MONTHLY or YEARLY).',
    ],
    [
      'RRULE:FREQ=HOURLY;COUNT=3',
      'Line 1: FREQ=HOURLY repeats within a day, which a series cannot do (use DAILY, WEEKLY, MONTHLY or YEARLY).',
    ],
    ['RRULE:FREQ=MINUTELY', 'Line 1: FREQ=MINUTELY repeats within a day'],
    ['RRULE:FREQ=SECONDLY', 'Line 1: FREQ=SECONDLY repeats within a day'],
    [
      'EXRULE:FREQ=WEEKLY',
      'Line 1: EXRULE is not supported (RFC 5545 retired it): list the dates to skip as EXDATE.',
    ],
    ['RRULE:COUNT=3', 'Line 1: the rule has no FREQ'],
    [
      'RRULE:FREQ=DAILY;COUNT=3;UNTIL=20261231',
      'Line 1: a rule ends either after COUNT times or on an UNTIL date, not both.',
    ],
    ['RRULE:FREQ=DAILY;COUNT=0', 'Line 1: COUNT=0 must be a whole number from 1 to 5000.'],
    ['RRULE:FREQ=DAILY;COUNT=5001', 'Line 1: COUNT=5001 must be a whole number from 1 to 5000.'],
    ['RRULE:FREQ=DAILY;INTERVAL=-2', 'Line 1: INTERVAL=-2 must be a whole number from 1 to 1000.'],
    ['RRULE:FREQ=DAILY;FREQ=WEEKLY', 'Line 1: FREQ appears twice in the rule.'],
    ['RRULE:FREQ=DAILY;UNTIL=2026-12-31', 'Line 1: UNTIL=2026-12-31 is not a date such as 20261215'],
    ['RRULE:FREQ=DAILY;UNTIL=20260230', 'Line 1: UNTIL=20260230 is not a date'],
    [
      'RRULE:FREQ=DAILY;BYHOUR=9,18',
      'Line 1: BYHOUR is not supported: a series repeats at the time of its first event.',
    ],
    [
      'RRULE:FREQ=WEEKLY;BYDAY=2TU',
      'Line 1: BYDAY=2TU numbers a weekday of the month: use FREQ=MONTHLY (or YEARLY with BYMONTH).',
    ],
    [
      'RRULE:FREQ=WEEKLY;BYDAY=TUE',
      'Line 1: BYDAY=TUE is not a list of weekdays such as MO,WE or 2TU or -1FR.',
    ],
    [
      'RRULE:FREQ=MONTHLY;BYDAY=6TU',
      "Line 1: BYDAY=6TU: a weekday's position in a month must be from 1 to 5 or -1 to -5.",
    ],
    [
      'RRULE:FREQ=YEARLY;BYDAY=20MO',
      'Line 1: BYDAY=20MO numbers a weekday of the whole year, which is not supported: add BYMONTH to number it within a month (BYMONTH=3;BYDAY=-1SU is the last Sunday of March).',
    ],
    [
      'RRULE:FREQ=MONTHLY;BYMONTHDAY=1,15,28;BYSETPOS=-1',
      'Line 1: BYSETPOS is supported with FREQ=MONTHLY and BYDAY only (such as BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1, the last weekday of each month).',
    ],
    [
      'RRULE:FREQ=DAILY;BYMONTHDAY=1,-1',
      "Line 1: BYMONTHDAY=1,-1: with FREQ=DAILY days count from the month's start only; for the last day use FREQ=MONTHLY;BYMONTHDAY=-1.",
    ],
    [
      'RRULE:FREQ=YEARLY;BYYEARDAY=100;BYMONTH=4',
      'Line 1: BYYEARDAY cannot be combined with BYMONTH or BYMONTHDAY: use one or the other.',
    ],
    [
      'RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR;BYSETPOS=1',
      'Line 1: BYSETPOS is supported with FREQ=MONTHLY and BYDAY only',
    ],
    [
      'RRULE:FREQ=YEARLY;BYMONTH=3,10;BYDAY=-1SU;BYSETPOS=1',
      'Line 1: BYSETPOS is supported with FREQ=MONTHLY and BYDAY only',
    ],
    ['RRULE:FREQ=WEEKLY;BYMONTHDAY=1', 'Line 1: BYMONTHDAY cannot be used with FREQ=WEEKLY.'],
    ['RRULE:FREQ=MONTHLY;BYMONTHDAY=32', 'Line 1: BYMONTHDAY=32 must list days from 1 to 31'],
    ['RRULE:FREQ=MONTHLY;BYMONTHDAY=0', 'Line 1: BYMONTHDAY=0 must list days from 1 to 31'],
    ['RRULE:FREQ=YEARLY;BYMONTH=13', 'Line 1: BYMONTH=13 must list months from 1 to 12.'],
    [
      'RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30',
      'Line 1: BYMONTHDAY=30 never falls in the months of the rule: it never happens.',
    ],
    ['RRULE:FREQ=MONTHLY;BYSETPOS=1', 'Line 1: BYSETPOS is supported with FREQ=MONTHLY and BYDAY only'],
    ['RRULE:FREQ=MONTHLY;BYYEARDAY=100', 'Line 1: BYYEARDAY can only be used with FREQ=YEARLY.'],
    ['RRULE:FREQ=YEARLY;BYWEEKNO=20', 'Line 1: BYWEEKNO (weeks of the year) is not supported'],
    ['RRULE:FREQ=DAILY;WKST=XX', 'Line 1: WKST=XX is not a weekday'],
    ['RRULE:FREQ=DAILY;X-NAME=1', 'Line 1: X-NAME=1 is not a part of a repetition rule.'],
    ['RRULE;X=1:FREQ=DAILY', 'Line 1: RRULE takes no parameters'],
    ['RRULE:', 'Line 1: RRULE has nothing after the colon.'],
    [
      'DTSTART:20261215T193000',
      'Line 1: DTSTART is not a recurrence line (start it with RRULE:, RDATE or EXDATE).',
    ],
    ['FREQ=WEEKLY', 'Line 1: "FREQ=WEEKLY" is not a recurrence line such as RRULE:FREQ=WEEKLY;COUNT=8.'],
    [
      'EXDATE;TZID=Mars/Olympus:20261215T193000',
      'Line 1: Mars/Olympus is not a time zone (use an IANA name such as Europe/Rome).',
    ],
    [
      'EXDATE;TZID=Europe/Rome:20261215T183000Z',
      'Line 1: 20261215T183000Z is in UTC (Z) and cannot also have a TZID.',
    ],
    ['EXDATE:2026-12-15', 'Line 1: 2026-12-15 is not a date or date-time such as 20261215'],
    [
      'EXDATE;VALUE=DATE:20261215T193000',
      'Line 1: 20261215T193000 has a time of day but the line says VALUE=DATE.',
    ],
    [
      'RDATE;VALUE=PERIOD:20261215T193000Z/PT1H',
      'Line 1: RDATE periods (VALUE=PERIOD) are not supported: give the start dates only.',
    ],
    [
      'RDATE:20261215,20261216T100000',
      'Line 1: the line mixes dates and date-times: put them on separate lines.',
    ],
    ['RDATE;TZID=Europe/Rome:20261215', 'Line 1: dates without a time of day cannot have a TZID.'],
    [
      'RDATE;LANGUAGE=it:20261215',
      'Line 1: the parameter LANGUAGE=it is not supported (use TZID or VALUE=DATE).',
    ],
  ])('%s', (line, message) => {
    const result = parseRecurrenceLines(['RRULE:FREQ=WEEKLY', line].slice(line.startsWith('RRULE') ? 1 : 0));
    const index = line.startsWith('RRULE') ? 0 : 1;
    expect(result).toMatchObject({ ok: false, index });
    if (!result.ok) expect(result.message).toContain(message.replace('Line 1', `Line ${index + 1}`));
  });

  it('refuses a list that is not a list, non-text and empty lines', () => {
    expect(parseRecurrenceLines('RRULE:FREQ=DAILY')).toEqual({
      ok: false,
      index: -1,
      message: 'The repetition must be a list of lines such as ["RRULE:FREQ=WEEKLY;COUNT=8"].',
    });
    expect(parseRecurrenceLines(['RRULE:FREQ=DAILY', 7])).toEqual({
      ok: false,
      index: 1,
      message: 'Line 2 is not text.',
    });
    expect(parseRecurrenceLines(['  '])).toEqual({ ok: false, index: 0, message: 'Line 1 is empty.' });
  });

  it('refuses too many lines, too long a line and too many rules', () => {
    const many = Array.from({ length: MAX_RECURRENCE_LINES + 1 }, () => 'RDATE:20261224T100000Z');
    expect(parseRecurrenceLines(many)).toMatchObject({ ok: false, index: MAX_RECURRENCE_LINES });
    const long = `EXDATE:${Array.from({ length: 200 }, () => '20261215T183000Z').join(',')}`;
    expect(parseRecurrenceLines([long])).toEqual({
      ok: false,
      index: 0,
      message: `Line 1 is longer than ${MAX_RECURRENCE_LINE_LENGTH} characters: split its dates over several lines.`,
    });
    const rules = Array.from({ length: 11 }, (_, i) => `RRULE:FREQ=DAILY;INTERVAL=${i + 1}`);
    expect(parseRecurrenceLines(rules)).toEqual({
      ok: false,
      index: 10,
      message: 'Line 11: a series can have at most 10 RRULE lines.',
    });
  });
});

describe('recurrenceLinesSchema (the API argument)', () => {
  it('gives the normal form, or the message of the first bad line', () => {
    expect(recurrenceLinesSchema.parse(['rrule:freq=weekly;count=8'])).toEqual(['RRULE:FREQ=WEEKLY;COUNT=8']);
    const bad = recurrenceLinesSchema.safeParse(['RRULE:FREQ=WEEKLY', 'RRULE:FREQ=FORTNIGHTLY']);
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({
      code: 'custom',
      message:
        'Line 2: FREQ=FORTNIGHTLY is not a repetition frequency (use DAILY, WEEKLY, MONTHLY or YEARLY).',
    });
    expect(recurrenceLinesSchema.safeParse('RRULE:FREQ=DAILY').error?.issues[0].message).toContain(
      '%s must be a list',
    );
  });
});
