import { ANY_STATUSES, type PostStatus } from '../../shared/enums';
import type { CalendarStore } from '../store/store';
import { canEditPosts, type MaybeCaller } from './capabilities';
import { defaultArchiveEnd, defaultArchiveStart, normaliseFilterDate } from './dates/archiveWindow';
import type { DateBound, EventQuery } from './eventQuery';
import { categoryDescendants, findTerm } from './terms';
import { isTruthy, listToArray } from './values';

/**
 * The filters an event archive is asked for (`GET /events`, the export, the calendar list), already checked by
 * the route's argument specs: what each means is decided here, once.
 */
export interface ArchiveFilters {
  start_date?: string | number;
  end_date?: string | number;
  starts_before?: string | number;
  starts_after?: string | number;
  ends_before?: string | number;
  ends_after?: string | number;
  strict_dates?: unknown;
  include?: number[];
  status?: unknown;
  search?: string;
  categories?: Array<string | number>;
  tags?: Array<string | number>;
  venue?: number[];
  organizer?: number[];
  featured?: boolean;
  ticketed?: boolean;
  post_parent?: number;
  geoloc?: boolean;
  geoloc_lat?: number;
  geoloc_lng?: number;
  geoloc_radius?: number;
  show_hidden?: boolean;
}

const RELATIVE_FILTERS = [
  ['starts_before', 'start', '<'],
  ['starts_after', 'start', '>'],
  ['ends_before', 'end', '<'],
  ['ends_after', 'end', '>'],
] as const;

/** Date bounds of the archive with the reference's defaults and day rounding (REFERENCE §4.4). */
export function dateBounds(
  filters: ArchiveFilters,
  siteZone: string,
  now: Date,
): { bounds: DateBound[]; echo: Array<[string, string]> } {
  const strict =
    filters.strict_dates !== undefined && isTruthy(filters.strict_dates) && filters.strict_dates !== '1'
      ? true
      : isTruthy(filters.strict_dates);
  const normalise = (value: string | number, kind: 'dayStart' | 'dayEnd') =>
    normaliseFilterDate(value, kind, strict, siteZone, now)!;
  const bounds: DateBound[] = [];
  const echo: Array<[string, string]> = [];
  const relative = RELATIVE_FILTERS.filter(([name]) => filters[name] !== undefined);
  if (filters.include) {
    // `include` drops explicit start/end dates, but the raw default window comes back (REFERENCE §4.4 item 4).
    bounds.push({ field: 'start', op: '>=', value: defaultArchiveStart(now, siteZone) });
    bounds.push({ field: 'end', op: '<=', value: defaultArchiveEnd(now) });
  } else {
    const useDefaults = relative.length === 0;
    const start =
      filters.start_date !== undefined
        ? normalise(filters.start_date, 'dayStart')
        : useDefaults
          ? normalise(defaultArchiveStart(now, siteZone), 'dayStart')
          : undefined;
    const end =
      filters.end_date !== undefined
        ? normalise(filters.end_date, 'dayEnd')
        : useDefaults
          ? normalise(defaultArchiveEnd(now), 'dayEnd')
          : undefined;
    if (start) {
      bounds.push({ field: 'start', op: '>=', value: start });
      echo.push(['start_date', start]);
    }
    if (end) {
      bounds.push({ field: 'end', op: '<=', value: end });
      echo.push(['end_date', end]);
    }
  }
  for (const [name, field, op] of relative) {
    const value = normalise(filters[name]!, 'dayEnd');
    bounds.push({ field, op, value });
    echo.push([name, value]);
  }
  return { bounds, echo };
}

/** Term ids of a filter (slugs or ids); a category also stands for its descendants (`include_children`). */
export function termIds(
  store: CalendarStore,
  taxonomy: 'category' | 'tag',
  refs: Array<string | number>,
): Set<number> {
  const ids = new Set<number>();
  for (const ref of refs) {
    const term = findTerm(store, taxonomy, ref);
    if (term) ids.add(term.id);
  }
  if (taxonomy === 'category') {
    for (const id of [...ids]) for (const child of categoryDescendants(store, id)) ids.add(child);
  }
  return ids;
}

/**
 * The statuses an archive lists: those asked for (`any` = every status but trash), else `publish` for the
 * public and every non-trash status for users who can edit (REFERENCE §4.6).
 */
export function archiveStatuses(value: unknown, caller: MaybeCaller): PostStatus[] {
  if (value === undefined) return canEditPosts(caller) ? [...ANY_STATUSES] : ['publish'];
  const asked = listToArray(value).flatMap((status) =>
    status === 'any' ? ANY_STATUSES : [status as PostStatus],
  );
  return [...new Set(asked)];
}

/**
 * The filters of an event archive as an event query, with the archive's defaults (date window, statuses by
 * role): what `GET /events`, the export and the calendar list filter with.
 */
export function archiveQuery(request: {
  filters: ArchiveFilters;
  store: CalendarStore;
  caller: MaybeCaller;
  now: Date;
  language: EventQuery['language'];
}): { query: EventQuery; statuses: PostStatus[]; dateEcho: Array<[string, string]> } {
  const { filters, store, caller, now } = request;
  const { bounds, echo: dateEcho } = dateBounds(filters, store.settings.timezone, now);
  const statuses = archiveStatuses(filters.status, caller);
  const query: EventQuery = {
    bounds,
    statuses: new Set(statuses),
    searchWords: filters.search?.toLowerCase().split(/\s+/).filter(Boolean),
    categoryIds:
      filters.categories !== undefined ? termIds(store, 'category', filters.categories) : undefined,
    tagIds: filters.tags !== undefined ? termIds(store, 'tag', filters.tags) : undefined,
    venueIds: filters.venue ? new Set(filters.venue) : undefined,
    organizerIds: filters.organizer ? new Set(filters.organizer) : undefined,
    featured: filters.featured,
    ticketed: filters.ticketed,
    include: filters.include ? new Set(filters.include) : undefined,
    parentId: filters.post_parent,
    geo:
      filters.geoloc || filters.geoloc_lat !== undefined
        ? { lat: filters.geoloc_lat, lng: filters.geoloc_lng, radiusKm: filters.geoloc_radius ?? 25 }
        : undefined,
    includeHidden: filters.show_hidden === true,
    language: request.language,
  };
  return { query, statuses, dateEcho };
}
