import { ApiError } from '../errors';

/** The archive page size: `per_page` clamped to 50 (REFERENCE §4.1, CONTRACT §4). */
export const MAX_PER_PAGE = 50;
export const clampPerPage = (perPage: number | undefined, fallback: number) =>
  Math.min(MAX_PER_PAGE, perPage ?? fallback);

function withQuery(base: string, params: Array<[string, string]>): string {
  const query = new URLSearchParams(params).toString();
  return query ? `${base}?${query}` : base;
}

interface PageInfo {
  total: number;
  page: number;
  perPage: number;
}

/** Pagination headers of WordPress core: totals and a `Link` with next/prev. */
function pageHeaders(total: number, totalPages: number) {
  return { 'X-WP-Total': String(total), 'X-WP-TotalPages': String(totalPages) };
}

/**
 * The `Link` header of a list (WordPress core style): the request's own address with only `page` changed,
 * so following `rel="next"` keeps every filter (the body's next/previous URLs follow the reference instead).
 */
export function paginationLink(requestUrl: URL, totalPages: number): string | undefined {
  const page = Number(requestUrl.searchParams.get('page') ?? '1') || 1;
  const at = (target: number) => {
    const url = new URL(requestUrl);
    if (target > 1) url.searchParams.set('page', String(target));
    else url.searchParams.delete('page');
    return url.toString();
  };
  const links = [
    ...(page < totalPages ? [`<${at(page + 1)}>; rel="next"`] : []),
    ...(page > 1 && page - 1 <= totalPages ? [`<${at(page - 1)}>; rel="prev"`] : []),
  ];
  return links.length > 0 ? links.join(', ') : undefined;
}

/**
 * Envelope of the events/venues/organizers archives (REFERENCE §4.1-4.2): `rest_url` echoes the effective
 * query; `next_rest_url`/`previous_rest_url` only when those pages have items; an empty page past the
 * first is a 404 with `{kind}-archive-page-not-found`.
 */
export function postArchive<T>(
  kind: 'event' | 'venue' | 'organizer',
  items: T[],
  info: PageInfo,
  base: string,
  echo: Array<[string, string]>,
) {
  if (items.length === 0 && info.page > 1) {
    throw new ApiError(
      404,
      `${kind}-archive-page-not-found`,
      `The requested ${kind} archive page does not exist`,
    );
  }
  const totalPages = Math.ceil(info.total / info.perPage);
  const rest = echo.filter(([name]) => name !== 'page' && name !== 'per_page');
  const perPage: [string, string] = ['per_page', String(info.perPage)];
  const restUrl = withQuery(base, [['page', String(info.page)], perPage, ...rest]);
  const next =
    info.page < totalPages ? withQuery(base, [perPage, ...rest, ['page', String(info.page + 1)]]) : undefined;
  const previous =
    info.page > 1
      ? withQuery(base, [
          perPage,
          ...rest,
          ...(info.page - 1 > 1 ? [['page', String(info.page - 1)] as [string, string]] : []),
        ])
      : undefined;
  const body = {
    [`${kind}s`]: items,
    rest_url: restUrl,
    ...(next ? { next_rest_url: next } : {}),
    ...(previous ? { previous_rest_url: previous } : {}),
    total: info.total,
    total_pages: totalPages,
  };
  return { body, headers: pageHeaders(info.total, totalPages) };
}

/** Envelope of the term archives: bare `rest_url`, next/previous carry only `page`; no 404 past the end. */
export function termArchive<T>(plural: 'categories' | 'tags', items: T[], info: PageInfo, base: string) {
  const totalPages = Math.ceil(info.total / info.perPage);
  const next = info.page < totalPages ? withQuery(base, [['page', String(info.page + 1)]]) : undefined;
  const previous = info.page > 1 ? withQuery(base, [['page', String(info.page - 1)]]) : undefined;
  const body = {
    rest_url: base,
    total: info.total,
    total_pages: totalPages,
    [plural]: items,
    ...(next ? { next_rest_url: next } : {}),
    ...(previous ? { previous_rest_url: previous } : {}),
  };
  return { body, headers: pageHeaders(info.total, totalPages) };
}
