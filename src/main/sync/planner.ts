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
  SyncDirection,
  SyncKind,
} from './model';
import { linkKey, SYNC_KINDS } from './model';
import {
  comparableLocal,
  diffFields,
  remoteChangedSince,
  remoteIdLookup,
  remoteMediaIdLookup,
  sameValue,
} from './compare';
import { mergeFields, type MergeResult } from './merge';
import { sameRecordKey } from './sameRecord';
import { withoutGoneRefs } from './goneRefs';

/** The fields two spellings of one venue or organizer may differ in (see `sameRecordKey`). */
const SPELLING_FIELDS = new Set(['slug', 'venue', 'organizer', 'address', 'email']);

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
  /**
   * `push` (the default here, and `--push-only`): only local changes go out. `both`: the remote's changes come
   * in too (new records imported, edits merged field by field, deletions trashed here). `pull`: only those.
   */
  direction?: SyncDirection;
  /** Events last sent to this remote with a password (the link state knows them). */
  sentProtected?: (localEventId: number) => boolean;
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
  const remoteById = new Map(remote.map((record) => [linkKey(record.kind, record.id), record]));
  const linkedRemoteIds = new Set(
    links.flatMap((link) => (link.remoteId === null ? [] : [linkKey(link.kind, link.remoteId)])),
  );
  links = links.map((link) => withoutGoneRefs(link, remoteById, linkedRemoteIds));
  const linkedIdOf = remoteIdLookup(links);
  const mediaLinks = options.mediaLinks ?? [];
  const remoteMediaIdOf = remoteMediaIdLookup(mediaLinks);
  const sentMedia = new Set(mediaLinks.map((link) => link.localId));
  const localByKey = new Map(local.map((record) => [linkKey(record.kind, record.id), record]));
  const linkByKey = new Map(links.map((link) => [linkKey(link.kind, link.localId), link]));
  const direction = options.direction ?? 'push';
  const pushes = direction !== 'pull';
  const pulls = direction !== 'push';
  const remoteBySlug = new Map(remote.map((record) => [`${record.kind}:${record.slug}`, record]));
  const remoteByUid = new Map(
    remote.flatMap((record) => (record.uid ? [[`${record.kind}:${record.uid}`, record] as const] : [])),
  );
  const remoteBySameKey = new Map<string, RemoteRecord>();
  for (const record of remote) {
    const key = sameRecordKey(record.kind, record.fields);
    if (key && !remoteBySameKey.has(key)) remoteBySameKey.set(key, record);
  }
  const linkedRemote = new Set(
    links.filter((link) => link.remoteId !== null).map((link) => linkKey(link.kind, link.remoteId!)),
  );
  const uidOf = (record: LocalRecord) => (typeof record.send?.uid === 'string' ? record.send.uid : '');
  /**
   * The remote record an unlinked local one is (unclaimed by another): the same uid (records that came from
   * one Calendar Desk), else the same slug, else a venue or organizer of the same name and address (two
   * created offline on two computers become one).
   */
  const claimed = new Set<string>();
  const twinOf = (record: LocalRecord): RemoteRecord | undefined => {
    const candidates = [
      remoteByUid.get(`${record.kind}:${uidOf(record)}`),
      remoteBySlug.get(`${record.kind}:${record.slug}`),
      remoteBySameKey.get(sameRecordKey(record.kind, record.fields) ?? ''),
    ];
    const twin = candidates.find(
      (candidate) =>
        candidate &&
        !linkedRemote.has(linkKey(record.kind, candidate.id)) &&
        !claimed.has(linkKey(record.kind, candidate.id)),
    );
    if (twin) claimed.add(linkKey(record.kind, twin.id));
    return twin;
  };
  // Records this plan may adopt (unlinked, with an unclaimed remote twin): a reference to one compares as that
  // remote record, as it will be once adopted, not as a record missing from the remote.
  const twinIds = new Map<string, number>();
  for (const record of local) {
    if (record.deleted || linkedIdOf(record.kind, record.id) !== null) continue;
    const twin = twinOf(record);
    if (twin) twinIds.set(linkKey(record.kind, record.id), twin.id);
  }
  // A record deleted here that came from the remote (same uid) is not imported again.
  for (const record of local) {
    const same = record.deleted ? remoteByUid.get(`${record.kind}:${uidOf(record)}`) : undefined;
    if (same) claimed.add(linkKey(record.kind, same.id));
  }
  const remoteIdOf = (kind: SyncKind, localId: number) =>
    linkedIdOf(kind, localId) ?? twinIds.get(linkKey(kind, localId)) ?? null;
  /** What differs between a local record and its remote version, in the remote's terms. */
  const diffOf = (record: LocalRecord, remoteRecord: RemoteRecord) =>
    diffFields(comparableLocal(record, remoteIdOf, remoteMediaIdOf, remoteRecord), remoteRecord.fields);

  const upserts: Operation[] = [];
  const deletes: Operation[] = [];
  const conflicts: Conflict[] = [];

  /** An update sending the local record's differences from the remote one (unforced: the ETag guards it). */
  const updateOf = (record: LocalRecord, remoteRecord: RemoteRecord, remoteId: number): Operation => ({
    type: 'update',
    kind: record.kind,
    localId: record.id,
    remoteId,
    title: titleOf(record, record.kind, record.id),
    force: false,
    diff: diffOf(record, remoteRecord),
  });
  /** A record unchanged here whose picture was never sent (pushed before pictures were synced): sent now. */
  const unsentPictureUpdate = (record: LocalRecord, remoteRecord: RemoteRecord, remoteId: number) => {
    if (!record.image || sentMedia.has(record.image.mediaId)) return;
    const update = updateOf(record, remoteRecord, remoteId);
    if (update.type === 'update' && update.diff?.some((change) => change.field === 'image'))
      upserts.push(update);
  };

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

  /**
   * Whether a venue or organizer and its remote twin differ only in how the same name and address (or email)
   * are written (case, accents) and in their slugs: the same record entered twice.
   */
  const spelledDifferently = (record: LocalRecord, twin: RemoteRecord) => {
    const key = sameRecordKey(record.kind, record.fields);
    return (
      key !== null &&
      key === sameRecordKey(twin.kind, twin.fields) &&
      diffOf(record, twin).every((change) => SPELLING_FIELDS.has(change.field))
    );
  };

  /**
   * A record deleted on one side and edited on the other: the edits since the last sync, as three values
   * (`base`, the edited side's value, null for the side that deleted it). Empty without a base.
   */
  const editsSinceBase = (
    link: Link,
    edited: Record<string, unknown>,
    side: 'local' | 'remote',
  ): Conflict['diff'] => {
    if (!link.base) return [];
    const base = link.base;
    return Object.keys(base)
      .filter((field) => field in edited && !sameValue(field, base[field], edited[field]))
      .map((field) => ({
        field,
        base: base[field],
        local: side === 'local' ? edited[field] : null,
        remote: side === 'remote' ? edited[field] : null,
      }));
  };

  /** Whole-record operations for one linked record in a two-way or pull-only sync. */
  const mergeOperation = (
    record: LocalRecord,
    remoteId: number,
    toLocal: string[],
    toRemote: string[],
    localChanged: boolean,
  ): Operation | null => {
    const { kind, id } = record;
    const title = titleOf(record, kind, id);
    const sent = pushes ? toRemote : [];
    // Pull-only: the local changes stay to be sent (the link keeps the revision last sent).
    const localPending = !pushes && toRemote.length > 0;
    if (toLocal.length === 0 && sent.length === 0) {
      return localPending || !localChanged ? null : { type: 'accept', kind, localId: id, remoteId, title };
    }
    return { type: 'merge', kind, localId: id, remoteId, title, toLocal, toRemote: sent, localPending };
  };

  /**
   * A linked record when the remote's changes come in: a deletion there trashes it here (an edit here makes that
   * a conflict); with a base, a change on each side is merged field by field, and only a field changed
   * differently on both sides is a conflict; without one (a link from before two-way sync) a change on both
   * sides is a conflict of the whole record, as in a push.
   */
  const planTwoWay = (
    record: LocalRecord,
    link: Link,
    remoteRecord: RemoteRecord | undefined,
    localChanged: boolean,
  ) => {
    const { kind, id } = record;
    const title = titleOf(record, kind, id);
    const remoteId = link.remoteId!;
    const trash: Operation = { type: 'trash', kind, localId: id, title };
    if (!remoteRecord) {
      if (record.deleted) upserts.push({ type: 'unlink', kind, localId: id, title });
      // Let go earlier by a `remote-wins` decision of a push: kept here as the user chose.
      else if (!localChanged && link.remoteHash === REMOTE_GONE) return;
      // An occurrence that follows its series changed here only with it: its date removed there is no conflict.
      else if (!localChanged || followsSeries(record)) upserts.push(trash);
      else
        decide(
          {
            ...conflictOf(record, kind, id, undefined, 'remote-deleted'),
            remoteId,
            diff: editsSinceBase(link, comparableLocal(record, remoteIdOf, remoteMediaIdOf), 'local'),
          },
          {
            'local-wins': pushes ? { type: 'create', kind, localId: id, title } : null,
            'remote-wins': trash,
          },
        );
      return;
    }
    const remoteChanged = remoteChangedSince(link, remoteRecord);
    if (record.deleted) {
      if (!localChanged || !pushes) return;
      if (!remoteChanged) deletes.push({ type: 'delete', kind, localId: id, remoteId, title, force: false });
      else
        decide(
          {
            ...conflictOf(record, kind, id, remoteRecord, 'local-deleted-remote-changed'),
            diff: editsSinceBase(link, remoteRecord.fields, 'remote'),
          },
          {
            'local-wins': { type: 'delete', kind, localId: id, remoteId, title, force: true },
            // The remote's version comes back here (out of the trash).
            'remote-wins': { type: 'pull', kind, localId: id, remoteId, title },
          },
        );
      return;
    }
    if (!remoteChanged) {
      if (localChanged && pushes) upserts.push(updateOf(record, remoteRecord, remoteId));
      else if (!localChanged && pushes) unsentPictureUpdate(record, remoteRecord, remoteId);
      return;
    }
    const add = (operation: Operation | null) => {
      if (operation) (operation.type === 'delete' ? deletes : upserts).push(operation);
    };
    if (!link.base) {
      if (!localChanged) add({ type: 'pull', kind, localId: id, remoteId, title });
      else if (diffOf(record, remoteRecord).length === 0)
        add({ type: 'accept', kind, localId: id, remoteId, title });
      else
        decide(conflictOf(record, kind, id, remoteRecord, 'both-changed'), {
          'local-wins': pushes ? { type: 'update', kind, localId: id, remoteId, title, force: true } : null,
          'remote-wins': { type: 'pull', kind, localId: id, remoteId, title },
        });
      return;
    }
    const merged = mergeFields(
      link.base,
      comparableLocal(record, remoteIdOf, remoteMediaIdOf, remoteRecord),
      remoteRecord.fields,
    );
    if (localRuleHeads.has(id)) keepLocalRule(merged);
    if (localChanged) keepOwnChanges(record, remoteRecord, merged);
    const conflicted = merged.conflicts.map((conflict) => conflict.field);
    if (!localChanged && !localRuleHeads.has(id)) {
      // Unchanged here: whatever differs is the remote's change.
      add(mergeOperation(record, remoteId, [...merged.toLocal, ...conflicted], [], false));
      return;
    }
    if (conflicted.length === 0) {
      add(mergeOperation(record, remoteId, merged.toLocal, merged.toRemote, true));
      return;
    }
    const outcomes = {
      'local-wins': mergeOperation(
        record,
        remoteId,
        merged.toLocal,
        [...merged.toRemote, ...conflicted],
        true,
      ),
      'remote-wins': mergeOperation(
        record,
        remoteId,
        [...merged.toLocal, ...conflicted],
        merged.toRemote,
        true,
      ),
    };
    const headId = record.series?.headId;
    if (
      headId !== undefined &&
      followsSeries(record) &&
      seriesThere(headId) &&
      conflicted.every((field) => headConflicts(headId).has(field))
    ) {
      // The series edited differently on both sides: one conflict, its head's. An occurrence that follows the
      // series goes as its head is decided, and waits with it.
      const choice = options.decisions?.[linkKey('event', headId)] ?? options.policy;
      if (choice === 'local-wins' || choice === 'remote-wins') add(outcomes[choice]);
      return;
    }
    decide(
      {
        kind,
        localId: id,
        remoteId,
        reason: 'both-changed',
        title,
        diff: merged.conflicts.map(({ field, base, local, remote }) => ({ field, local, remote, base })),
      },
      outcomes,
    );
  };

  /**
   * A date changed on its own on one side against the series' edit on the other: its own change stays, as it
   * would had both been made in one calendar (an override does not follow the series). A value is the series'
   * when that side's head has it too, and its start and end when it starts at its original start there. The same
   * date changed alone on both sides is still a conflict.
   */
  const keepOwnChanges = (record: LocalRecord, remoteRecord: RemoteRecord, merged: MergeResult) => {
    const series = record.series;
    if (!series || isHead(record) || !seriesThere(series.headId)) return;
    const remoteHead = remoteById.get(linkKey('event', linkedIdOf('event', series.headId)!))!;
    const localHead = localByKey.get(linkKey('event', series.headId));
    if (!localHead) return;
    const localHeadFields = comparableLocal(localHead, remoteIdOf, remoteMediaIdOf, remoteHead);
    const localFields = comparableLocal(record, remoteIdOf, remoteMediaIdOf, remoteRecord);
    /** Whether a side's value of a date's field is its series' there (its start and end: at its original start). */
    const seriesValue = (
      field: string,
      fields: Record<string, unknown>,
      head: Record<string, unknown>,
      recurrenceId: string | null | undefined,
    ) =>
      field === 'start_date' || field === 'end_date'
        ? recurrenceId != null && fields.start_date === recurrenceId
        : sameValue(field, fields[field], head[field]);
    const remoteSeries = (field: string) =>
      seriesValue(field, remoteRecord.fields, remoteHead.fields, remoteRecord.recurrenceId);
    const localSeries = (field: string) =>
      seriesValue(field, localFields, localHeadFields, series.recurrenceId);
    // Ours changed alone against the series' edit there, or theirs changed alone against the series' edit here.
    const ours = merged.conflicts.filter(
      (conflict) => series.override && remoteSeries(conflict.field) && !localSeries(conflict.field),
    );
    const theirs = merged.conflicts.filter(
      (conflict) => !series.override && localSeries(conflict.field) && !remoteSeries(conflict.field),
    );
    merged.conflicts = merged.conflicts.filter(
      (conflict) => !ours.includes(conflict) && !theirs.includes(conflict),
    );
    merged.toRemote.push(...ours.map((conflict) => conflict.field));
    merged.toLocal.push(...theirs.map((conflict) => conflict.field));
  };

  /** The fields of a series' head changed differently on both sides (none without a base). */
  const headConflictMemo = new Map<number, Set<string>>();
  const headConflicts = (headId: number): Set<string> => {
    const known = headConflictMemo.get(headId);
    if (known) return known;
    const head = localByKey.get(linkKey('event', headId));
    const link = linkByKey.get(linkKey('event', headId));
    const remoteHead = link?.remoteId != null ? remoteById.get(linkKey('event', link.remoteId)) : undefined;
    const fields =
      head && link?.base && remoteHead
        ? mergeFields(
            link.base,
            comparableLocal(head, remoteIdOf, remoteMediaIdOf, remoteHead),
            remoteHead.fields,
          ).conflicts.map((conflict) => conflict.field)
        : [];
    headConflictMemo.set(headId, new Set(fields));
    return headConflictMemo.get(headId)!;
  };

  // A series whose rule, changed on the remote, removes dates whose occurrences were changed on their own here:
  // each such occurrence is a conflict (`remote-deleted`, below). While one waits for a decision (`ask`, `skip`)
  // nothing of the series' head is taken or sent, so the rule does not trash it here; `local-wins` keeps the
  // dates: the rule here goes to the remote, which brings them back; `remote-wins` takes the remote's rule.
  const heldHeads = new Set<number>();
  const localRuleHeads = new Set<number>();
  /** Whether the series of a local head is one on the remote too (a Calendar Desk shows its rule). */
  const seriesThere = (headId: number) => {
    const remoteHeadId = linkedIdOf('event', headId);
    return (
      remoteHeadId !== null && remoteById.get(linkKey('event', remoteHeadId))?.fields.recurrence !== undefined
    );
  };
  if (pulls) {
    for (const record of local) {
      const link = linkByKey.get(linkKey(record.kind, record.id));
      if (!record.series || record.deleted || followsSeries(record) || isHead(record) || !link?.remoteId)
        continue;
      if (remoteById.has(linkKey('event', link.remoteId)) || link.pushedRevision === record.revision)
        continue;
      if (!seriesThere(record.series.headId)) continue;
      const choice = options.decisions?.[linkKey(record.kind, record.id)] ?? options.policy;
      if (choice === 'local-wins') localRuleHeads.add(record.series.headId);
      else if (choice !== 'remote-wins') heldHeads.add(record.series.headId);
    }
  }

  for (const record of local) {
    const { kind, id } = record;
    const title = titleOf(record, kind, id);
    const link = linkByKey.get(linkKey(kind, id));
    if (heldHeads.has(id) && kind === 'event') continue;
    if (!link || link.remoteId === null) {
      if (record.deleted && !link) continue;
      // Unknown on the remote, or a create whose answer was lost: its twin there (same uid, slug, or a venue's
      // or organizer's name and address) is adopted.
      const twinId = twinIds.get(linkKey(kind, id));
      const twin =
        twinId !== undefined
          ? remoteById.get(linkKey(kind, twinId))
          : record.deleted
            ? remoteBySlug.get(`${kind}:${record.slug}`)
            : undefined;
      if (twin && !linkedRemote.has(linkKey(kind, twin.id))) {
        const same = diffOf(record, twin).length === 0;
        if (record.deleted) {
          if (pushes)
            deletes.push({ type: 'delete', kind, localId: id, remoteId: twin.id, title, force: false });
        } else if (same || (link && pushes)) {
          // Our own lost create (`link`): the remote holds what we sent, so it is ours to update (also when it
          // reads the same, if it may be stored part-way).
          upserts.push({
            type: 'adopt',
            kind,
            localId: id,
            remoteId: twin.id,
            title,
            thenUpdate: pushes && (!same || (link !== undefined && sentAgainWhenFound(kind))),
          });
        } else if (pulls && spelledDifferently(record, twin)) {
          // The same place or person entered on two computers, spelled differently: the remote's spelling.
          upserts.push({ type: 'pull', kind, localId: id, remoteId: twin.id, title });
        } else {
          decide(conflictOf(record, kind, id, twin, 'both-exist'), {
            'local-wins': pushes
              ? { type: 'adopt', kind, localId: id, remoteId: twin.id, title, thenUpdate: true }
              : null,
            'remote-wins': { type: 'pull', kind, localId: id, remoteId: twin.id, title },
          });
        }
        continue;
      }
      if (record.deleted) upserts.push({ type: 'unlink', kind, localId: id, title });
      else if (pushes) upserts.push({ type: 'create', kind, localId: id, title });
      continue;
    }

    const remoteId = link.remoteId;
    const remoteRecord = remoteById.get(linkKey(kind, remoteId));
    const localChanged = link.pushedRevision !== record.revision;
    // A password-protected event: WordPress answers it with its texts and details hidden, which is not the
    // event, so nothing is taken from the remote for it (it is pushed as before).
    const hidden = kind === 'event' && (Boolean(record.password) || options.sentProtected?.(id) === true);
    if (pulls && !hidden) {
      planTwoWay(record, link, remoteRecord, localChanged);
      continue;
    }
    if (hidden && !pushes) continue;
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
      if (!remoteChanged) unsentPictureUpdate(record, remoteRecord, remoteId);
      continue;
    }
    if (!remoteChanged) {
      upserts.push(updateOf(record, remoteRecord, remoteId));
    } else if (diffOf(record, remoteRecord).length === 0) {
      // Both sides made the same change: nothing to decide, the link takes both versions as its baseline.
      // Except for a protected event: its password is never compared (no remote shows it), so the local change
      // may be a new or removed password, which only an update carries there.
      upserts.push(
        hidden
          ? { type: 'update', kind, localId: id, remoteId, title, force: false, diff: [] }
          : { type: 'accept', kind, localId: id, remoteId, title },
      );
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
    } else if (!pushes) {
      continue;
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

  // Records new on the remote (linked to nothing here, twin of nothing here): created here.
  if (pulls) {
    for (const record of remote) {
      const key = linkKey(record.kind, record.id);
      if (linkedRemote.has(key) || claimed.has(key) || record.fields.status === 'trash') continue;
      // An occurrence of a remote series comes with its series (its head's import, or its edit taken here).
      if (record.seriesHeadId !== undefined && record.seriesHeadId !== record.id) continue;
      const title = String(
        record.texts?.title || record.fields.name || `${record.kind} ${record.id} on the remote`,
      );
      upserts.push({ type: 'import', kind: record.kind, localId: 0, remoteId: record.id, title });
    }
  }

  const rank = orderRanks(local);
  const byRank = (a: Operation, b: Operation) => rank(a) - rank(b) || a.localId - b.localId;
  return { operations: [...upserts.sort(byRank), ...deletes.sort((a, b) => byRank(b, a))], conflicts };
}

const isHead = (record: LocalRecord) => record.series?.headId === record.id;

/** An occurrence of a series (not its head) that follows the series' edits (not changed on its own). */
const followsSeries = (record: LocalRecord) =>
  record.series !== undefined && !isHead(record) && !record.series.override;

/** The rule here wins over the remote's (a `local-wins` decision on the dates the remote's rule removes). */
function keepLocalRule(merged: MergeResult): void {
  const taken = [...merged.toLocal, ...merged.conflicts.map((conflict) => conflict.field)];
  if (!taken.includes('recurrence')) return;
  merged.toLocal = merged.toLocal.filter((field) => field !== 'recurrence');
  merged.conflicts = merged.conflicts.filter((conflict) => conflict.field !== 'recurrence');
  merged.toRemote.push('recurrence');
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
