import type { CalendarStore, Transaction } from '../store/store';
import type { StoredMedia, StoredPost } from '../store/schema';
import { formatSql, isCalendarSql, utcSqlNow } from './dates/sqlDates';
import { parseDateInput } from './dates/strtotime';
import { slugify, uniqueSlug, uniqueSlugFrom } from './slugs';
import { urlExtension } from './media';
import { WriteRefused } from './writes';

/** The publication date to store (UTC), from `date` (site zone) or `date_utc` (UTC); undefined if neither. */
export function publicationDateUtc(
  args: { date?: string | number; date_utc?: string | number },
  siteZone: string,
  now: Date,
): string | undefined {
  if (args.date_utc !== undefined) {
    const parsed = parseDateInput(args.date_utc, 'UTC', now);
    if (parsed) return inRange(formatSql(parsed.toUTC()), 'date_utc');
  }
  if (args.date !== undefined) {
    const parsed = parseDateInput(args.date, siteZone, now);
    if (parsed) return inRange(formatSql(parsed.toUTC()), 'date');
  }
  return undefined;
}

/** `utc` when the calendar can hold it; else the 400 naming `field` that an unreadable date gets. */
function inRange(utc: string, field: string): string {
  if (isCalendarSql(utc)) return utc;
  throw new WriteRefused(400, 'rest_invalid_param', `Invalid parameter(s): ${field}`, {
    params: { [field]: OUT_OF_RANGE },
    details: [],
  });
}

/** What a date past the years the calendar holds is told (start and end dates say the same). */
export const OUT_OF_RANGE =
  'This date is outside the years the calendar holds: pick one between 0000-01-01 and 9999-12-31 ' +
  '(in UTC as well as in the time zone).';

export const nowUtc = (now: Date) => utcSqlNow(now);

function slugTaken(
  store: CalendarStore,
  kind: StoredPost['kind'],
  slug: string,
  selfId: number | undefined,
): boolean {
  const owner =
    kind === 'event'
      ? store.eventBySlug(slug)
      : kind === 'venue'
        ? store.venues.getByKey(slug)
        : store.organizers.getByKey(slug);
  return owner !== undefined && owner.id !== selfId;
}

/** A slug unique among posts of the kind, from a wanted slug or the title (WordPress appends -2, -3, …). */
export function postSlug(
  store: CalendarStore,
  kind: StoredPost['kind'],
  wanted: string,
  selfId: number | undefined,
  fallback: string,
): string {
  // A series makes hundreds of events of one title in a row: its slug base is worked out once.
  if (lastBase.wanted !== wanted) lastBase = { wanted, base: slugify(wanted) };
  const base = lastBase.base;
  const hints = suffixHints.get(store) ?? new Map<string, number>();
  suffixHints.set(store, hints);
  const key = `${kind} ${base}`;
  const found = uniqueSlugFrom(
    base,
    (slug) => slugTaken(store, kind, slug, selfId),
    fallback,
    hints.get(key) ?? 2,
  );
  // Next time, start after the suffix just used (a suffix freed later by trashing is then not reused).
  if (found.suffix > 0) hints.set(key, found.suffix + 1);
  return found.slug;
}

let lastBase = { wanted: '', base: slugify('') };

/** Per store, where suffix probing of a slug base should start (see postSlug). */
const suffixHints = new WeakMap<CalendarStore, Map<string, number>>();

/** Trashed posts free their slug, as WordPress does, by taking a `__trashed` suffix. */
export function trashedSlug(store: CalendarStore, post: StoredPost): string {
  return uniqueSlug(
    `${post.slug}__trashed`,
    (slug) => slugTaken(store, post.kind, slug, post.id),
    String(post.id),
  );
}

/** `post` moved to the trash by a write at `now`: the trashed slug, a new revision (restorable from the trash). */
export function trashedPost<T extends StoredPost>(store: CalendarStore, post: T, now: Date): T {
  return {
    ...post,
    status: 'trash',
    slug: trashedSlug(store, post),
    modifiedUtc: nowUtc(now),
    revision: post.revision + 1,
  };
}

/**
 * A post leaving the trash gets its slug back without the `__trashed` suffix (unique again), as WordPress
 * restores the slug it wanted.
 */
export function untrashedSlug(store: CalendarStore, post: StoredPost): string {
  const wanted = post.slug.replace(/__trashed(?:-\d+)?$/, '');
  return wanted === post.slug ? post.slug : postSlug(store, post.kind, wanted, post.id, String(post.id));
}

/**
 * The media id for an `image` argument: an id is used as is; a URL re-uses the media item with that URL or
 * records a new one without downloading it (the app may be offline, CONTRACT §2). Empty means none.
 */
export function resolveImage(
  tx: Transaction,
  store: CalendarStore,
  value: string | number | null | undefined,
  authorId: number,
  now: Date,
): number | null {
  if (value === null || value === undefined || value === '' || value === 0) return null;
  if (typeof value === 'number' || /^\d+$/.test(value)) return Number(value);
  const url = value.trim();
  for (const media of store.media.values()) if (media.url === url) return media.id;
  const media: StoredMedia = {
    id: tx.nextPostId(),
    url,
    extension: urlExtension(url),
    fileName: null,
    authorId,
    dateUtc: utcSqlNow(now),
  };
  tx.putMedia(media);
  return media.id;
}
