import type { CalendarEvent } from '../api/records';
import { CachedNamedTimeZone } from './zonePlugin';
import { calendarTitle } from './dates';

/** How many events a month's day shows in full; the rest are behind "+N more" (FullCalendar's dayMaxEvents). */
export const DAY_MAX_EVENTS = 4;

const DAY_MS = 86_400_000;
/** One cached zone per name: the offsets it learns serve every later call. */
const zones = new Map<string, CachedNamedTimeZone>();
const zoneOf = (name: string) => {
  let zone = zones.get(name);
  if (!zone) zones.set(name, (zone = new CachedNamedTimeZone(name)));
  return zone;
};
/** Milliseconds of a `YYYY-MM-DD` day's start read as UTC. */
const dayMs = (date: string) => Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The days (site time zone, `YYYY-MM-DD`) an event covers in the calendar: an all-day event its dates, a timed
 * one the days of its instants in the zone (an event ending at midnight does not cover the next day).
 */
export function daysOf(event: CalendarEvent, zoneName: string): string[] {
  let first: number;
  let last: number;
  if (event.all_day) {
    first = dayMs(event.start_date);
    last = dayMs(event.end_date);
  } else {
    const zone = zoneOf(zoneName);
    const wall = (sql: string, shift: number) => {
      const ms = Date.parse(`${sql.replace(' ', 'T')}Z`) + shift;
      const local = ms + zone.offsetAt(ms) * 60_000;
      return local - (((local % DAY_MS) + DAY_MS) % DAY_MS);
    };
    first = wall(event.utc_start_date, 0);
    last = wall(event.utc_end_date, -1);
  }
  const days: string[] = [];
  for (let day = first; day <= last && days.length < 62; day += DAY_MS) days.push(isoDay(day));
  return days.length ? days : [isoDay(first)];
}

/** Per day: the events covering it, in the order of the list. */
export function eventsByDay(list: readonly CalendarEvent[], zone: string): Map<string, CalendarEvent[]> {
  const days = new Map<string, CalendarEvent[]>();
  for (const event of list) {
    for (const day of daysOf(event, zone)) {
      const events = days.get(day);
      if (events) events.push(event);
      else days.set(day, [event]);
    }
  }
  return days;
}

export interface MonthShare {
  /** What the month view is given: the events each day shows (and those tied with its last one). */
  events: CalendarEvent[];
  /** Per day: how many of its events were not given (the day's "+N more", see ownMoreLinks). */
  leftOut: Map<string, number>;
}

/**
 * The month grid draws four events a day and hides the others behind "+N more", but FullCalendar draws and
 * measures every event it is given, hidden ones too (with 300 events in a month, most of the time to show
 * it). So it is given, per day, the events in the places it shows (in its own order: start, longer first, timed
 * before all-day, then by title) and the events tied with the last of them (FullCalendar then chooses among those, and counts the ones it hides in
 * its own "+N more"); the others are counted in `leftOut`, for a "+N more" of ours, and a day whose "+N more" is
 * opened gets all of them (`whole`).
 */
export function monthShare(
  list: readonly CalendarEvent[],
  zone: string,
  whole: ReadonlySet<string> = new Set(),
): MonthShare {
  // All-day events by their dates, before the day's timed ones (a day's start in the zone is never more than
  // 14 hours from its start read as UTC).
  const startMs = (event: CalendarEvent) =>
    event.all_day
      ? dayMs(event.start_date) - DAY_MS
      : Date.parse(`${event.utc_start_date.replace(' ', 'T')}Z`);
  const endMs = (event: CalendarEvent) =>
    event.all_day ? dayMs(event.end_date) : Date.parse(`${event.utc_end_date.replace(' ', 'T')}Z`);
  const key = new Map(list.map((event) => [event, [startMs(event), endMs(event)] as const]));
  // FullCalendar's `eventOrder` ('start,-duration,allDay,title', titles by localeCompare as it does), so that the
  // four given are the four it would show; only events alike in all of these are ties.
  const order = (a: CalendarEvent, b: CalendarEvent) => {
    const [aStart, aEnd] = key.get(a)!;
    const [bStart, bEnd] = key.get(b)!;
    return (
      aStart - bStart ||
      bEnd - bStart - (aEnd - aStart) ||
      Number(a.all_day) - Number(b.all_day) ||
      calendarTitle(a).localeCompare(calendarTitle(b))
    );
  };
  const days = eventsByDay([...list].sort(order), zone);
  const given = new Set<CalendarEvent>();
  for (const [day, events] of days) {
    if (whole.has(day) || events.length <= DAY_MAX_EVENTS) {
      events.forEach((event) => given.add(event));
      continue;
    }
    const last = events[DAY_MAX_EVENTS - 1]!;
    events.forEach((event, index) => {
      if (index < DAY_MAX_EVENTS || order(event, last) === 0) given.add(event);
    });
  }
  const leftOut = new Map<string, number>();
  for (const [day, events] of days) {
    const count = events.filter((event) => !given.has(event)).length;
    if (count) leftOut.set(day, count);
  }
  return { events: list.filter((event) => given.has(event)), leftOut };
}
