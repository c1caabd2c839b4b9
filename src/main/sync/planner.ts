import type {
  Conflict,
  ConflictPolicy,
  ConflictReason,
  Decisions,
  Link,
  LocalRecord,
  MediaLink,
  Operation,
  Plan,
  RemoteRecord,
  SyncKind,
} from './model';
import { linkKey, SYNC_KINDS } from './model';
import {
  comparableLocal,
  diffFields,
  remoteChangedSince,
  remoteIdLookup,
  remoteMediaIdLookup,
} from './compare';

/** Marks a link whose remote record is gone and the user chose to leave it so (`remote-wins`). */
export const REMOTE_GONE = 'remote-gone';

/**
 * Whether a create whose answer was lost, once found on the remote, is sent again as an update even when it
 * reads the same. An event cut off part-way (PHP killed inside The Events Calendar's create, after the post and
 * its meta, before the plugin's occurrence rows) answers every field by id or slug yet is in no list of the
 * site; an update writes the rest. Terms are not sent again (the plugin refuses an update's empty description).
 */
export const sentAgainWhenFound = (kind: SyncKind): boolean => kind === 'event';

export interface PlanOptions {
  policy: ConflictPolicy;
  decisions?: Decisions;
  /** Which local pictures this remote already has (their remote media ids). */
  mediaLinks?: MediaLink[];
}

const titleOf = (record: LocalRecord | undefined, kind: SyncKind, id: number) =>
  String(
    record?.fields.title ??
      record?.fields.name ??
      record?.fields.venue ??
      record?.fields.organizer ??
      `${kind} ${id}`,
  );

/**
 * The operations that bring the remote up to date with the local calendar, in a safe order: categories
 * (parents first), tags, venues, organizers, events; then deletions in the reverse order. Pure: no I/O.
 *
 * Change tracking is by revision: a record changed locally when its revision differs from the one last
 * pushed, so any number of edits since the last sync coalesce (create+update = create, create+delete =
 * nothing, update+delete = delete). A record changed on both sides is a conflict that the policy (or a
 * per-record decision) settles; `ask` and `skip` leave it untouched and listed.
 */
