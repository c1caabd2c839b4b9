import type { Conflict, Link, LocalRecord, Operation, RemoteRecord } from '../model';
import { linkKey } from '../model';
import { remoteChangedSince, sameValue } from '../compare';
import { mergeFields, type MergeResult } from '../merge';
import { REMOTE_GONE } from './rules';
import { followsSeries, isHead, titleOf, type PlanRun } from './run';

/*
 * A linked record when the remote's changes come in: a deletion there trashes it here (an edit here makes that
 * a conflict); with a base, a change on each side is merged field by field, and only a field changed
 * differently on both sides is a conflict; without one (a link from before two-way sync) a change on both
 * sides is a conflict of the whole record, as in a push.
 */

/**
 * A series whose rule, changed on the remote, removes dates whose occurrences were changed on their own here:
 * each such occurrence is a conflict (`remote-deleted`). While one waits for a decision (`ask`, `skip`)
 * nothing of the series' head is taken or sent, so the rule does not trash it here; `local-wins` keeps the
 * dates: the rule here goes to the remote, which brings them back; `remote-wins` takes the remote's rule.
 */
export function holdSeries(run: PlanRun): void {
  if (!run.pulls) return;
  for (const record of run.local) {
    const link = run.linkByKey.get(linkKey(record.kind, record.id));
    if (!record.series || record.deleted || followsSeries(record) || isHead(record) || !link?.remoteId)
      continue;
    if (run.remoteById.has(linkKey('event', link.remoteId)) || link.pushedRevision === record.revision)
      continue;
    if (!run.seriesThere(record.series.headId)) continue;
    const choice = run.choiceFor(record.kind, record.id);
    if (choice === 'local-wins') run.localRuleHeads.add(record.series.headId);
    else if (choice !== 'remote-wins') run.heldHeads.add(record.series.headId);
  }
}

