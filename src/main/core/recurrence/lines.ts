import { z } from 'zod';
import { isValidTimezone } from '../dates/zones';

/*
 * The `recurrence` lines of a series (RFC 5545, as Google Calendar's API carries them): `RRULE:…` rules, `RDATE…`
 * added dates and `EXDATE…` removed dates. This module checks what comes from outside (the API, imported files),
 * refuses with a message a volunteer can act on what a series cannot represent, and writes the lines in one
 * normal form, so equal series have equal lines. Expansion (expand.ts) reads the same parsed form.
 */

/** At most this many lines per series (a line may list many dates, comma-separated). */
export const MAX_RECURRENCE_LINES = 1000;
/** At most this many characters per line. */
export const MAX_RECURRENCE_LINE_LENGTH = 2000;
/** At most this many RRULE lines per series: each is expanded on its own, then merged. */
export const MAX_RECURRENCE_RULES = 10;
/** The largest COUNT accepted; also the most occurrences a series expands to (expand.ts). */
export const MAX_OCCURRENCES = 5000;
const MAX_INTERVAL = 1000;

/** A date or date-time value of RDATE, EXDATE or UNTIL: `date` 'YYYY-MM-DD', `time` 'HH:MM:SS' or null. */
export interface DateValue {
  date: string;
  time: string | null;
  /** Written with a trailing `Z`: a UTC instant. */
  utc: boolean;
}

export type RecurrenceLine =
  | { kind: 'RRULE'; parts: ReadonlyMap<string, string>; until: DateValue | null }
  | { kind: 'RDATE' | 'EXDATE'; tzid: string | null; values: DateValue[] };

export type RecurrenceLinesResult =
  { ok: true; lines: string[] } | { ok: false; index: number; message: string };

const FREQUENCIES = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'];
const BELOW_DAILY = ['HOURLY', 'MINUTELY', 'SECONDLY'];
const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
/** RRULE parts in the order the normal form writes them (FREQ first, as RFC 5545 recommends). */
const RULE_PARTS = [
  'FREQ',
  'INTERVAL',
  'COUNT',
  'UNTIL',
  'BYMONTH',
  'BYYEARDAY',
  'BYMONTHDAY',
  'BYDAY',
  'BYSETPOS',
  'WKST',
];
const TIME_OF_DAY_PARTS = ['BYHOUR', 'BYMINUTE', 'BYSECOND'];
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]; // February of a leap year

const DATE_VALUE = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/;
const DATE_EXAMPLES = 'such as 20261215, 20261215T193000 or 20261215T183000Z';

/** Thrown inside this module with the text after "Line N: "; caught once per line. */
class LineError extends Error {}

/** Reads `YYYYMMDD[THHMMSS[Z]]`, or null when it is not a real date and time. */
export function parseDateValue(text: string): DateValue | null {
  const m = DATE_VALUE.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, z] = m;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d));
  if (Number(y) < 1000 || new Date(ms).toISOString().slice(0, 10) !== `${y}-${mo}-${d}`) return null;
  if (h !== undefined && (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59)) return null;
  return { date: `${y}-${mo}-${d}`, time: h === undefined ? null : `${h}:${mi}:${s}`, utc: z === 'Z' };
}

/** `YYYYMMDD[THHMMSS[Z]]`, the text form of a date value. */
export function formatDateValue(value: DateValue): string {
  const date = value.date.replaceAll('-', '');
  return value.time === null ? date : `${date}T${value.time.replaceAll(':', '')}${value.utc ? 'Z' : ''}`;
}

/** A comma list of whole numbers each within ±[1, max] (0 never allowed), or null. */
function signedNumbers(text: string, max: number, signed: boolean): number[] | null {
  const items = text.split(',');
  const numbers = items.map((item) => (/^[+-]?\d{1,3}$/.test(item) ? Number(item) : NaN));
  const fits = (n: number) => Number.isInteger(n) && n !== 0 && Math.abs(n) <= max && (signed || n > 0);
  return numbers.every(fits) ? numbers : null;
}

