import type { Link, LocalRecord } from '../model';
import { linkKey } from '../model';
import { sameRecordKey } from '../sameRecord';
import { sentAgainWhenFound } from './rules';
import { titleOf, type PlanRun } from './run';

/** The fields two spellings of one venue or organizer may differ in (see `sameRecordKey`). */
const SPELLING_FIELDS = new Set(['slug', 'venue', 'organizer', 'address', 'email']);

/**
 * Whether a venue or organizer and its remote twin differ only in how the same name and address (or email)
 * are written (case, accents) and in their slugs: the same record entered twice.
 */
function spelledDifferently(
  run: PlanRun,
  record: LocalRecord,
  twin: NonNullable<ReturnType<PlanRun['remoteById']['get']>>,
) {
  const key = sameRecordKey(record.kind, record.fields);
  return (
    key !== null &&
    key === sameRecordKey(twin.kind, twin.fields) &&
    run.diffOf(record, twin).every((change) => SPELLING_FIELDS.has(change.field))
  );
}

/**
 * A local record linked to nothing there (or a create whose answer was lost): its twin there (same uid, slug,
 * or a venue's or organizer's name and address) is adopted, else it is created there.
 */
export function planUnlinked(run: PlanRun, record: LocalRecord, link: Link | undefined): void {
  const { kind, id } = record;
  const title = titleOf(record, kind, id);
  if (record.deleted && !link) return;
  const twinId = run.twinIds.get(linkKey(kind, id));
  const twin =
    twinId !== undefined
      ? run.remoteById.get(linkKey(kind, twinId))
      : record.deleted
        ? run.remoteBySlug.get(`${kind}:${record.slug}`)
        : undefined;
  if (!twin || run.linkedRemote.has(linkKey(kind, twin.id))) {
    if (record.deleted) run.upserts.push({ type: 'unlink', kind, localId: id, title });
    else if (run.pushes) run.upserts.push({ type: 'create', kind, localId: id, title });
    return;
  }
  const same = run.diffOf(record, twin).length === 0;
  if (record.deleted) {
    if (run.pushes)
      run.deletes.push({ type: 'delete', kind, localId: id, remoteId: twin.id, title, force: false });
  } else if (same || (link && run.pushes)) {
    // Our own lost create (`link`): the remote holds what we sent, so it is ours to update (also when it
    // reads the same, if it may be stored part-way).
    run.upserts.push({
      type: 'adopt',
      kind,
      localId: id,
      remoteId: twin.id,
      title,
      thenUpdate: run.pushes && (!same || (link !== undefined && sentAgainWhenFound(kind))),
    });
  } else if (run.pulls && spelledDifferently(run, record, twin)) {
    // The same place or person entered on two computers, spelled differently: the remote's spelling.
    run.upserts.push({ type: 'pull', kind, localId: id, remoteId: twin.id, title });
  } else {
    run.decide(run.conflictOf(record, kind, id, twin, 'both-exist'), {
      'local-wins': run.pushes
        ? { type: 'adopt', kind, localId: id, remoteId: twin.id, title, thenUpdate: true }
        : null,
      'remote-wins': { type: 'pull', kind, localId: id, remoteId: twin.id, title },
    });
  }
}