export function plan(
  local: LocalRecord[],
  links: Link[],
  remote: RemoteRecord[],
  options: PlanOptions,
): Plan {
  const linkedIdOf = remoteIdLookup(links);
  const mediaLinks = options.mediaLinks ?? [];
  const remoteMediaIdOf = remoteMediaIdLookup(mediaLinks);
  const sentMedia = new Set(mediaLinks.map((link) => link.localId));
  const localByKey = new Map(local.map((record) => [linkKey(record.kind, record.id), record]));
  const linkByKey = new Map(links.map((link) => [linkKey(link.kind, link.localId), link]));
  const remoteById = new Map(remote.map((record) => [linkKey(record.kind, record.id), record]));
  const remoteBySlug = new Map(remote.map((record) => [`${record.kind}:${record.slug}`, record]));
  const linkedRemote = new Set(
    links.filter((link) => link.remoteId !== null).map((link) => linkKey(link.kind, link.remoteId!)),
  );
  // Records this plan may adopt (unlinked, with an unclaimed remote record of the same slug): a reference to one
  // compares as that remote record, as it will be once adopted, not as a record missing from the remote.
  const twinIds = new Map<string, number>();
  for (const record of local) {
    if (record.deleted || linkedIdOf(record.kind, record.id) !== null) continue;
    const twin = remoteBySlug.get(`${record.kind}:${record.slug}`);
    if (twin && !linkedRemote.has(linkKey(record.kind, twin.id)))
      twinIds.set(linkKey(record.kind, record.id), twin.id);
  }
  const remoteIdOf = (kind: SyncKind, localId: number) =>
    linkedIdOf(kind, localId) ?? twinIds.get(linkKey(kind, localId)) ?? null;
  /** What differs between a local record and its remote version, in the remote's terms. */
  const diffOf = (record: LocalRecord, remoteRecord: RemoteRecord) =>
    diffFields(comparableLocal(record, remoteIdOf, remoteMediaIdOf, remoteRecord), remoteRecord.fields);

  const upserts: Operation[] = [];
  const deletes: Operation[] = [];
  const conflicts: Conflict[] = [];

  const decide = (
    conflict: Conflict,
    outcomes: { 'local-wins': Operation | null; 'remote-wins': Operation | null },
  ) => {
    const choice = options.decisions?.[linkKey(conflict.kind, conflict.localId)] ?? options.policy;
    if (choice === 'local-wins' || choice === 'remote-wins') {
      const operation = outcomes[choice];
      if (operation) (operation.type === 'delete' ? deletes : upserts).push(operation);
    } else {
      conflicts.push(conflict);
    }
  };
  const conflictOf = (
    record: LocalRecord | undefined,
    kind: SyncKind,
    localId: number,
    remoteRecord: RemoteRecord | undefined,
    reason: ConflictReason,
  ): Conflict => ({
    kind,
    localId,
    remoteId: remoteRecord?.id ?? null,
    reason,
    title: titleOf(record, kind, localId),
    diff: record && remoteRecord && !record.deleted ? diffOf(record, remoteRecord) : [],
  });

  for (const record of local) {
    const { kind, id } = record;
    const title = titleOf(record, kind, id);
    const link = linkByKey.get(linkKey(kind, id));
    if (!link || link.remoteId === null) {
      if (record.deleted && !link) continue;
      // Unknown on the remote, or a create whose answer was lost: a record with the same slug is adopted.
      const twin = remoteBySlug.get(`${kind}:${record.slug}`);
      if (twin && !linkedRemote.has(linkKey(kind, twin.id))) {
        const same = diffOf(record, twin).length === 0;
        if (record.deleted) {
          deletes.push({ type: 'delete', kind, localId: id, remoteId: twin.id, title, force: false });
        } else if (same || link) {
          // Our own lost create (`link`): the remote holds what we sent, so it is ours to update (also when it
          // reads the same, if it may be stored part-way).
          upserts.push({
            type: 'adopt',
            kind,
            localId: id,
            remoteId: twin.id,
            title,
            thenUpdate: !same || (link !== undefined && sentAgainWhenFound(kind)),
          });
        } else {
          decide(conflictOf(record, kind, id, twin, 'both-exist'), {
            'local-wins': { type: 'adopt', kind, localId: id, remoteId: twin.id, title, thenUpdate: true },
            'remote-wins': { type: 'pull', kind, localId: id, remoteId: twin.id, title },
          });
        }
        continue;
      }
      if (record.deleted) upserts.push({ type: 'unlink', kind, localId: id, title });
      else upserts.push({ type: 'create', kind, localId: id, title });
      continue;
    }

    const remoteId = link.remoteId;
    const remoteRecord = remoteById.get(linkKey(kind, remoteId));
    const localChanged = link.pushedRevision !== record.revision;
    if (!remoteRecord) {
      if (record.deleted) upserts.push({ type: 'unlink', kind, localId: id, title });
      else if (localChanged || link.remoteHash !== REMOTE_GONE) {
        decide(conflictOf(record, kind, id, undefined, 'remote-deleted'), {
          'local-wins': { type: 'create', kind, localId: id, title },
          'remote-wins': { type: 'accept', kind, localId: id, remoteId, title },
        });
      }
      continue;
    }
    const remoteChanged = remoteChangedSince(link, remoteRecord);
    if (record.deleted) {
      if (!localChanged) continue;
      if (!remoteChanged) deletes.push({ type: 'delete', kind, localId: id, remoteId, title, force: false });
      else {
        decide(conflictOf(record, kind, id, remoteRecord, 'local-deleted-remote-changed'), {
          'local-wins': { type: 'delete', kind, localId: id, remoteId, title, force: true },
          'remote-wins': { type: 'accept', kind, localId: id, remoteId, title },
        });
      }
      continue;
    }
    // Changed on the remote only: nothing to push. The baseline stays, so a later local change of the
    // record is a conflict rather than a silent overwrite of the remote's edit. One exception: a picture
    // never sent to this remote (the record was pushed before pictures were synced) is sent now.
    if (!localChanged) {
      if (!remoteChanged && record.image && !sentMedia.has(record.image.mediaId)) {
        const diff = diffOf(record, remoteRecord);
        if (diff.some((change) => change.field === 'image'))
          upserts.push({ type: 'update', kind, localId: id, remoteId, title, force: false, diff });
      }
      continue;
    }
    if (!remoteChanged) {
      upserts.push({
        type: 'update',
        kind,
        localId: id,
        remoteId,
        title,
        force: false,
        diff: diffOf(record, remoteRecord),
      });
    } else if (diffOf(record, remoteRecord).length === 0) {
      // Both sides made the same change: nothing to decide, the link takes both versions as its baseline.
      upserts.push({ type: 'accept', kind, localId: id, remoteId, title });
    } else {
      decide(conflictOf(record, kind, id, remoteRecord, 'both-changed'), {
        'local-wins': { type: 'update', kind, localId: id, remoteId, title, force: true },
        'remote-wins': { type: 'pull', kind, localId: id, remoteId, title },
      });
    }
  }

  // Linked records that no longer exist locally (terms are deleted outright).
  for (const link of links) {
    const key = linkKey(link.kind, link.localId);
    if (localByKey.has(key)) continue;
    const title = `${link.kind} ${link.localId}`;
    const remoteRecord =
      link.remoteId === null ? undefined : remoteById.get(linkKey(link.kind, link.remoteId));
    if (!remoteRecord || link.remoteId === null) {
      upserts.push({ type: 'unlink', kind: link.kind, localId: link.localId, title });
    } else if (!remoteChangedSince(link, remoteRecord)) {
      deletes.push({
        type: 'delete',
        kind: link.kind,
        localId: link.localId,
        remoteId: link.remoteId,
        title,
        force: false,
      });
    } else {
      decide(conflictOf(undefined, link.kind, link.localId, remoteRecord, 'local-deleted-remote-changed'), {
        'local-wins': {
          type: 'delete',
          kind: link.kind,
          localId: link.localId,
          remoteId: link.remoteId,
          title,
          force: true,
        },
        'remote-wins': { type: 'unlink', kind: link.kind, localId: link.localId, title },
      });
    }
  }

  const rank = orderRanks(local);
  const byRank = (a: Operation, b: Operation) => rank(a) - rank(b) || a.localId - b.localId;
  return { operations: [...upserts.sort(byRank), ...deletes.sort((a, b) => byRank(b, a))], conflicts };
}

/** Kind order, and within categories the depth in the parent tree (parents before children). */
function orderRanks(local: LocalRecord[]): (operation: Operation) => number {
  const parentOf = new Map(
    local
      .filter((record) => record.kind === 'category')
      .map((record) => [record.id, record.refs.parent ?? 0]),
  );
  const depth = (id: number) => {
    let level = 0;
    const seen = new Set<number>();
    for (let at = parentOf.get(id) ?? 0; at && !seen.has(at); at = parentOf.get(at) ?? 0) {
      seen.add(at);
      level++;
    }
    return level;
  };
  return (operation) =>
    SYNC_KINDS.indexOf(operation.kind) * 10_000 +
    (operation.kind === 'category' ? depth(operation.localId) : 0);
}
