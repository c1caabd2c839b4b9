import { expandSeries, type SeriesPattern } from './expand';
import { MAX_OCCURRENCES, readRecurrenceLines } from './lines';

/*
 * How many events a series makes, counted without making them (issue 26 item 3): an import adds up its series
 * before it writes any, so a file of a thousand endless rules is refused before it costs anything. The bound
 * reads only each rule's COUNT, UNTIL, FREQ and INTERVAL and the horizon; it is never below what the series
 * then makes (a series makes at most one event a day from its rules, as they have no time-of-day parts, plus
 * its RDATEs, and never MAX_OCCURRENCES or more).
 */

const DAY_MS = 86_400_000;
const dayNumber = (date: string) => Math.floor(Date.parse(`${date.slice(0, 10)}T00:00:00Z`) / DAY_MS);

/** A rule's periods (of FREQ × INTERVAL) that start within `days` days, when its parts add no dates in one. */
function periodsWithin(parts: ReadonlyMap<string, string>, days: number): number | null {
  const interval = Number(parts.get('INTERVAL') ?? 1);
  const freq = parts.get('FREQ');
  const adding = ['BYMONTH', 'BYYEARDAY', 'BYMONTHDAY', 'BYDAY', 'BYSETPOS'].some((name) => parts.has(name));
  if (freq === 'DAILY') return Math.floor(days / interval) + 1;
  if (adding) return null;
  if (freq === 'WEEKLY') return Math.floor(days / (7 * interval)) + 1;
  // A month is at least 28 days, a year at least 365.
  if (freq === 'MONTHLY') return Math.floor(days / (28 * interval)) + 1;
  if (freq === 'YEARLY') return Math.floor(days / (365 * interval)) + 1;
  return null;
}

/**
 * At most how many events `pattern` makes up to `untilLocal` (the horizon, as the series' wall clock), without
 * expanding it: cheap, and never fewer than {@link expandSeries} gives (at most MAX_OCCURRENCES).
 */
export function occurrenceBound(pattern: SeriesPattern, untilLocal: string): number {
  const end = untilLocal < pattern.startLocal ? pattern.startLocal : untilLocal;
  let fromRules = 0;
  let added = 0;
  for (const line of readRecurrenceLines(pattern.lines)) {
    if (line.kind === 'RDATE') added += line.values.length;
    if (line.kind !== 'RRULE') continue;
    // UNTIL may be in another zone than the series: a day more is never too few.
    const last = line.until && line.until.date < end ? dayNumber(line.until.date) + 1 : dayNumber(end);
    const days = Math.max(0, last - dayNumber(pattern.startLocal));
    const count = Number(line.parts.get('COUNT') ?? Infinity);
    fromRules += Math.min(count, periodsWithin(line.parts, days) ?? days + 1, days + 1);
  }
  // The start itself, each rule's dates (one a day at most, whatever the rules), each added date.
  const days = dayNumber(end) - dayNumber(pattern.startLocal) + 1;
  return Math.min(MAX_OCCURRENCES, 1 + Math.min(fromRules, days) + added);
}

/** How many events `pattern` makes up to `untilLocal`, expanded (as the series' write does; costly). */
export function occurrenceCount(pattern: SeriesPattern, untilLocal: string): number {
  const end = untilLocal < pattern.startLocal ? pattern.startLocal : untilLocal;
  return expandSeries(pattern, { untilLocal: end }).length;
}
