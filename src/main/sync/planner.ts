import type { LocalRecord, Operation, Plan, RemoteRecord } from './model';
import type { Link } from './model';
import { linkKey, SYNC_KINDS } from './model';
import { planGoneHere, planNewThere } from './plan/elsewhere';
import { planOneWay } from './plan/oneWay';
import { PlanRun, type PlanOptions } from './plan/run';
import { holdSeries, planTwoWay } from './plan/twoWay';
import { planUnlinked } from './plan/unlinked';

export { REMOTE_GONE, sentAgainWhenFound } from './plan/rules';
export type { PlanOptions } from './plan/run';

/**
 * The operations that bring the remote up to date with the local calendar, in a safe order: categories
 * (parents first), tags, venues, organizers, events; then deletions in the reverse order. Pure: no I/O.
 *
 * Change tracking is by revision: a record changed locally when its revision differs from the one last
 * pushed, so any number of edits since the last sync coalesce (create+update = create, create+delete =
 * nothing, update+delete = delete). A record changed on both sides is a conflict that the policy (or a
 * per-record decision) settles; `ask` and `skip` leave it untouched and listed.
 *
 * The phases, each in `plan/`: the inputs indexed, the links settled and the twins unlinked records adopt
 * (`run.ts`); series whose rule waits for a decision (`twoWay.ts` `holdSeries`); each local record, unlinked
 * (`unlinked.ts`), two-way (`twoWay.ts`) or one-way (`oneWay.ts`); records linked but gone here, and records
 * new there (`elsewhere.ts`); then the order.
 */
export function plan(
  local: LocalRecord[],
  links: Link[],
  remote: RemoteRecord[],
  options: PlanOptions,
): Plan {
  const run = new PlanRun(local, links, remote, options);
  holdSeries(run);
  for (const record of local) {
    const link = run.linkByKey.get(linkKey(record.kind, record.id));
    if (run.heldHeads.has(record.id) && record.kind === 'event') continue;
    if (!link || link.remoteId === null) {
      planUnlinked(run, record, link);
      continue;
    }
    const remoteRecord = run.remoteById.get(linkKey(record.kind, link.remoteId));
    // A password-protected event: WordPress answers it with its texts and details hidden, which is not the
    // event, so nothing is taken from the remote for it (it is pushed as before).
    const hidden =
      record.kind === 'event' && (Boolean(record.password) || options.sentProtected?.(record.id) === true);
    if (run.pulls && !hidden)
      planTwoWay(run, record, link, remoteRecord, link.pushedRevision !== record.revision);
    else if (run.pushes) planOneWay(run, record, link, remoteRecord, hidden);
  }
  planGoneHere(run);
  planNewThere(run);
  const rank = orderRanks(local);
  const byRank = (a: Operation, b: Operation) => rank(a) - rank(b) || a.localId - b.localId;
  return {
    operations: [...run.upserts.sort(byRank), ...run.deletes.sort((a, b) => byRank(b, a))],
    conflicts: run.conflicts,
  };
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
