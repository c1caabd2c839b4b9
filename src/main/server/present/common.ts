import type { CalendarStore } from '../../store/store';
import type { StoredPost } from '../../store/schema';
import type { Links } from '../links';
import type { MaybeCaller } from '../../core/capabilities';
import { fromUtcSql } from '../../core/dates/sqlDates';

/** Everything a presenter needs besides the record. */
export interface PresentEnv {
  store: CalendarStore;
  links: Links;
  caller: MaybeCaller;
  now: Date;
  /** The request asked for `context=edit`: with edit rights, password-protected content is shown. */
  editContext?: boolean;
}

const POST_TYPE: Record<StoredPost['kind'], string> = {
  event: 'tribe_events',
  venue: 'tribe_venue',
  organizer: 'tribe_organizer',
};

/** Statuses without a public address: WordPress' `get_post_permalink` gives them the query form. */
const UNPUBLISHED = new Set(['draft', 'pending', 'auto-draft', 'future', 'trash']);

/** Public permalink, or the query form for posts that are not public yet (or any more). */
export function permalink(post: StoredPost, links: Links): string {
  if (UNPUBLISHED.has(post.status)) return `${links.siteUrl}/?post_type=${POST_TYPE[post.kind]}&p=${post.id}`;
  return `${links.siteUrl}/${post.kind}/${post.slug}/`;
}

export function globalId(id: number, links: Links): string {
  return `${links.host}?id=${id}`;
}

/** The post-level fields every post kind shares, in the reference's order. */
export function postHeader(post: StoredPost, env: PresentEnv) {
  const zone = env.store.settings.timezone;
  return {
    author: String(post.authorId),
    status: post.status,
    date: fromUtcSql(post.dateUtc, zone),
    date_utc: post.dateUtc,
    modified: fromUtcSql(post.modifiedUtc, zone),
    modified_utc: post.modifiedUtc,
    url: permalink(post, env.links),
  };
}

/** `{url, id, extension}` of a media item, or `false` (REFERENCE §3.4). */
export function presentImage(
  imageId: number | null,
  env: PresentEnv,
): { url: string; id: number; extension: string } | false {
  if (!imageId) return false;
  const media = env.store.media.get(imageId);
  if (!media) return false;
  const url = media.fileName ? `${env.links.siteUrl}/media/${encodeURIComponent(media.fileName)}` : media.url;
  return { url, id: media.id, extension: media.extension };
}

/** Drops empty values the way `get_venue_data`/`get_organizer_data` do (`''`, false, null, 0, '0'). */
export function withoutEmpty<T extends Record<string, unknown>>(record: T): Partial<T> {
  // A plain loop (every venue and organizer of every answer passes here): same keys, same order.
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    const value = record[key];
    if (
      value !== '' &&
      value !== false &&
      value !== null &&
      value !== undefined &&
      value !== 0 &&
      value !== '0'
    ) {
      kept[key] = value;
    }
  }
  return kept as Partial<T>;
}
