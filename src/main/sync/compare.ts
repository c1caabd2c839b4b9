import { createHash } from 'node:crypto';
import type {
  FieldDiff,
  Link,
  LocalImage,
  LocalRecord,
  LocalRefs,
  MediaLink,
  RemoteRecord,
  SyncKind,
} from './model';
import { linkKey } from './model';
import { decodeHtmlEntities } from '../core/html';

/** Which kind each reference field points at. */
export const REF_KIND: Record<keyof LocalRefs, SyncKind> = {
  parent: 'category',
  venue: 'venue',
  organizer: 'organizer',
  categories: 'category',
  tags: 'tag',
};

/** JSON with object keys sorted and id lists in order, so equal content always gives equal text. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Fingerprint of a remote record's comparable content, kept in the link to notice remote changes. */
export function contentHash(fields: Record<string, unknown>): string {
  return createHash('sha256').update(stableJson(fields)).digest('hex').slice(0, 32);
}

/** Remote id of a local record, as far as the links know it. */
export type RemoteIdOf = (kind: SyncKind, localId: number) => number | null;

export function remoteIdLookup(links: Iterable<Link>): RemoteIdOf {
  const byKey = new Map<string, number | null>();
  for (const link of links) byKey.set(linkKey(link.kind, link.localId), link.remoteId);
  return (kind, localId) => byKey.get(linkKey(kind, localId)) ?? null;
}

/**
 * References as remote ids (what the record is sent with). A reference without a remote id stays as
 * `local:N` so a diff shows it and the executor can refuse to send it.
 */
export function mapRefs(refs: LocalRefs, remoteIdOf: RemoteIdOf): Record<string, unknown> {
  const one = (kind: SyncKind, id: number) => remoteIdOf(kind, id) ?? `local:${id}`;
  const mapped: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(refs) as [keyof LocalRefs, number | number[] | undefined][]) {
    if (value === undefined) continue;
    const kind = REF_KIND[field];
    mapped[field] = Array.isArray(value)
      ? value.map((id) => one(kind, id)).sort(compareIds)
      : value === 0
        ? 0
        : one(kind, value);
  }
  return mapped;
}

const compareIds = (a: unknown, b: unknown) => String(a).localeCompare(String(b), 'en', { numeric: true });

/** Remote media id of a local picture, as far as the media links know it. */
export type RemoteMediaIdOf = (localMediaId: number) => number | null;

export function remoteMediaIdLookup(links: Iterable<MediaLink>): RemoteMediaIdOf {
  const byId = new Map<number, number | null>();
  for (const link of links) byId.set(link.localId, link.remoteId);
  return (localMediaId) => byId.get(localMediaId) ?? null;
}

const noMedia: RemoteMediaIdOf = () => null;

/**
 * A local picture as it compares with the remote's `image` (a media id): the remote id it became, else the
 * address of a picture given by URL, else `local-media:N` for a file not uploaded yet (so a diff shows it).
 */
export function imageValue(
  image: LocalImage | null | undefined,
  remoteMediaIdOf: RemoteMediaIdOf,
): number | string | null {
  if (!image) return null;
  return (
    remoteMediaIdOf(image.mediaId) ?? (image.fileName === null ? image.url : `local-media:${image.mediaId}`)
  );
}

/**
 * The local record in the remote's terms: its fields, its references as remote ids and its picture (when it
 * can have one). Given the remote record, a picture sent by address that the remote shows at that same
 * address (Calendar Desk keeps addresses as they are) counts as the remote's picture.
 */
export function comparableLocal(
  local: LocalRecord,
  remoteIdOf: RemoteIdOf,
  remoteMediaIdOf: RemoteMediaIdOf = noMedia,
  remote?: RemoteRecord,
): Record<string, unknown> {
  const compared = { ...local.fields, ...mapRefs(local.refs, remoteIdOf) };
  if (local.image !== undefined) {
    const image = imageValue(local.image, remoteMediaIdOf);
    const remoteFile = remote?.imageUrl?.split('/').pop() ?? '';
    const shown =
      typeof image === 'string' &&
      remote?.imageUrl &&
      (remote.imageUrl === image || isUploadedCopyOf(local.image, remoteFile));
    compared.image = shown ? remote.fields.image : image;
  }
  // A remote with series shows each event's rule: the head's is compared (a rule changed on one side is a change
  // of the head); an occurrence shows its head's, which is the head's to merge, so it never differs here.
  if (remote?.fields.recurrence !== undefined) {
    const series = local.series;
    compared.recurrence = !series
      ? []
      : series.headId === local.id
        ? (series.lines ?? [])
        : remote.fields.recurrence;
  }
  return compared;
}

/** Where pictures go on a remote: WordPress' media library or a Calendar Desk's uploads. */
export type UploadRemoteKind = 'wordpress' | 'calendar-desk';

/**
 * What of a file name a remote keeps: WordPress up to 200 characters of the name, a Calendar Desk 80 (behind its
 * own random prefix); the extension as it is.
 */
