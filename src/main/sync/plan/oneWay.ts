import type { Link, LocalRecord, RemoteRecord } from '../model';
import { remoteChangedSince } from '../compare';
import { REMOTE_GONE } from './rules';
import { titleOf, type PlanRun } from './run';

/**
 * A linked record in a push (or a protected event, whose texts the remote hides): local changes go out; a
 * record changed on both sides, or deleted on one and changed on the other, is a conflict of the whole record.
 */
export function planOneWay(
  run: PlanRun,
  record: LocalRecord,
  link: Link,
  remoteRecord: RemoteRecord | undefined,
  hidden: boolean,
): void {
  const { kind, id } = record;
  const title = titleOf(record, kind, id);
  const remoteId = link.remoteId!;
  const localChanged = link.pushedRevision !== record.revision;
  if (!remoteRecord) {
    if (record.deleted) run.upserts.push({ type: 'unlink', kind, localId: id, title });
    else if (localChanged || link.remoteHash !== REMOTE_GONE) {
      run.decide(run.conflictOf(record, kind, id, undefined, 'remote-deleted'), {
        'local-wins': { type: 'create', kind, localId: id, title },
        'remote-wins': { type: 'accept', kind, localId: id, remoteId, title },
      });
    }
    return;
  }
  const remoteChanged = remoteChangedSince(link, remoteRecord);
  if (record.deleted) {
    if (!localChanged) return;
    if (!remoteChanged)
      run.deletes.push({ type: 'delete', kind, localId: id, remoteId, title, force: false });
    else {
      run.decide(run.conflictOf(record, kind, id, remoteRecord, 'local-deleted-remote-changed'), {
        'local-wins': { type: 'delete', kind, localId: id, remoteId, title, force: true },
        'remote-wins': { type: 'accept', kind, localId: id, remoteId, title },
      });
    }
    return;
  }
  // Changed on the remote only: nothing to push. The baseline stays, so a later local change of the
  // record is a conflict rather than a silent overwrite of the remote's edit. One exception: a picture
  // never sent to this remote (the record was pushed before pictures were synced) is sent now.
  if (!localChanged) {
    if (!remoteChanged) run.unsentPictureUpdate(record, remoteRecord, remoteId);
    return;
  }
  if (!remoteChanged) {
    run.upserts.push(run.updateOf(record, remoteRecord, remoteId));
  } else if (run.diffOf(record, remoteRecord).length === 0) {
    // Both sides made the same change: nothing to decide, the link takes both versions as its baseline.
    // Except for a protected event: its password is never compared (no remote shows it), so the local change
    // may be a new or removed password, which only an update carries there.
    run.upserts.push(
      hidden
        ? { type: 'update', kind, localId: id, remoteId, title, force: false, diff: [] }
        : { type: 'accept', kind, localId: id, remoteId, title },
    );
  } else {
    run.decide(run.conflictOf(record, kind, id, remoteRecord, 'both-changed'), {
      'local-wins': { type: 'update', kind, localId: id, remoteId, title, force: true },
      'remote-wins': { type: 'pull', kind, localId: id, remoteId, title },
    });
  }
}