export function planTwoWay(
  run: PlanRun,
  record: LocalRecord,
  link: Link,
  remoteRecord: RemoteRecord | undefined,
  localChanged: boolean,
): void {
  if (!remoteRecord) return planGoneThere(run, record, link, localChanged);
  const { kind, id } = record;
  const title = titleOf(record, kind, id);
  const remoteId = link.remoteId!;
  const remoteChanged = remoteChangedSince(link, remoteRecord);
  if (record.deleted) {
    if (!localChanged || !run.pushes) return;
    if (!remoteChanged)
      run.deletes.push({ type: 'delete', kind, localId: id, remoteId, title, force: false });
    else
      run.decide(
        {
          ...run.conflictOf(record, kind, id, remoteRecord, 'local-deleted-remote-changed'),
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
    if (localChanged && run.pushes) run.upserts.push(run.updateOf(record, remoteRecord, remoteId));
    else if (!localChanged && run.pushes) run.unsentPictureUpdate(record, remoteRecord, remoteId);
    return;
  }
  if (!link.base) {
    if (!localChanged) run.add({ type: 'pull', kind, localId: id, remoteId, title });
    else if (run.diffOf(record, remoteRecord).length === 0)
      run.add({ type: 'accept', kind, localId: id, remoteId, title });
    else
      run.decide(run.conflictOf(record, kind, id, remoteRecord, 'both-changed'), {
        'local-wins': run.pushes ? { type: 'update', kind, localId: id, remoteId, title, force: true } : null,
        'remote-wins': { type: 'pull', kind, localId: id, remoteId, title },
      });
    return;
  }
  planMerged(run, record, link.base, remoteRecord, remoteId, localChanged);
}

/** Gone on the remote: trashed here, unless it changed here since (then a conflict). */
function planGoneThere(run: PlanRun, record: LocalRecord, link: Link, localChanged: boolean): void {
  const { kind, id } = record;
  const title = titleOf(record, kind, id);
  const trash: Operation = { type: 'trash', kind, localId: id, title };
  if (record.deleted) run.upserts.push({ type: 'unlink', kind, localId: id, title });
  // Let go earlier by a `remote-wins` decision of a push: kept here as the user chose.
  else if (!localChanged && link.remoteHash === REMOTE_GONE) return;
  // An occurrence that follows its series changed here only with it: its date removed there is no conflict.
  else if (!localChanged || followsSeries(record)) run.upserts.push(trash);
  else
    run.decide(
      {
        ...run.conflictOf(record, kind, id, undefined, 'remote-deleted'),
        remoteId: link.remoteId,
        diff: editsSinceBase(link, run.comparable(record), 'local'),
      },
      {
        'local-wins': run.pushes ? { type: 'create', kind, localId: id, title } : null,
        'remote-wins': trash,
      },
    );
}

/** Changed on both sides since the base: merged field by field; a field changed differently is a conflict. */
function planMerged(
  run: PlanRun,
  record: LocalRecord,
  base: NonNullable<Link['base']>,
  remoteRecord: RemoteRecord,
  remoteId: number,
  localChanged: boolean,
): void {
  const { kind, id } = record;
  const merged = mergeFields(base, run.comparable(record, remoteRecord), remoteRecord.fields);
  if (run.localRuleHeads.has(id)) keepLocalRule(merged);
  if (localChanged) keepOwnChanges(run, record, remoteRecord, merged);
  const conflicted = merged.conflicts.map((conflict) => conflict.field);
  const operation = (toLocal: string[], toRemote: string[], changedHere: boolean) =>
    mergeOperation(run, record, remoteId, toLocal, toRemote, changedHere);
  if (!localChanged && !run.localRuleHeads.has(id)) {
    // Unchanged here: whatever differs is the remote's change.
    run.add(operation([...merged.toLocal, ...conflicted], [], false));
    return;
  }
  if (conflicted.length === 0) {
    run.add(operation(merged.toLocal, merged.toRemote, true));
    return;
  }
  const outcomes = {
    'local-wins': operation(merged.toLocal, [...merged.toRemote, ...conflicted], true),
    'remote-wins': operation([...merged.toLocal, ...conflicted], merged.toRemote, true),
  };
  const headId = record.series?.headId;
  if (
    headId !== undefined &&
    followsSeries(record) &&
    run.seriesThere(headId) &&
    conflicted.every((field) => headConflicts(run, headId).has(field))
  ) {
    // The series edited differently on both sides: one conflict, its head's. An occurrence that follows the
    // series goes as its head is decided, and waits with it.
    const choice = run.choiceFor('event', headId);
    if (choice === 'local-wins' || choice === 'remote-wins') run.add(outcomes[choice]);
    return;
  }
  run.decide(
    {
      kind,
      localId: id,
      remoteId,
      reason: 'both-changed',
      title: titleOf(record, kind, id),
      diff: merged.conflicts.map(({ field, base: was, local, remote }) => ({
        field,
        local,
        remote,
        base: was,
      })),
    },
    outcomes,
  );
}

/** Whole-record operations for one linked record in a two-way or pull-only sync. */
function mergeOperation(
  run: PlanRun,
  record: LocalRecord,
  remoteId: number,
  toLocal: string[],
  toRemote: string[],
  localChanged: boolean,
): Operation | null {
  const { kind, id } = record;
  const title = titleOf(record, kind, id);
  const sent = run.pushes ? toRemote : [];
  // Pull-only: the local changes stay to be sent (the link keeps the revision last sent).
  const localPending = !run.pushes && toRemote.length > 0;
  if (toLocal.length === 0 && sent.length === 0) {
    return localPending || !localChanged ? null : { type: 'accept', kind, localId: id, remoteId, title };
  }
  return { type: 'merge', kind, localId: id, remoteId, title, toLocal, toRemote: sent, localPending };
}

/**
 * A record deleted on one side and edited on the other: the edits since the last sync, as three values
 * (`base`, the edited side's value, null for the side that deleted it). Empty without a base.
 */
function editsSinceBase(
  link: Link,
  edited: Record<string, unknown>,
  side: 'local' | 'remote',
): Conflict['diff'] {
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
}

/** The rule here wins over the remote's (a `local-wins` decision on the dates the remote's rule removes). */
function keepLocalRule(merged: MergeResult): void {
  const taken = [...merged.toLocal, ...merged.conflicts.map((conflict) => conflict.field)];
  if (!taken.includes('recurrence')) return;
  merged.toLocal = merged.toLocal.filter((field) => field !== 'recurrence');
  merged.conflicts = merged.conflicts.filter((conflict) => conflict.field !== 'recurrence');
  merged.toRemote.push('recurrence');
}

/**
 * A date changed on its own on one side against the series' edit on the other: its own change stays, as it
 * would had both been made in one calendar (an override does not follow the series). A value is the series'
 * when that side's head has it too, and its start and end when it starts at its original start there. The same
 * date changed alone on both sides is still a conflict.
 */
function keepOwnChanges(
  run: PlanRun,
  record: LocalRecord,
  remoteRecord: RemoteRecord,
  merged: MergeResult,
): void {
  const series = record.series;
  if (!series || isHead(record) || !run.seriesThere(series.headId)) return;
  const remoteHead = run.remoteById.get(linkKey('event', run.linkedIdOf('event', series.headId)!))!;
  const localHead = run.localByKey.get(linkKey('event', series.headId));
  if (!localHead) return;
  const localHeadFields = run.comparable(localHead, remoteHead);
  const localFields = run.comparable(record, remoteRecord);
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
}

const headConflictMemo = new WeakMap<PlanRun, Map<number, Set<string>>>();

/** The fields of a series' head changed differently on both sides (none without a base). */
function headConflicts(run: PlanRun, headId: number): Set<string> {
  const memo = headConflictMemo.get(run) ?? new Map<number, Set<string>>();
  headConflictMemo.set(run, memo);
  const known = memo.get(headId);
  if (known) return known;
  const head = run.localByKey.get(linkKey('event', headId));
  const link = run.linkByKey.get(linkKey('event', headId));
  const remoteHead = link?.remoteId != null ? run.remoteById.get(linkKey('event', link.remoteId)) : undefined;
  const fields =
    head && link?.base && remoteHead
      ? mergeFields(link.base, run.comparable(head, remoteHead), remoteHead.fields).conflicts.map(
          (conflict) => conflict.field,
        )
      : [];
  const found = new Set(fields);
  memo.set(headId, found);
  return found;
}
