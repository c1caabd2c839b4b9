import { linkKey } from '../model';
import { remoteChangedSince } from '../compare';
import type { PlanRun } from './run';
import { textOf } from '../../core/values';

/** Linked records that no longer exist locally (terms are deleted outright): deleted there, or let go. */
export function planGoneHere(run: PlanRun): void {
  for (const link of run.links) {
    if (run.localByKey.has(linkKey(link.kind, link.localId))) continue;
    const { kind, localId, remoteId } = link;
    const title = `${kind} ${localId}`;
    const remoteRecord = remoteId === null ? undefined : run.remoteById.get(linkKey(kind, remoteId));
    if (!remoteRecord || remoteId === null) {
      run.upserts.push({ type: 'unlink', kind, localId, title });
    } else if (!run.pushes) {
      continue;
    } else if (!remoteChangedSince(link, remoteRecord)) {
      run.deletes.push({ type: 'delete', kind, localId, remoteId, title, force: false });
    } else {
      run.decide(run.conflictOf(undefined, kind, localId, remoteRecord, 'local-deleted-remote-changed'), {
        'local-wins': { type: 'delete', kind, localId, remoteId, title, force: true },
        'remote-wins': { type: 'unlink', kind, localId, title },
      });
    }
  }
}

/** Records new on the remote (linked to nothing here, twin of nothing here): created here. */
export function planNewThere(run: PlanRun): void {
  if (!run.pulls) return;
  for (const record of run.remote) {
    const key = linkKey(record.kind, record.id);
    if (run.linkedRemote.has(key) || run.claimed.has(key) || record.fields.status === 'trash') continue;
    // An occurrence of a remote series comes with its series (its head's import, or its edit taken here).
    if (record.seriesHeadId !== undefined && record.seriesHeadId !== record.id) continue;
    const title = textOf(
      record.texts?.title || record.fields.name || `${record.kind} ${record.id} on the remote`,
    );
    run.upserts.push({ type: 'import', kind: record.kind, localId: 0, remoteId: record.id, title });
  }
}
