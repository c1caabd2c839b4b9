import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { CalendarViewName } from './preferences';

export const CALENDAR_VIEWS: readonly CalendarViewName[] = [
  'dayGridMonth',
  'timeGridWeek',
  'timeGridDay',
  'listMonth',
];

export const isCalendarView = (value: unknown): value is CalendarViewName =>
  typeof value === 'string' && (CALENDAR_VIEWS as readonly string[]).includes(value);

export const isIsoDate = (value: unknown): value is string =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value));

/** What the calendar shows: only events in these (ids; empty = all). */
export interface CalendarFilters {
  categories: number[];
  venues: number[];
  organizers: number[];
}

/**
 * Where the user was in the calendar, for this session: the view, the date it shows and how far it was
 * scrolled, so opening an event (or saving one) and coming back lands on the same place, not on today.
 * The view and date also travel in the address (`/calendar?view=…&date=…`), which is what Back restores.
 */
export const useCalendarPlaceStore = defineStore('calendarPlace', () => {
  const view = ref<CalendarViewName | null>(null);
  /** The calendar's current date, in the period shown (`YYYY-MM-DD`, site time zone). */
  const date = ref<string | null>(null);
  /** Scroll offsets of the calendar's scrolling areas, for the view and date they were taken in. */
  const scroll = ref<{ at: string; tops: number[] } | null>(null);
  const filters = ref<CalendarFilters>({ categories: [], venues: [], organizers: [] });

  return { view, date, scroll, filters };
});