function wholeNumber(name: string, text: string, max: number): void {
  if (!/^\d{1,6}$/.test(text) || Number(text) < 1 || Number(text) > max)
    throw new LineError(`${name}=${text} must be a whole number from 1 to ${max}.`);
}

/** Checks one rule part; returns its normal text. */
function checkRulePart(name: string, text: string, freq: string, given: ReadonlyMap<string, string>): string {
  const hasMonths = given.has('BYMONTH');
  const hasMonthDays = given.has('BYMONTHDAY');
  const hasWeekdays = given.has('BYDAY');
  const numbered = (max: number, signed: boolean, what: string) => {
    const numbers = signedNumbers(text, max, signed);
    if (!numbers) throw new LineError(`${name}=${text} must list ${what}.`);
    return numbers.join(',');
  };
  switch (name) {
    case 'INTERVAL':
      wholeNumber(name, text, MAX_INTERVAL);
      return String(Number(text));
    case 'COUNT':
      wholeNumber(name, text, MAX_OCCURRENCES);
      return String(Number(text));
    case 'UNTIL': {
      const value = parseDateValue(text);
      if (!value) throw new LineError(`UNTIL=${text} is not a date ${DATE_EXAMPLES}.`);
      return formatDateValue(value);
    }
    case 'BYMONTH':
      return numbered(12, false, 'months from 1 to 12');
    case 'BYMONTHDAY':
      if (freq === 'WEEKLY') throw new LineError('BYMONTHDAY cannot be used with FREQ=WEEKLY.');
      // ical.js 2.2.1 ignores negative days in DAILY rules; MONTHLY says the same thing and expands right.
      if (freq === 'DAILY' && text.includes('-'))
        throw new LineError(
          `BYMONTHDAY=${text}: with FREQ=DAILY days count from the month's start only; for the last day use FREQ=MONTHLY;BYMONTHDAY=-1.`,
        );
      return numbered(31, true, "days from 1 to 31 (or -1 to -31, counting back from the month's end)");
    case 'BYYEARDAY':
      if (freq !== 'YEARLY') throw new LineError('BYYEARDAY can only be used with FREQ=YEARLY.');
      // ical.js 2.2.1 finds nothing for these combinations.
      if (hasMonths || hasMonthDays)
        throw new LineError('BYYEARDAY cannot be combined with BYMONTH or BYMONTHDAY: use one or the other.');
      return numbered(366, true, 'days of the year from 1 to 366 (or -1 to -366)');
    case 'BYWEEKNO':
      // ical.js 2.2.1 expands week numbers wrongly (every week after the first match): refused until it is right.
      throw new LineError(
        'BYWEEKNO (weeks of the year) is not supported: use BYMONTH with BYDAY, or list the dates as RDATE.',
      );
    case 'BYSETPOS':
      // ical.js 2.2.1 applies BYSETPOS right only to the weekdays of a month (it ignores it for DAILY, WEEKLY and
      // BYMONTHDAY, and picks per month in YEARLY): refused elsewhere rather than expanded wrongly.
      if (freq !== 'MONTHLY' || !hasWeekdays)
        throw new LineError(
          'BYSETPOS is supported with FREQ=MONTHLY and BYDAY only (such as BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1, the last weekday of each month).',
        );
      return numbered(31, true, 'positions such as 1, 2 or -1 (the last)');
    case 'WKST':
      if (!WEEKDAYS.includes(text)) throw new LineError(`WKST=${text} is not a weekday (use MO, TU, … SU).`);
      return text;
    case 'BYDAY':
      return checkByDay(text, freq, hasMonths);
  }
  if (TIME_OF_DAY_PARTS.includes(name))
    throw new LineError(`${name} is not supported: a series repeats at the time of its first event.`);
  throw new LineError(`${name}=${text} is not a part of a repetition rule.`);
}

