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
    compared.image =
      typeof image === 'string' && remote?.imageUrl && remote.imageUrl === image
        ? remote.fields.image
        : image;
  }
  return compared;
}

/** Field-level differences, over the fields the local side sends (the remote may have more). */
export function diffFields(local: Record<string, unknown>, remote: Record<string, unknown>): FieldDiff[] {
  const diff: FieldDiff[] = [];
  for (const [field, value] of Object.entries(local)) {
    const other = remote[field];
    const normalize = (item: unknown) => (Array.isArray(item) ? [...item].sort(compareIds) : item);
    if (stableJson(normalize(value)) !== stableJson(normalize(other ?? defaultLike(value)))) {
      diff.push({ field, local: value, remote: other ?? null });
    }
  }
  return diff;
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
  return link.remoteHash !== null && link.remoteHash !== contentHash(remote.fields);
}
