import type {
  EventResponse,
  OrganizerResponse,
  TermResponse,
  VenueResponse,
} from '../../../shared/schemas/records';
import { ApiError, type ApiClient, type ApiResponse, type QueryValue } from './client';

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

type Body = Record<string, unknown>;

/** A kind's writes, each through its key of the shared route map (which types its answer). */
type RecordWrites = {
  [K in RecordKind]: {
    create: (api: ApiClient, body: Body) => Promise<ApiResponse<RecordOfKind[K]>>;
    update: (api: ApiClient, id: number, body: Body) => Promise<ApiResponse<RecordOfKind[K]>>;
    /** Venues and organizers go to the trash (restorable); terms are deleted for good. */
    remove: (api: ApiClient, id: number) => Promise<ApiResponse<RecordOfKind[K]>>;
  };
};

export const recordWrites: RecordWrites = {
  venues: {
    create: (api, body) => api.call('POST venues', { body }),
    update: (api, id, body) => api.call('POST venues/:id', { params: { id }, body }),
    remove: (api, id) => api.call('DELETE venues/:id', { params: { id } }),
  },
  organizers: {
    create: (api, body) => api.call('POST organizers', { body }),
    update: (api, id, body) => api.call('POST organizers/:id', { params: { id }, body }),
    remove: (api, id) => api.call('DELETE organizers/:id', { params: { id } }),
  },
  categories: {
    create: (api, body) => api.call('POST categories', { body }),
    update: (api, id, body) => api.call('POST categories/:id', { params: { id }, body }),
    remove: (api, id) => api.call('DELETE categories/:id', { params: { id } }),
  },
  tags: {
    create: (api, body) => api.call('POST tags', { body }),
    update: (api, id, body) => api.call('POST tags/:id', { params: { id }, body }),
    remove: (api, id) => api.call('DELETE tags/:id', { params: { id } }),
  },
};

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

/** What an archive lists, by its route name. */
export interface ItemOfKind extends RecordOfKind {
  events: EventResponse;
}
type ListedKind = keyof ItemOfKind;
type Query = Record<string, QueryValue>;

/** Each archive's page through its key of the shared route map: its items and the totals of its body. */
type ArchiveReads = {
  [K in ListedKind]: (api: ApiClient, query: Query) => Promise<Omit<Page<ItemOfKind[K]>, 'page'>>;
};

const pageOf = <T>(items: T[], data: { total: number; total_pages: number }) => ({
  items,
  total: data.total,
  totalPages: data.total_pages,
});

const archiveReads: ArchiveReads = {
  events: async (api, query) => {
    const { data } = await api.call('GET events', { query });
    return pageOf(data.events, data);
  },
  venues: async (api, query) => {
    const { data } = await api.call('GET venues', { query });
    return pageOf(data.venues, data);
  },
  organizers: async (api, query) => {
    const { data } = await api.call('GET organizers', { query });
    return pageOf(data.organizers, data);
  },
  categories: async (api, query) => {
    const { data } = await api.call('GET categories', { query });
    return pageOf(data.categories, data);
  },
  tags: async (api, query) => {
    const { data } = await api.call('GET tags', { query });
    return pageOf(data.tags, data);
  },
};

/** One page of an archive, with the totals from the body (the `X-WP-Total` headers say the same). */
export async function listPage<K extends ListedKind>(
  client: ApiClient,
  kind: K,
  query: Query,
): Promise<Page<ItemOfKind[K]>> {
  const page = Number(query.page ?? 1);
  try {
    return { ...(await archiveReads[kind](client, { ...kindDefaults[kind], ...query })), page };
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
export async function listAll<K extends ListedKind>(
  client: ApiClient,
  kind: K,
  query: Query,
  onPage?: (loaded: number, total: number) => void,
): Promise<ItemOfKind[K][]> {
  type T = ItemOfKind[K];
  const first = await listPage(client, kind, { ...query, page: 1, per_page: MAX_PER_PAGE });
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
      const result = await listPage(client, kind, { ...query, page, per_page: MAX_PER_PAGE });
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