/**
 * BYDAY: `MO,WE`, or with a position in the month (`2TU`, `-1FR`) for MONTHLY rules and YEARLY rules with
 * BYMONTH. A position in the whole year (YEARLY;BYDAY=20MO) is refused: ical.js 2.2.1 expands it wrongly.
 */
function checkByDay(text: string, freq: string, hasMonths: boolean): string {
  const items = text.split(',').map((item) => /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/.exec(item));
  if (items.some((m) => m === null))
    throw new LineError(`BYDAY=${text} is not a list of weekdays such as MO,WE or 2TU or -1FR.`);
  const positioned = items.filter((m) => m![1] !== undefined);
  if (positioned.length > 0 && freq !== 'MONTHLY' && freq !== 'YEARLY')
    throw new LineError(
      `BYDAY=${text} numbers a weekday of the month: use FREQ=MONTHLY (or YEARLY with BYMONTH).`,
    );
  if (positioned.length > 0 && freq === 'YEARLY' && !hasMonths)
    throw new LineError(
      `BYDAY=${text} numbers a weekday of the whole year, which is not supported: add BYMONTH to number it within a month (BYMONTH=3;BYDAY=-1SU is the last Sunday of March).`,
    );
  for (const m of positioned) {
    const n = Number(m![1]);
    if (n === 0 || Math.abs(n) > 5)
      throw new LineError(`BYDAY=${text}: a weekday's position in a month must be from 1 to 5 or -1 to -5.`);
  }
  return items.map((m) => (m![1] === undefined ? '' : String(Number(m![1]))) + m![2]).join(',');
}

/** Parses the value of an RRULE line (after `RRULE:`) into its parts, checked and in normal form. */
function parseRule(value: string): Extract<RecurrenceLine, { kind: 'RRULE' }> {
  const given = new Map<string, string>();
  for (const piece of value.split(';')) {
    const m = /^([A-Za-z-]+)=(.+)$/.exec(piece.trim());
    if (!m) throw new LineError(`"${piece}" is not a rule part such as FREQ=WEEKLY or COUNT=8.`);
    const name = m[1]!.toUpperCase();
    if (given.has(name)) throw new LineError(`${name} appears twice in the rule.`);
    given.set(name, m[2]!.toUpperCase());
  }
  const freq = given.get('FREQ');
  if (freq === undefined) throw new LineError('the rule has no FREQ (such as FREQ=WEEKLY).');
  if (BELOW_DAILY.includes(freq))
    throw new LineError(
      `FREQ=${freq} repeats within a day, which a series cannot do (use DAILY, WEEKLY, MONTHLY or YEARLY).`,
    );
  if (!FREQUENCIES.includes(freq))
    throw new LineError(`FREQ=${freq} is not a repetition frequency (use DAILY, WEEKLY, MONTHLY or YEARLY).`);
  if (given.has('COUNT') && given.has('UNTIL'))
    throw new LineError('a rule ends either after COUNT times or on an UNTIL date, not both.');
  const parts = new Map<string, string>([['FREQ', freq]]);
  for (const [name, text] of given)
    if (name !== 'FREQ') parts.set(name, checkRulePart(name, text, freq, given));
  checkPossibleMonthDays(parts);
  const ordered = new Map(
    RULE_PARTS.filter((name) => parts.has(name)).map((name) => [name, parts.get(name)!]),
  );
  const until = ordered.get('UNTIL');
  return { kind: 'RRULE', parts: ordered, until: until === undefined ? null : parseDateValue(until) };
}

/**
 * Refuses BYMONTHDAY days that no month of the rule has (BYMONTH=2;BYMONTHDAY=30): such a rule never happens,
 * and the expanding library would search for it without end.
 */
function checkPossibleMonthDays(parts: ReadonlyMap<string, string>): void {
  const days = parts.get('BYMONTHDAY');
  if (days === undefined) return;
  const months = parts.get('BYMONTH')?.split(',').map(Number) ?? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  const possible = months.some((month) =>
    days.split(',').some((day) => Math.abs(Number(day)) <= DAYS_IN_MONTH[month - 1]!),
  );
  if (!possible)
    throw new LineError(`BYMONTHDAY=${days} never falls in the months of the rule: it never happens.`);
}

