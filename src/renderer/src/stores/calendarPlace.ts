import { defineStore } from 'pinia';
import { ref } from 'vue';
import { DateTime } from 'luxon';
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
  /** The day the calendar opens on next, over its address: where an event was just saved (taken once). */
  const next = ref<string | null>(null);

  /**
   * An event starting on `day` was saved: the calendar shows its period when it opens next, unless the one it
   * shows already holds that day (it then keeps its place, scroll included). `fallback` is the view and date
   * the calendar opens on when it has not been shown in this session.
   */
  function showAfterSave(day: string, fallback: { view: CalendarViewName; date: string }): void {
    if (!isIsoDate(day)) return;
    const shownView = view.value ?? fallback.view;
    const shown = DateTime.fromISO(date.value ?? fallback.date, { zone: 'utc' });
    const saved = DateTime.fromISO(day, { zone: 'utc' });
    // The period a view is about: the month of a month grid or list (not its neighbours' days), a week, a day.
    const unit = shownView === 'timeGridWeek' ? 'week' : shownView === 'timeGridDay' ? 'day' : 'month';
    next.value = shown.hasSame(saved, unit) ? null : day;
  }

  /** The day to open on after a save, once. */
  function takeNext(): string | null {
    const day = next.value;
    next.value = null;
    return day;
  }

  return { view, date, scroll, filters, showAfterSave, takeNext };
});
