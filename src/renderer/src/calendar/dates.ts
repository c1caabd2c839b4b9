import { DateTime } from 'luxon';
import type { EventInput } from '@fullcalendar/core';
import type { EventResponse } from '../api/records';

/** The API's date-time format (site- or event-local wall clock). */
export const API_FORMAT = 'yyyy-MM-dd HH:mm:ss';

const utcIso = (sqlDate: string) => `${sqlDate.replace(' ', 'T')}Z`;
const datePart = (sqlDate: string) => sqlDate.slice(0, 10);
const plusDays = (isoDate: string, days: number) =>
  DateTime.fromISO(isoDate, { zone: 'utc' }).plus({ days }).toISODate() as string;

/** Colours with white text at 4.5:1 contrast or more (WCAG AA); a category keeps its colour (by id) everywhere. */
export const CATEGORY_COLORS = [
  '#1f5fcf',
  '#267349',
  '#b5541c',
  '#8a4fd1',
  '#c0396b',
  '#18707c',
  '#7a6a1a',
  '#4b5fa8',
];

/** The colour of events in a category (none: the theme's accent). */
export function categoryColor(categoryId: number | undefined): string | undefined {
  return categoryId === undefined ? undefined : CATEGORY_COLORS[categoryId % CATEGORY_COLORS.length];
}

/**
 * An API event as the calendar shows it. Timed events are placed by their UTC instant (the calendar renders
 * in the site time zone); all-day events by their dates, with the exclusive end the calendar expects.
 */
export function toCalendarEvent(event: EventResponse): EventInput {
  const classNames = [`status-${event.status}`];
  if (event.featured) classNames.push('is-featured');
  if (event.hide_from_listings) classNames.push('is-hidden');
  const color = categoryColor(event.categories[0]?.id);
  const common = {
    id: String(event.id),
    title: event.title || '(untitled)',
    classNames,
    ...(color ? { backgroundColor: color, borderColor: color } : {}),
  };
  if (event.all_day) {
    return {
      ...common,
      allDay: true,
      start: datePart(event.start_date),
      end: plusDays(datePart(event.end_date), 1),
    };
  }
  return { ...common, allDay: false, start: utcIso(event.utc_start_date), end: utcIso(event.utc_end_date) };
}

/**
 * The calendar's visible range (ISO strings with offsets, end exclusive) as the API's inclusive
 * `start_date`/`end_date` bounds in the site time zone.
 */
export function rangeQuery(
  startIso: string,
  endIso: string,
  siteZone: string,
): { start: string; end: string } {
  const inZone = (iso: string) => DateTime.fromISO(iso, { setZone: true }).setZone(siteZone);
  return {
    start: inZone(startIso).toFormat(API_FORMAT),
    end: inZone(endIso).minus({ seconds: 1 }).toFormat(API_FORMAT),
  };
}

export type Schedule = {
  start_date: string;
  end_date: string;
  all_day: boolean;
};

const DEFAULT_DURATION_MS = 60 * 60 * 1000;

/** How long a timed event lasts (its UTC instants), for a drop that gives no end. */
export function durationMs(event: EventResponse): number {
  const start = Date.parse(utcIso(event.utc_start_date));
  const end = Date.parse(utcIso(event.utc_end_date));
  return Number.isFinite(end - start) && end > start && !event.all_day ? end - start : DEFAULT_DURATION_MS;
}

/**
 * The PATCH body of a drag or resize: new dates written in the event's own time zone (the API reads
 * `start_date`/`end_date` in it). `endIso` is null when the calendar has no end (an event dropped from the
 * all-day row): it then lasts `durationWithoutEnd` (the event's own length, else an hour).
 */
export function scheduleFromCalendar(
  allDay: boolean,
  startIso: string,
  endIso: string | null,
  eventZone: string,
  durationWithoutEnd: number = DEFAULT_DURATION_MS,
): Schedule {
  if (allDay) {
    const startDate = startIso.slice(0, 10);
    const lastDate = endIso ? plusDays(endIso.slice(0, 10), -1) : startDate;
    return { start_date: `${startDate} 00:00:00`, end_date: `${lastDate} 23:59:59`, all_day: true };
  }
  const start = DateTime.fromISO(startIso, { setZone: true }).setZone(eventZone);
  const end = endIso
    ? DateTime.fromISO(endIso, { setZone: true }).setZone(eventZone)
    : start.plus({ milliseconds: durationWithoutEnd });
  return { start_date: start.toFormat(API_FORMAT), end_date: end.toFormat(API_FORMAT), all_day: false };
}

/** Date and time inputs of a new event from a calendar selection, in the site zone. */
export function selectionToFields(
  startIso: string,
  endIso: string,
  allDay: boolean,
  siteZone: string,
): { startDate: string; startTime: string; endDate: string; endTime: string; allDay: boolean } {
  if (allDay) {
    return {
      startDate: startIso.slice(0, 10),
      startTime: '09:00',
      endDate: plusDays(endIso.slice(0, 10), -1),
      endTime: '10:00',
      allDay: true,
    };
  }
  const start = DateTime.fromISO(startIso, { setZone: true }).setZone(siteZone);
  const end = DateTime.fromISO(endIso, { setZone: true }).setZone(siteZone);
  return {
    startDate: start.toISODate() as string,
    startTime: start.toFormat('HH:mm'),
    endDate: end.toISODate() as string,
    endTime: end.toFormat('HH:mm'),
    allDay: false,
  };
}
