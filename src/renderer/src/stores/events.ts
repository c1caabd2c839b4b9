import { defineStore } from 'pinia';
import { DateTime } from 'luxon';
import { ref } from 'vue';
import type { QueryValue } from '../api/client';
import {
  listAll,
  listPage,
  reversePage,
  type CalendarEvent,
  type EventResponse,
  type Page,
} from '../api/records';
import type { ApiClient } from '../api/client';
import { useSessionStore } from './session';
import { overlaps } from '../calendar/dates';

/** What the search screen filters on (ids, as the API takes them). */
export interface EventFilters {
  search?: string;
  categories?: number[];
  tags?: number[];
  venue?: number[];
  organizer?: number[];
  status?: string;
  /** Only events overlapping these days (`YYYY-MM-DD`, site time zone; either may be left open). */
  from?: string;
  to?: string;
  /** Soonest first (the API's order) or latest first. */
  order?: 'asc' | 'desc';
}

/** Which events of a series a change is for: this one (the API's default), this and the following, or all. */
export type SeriesScope = 'this' | 'following' | 'all';

/** Statuses an editor sees on the calendar: everything but the trash. */
const EDITOR_VIEW = { status: 'any', show_hidden: true } as const;
/**
 * Without explicit bounds the API lists only from yesterday to 24 months ahead; a start alone still gets that
 * default end. Searches give both, so they cover the whole calendar.
 */
const EARLIEST = '1000-01-01 00:00:00';
const LATEST = '9999-12-31 23:59:59';

/**
 * The API's `start_date`/`end_date` keep only events that start on or after the one and end on or before the
 * other, so an event running into the period from before (a festival from Monday, in a list from Wednesday)
 * would be missing. Events overlapping the days [from, to] are asked as: ending after the day before `from`,
 * starting before the end of `to` (both day-inclusive, in the site time zone). Either end may stay open.
 */
export function overlapQuery(from?: string, to?: string): Record<string, QueryValue> {
  if (!from && !to) return { start_date: EARLIEST, end_date: LATEST };
  const dayBefore = (date: string) =>
    DateTime.fromISO(date, { zone: 'utc' }).minus({ days: 1 }).toISODate() as string;
  return { ends_after: from ? dayBefore(from) : undefined, starts_before: to || undefined };
}

/** The API query of a search (no page): what the search screen lists, and what its export writes. */
export function searchQuery(filters: EventFilters): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {
    ...EDITOR_VIEW,
    ...overlapQuery(filters.from, filters.to),
    search: filters.search?.trim() || undefined,
    categories: filters.categories?.length ? filters.categories : undefined,
    tags: filters.tags?.length ? filters.tags : undefined,
    venue: filters.venue?.length ? filters.venue : undefined,
    organizer: filters.organizer?.length ? filters.organizer : undefined,
  };
  if (filters.status) query.status = filters.status;
  return query;
}

