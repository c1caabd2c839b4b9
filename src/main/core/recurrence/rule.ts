import ICAL from 'ical.js';

/*
 * One RRULE expanded by ical.js's recurrence iterator on a floating wall clock (no zone, so no DST jumps), with
 * the corrections RFC 5545 needs where ical.js 2.2.1 strays from it (checked against dateutil in the tests):
 * it carries a day a month does not have into the next month (30 February → 2 March) instead of skipping it, and
 * a YEARLY rule with only BYMONTHDAY stays in the start's month instead of repeating in every month.
 */

/** 'Y-m-d H:i:s' wall clock (all-day: 'Y-m-d 00:00:00'). */
export type Wall = string;

/** Every occurrence ical.js yields counts against this, so no rule can keep the loop going without end. */
const MAX_ITERATIONS = 50_000;
const ALL_MONTHS = '1,2,3,4,5,6,7,8,9,10,11,12';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function wallOfTime(time: ICAL.Time, allDay: boolean): Wall {
  const date = `${pad(time.year, 4)}-${pad(time.month)}-${pad(time.day)}`;
  return allDay ? `${date} 00:00:00` : `${date} ${pad(time.hour)}:${pad(time.minute)}:${pad(time.second)}`;
}

/** A floating (zone-less) ical.js time of a wall clock; a date when `allDay`. */
function floatingTime(wall: Wall, allDay: boolean): ICAL.Time {
  const [year, month, day, hour, minute, second] = wall.split(/[- :]/).map(Number);
  return allDay
    ? ICAL.Time.fromData({ year, month, day, isDate: true })
    : ICAL.Time.fromData({ year, month, day, hour, minute, second, isDate: false });
}

/**
 * The rule with what its start implies written out, as RFC 5545 reads it (and dateutil does): a MONTHLY rule
 * without BY… day parts repeats on the start's day of the month, a YEARLY one on the start's month and day; a
 * YEARLY rule with only BYMONTHDAY repeats in every month.
 */
function explicitParts(parts: ReadonlyMap<string, string>, startLocal: Wall): Map<string, string> {
  const freq = parts.get('FREQ');
  const explicit = new Map(parts);
  if (freq !== 'MONTHLY' && freq !== 'YEARLY') return explicit;
  const dayParts = ['BYWEEKNO', 'BYYEARDAY', 'BYMONTHDAY', 'BYDAY'];
  if (!dayParts.some((name) => parts.has(name))) {
    if (freq === 'YEARLY' && !parts.has('BYMONTH'))
      explicit.set('BYMONTH', String(Number(startLocal.slice(5, 7))));
    explicit.set('BYMONTHDAY', String(Number(startLocal.slice(8, 10))));
  } else if (freq === 'YEARLY' && parts.has('BYMONTHDAY') && !parts.has('BYMONTH') && !parts.has('BYDAY')) {
    explicit.set('BYMONTH', ALL_MONTHS);
  }
  return explicit;
}

const numbers = (list: string | undefined) => (list === undefined ? null : list.split(',').map(Number));
// As ical.js' dayOfWeek() numbers them.
const WEEKDAY_NUMBERS: Record<string, number> = { SU: 1, MO: 2, TU: 3, WE: 4, TH: 5, FR: 6, SA: 7 };

/**
 * A check that an occurrence ical.js yields really has the month, day of the month and weekday its rule asks
 * for. It drops carried days (30 February yielded as 2 March) and a start that does not match the rule, which
 * ical.js yields first for DAILY rules (RFC 5545 and dateutil count the start, but not as one of COUNT).
 * Numbered weekdays (2TU) are left to ical.js.
 */
function occurrenceCheck(parts: ReadonlyMap<string, string>): (time: ICAL.Time) => boolean {
  const months = numbers(parts.get('BYMONTH'));
  const monthDays = numbers(parts.get('BYMONTHDAY'));
  const byDay = parts.get('BYDAY')?.split(',');
  const weekdays = byDay?.every((day) => day.length === 2) ? byDay.map((day) => WEEKDAY_NUMBERS[day]) : null;
  return (time) => {
    if (months && !months.includes(time.month)) return false;
    if (weekdays && !weekdays.includes(time.dayOfWeek())) return false;
    if (!monthDays) return true;
    const length = ICAL.Time.daysInMonth(time.month, time.year);
    return monthDays.some((day) => (day > 0 ? day : length + 1 + day) === time.day);
  };
}

/**
 * The starts one rule gives from `startLocal` up to `untilLocal` (inclusive), at most `most` of them. The
 * start itself is among them only when the rule matches it. `ruleUntil` is the rule's UNTIL as a wall clock.
 */
export function ruleStarts(
  parts: ReadonlyMap<string, string>,
  start: { startLocal: Wall; allDay: boolean; ruleUntil: Wall | null },
  untilLocal: Wall,
  most: number,
): Wall[] {
  const explicit = explicitParts(parts, start.startLocal);
  // COUNT is applied here, after dropping the carried days ical.js would have counted.
  const count = explicit.has('COUNT') ? Number(explicit.get('COUNT')) : Infinity;
  explicit.delete('COUNT');
  explicit.delete('UNTIL');
  const recur = ICAL.Recur.fromString([...explicit].map(([name, text]) => `${name}=${text}`).join(';'));
  // The window's end is the iterator's UNTIL too: ical.js searches for a YEARLY rule's first match up to UNTIL's
  // year (else up to the year 20000, seconds for a rule that never matches).
  const until = start.ruleUntil !== null && start.ruleUntil < untilLocal ? start.ruleUntil : untilLocal;
  recur.until = floatingTime(until, start.allDay);
  const starts: Wall[] = [];
  const wanted = Math.min(count, most);
  const matches = occurrenceCheck(explicit);
  let iterations = 0;
  try {
    const iterator = recur.iterator(floatingTime(start.startLocal, start.allDay));
    for (let next = iterator.next(); next && starts.length < wanted; next = iterator.next()) {
      if (++iterations > MAX_ITERATIONS) break;
      if (!matches(next)) continue;
      starts.push(wallOfTime(next, start.allDay));
    }
  } catch {
    // ical.js gives up with an error when a rule finds no date for 4 years (MONTHLY;BYMONTHDAY=1;BYDAY=5MO can
    // never happen): the rule has no further occurrences, as RFC 5545 says of a rule that matches nothing.
  }
  return starts;
}
