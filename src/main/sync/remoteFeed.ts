import { CHANGES_MAX_LIMIT, type Change } from '../../shared/schemas/changes';
import { linkKey, type Link, type SyncKind, type LocalRecord, type RemoteRecord } from './model';
import type { LinkState } from './linkState';
import type { RemoteClient } from './remoteClient';
import { RemoteError } from './remoteErrors';
import { REMOTE_GONE } from './planner';
import { completeRemote } from './remoteRead';
import { appendAll } from '../../shared/arrays';

/** What a read through another Calendar Desk's change feed gives: the records, and where to continue next time. */
export interface FeedRead {
  records: RemoteRecord[];
  /** The cursor after the last change read: saved once the sync finished, so an interrupted one reads again. */
  cursor: string;
  /** Whether every record was read (no cursor yet, or the remote answered that it was too old). */
  fullRead: boolean;
}

/**
 * The remote records of a Calendar Desk, read through its change feed since `cursor`: a record not in the feed
 * is unchanged since the last sync, so it is taken as the link last saw it; the feed's changes replace those,
 * its deletions (and records moved to the trash) remove them. Without a cursor, or with one the remote no
 * longer knows (410), the feed is read from its start: every record, and a fresh cursor. Null when the remote
 * does not show its feed to this account: then it is read in full as any other.
 */
export async function readRemoteChanges(
  client: RemoteClient,
  local: LocalRecord[],
  links: LinkState,
  cursor: string | null,
): Promise<FeedRead | null> {
  let read = cursor === null ? 'expired' : await readFeedSince(client, cursor);
  const fullRead = read === 'expired';
  if (read === 'expired') read = await readFeedSince(client, null);
  if (read === 'unavailable') return null;
  if (read === 'expired') {
    throw new RemoteError(
      'REMOTE_NOT_THIS_API',
      `${client.root} answered that reading its change feed from the start is too old, which cannot be: check that the address is a Calendar Desk.`,
    );
  }
  const byId = new Map<string, RemoteRecord>();
  if (!fullRead) {
    const localByKey = new Map(local.map((record) => [linkKey(record.kind, record.id), record]));
    for (const link of links.all()) {
      const record = localByKey.get(linkKey(link.kind, link.localId));
      // A record changed here is compared with the remote as it is now (read by id when the feed has no news).
      if (record && record.revision !== link.pushedRevision) continue;
      const seen = lastSeen(link);
      if (seen) byId.set(linkKey(seen.kind, seen.id), seen);
    }
  }
  const gone = new Set<string>();
  for (const change of read.changes) {
    const key = linkKey(change.kind, change.id);
    const record =
      change.action === 'upsert' ? client.readRecord(change.kind, change.record, change.etag) : null;
    // A record that does not fit its kind is neither known nor gone: reported as failed, left alone here.
    if (change.action === 'upsert' && record === null) {
      byId.delete(key);
      continue;
    }
    // A record in the trash is gone for the sync, as a read by id answers it.
    if (record && record.fields.status !== 'trash') {
      byId.set(key, record);
      gone.delete(key);
    } else {
      byId.delete(key);
      gone.add(key);
    }
  }
  // A full read lists every record there is: one it does not list is gone, as is one the feed says was deleted.
  const isGone = (kind: SyncKind, remoteId: number) => fullRead || gone.has(linkKey(kind, remoteId));
  const records = await completeRemote(client, [...byId.values()], local, links, isGone);
  return { records, cursor: read.cursor, fullRead };
}

/** Every page of the feed since `since` (null: from its start), or why the remote did not give it. */
async function readFeedSince(
  client: RemoteClient,
  since: string | null,
): Promise<{ changes: Change[]; cursor: string } | 'expired' | 'unavailable'> {
  const changes: Change[] = [];
  let cursor = since;
  for (;;) {
    const page = await client.changesPage(cursor, CHANGES_MAX_LIMIT);
    if (page === 'expired' || page === 'unavailable') return page;
    appendAll(changes, page.changes);
    cursor = page.cursor;
    if (!page.more) return { changes, cursor };
  }
}

/**
 * The remote record as the link last saw it (its fields are what the remote answered then), or null when the
 * link cannot say (no remote id yet, no saved fields, or gone from the remote): then it is read by id.
 */
function lastSeen(link: Link): RemoteRecord | null {
  if (link.remoteId === null || !link.base || link.remoteHash === REMOTE_GONE) return null;
  const slug = typeof link.base.slug === 'string' ? link.base.slug : '';
  return {
    kind: link.kind,
    id: link.remoteId,
    slug,
    modifiedUtc: link.remoteModifiedUtc,
    etag: link.remoteEtag,
    fields: link.base,
    // The base and the hash were written together, from the same answer (linkFor).
    ...(link.remoteHash === null ? {} : { knownHash: link.remoteHash }),
  };
}