export function keptName(fileName: string, kind: UploadRemoteKind): { base: string; extension: string } {
  const dot = fileName.lastIndexOf('.');
  const base = dot > 0 ? fileName.slice(0, dot) : fileName;
  return {
    base: base.slice(0, kind === 'wordpress' ? 200 : 80),
    extension: dot > 0 ? fileName.slice(dot + 1) : '',
  };
}

/**
 * Whether `remoteFile` is the name a remote stored an upload of `fileName` under: WordPress keeps the name
 * (adding -1, -2… when taken, -scaled for large pictures); a Calendar Desk puts its own random prefix in front.
 */
export function isUploadedName(fileName: string, remoteFile: string, kind: UploadRemoteKind): boolean {
  const { base, extension } = keptName(fileName, kind);
  const escaped = base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern =
    kind === 'wordpress'
      ? new RegExp(`^${escaped}(?:-\\d+)?(?:-scaled)?\\.${extension}$`, 'i')
      : new RegExp(`^[a-f0-9]{12}-${escaped}\\.${extension}$`, 'i');
  return pattern.test(remoteFile);
}

/** Whether a remote file is the upload of a local picture file (the same calendar pushed under another address). */
export function isUploadedCopyOf(image: LocalImage | null | undefined, remoteFile: string): boolean {
  if (!image?.fileName || !remoteFile) return false;
  return (['wordpress', 'calendar-desk'] as const).some((kind) =>
    isUploadedName(image.fileName!, remoteFile, kind),
  );
}

/**
 * Field-level differences, over the fields the local side sends (the remote may have more). Both sides are
 * compared through {@link comparable}; the diff shows the values as they are.
 */
export function diffFields(local: Record<string, unknown>, remote: Record<string, unknown>): FieldDiff[] {
  const diff: FieldDiff[] = [];
  for (const [field, value] of Object.entries(local)) {
    if (!sameValue(field, value, remote[field]))
      diff.push({ field, local: value, remote: remote[field] ?? null });
  }
  return diff;
}

/**
 * Whether two values of a field are the same content (through {@link comparable}); a missing value (a remote
 * that leaves out empty ones) is the empty value of the other's type.
 */
export function sameValue(field: string, value: unknown, other: unknown): boolean {
  const filled = (item: unknown, like: unknown) => item ?? defaultLike(like);
  return (
    stableJson(comparable(field, filled(value, other))) ===
    stableJson(comparable(field, filled(other, value)))
  );
}

/**
 * One value as the sync compares it, the same for both sides: texts through {@link comparableText}, a cost's
 * values through {@link comparableCost}, id lists in order. Equal content, however each side presents it, is
 * not a change.
 */
export function comparable(field: string, value: unknown): unknown {
  if (typeof value === 'string') return comparableText(value);
  if (!Array.isArray(value)) return value;
  if (field === 'cost') return comparableCost(value);
  return Array.from(value as unknown[]).sort(compareIds);
}

/**
 * A text with what WordPress does when it shows one undone, so that what was written and what a site shows
 * compare equal: paragraphs and line breaks it adds (wpautop), entities (`&amp;`, `&#8217;`), typographic quotes
 * and dashes (wptexturize), spacing. A change of only those is not seen: the site would show it the same.
 */
export function comparableText(text: string): string {
  return decodeHtmlEntities(text.replace(/<\/?p(?:\s[^>]*)?>|<br\s*\/?>/gi, ' '))
    .replace(/[‘’′]/g, "'")
    .replace(/[“”″]/g, '"')
    .replace(/[–—]/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/…/g, '...')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A cost's values as the plugin keeps them: only the numbers (its `cost_details` also lists words, `free`,
 * which a local calendar does not), without 0 (the plugin stores no cost of 0), in order.
 */
export function comparableCost(values: unknown[]): string[] {
  const numbers = values
    .map((value) => String(value).trim())
    .filter((value) => /^\d+(?:\.\d+)?$/.test(value) && Number(value) !== 0);
  return [...new Set(numbers.map((value) => String(Number(value))))].sort((a, b) => Number(a) - Number(b));
}

/** What a remote that leaves out empty values means by a missing key (venues and organizers drop them). */
function defaultLike(value: unknown): unknown {
  if (typeof value === 'string') return '';
  if (typeof value === 'boolean') return false;
  if (Array.isArray(value)) return [];
  return null;
}

/** Whether the remote record changed since the link's baseline (modified_utc, ETag, or content). */
export function remoteChangedSince(link: Link, remote: RemoteRecord): boolean {
  if (link.remoteModifiedUtc && remote.modifiedUtc && link.remoteModifiedUtc !== remote.modifiedUtc)
    return true;
  if (link.remoteEtag && remote.etag && link.remoteEtag !== remote.etag) return true;
  return link.remoteHash !== null && link.remoteHash !== (remote.knownHash ?? contentHash(remote.fields));
}
