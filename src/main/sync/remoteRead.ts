import { linkKey, SYNC_KINDS, type SyncKind, type LocalRecord, type RemoteRecord } from './model';
import type { LinkState } from './linkState';
import type { RemoteClient } from './remoteClient';
import { appendAll } from '../../shared/arrays';
import { DEFAULT_CONCURRENCY, inPool } from './stages';

/**
 * The remote records a plan compares. The lists are read first (a page holds 50 records), but the plugin's
 * event list never shows an event hidden from listings: a linked record missing from the lists is read by its
 * id, and a record that may be on the remote unlinked (a create whose answer was lost, a hidden event) by its
 * slug. Only what is still missing then is gone from the remote.
 */
export async function readRemote(
  client: RemoteClient,
  local: LocalRecord[],
  links: LinkState,
): Promise<RemoteRecord[]> {
  const listed: RemoteRecord[] = [];
  for (const kind of SYNC_KINDS) appendAll(listed, await client.list(kind));
  return completeRemote(client, listed, local, links);
}

/**
 * `known` completed with what a local record needs and a read did not give: a linked record by its remote id,
 * a record that may be on the remote unlinked by its slug.
 */
export async function completeRemote(
  client: RemoteClient,
  known: RemoteRecord[],
  local: LocalRecord[],
  links: LinkState,
  /** Whether a linked record is known to be gone (not read by id then). */
  isGone: (kind: SyncKind, remoteId: number) => boolean = () => false,
): Promise<RemoteRecord[]> {
  const byId = new Map(known.map((record) => [linkKey(record.kind, record.id), record]));
  const slugs = new Set(known.map((record) => `${record.kind}:${record.slug}`));
  const reads: (() => Promise<RemoteRecord | null>)[] = [];
  for (const record of local) {
    const link = links.get(record.kind, record.id);
    if (link?.remoteId != null) {
      const remoteId = link.remoteId;
      if (!byId.has(linkKey(record.kind, remoteId)) && !isGone(record.kind, remoteId))
        reads.push(() => client.get(record.kind, remoteId));
      continue;
    }
    const mayBeUnlisted =
      link !== undefined || (!record.deleted && record.fields.hide_from_listings === true);
    if (mayBeUnlisted && !slugs.has(`${record.kind}:${record.slug}`)) {
      reads.push(() => client.findBySlug(record.kind, record.slug));
    }
  }
  // Read as the remote's lists are, several at once; kept in the order of the local records.
  const answers: (RemoteRecord | null)[] = new Array<RemoteRecord | null>(reads.length).fill(null);
  await inPool(
    reads.map((_, index) => index),
    DEFAULT_CONCURRENCY,
    () => true,
    async (index) => {
      answers[index] = await reads[index]!();
    },
  );
  const found: RemoteRecord[] = [];
  for (const record of answers) {
    if (!record || byId.has(linkKey(record.kind, record.id))) continue;
    byId.set(linkKey(record.kind, record.id), record);
    found.push(record);
  }
  return [...known, ...found];
}
