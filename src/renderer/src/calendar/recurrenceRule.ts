import { DateTime } from 'luxon';

/**
 * The editor's Repeat control ↔ the RFC 5545 lines of a series (`recurrence` on the wire). The control shows
 * the rules a volunteer builds with it (daily, weekly on chosen days, monthly by date or by weekday, yearly,
 * every N, ends never / after N times / on a date); any other RRULE is a "custom rule", kept as it is. Lines
 * the control does not show (EXDATE, RDATE) are kept through every change of the rule.
 */

export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export type Frequency = 'never' | 'daily' | 'weekly' | 'monthly' | 'yearly';
/** Monthly on the start's day of the month, on its nth weekday (2nd Tuesday), or on the last such weekday. */
export type MonthlyBy = 'date' | 'weekday' | 'lastWeekday';
export type RepeatEnd = 'never' | 'count' | 'until';

export interface RepeatChoice {
  frequency: Frequency;
  /** Every N days, weeks, months or years. */
  interval: number;
  /** Weekly: the days it takes place on. */
  weekdays: Weekday[];
  monthlyBy: MonthlyBy;
  ends: RepeatEnd;
  /** Ends after this many occurrences. */
  count: number;
  /** Ends on this day (`YYYY-MM-DD`, in the event's time zone), included. */
  until: string;
}

/** When the series starts: the event's own start, as the editor holds it. */
export interface SeriesStart {
  /** `YYYY-MM-DD` */
  date: string;
  /** `HH:mm` */
  time: string;
  allDay: boolean;
  timezone: string;
}

/** What the control makes of a series' lines: a choice it can show, or a custom rule it keeps untouched. */
export type RepeatState =
  { kind: 'choice'; choice: RepeatChoice; kept: string[] } | { kind: 'custom'; lines: string[] };

/** A day of the week of a date (`YYYY-MM-DD`), as RFC 5545 names it. */
export function weekdayOf(date: string): Weekday {
  return WEEKDAYS[DateTime.fromISO(date, { zone: 'utc' }).weekday - 1]!;
}

/** Which of its weekdays in the month a date is (1–5), and whether it is the last one. */
export function weekdayPosition(date: string): { nth: number; last: boolean } {
  const day = DateTime.fromISO(date, { zone: 'utc' });
  return { nth: Math.ceil(day.day / 7), last: day.day + 7 > (day.daysInMonth ?? 31) };
}

/** What a new event's Repeat starts as once a frequency is picked: every 1, on the start's day, no end. */
export function defaultChoice(
  start: Pick<SeriesStart, 'date'>,
  frequency: Frequency = 'never',
): RepeatChoice {
  const base = DateTime.fromISO(start.date, { zone: 'utc' });
  return {
    frequency,
    interval: 1,
    weekdays: start.date ? [weekdayOf(start.date)] : [],
    monthlyBy: 'date',
    ends: 'never',
    count: 10,
    until: base.isValid ? (base.plus({ months: 3 }).toISODate() as string) : '',
  };
}

/** `FREQ=WEEKLY;BYDAY=TU` → {FREQ: 'WEEKLY', BYDAY: 'TU'}; null when a part is malformed or repeated. */
function ruleParts(rule: string): Map<string, string> | null {
  const parts = new Map<string, string>();
  for (const part of rule.split(';')) {
    const match = /^([A-Z]+)=([^;=]+)$/.exec(part.trim().toUpperCase());
    const [, name, value] = match ?? [];
    if (!name || !value || parts.has(name)) return null;
    parts.set(name, value);
  }
  return parts;
}

/** The day an UNTIL names, in the event's zone (`20270131`, `20270131T183000`, `20270131T225959Z`). */
function untilDate(value: string, timezone: string): string | null {
  const match = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/.exec(value);
  if (!match) return null;
  const [, year = '', month = '', day = '', hour, minute = '', second = '', utc] = match;
  if (!hour) return `${year}-${month}-${day}`;
  const moment = DateTime.fromObject(
    { year: +year, month: +month, day: +day, hour: +hour, minute: +minute, second: +second },
    { zone: utc ? 'utc' : timezone },
  );
  return moment.isValid ? (moment.setZone(timezone).toISODate() as string) : null;
}

const POSITIVE = /^[1-9]\d{0,3}$/;

