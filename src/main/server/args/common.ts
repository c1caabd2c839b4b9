import { z } from 'zod';
import { POST_STATUSES, type PostStatus } from '../../../shared/enums';
import { isTime } from '../../core/dates/strtotime';
import { isValidTimezone } from '../../core/dates/zones';
import { canEditPosts, canUploadFiles } from '../../core/capabilities';
import { arg, type CheckContext, type CheckResult } from './define';
import { IMAGE_EXTENSIONS, urlExtension } from '../../core/media';
import { recordUid } from '../../store/schema';
import {
  listToArray,
  nonEmptyString,
  positiveInt,
  stringOrEmpty,
  untyped,
  wpInteger,
  wpString,
} from './wpTypes';

/** Statuses a client may name (`get_post_stati()`), as a check. */
export const isRegisteredStatus = (value: string) => (POST_STATUSES as readonly string[]).includes(value);

export const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

/** Date argument: a Unix timestamp or anything PHP's strtotime reads. */
export const dateValue = () => z.union([wpString(), z.number()]);

export const pageArg = () =>
  arg(positiveInt(), { description: 'The archive page to return', type: 'integer', default: 1, in: 'query' });

export const perPageArg = (kind: string) =>
  arg(positiveInt(), {
    description: `The number of ${kind} to return on each page`,
    type: 'integer',
    // Shown in the index; the archive applies the site's posts-per-page setting when absent.
    default: 10,
    applyDefault: false,
    in: 'query',
  });

/** `filter_post_status_list` (REFERENCE §4.6): anonymous callers may only ask for `publish`. */
export function statusListCheck(value: unknown, context: CheckContext): boolean {
  const statuses = listToArray(value);
  if (statuses.length === 0) return false;
  if (!canEditPosts(context.caller)) return statuses.length === 1 && statuses[0] === 'publish';
  // `any` is WordPress' word for every status but trash (ANY_STATUSES); the archives echo it in their links.
  return statuses.every(
    (status) => status === 'any' || (typeof status === 'string' && isRegisteredStatus(status)),
  );
}

/** How an archive's `rest_url` echoes its statuses: `any` for the editors' default, as the reference. */
export const statusEcho = (value: unknown, statuses: PostStatus[]) =>
  value === undefined && statuses.length > 1 ? 'any' : statuses.join(',');

export const statusFilterArg = (description: string) =>
  arg(untyped(), { description, format: 'string', in: 'query' }, statusListCheck);

export const authorArg = (kind: string) =>
  arg(wpInteger(), { description: `The ${kind} author ID`, type: 'integer', in: 'body' }, (id, { store }) =>
    store.users.has(id),
  );

export const publicationDateArgs = (kind: string) => ({
  date: arg(
    dateValue(),
    { description: `The ${kind} publication date`, type: 'string', in: 'body' },
    (value) => isTime(value),
  ),
  date_utc: arg(
    dateValue(),
    { description: `The ${kind} publication date (UTC time zone)`, type: 'string', in: 'body' },
    (value) => isTime(value),
  ),
});

export const postStatusArg = (kind: string) =>
  arg(wpString(), { description: `The ${kind} post status`, type: 'string', in: 'body' }, isRegisteredStatus);

/**
 * WordPress' `is_image`: an existing image media id, or an http(s) URL if the caller may upload files. The
 * original fetches the URL and wants a picture; offline we cannot, but an address whose path names another
 * file type (`….pdf`, `….txt`) is refused as the original refuses it. One without a type is accepted.
 */
export function imageCheck(value: string | number | null, context: CheckContext): CheckResult {
  if (value === null || value === '' || value === 0) return true;
  if (typeof value === 'number' || /^\d+$/.test(String(value))) {
    const media = context.store.media.get(Number(value));
    return media !== undefined && IMAGE_EXTENSIONS.has(media.extension.toLowerCase());
  }
  const url = String(value).trim();
  if (!canUploadFiles(context.caller) || !isHttpUrl(url)) return false;
  const extension = urlExtension(url);
  return extension === '' || IMAGE_EXTENSIONS.has(extension)
    ? true
    : `The image address names a .${extension} file, which is not a picture. Give the address of a picture (JPEG, PNG, GIF, WebP…).`;
}

export const imageArg = (kind: string) =>
  arg(
    z.union([wpString(), z.number().int(), z.null()]),
    { description: `The ${kind} featured image ID or URL`, type: 'string', in: 'body' },
    imageCheck,
  );

/** A text field that may be cleared with `''` or `null` (venue/organizer fields, and every update). */
export const clearableText = (description: string) =>
  // `default: null` is what the reference's index shows; null defaults are never applied.
  arg(stringOrEmpty(), { description, type: 'string', default: null, in: 'body' });

export const requiredName = (description: string) =>
  arg(nonEmptyString(), { description, type: 'string', required: true, in: 'body' });

export const timezoneCheck = (value: string) => value === '' || isValidTimezone(value);

export { nonEmptyString, positiveInt, wpInteger, wpString, untyped };

/**
 * `uid` on a create (CONTRACT §2, extension): checked for administrators only, whose sync from another Calendar
 * Desk sends it; anyone else's is ignored by core (`givenUid`), never a 400.
 */
export const uidArg = () =>
  arg(
    untyped(),
    {
      description:
        "Administrators only: the new record's uid, a UUID (a sync from another Calendar Desk keeps it); ignored for others and when another record has it",
      type: 'string',
      format: 'uuid',
      in: 'body',
      extension: true,
    },
    (value, { caller }) =>
      caller?.role !== 'administrator' || recordUid.safeParse(value).success || 'uid must be a UUID.',
  );

/** The create arguments an update takes too: all but `uid`, which a record is given once. */
export function withoutUid<Spec extends { uid: unknown }>(spec: Spec): Omit<Spec, 'uid'> {
  const { uid: _givenOnce, ...rest } = spec;
  return rest;
}
