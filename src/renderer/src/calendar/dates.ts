import { formatLocale } from '../i18n/formats';
import { DateTime, Interval } from 'luxon';
import type { EventInput } from '@fullcalendar/core';
import { recordName, type CalendarEvent } from '../api/records';
import type { CategoryColors } from '../../../shared/schemas/settings';
import type { SiteCurrency } from '../../../shared/schemas/currency';
import { DEFAULT_SITE_CURRENCY, shownCost } from './price';
import { daysIntoWeek } from './weekStart';
import type { CalendarViewName } from '../stores/preferences';

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

/** The colour of events in a category: the one the user picked, else one of the defaults (none: the accent). */
export function categoryColor(
  categoryId: number | undefined,
  picked: CategoryColors = {},
): string | undefined {
  if (categoryId === undefined) return undefined;
  return picked[String(categoryId)] ?? CATEGORY_COLORS[categoryId % CATEGORY_COLORS.length];
}

/** WCAG relative luminance of a `#rrggbb` colour. */
function luminance(hex: string): number {
  const [r, g, b] = ([1, 3, 5] as const).map((at) => {
    const channel = parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * Black or white text, whichever reads better on a colour the user picked (a pale yellow needs black). One
 * of the two always reaches WCAG AA's 4.5:1 (at worst about 4.58:1, for a mid-tone), so only pure black and white.
 */
export function textColorOn(hex: string): string {
  const background = luminance(hex);
  const onWhite = 1.05 / (background + 0.05);
  const onBlack = (background + 0.05) / 0.05;
  return onWhite >= onBlack ? '#ffffff' : '#000000';
}

/**
 * An event's venue name and cost (as typed, with the currency where it is a bare amount: {@link shownCost}),
 * shown beside its title where there is room (the list view).
 */
export function eventDetails(
  event: CalendarEvent,
  site: SiteCurrency = DEFAULT_SITE_CURRENCY,
): { venue: string; cost: string } {
  return {
    venue: Array.isArray(event.venue) ? '' : recordName(event.venue),
    cost: shownCost(event.cost, event.cost_details, site),
  };
}

/**
 * When an event happens, in the interface language: its whole range (a multi-day event shows both ends),
 * dates only for an all-day event. Wall-clock times of the event's own time zone, as it was entered.
 */
export function formatEventRange(event: CalendarEvent, language: string): string {
  const locale = formatLocale(language);
  const read = (sql: string) => DateTime.fromSQL(sql, { zone: 'utc' }).setLocale(locale);
  const start = read(event.start_date);
  const end = read(event.end_date);
  if (!end.isValid || end <= start) {
    return start.toLocaleString(
      event.all_day ? DateTime.DATE_MED_WITH_WEEKDAY : DateTime.DATETIME_MED_WITH_WEEKDAY,
    );
  }
  if (event.all_day) {
    return start.hasSame(end, 'day')
      ? start.toLocaleString(DateTime.DATE_MED_WITH_WEEKDAY)
      : Interval.fromDateTimes(start.startOf('day'), end.startOf('day')).toLocaleString(
          DateTime.DATE_MED_WITH_WEEKDAY,
        );
  }
  return Interval.fromDateTimes(start, end).toLocaleString({ ...DateTime.DATETIME_MED_WITH_WEEKDAY });
}

/** The title the calendar shows (and FullCalendar orders a day's events by, after their times). */
export const calendarTitle = (event: Pick<CalendarEvent, 'title'>): string => event.title || '(untitled)';

/**
 * An API event as the calendar shows it. Timed events are placed by their UTC instant (the calendar renders
 * in the site time zone); all-day events by their dates, with the exclusive end the calendar expects.
 */
export function toCalendarEvent(
  event: CalendarEvent,
  picked: CategoryColors = {},
  site: SiteCurrency = DEFAULT_SITE_CURRENCY,
): EventInput {
  const classNames = [`status-${event.status}`];
  if (event.featured) classNames.push('is-featured');
  if (event.hide_from_listings) classNames.push('is-hidden');
  const color = categoryColor(event.categories[0]?.id, picked);
  const common = {
    id: String(event.id),
    title: calendarTitle(event),
    classNames,
    extendedProps: eventDetails(event, site),
    ...(color ? { backgroundColor: color, borderColor: color, textColor: textColorOn(color) } : {}),
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

/** The day an event starts on in the calendar (site time zone; an all-day event on its own date). */
export function siteDay(event: CalendarEvent, siteZone: string): string {
  if (event.all_day) return datePart(event.start_date);
  return DateTime.fromISO(utcIso(event.utc_start_date), { zone: 'utc' })
    .setZone(siteZone)
    .toISODate() as string;
}

/** Whether an event's time overlaps [startUtc, endUtc) (ISO instants): touching ends do not overlap. */
export function overlaps(event: CalendarEvent, startUtc: string, endUtc: string): boolean {
  const start = Date.parse(utcIso(event.utc_start_date));
  const end = Date.parse(utcIso(event.utc_end_date));
  return start < Date.parse(endUtc) && end > Date.parse(startUtc);
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

/**
 * The days a view shows around `date` (`YYYY-MM-DD`, site time zone), as the same bounds {@link rangeQuery}
 * makes of FullCalendar's range: the month grid's six whole weeks, the week from its first day (`firstDay`, as
 * FullCalendar's: 0 is Sunday, see weekStart.ts), the day, the list's month. It lets the first period's events be
 * asked for before FullCalendar exists to ask for them.
 */
export function visibleRange(
  view: CalendarViewName,
  date: string,
  firstDay: number,
): { start: string; end: string } {
  const day = DateTime.fromISO(date, { zone: 'utc' });
  const weekStart = (from: DateTime) => from.minus({ days: daysIntoWeek(from.weekday, firstDay) });
  const ranges: Record<CalendarViewName, () => [DateTime, DateTime]> = {
    dayGridMonth: () => [weekStart(day.startOf('month')), weekStart(day.startOf('month')).plus({ weeks: 6 })],
    timeGridWeek: () => [weekStart(day), weekStart(day).plus({ weeks: 1 })],
    timeGridDay: () => [day, day.plus({ days: 1 })],
    listMonth: () => [day.startOf('month'), day.startOf('month').plus({ months: 1 })],
  };
  const [first, afterLast] = ranges[view]();
  return {
    start: `${first.toISODate()} 00:00:00`,
    end: `${afterLast.minus({ days: 1 }).toISODate()} 23:59:59`,
  };
}

export type Schedule = {
  start_date: string;
  end_date: string;
  all_day: boolean;
};

const DEFAULT_DURATION_MS = 60 * 60 * 1000;

/** How long a timed event lasts (its UTC instants), for a drop that gives no end. */
export function durationMs(event: CalendarEvent): number {
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
