import type {
  EventResponse,
  OrganizerResponse,
  TermResponse,
  VenueResponse,
} from '../../../shared/schemas/records';
import { ApiError, type ApiClient, type QueryValue } from './client';

export type { EventResponse, OrganizerResponse, TermResponse, VenueResponse };
export type { CalendarEvent } from '../../../shared/schemas/calendarList';

/** The four kinds edited on list screens, by their route (and archive key) name. */
export type RecordKind = 'venues' | 'organizers' | 'categories' | 'tags';

export interface RecordOfKind {
  venues: VenueResponse;
  organizers: OrganizerResponse;
  categories: TermResponse;
  tags: TermResponse;
}

export interface Page<T> {
  items: T[];
  page: number;
  total: number;
  totalPages: number;
}

/** The API caps `per_page` at 50 (as the original plugin). */
export const MAX_PER_PAGE = 50;

/** Terms are hidden when empty unless asked (the original's default); editors need them all. */
const kindDefaults: Record<RecordKind | 'events', Record<string, QueryValue>> = {
  events: {},
  venues: {},
  organizers: {},
  categories: { hide_empty: false },
  tags: { hide_empty: false },
};

/** One page of an archive, with the totals from the body (the `X-WP-Total` headers say the same). */
export async function listPage<T>(
  client: ApiClient,
  kind: RecordKind | 'events',
  query: Record<string, QueryValue>,
): Promise<Page<T>> {
  const page = Number(query.page ?? 1);
  try {
    const { data } = await client.get<Record<string, unknown>>(kind, {
      query: { ...kindDefaults[kind], ...query },
    });
    return {
      items: (data[kind] as T[] | undefined) ?? [],
      page,
      total: Number(data.total ?? 0),
      totalPages: Number(data.total_pages ?? 0),
    };
  } catch (error) {
    // Past the last page (a record deleted meanwhile): an empty page rather than an error.
    if (error instanceof ApiError && error.status === 404 && page > 1) {
      return { items: [], page, total: 0, totalPages: 0 };
    }
    throw error;
  }
}

/**
 * Page `page` of a list in reverse order, from an API that pages it only forwards: the items of those
 * positions are read from the one or two forward pages holding them (the first answer gives the total).
 */
export async function reversePage<T>(
  fetchPage: (page: number, perPage: number) => Promise<Page<T>>,
  page: number,
  perPage: number,
): Promise<Page<T>> {
  const first = await fetchPage(1, perPage);
  const { total } = first;
  const totalPages = Math.ceil(total / perPage);
  const end = total - (page - 1) * perPage; // exclusive, in forward positions
  const start = Math.max(0, end - perPage);
  if (end <= 0) return { items: [], page, total, totalPages };
  const firstPage = Math.floor(start / perPage) + 1;
  const lastPage = Math.floor((end - 1) / perPage) + 1;
  const items: T[] = [];
  for (let forward = firstPage; forward <= lastPage; forward += 1) {
    items.push(...(forward === 1 ? first : await fetchPage(forward, perPage)).items);
  }
  const offset = start - (firstPage - 1) * perPage;
  return { items: items.slice(offset, offset + (end - start)).reverse(), page, total, totalPages };
}

/** Every page of an archive (for pickers and calendar ranges); `onPage` reports progress. */
export async function listAll<T>(
  client: ApiClient,
  kind: RecordKind | 'events',
  query: Record<string, QueryValue>,
  onPage?: (loaded: number, total: number) => void,
): Promise<T[]> {
  const first = await listPage<T>(client, kind, { ...query, page: 1, per_page: MAX_PER_PAGE });
  const items: T[] = [...first.items];
  onPage?.(items.length, first.total);
  if (first.totalPages <= 1 || first.items.length === 0) return items;
  // The page count is known now: ask for the rest at the same time instead of one after another, and keep
  // the API's order. Five at once: a busy month (300 events, 6 pages) then takes two round trips, and the
  // browser's six connections to the server still leave one free.
  const rest: T[][] = [];
  const pages = Array.from({ length: first.totalPages - 1 }, (_, index) => index + 2);
  const worker = async () => {
    for (let page = pages.shift(); page !== undefined; page = pages.shift()) {
      const result = await listPage<T>(client, kind, { ...query, page, per_page: MAX_PER_PAGE });
      rest[page - 2] = result.items;
      onPage?.(items.length + rest.flat().length, first.total);
    }
  };
  await Promise.all(Array.from({ length: Math.min(5, pages.length) }, worker));
  return items.concat(...rest);
}

/** The display name of any record (venues and organizers keep it under their own key). */
export function recordName(
  record: { name: string } | { venue?: string | never[] } | { organizer?: string | never[] },
): string {
  if ('name' in record) return record.name;
  const name = 'venue' in record ? record.venue : 'organizer' in record ? record.organizer : '';
  return typeof name === 'string' ? name : '';
}