/** Events: range loads for the calendar, searches, and the writes of the editor. */
export const useEventsStore = defineStore('events', () => {
  const session = useSessionStore();
  /** Bumped on every write, so views showing events know to reload. */
  const revision = ref(0);

  /**
   * Every event overlapping the days of [start, end] — site-local `Y-m-d H:i:s` bounds of whole days (the
   * calendar's periods are whole days), in one answer — optionally only those
   * in one of the categories, at one of the venues or with one of the organizers asked for.
   */
  async function loadRange(
    start: string,
    end: string,
    only: Pick<EventFilters, 'categories' | 'venue' | 'organizer'> = {},
  ): Promise<CalendarEvent[]> {
    const unfiltered = !only.categories?.length && !only.venue?.length && !only.organizer?.length;
    const asked = early;
    early = null;
    if (asked && unfiltered && asked.key === `${start}|${end}`) return asked.pending;
    return rangeFrom(session.api(), start, end, only);
  }

  /** The range asked for before the settings came (see main.ts): the first {@link loadRange} of it takes it. */
  let early: { key: string; pending: Promise<CalendarEvent[]> } | null = null;

  /** Asks for a range with a client not yet adopted (the settings are on their way), for the first load. */
  function prefetchRange(client: ApiClient, start: string, end: string): void {
    const pending = rangeFrom(client, start, end, {});
    // Said by the load that takes it, if one does.
    pending.catch(() => undefined);
    early = { key: `${start}|${end}`, pending };
  }

  async function rangeFrom(
    client: ApiClient,
    start: string,
    end: string,
    only: Pick<EventFilters, 'categories' | 'venue' | 'organizer'>,
  ): Promise<CalendarEvent[]> {
    // One request (`calendar-desk/v1/calendar`), with only what the views show; the costs come as typed
    // (`15€ / 10€ reduced`, not the formatted `10€ – 15€`) for the events one may edit.
    const { data } = await client.call('GET calendar', {
      query: {
        ...EDITOR_VIEW,
        ...overlapQuery(start.slice(0, 10), end.slice(0, 10)),
        categories: only.categories?.length ? only.categories : undefined,
        venue: only.venue?.length ? only.venue : undefined,
        organizer: only.organizer?.length ? only.organizer : undefined,
      },
    });
    return data.events;
  }

  async function search(filters: EventFilters, page: number, perPage = 20): Promise<Page<EventResponse>> {
    const query = searchQuery(filters);
    const fetchPage = (number: number, size: number) =>
      listPage(session.api(), 'events', { ...query, page: number, per_page: size });
    return filters.order === 'desc' ? reversePage(fetchPage, page, perPage) : fetchPage(page, perPage);
  }

  /** Every event in the trash (editors may list them; the API keeps them until emptied). */
  async function trashed(): Promise<EventResponse[]> {
    return listAll(session.api(), 'events', { ...overlapQuery(), status: 'trash' });
  }

  /**
   * Events at a venue whose time overlaps [startUtc, endUtc) (ISO instants), other than `exceptId`: a venue
   * booked twice. Asked by the days around the range, then compared to the minute.
   */
  async function bookedAt(
    venueId: number,
    startUtc: string,
    endUtc: string,
    exceptId?: number,
  ): Promise<EventResponse[]> {
    const day = (iso: string, days: number) =>
      DateTime.fromISO(iso, { zone: 'utc' }).plus({ days }).toISODate() as string;
    const nearby = await listAll(session.api(), 'events', {
      ...EDITOR_VIEW,
      ...overlapQuery(day(startUtc, -1), day(endUtc, 1)),
      venue: [venueId],
    });
    return nearby.filter((event) => event.id !== exceptId && overlaps(event, startUtc, endUtc));
  }

  /** One event as an editor sees it (`context=edit` shows a protected event's content to its editors). */
  async function fetchOne(id: number): Promise<EventResponse> {
    return (await session.api().call('GET events/:id', { params: { id }, query: { context: 'edit' } })).data;
  }

  async function create(body: Record<string, unknown>, language?: string): Promise<EventResponse> {
    const { data } = await session.api().call('POST events', { body, language });
    revision.value += 1;
    return data;
  }

  /** A true PATCH: only the fields sent change; `scope` for an event of a series. */
  async function update(
    id: number,
    patch: Record<string, unknown>,
    scope?: SeriesScope,
  ): Promise<EventResponse> {
    const body = scope ? { ...patch, scope } : patch;
    const { data } = await session.api().call('POST events/:id', { params: { id }, body });
    revision.value += 1;
    return data;
  }

  /** Moves the event to the trash ({@link restore} undoes it); `scope` for an event of a series. */
  async function trash(id: number, scope?: SeriesScope): Promise<EventResponse> {
    const { data } = await session.api().call('DELETE events/:id', { params: { id }, query: { scope } });
    revision.value += 1;
    return data;
  }

  async function restore(id: number, status: string): Promise<EventResponse> {
    return update(id, { status });
  }

  /**
   * Trashes an event and returns the undo that puts it back as it was (a scheduled event comes back as
   * published: the API makes it `future` again by its date).
   */
  async function trashWithUndo(event: Pick<EventResponse, 'id' | 'status'>): Promise<() => Promise<unknown>> {
    await trash(event.id);
    const status = event.status === 'future' ? 'publish' : event.status;
    return () => restore(event.id, status);
  }

  return {
    revision,
    loadRange,
    prefetchRange,
    search,
    trashed,
    bookedAt,
    fetchOne,
    create,
    update,
    trash,
    restore,
    trashWithUndo,
  };
});