/** Parses the parameters and values of an RDATE or EXDATE line. */
function parseDateList(kind: 'RDATE' | 'EXDATE', params: string[], value: string): RecurrenceLine {
  let tzid: string | null = null;
  let valueType = 'DATE-TIME';
  for (const param of params) {
    const m = /^([A-Za-z-]+)=(.+)$/.exec(param);
    const name = m?.[1]!.toUpperCase();
    if (name === 'TZID') {
      tzid = m![2]!.replace(/^"(.*)"$/, '$1');
      if (!isValidTimezone(tzid))
        throw new LineError(`${tzid} is not a time zone (use an IANA name such as Europe/Rome).`);
    } else if (name === 'VALUE') {
      valueType = m![2]!.toUpperCase();
      if (valueType === 'PERIOD')
        throw new LineError(`${kind} periods (VALUE=PERIOD) are not supported: give the start dates only.`);
      if (valueType !== 'DATE' && valueType !== 'DATE-TIME')
        throw new LineError(`VALUE=${m![2]} is not supported (use VALUE=DATE or leave it out).`);
    } else {
      throw new LineError(`the parameter ${param} is not supported (use TZID or VALUE=DATE).`);
    }
  }
  const values: DateValue[] = [];
  // A set, not a search of the values so far: a line of 200 dates would compare each with every other.
  const seen = new Set<string>();
  for (const text of value.split(',')) {
    const parsed = parseDateValue(text.trim().toUpperCase());
    if (!parsed) throw new LineError(`${text} is not a date or date-time ${DATE_EXAMPLES}.`);
    if (parsed.utc && tzid !== null)
      throw new LineError(`${text} is in UTC (Z) and cannot also have a TZID.`);
    if (valueType === 'DATE' && parsed.time !== null)
      throw new LineError(`${text} has a time of day but the line says VALUE=DATE.`);
    const normal = formatDateValue(parsed);
    if (seen.has(normal)) continue;
    seen.add(normal);
    values.push(parsed);
  }
  const dated = values.filter((v) => v.time === null).length;
  if (dated > 0 && dated < values.length)
    throw new LineError('the line mixes dates and date-times: put them on separate lines.');
  if (dated > 0 && tzid !== null) throw new LineError('dates without a time of day cannot have a TZID.');
  return { kind, tzid, values };
}

/** Parses one line (throws LineError). */
function parseLine(line: string): RecurrenceLine {
  const colon = line.indexOf(':');
  if (colon < 0) throw new LineError(`"${line}" is not a recurrence line such as RRULE:FREQ=WEEKLY;COUNT=8.`);
  const [name, ...params] = line.slice(0, colon).split(';');
  const value = line.slice(colon + 1).trim();
  const kind = name!.trim().toUpperCase();
  if (kind === 'EXRULE')
    throw new LineError('EXRULE is not supported (RFC 5545 retired it): list the dates to skip as EXDATE.');
  if (kind !== 'RRULE' && kind !== 'RDATE' && kind !== 'EXDATE')
    throw new LineError(`${name} is not a recurrence line (start it with RRULE:, RDATE or EXDATE).`);
  if (value === '') throw new LineError(`${kind} has nothing after the colon.`);
  if (kind === 'RRULE') {
    if (params.length > 0) throw new LineError('RRULE takes no parameters: write RRULE:FREQ=….');
    return parseRule(value);
  }
  return parseDateList(kind, params, value);
}

/** The normal text of a parsed line. */
export function formatRecurrenceLine(line: RecurrenceLine): string {
  if (line.kind === 'RRULE')
    return `RRULE:${[...line.parts].map(([name, text]) => `${name}=${text}`).join(';')}`;
  const param =
    line.tzid !== null ? `;TZID=${line.tzid}` : line.values[0]?.time === null ? ';VALUE=DATE' : '';
  return `${line.kind}${param}:${line.values.map(formatDateValue).join(',')}`;
}