/** The choice an RRULE value (after `RRULE:`) stands for, or null when the control cannot show it as it is. */
function choiceOfRule(rule: string, start: SeriesStart): RepeatChoice | null {
  const parts = ruleParts(rule);
  if (!parts) return null;
  const frequency = { DAILY: 'daily', WEEKLY: 'weekly', MONTHLY: 'monthly', YEARLY: 'yearly' }[
    parts.get('FREQ') ?? ''
  ] as Frequency | undefined;
  if (!frequency) return null;
  const choice = defaultChoice(start, frequency);
  const known = new Set(['FREQ', 'INTERVAL', 'COUNT', 'UNTIL']);
  const interval = parts.get('INTERVAL');
  if (interval !== undefined) {
    if (!POSITIVE.test(interval)) return null;
    choice.interval = Number(interval);
  }
  const count = parts.get('COUNT');
  const until = parts.get('UNTIL');
  if (count !== undefined && until !== undefined) return null;
  if (count !== undefined) {
    if (!POSITIVE.test(count)) return null;
    [choice.ends, choice.count] = ['count', Number(count)];
  }
  if (until !== undefined) {
    const day = untilDate(until, start.timezone);
    if (!day) return null;
    [choice.ends, choice.until] = ['until', day];
  }
  const byDay = parts.get('BYDAY');
  const byMonthDay = parts.get('BYMONTHDAY');
  const startDay = DateTime.fromISO(start.date, { zone: 'utc' });
  if (frequency === 'weekly') {
    known.add('BYDAY');
    // Monday as the first day of the week changes nothing the control shows.
    if (parts.get('WKST') === 'MO') known.add('WKST');
    if (byDay !== undefined) {
      const days = byDay.split(',');
      if (!days.every((day): day is Weekday => (WEEKDAYS as readonly string[]).includes(day))) return null;
      choice.weekdays = WEEKDAYS.filter((day) => days.includes(day));
    }
  } else if (frequency === 'monthly') {
    if (byDay !== undefined && byMonthDay === undefined) {
      known.add('BYDAY');
      const match = /^([+-]?\d)(MO|TU|WE|TH|FR|SA|SU)$/.exec(byDay);
      const position = weekdayPosition(start.date);
      if (!match || match[2] !== weekdayOf(start.date)) return null;
      const nth = Number(match[1]);
      if (nth === -1 && position.last) choice.monthlyBy = 'lastWeekday';
      else if (nth === position.nth) choice.monthlyBy = 'weekday';
      else return null;
    } else if (byMonthDay !== undefined && byDay === undefined) {
      known.add('BYMONTHDAY');
      if (Number(byMonthDay) !== startDay.day || !POSITIVE.test(byMonthDay)) return null;
    }
  } else if (frequency === 'yearly') {
    const byMonth = parts.get('BYMONTH');
    if (byMonth !== undefined) {
      known.add('BYMONTH');
      if (Number(byMonth) !== startDay.month || !POSITIVE.test(byMonth)) return null;
    }
    if (byMonthDay !== undefined) {
      known.add('BYMONTHDAY');
      if (Number(byMonthDay) !== startDay.day || !POSITIVE.test(byMonthDay)) return null;
    }
  }
  return [...parts.keys()].every((name) => known.has(name)) ? choice : null;
}

const isRule = (line: string) => /^RRULE:/i.test(line);

/** The control's view of a series' lines (`[]`: does not repeat), for a series starting at `start`. */
export function readRecurrence(lines: readonly string[], start: SeriesStart): RepeatState {
  const rules = lines.filter(isRule);
  const kept = lines.filter((line) => !isRule(line));
  if (rules.length === 0 && kept.length === 0) return { kind: 'choice', choice: defaultChoice(start), kept };
  // Several rules, or dates without a rule: shown as they are, never rewritten by the control.
  if (rules.length !== 1) return { kind: 'custom', lines: lines.slice() };
  const choice = choiceOfRule(rules[0]!.slice('RRULE:'.length), start);
  return choice ? { kind: 'choice', choice, kept } : { kind: 'custom', lines: lines.slice() };
}

/** The UNTIL of a series ending on `day`: a date for all-day series, else the end of that day in UTC. */
function untilValue(day: string, start: SeriesStart): string {
  if (start.allDay) return day.replaceAll('-', '');
  // RFC 5545: with a start in a time zone, UNTIL is in UTC; the whole last day (its zone's) is included.
  const end = DateTime.fromISO(day, { zone: start.timezone }).endOf('day').set({ millisecond: 0 });
  return end.toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'");
}

/**
 * The RRULE line of a choice, for a series starting at `start`; null for "does not repeat". Its parts are in
 * the order the API writes them (FREQ, INTERVAL, COUNT, UNTIL, BY…), so a rule saved reads back the same.
 */
export function ruleOfChoice(choice: RepeatChoice, start: SeriesStart): string | null {
  if (choice.frequency === 'never') return null;
  const parts = [`FREQ=${choice.frequency.toUpperCase()}`];
  if (choice.interval > 1) parts.push(`INTERVAL=${Math.floor(choice.interval)}`);
  if (choice.ends === 'count') parts.push(`COUNT=${Math.max(1, Math.floor(choice.count))}`);
  if (choice.ends === 'until' && choice.until) parts.push(`UNTIL=${untilValue(choice.until, start)}`);
  if (choice.frequency === 'weekly') {
    const days = choice.weekdays.length ? choice.weekdays : [weekdayOf(start.date)];
    parts.push(`BYDAY=${WEEKDAYS.filter((day) => days.includes(day)).join(',')}`);
  } else if (choice.frequency === 'monthly' && choice.monthlyBy !== 'date') {
    const nth = choice.monthlyBy === 'lastWeekday' ? -1 : weekdayPosition(start.date).nth;
    parts.push(`BYDAY=${nth}${weekdayOf(start.date)}`);
  }
  return `RRULE:${parts.join(';')}`;
}

/**
 * The lines to store for the control's state: the rule first, then the lines kept (EXDATE, RDATE). "Does not
 * repeat" is `[]`: a single event has no removed or added dates either.
 */
export function writeRecurrence(state: RepeatState, start: SeriesStart): string[] {
  if (state.kind === 'custom') return state.lines.slice();
  const rule = ruleOfChoice(state.choice, start);
  return rule ? [rule, ...state.kept] : [];
}

/** A custom rule replaced by a choice in the control: its dates added or removed stay with the series. */
export function keptLines(lines: readonly string[]): string[] {
  return lines.filter((line) => !isRule(line));
}

/** Whether two lists of lines say the same (an unchanged Repeat is not sent again). */
export function sameRecurrence(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, index) => line === b[index]);
}