/**
 * Parses lines already known to be valid (stored, or checked by parseRecurrenceLines) for expansion; throws on
 * an invalid line, which would be a bug of the caller.
 */
export function readRecurrenceLines(lines: readonly string[]): RecurrenceLine[] {
  return lines.map((line, index) => {
    try {
      return parseLine(line);
    } catch (error) {
      if (error instanceof LineError)
        throw new Error(`Invalid recurrence line ${index + 1}: ${error.message}`);
      throw error;
    }
  });
}

const refuse = (index: number, message: string): RecurrenceLinesResult => ({ ok: false, index, message });

/**
 * Checks the `recurrence` of a series from outside: an array of RFC 5545 lines. Returns them in normal form
 * (upper case, FREQ first, `;VALUE=DATE` for dates, duplicates dropped), or the first problem: `index` is the
 * line's position (0-based; -1 for the list itself) and `message` says, from "Line N: ", what to change.
 */
export function parseRecurrenceLines(lines: unknown): RecurrenceLinesResult {
  if (!Array.isArray(lines))
    return refuse(-1, 'The repetition must be a list of lines such as ["RRULE:FREQ=WEEKLY;COUNT=8"].');
  if (lines.length > MAX_RECURRENCE_LINES)
    return refuse(
      MAX_RECURRENCE_LINES,
      `The repetition has ${lines.length} lines; at most ${MAX_RECURRENCE_LINES} are accepted (one EXDATE or RDATE line can list several dates, comma-separated).`,
    );
  const normal: string[] = [];
  let rules = 0;
  for (const [index, line] of lines.entries()) {
    const label = `Line ${index + 1}`;
    if (typeof line !== 'string') return refuse(index, `${label} is not text.`);
    if (line.trim() === '') return refuse(index, `${label} is empty.`);
    if (line.length > MAX_RECURRENCE_LINE_LENGTH)
      return refuse(
        index,
        `${label} is longer than ${MAX_RECURRENCE_LINE_LENGTH} characters: split its dates over several lines.`,
      );
    let parsed: RecurrenceLine;
    try {
      parsed = parseLine(line.trim());
    } catch (error) {
      if (error instanceof LineError) return refuse(index, `${label}: ${error.message}`);
      throw error;
    }
    if (parsed.kind === 'RRULE' && ++rules > MAX_RECURRENCE_RULES)
      return refuse(index, `${label}: a series can have at most ${MAX_RECURRENCE_RULES} RRULE lines.`);
    const text = formatRecurrenceLine(parsed);
    if (!normal.includes(text)) normal.push(text);
  }
  return { ok: true, lines: normal };
}

/**
 * The `recurrence` argument of the API: the lines in normal form, or a 400 with parseRecurrenceLines' message.
 * One schema for the argument check and the documentation.
 */
export const recurrenceLinesSchema = z
  .array(z.string({ error: '%s must be a list of text lines.' }), {
    error: '%s must be a list of RFC 5545 lines such as ["RRULE:FREQ=WEEKLY;COUNT=8"].',
  })
  .transform((lines, context) => {
    const result = parseRecurrenceLines(lines);
    if (result.ok) return result.lines;
    context.addIssue({ code: 'custom', message: result.message });
    return z.NEVER;
  })
  .describe(
    `The repetition of a series as RFC 5545 lines: RRULE (FREQ DAILY, WEEKLY, MONTHLY or YEARLY), RDATE (added dates) and EXDATE (removed dates), e.g. ["RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=8", "EXDATE;TZID=Europe/Rome:20261215T193000"]; [] for a single event. At most ${MAX_RECURRENCE_LINES} lines of ${MAX_RECURRENCE_LINE_LENGTH} characters; stored in normal form (upper case, FREQ first).`,
  );
