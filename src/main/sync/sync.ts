import type { CalendarStore } from '../store/store';
import { localRecords } from './localRecords';
import { LinkState, remoteKey } from './linkState';
import { linkKey, type ConflictPolicy, type Decisions, type LocalRecord, type Operation } from './model';
import { plan } from './planner';
import { RemoteClient, type RemoteOptions } from './remoteClient';
import { execute, type SyncProgress } from './executor';
import { readRemote } from './remoteRead';
import type { SyncReport } from '../../shared/schemas/sync';

export interface SyncOptions {
  store: CalendarStore;
  remote: RemoteOptions;
  policy: ConflictPolicy;
  /** Per-record decisions (`kind:localId` → choice), e.g. from the desktop app's conflict list. */
  decisions?: Decisions;
  dryRun?: boolean;
  onProgress?: (event: SyncProgress) => void;
  signal?: AbortSignal;
  clock?: () => Date;
}

export type { SyncReport } from '../../shared/schemas/sync';

/** Exit status of a sync: 0 done, 2 conflicts wait for a decision (`ask`), 3 some records failed. */
export function exitStatusOf(report: SyncReport, policy: ConflictPolicy): number {
  if (report.summary.failed > 0 || report.interrupted) return 3;
  if (report.conflicts.length > 0 && policy === 'ask') return 2;
  return 0;
}

/** Pictures from this computer that the planned creates and updates would upload (each once). */
function picturesToUpload(operations: Operation[], local: LocalRecord[], links: LinkState): number {
  const byKey = new Map(local.map((record) => [linkKey(record.kind, record.id), record]));
  const files = new Set<number>();
  for (const operation of operations) {
    if (operation.type !== 'create' && operation.type !== 'update' && operation.type !== 'adopt') continue;
    if (operation.type === 'adopt' && !operation.thenUpdate) continue;
    const image = byKey.get(linkKey(operation.kind, operation.localId))?.image;
    if (image?.fileName && links.remoteMediaIdOf(image.mediaId) === null) files.add(image.mediaId);
  }
  return files.size;
}

/**
 * One sync of the local calendar to a remote: verify the remote, read it, plan, and (unless a dry run)
 * execute with a checkpoint per operation.
 */
export async function runSync(options: SyncOptions): Promise<SyncReport> {
  const client = new RemoteClient({
    ...options.remote,
    onRetry: (info) => options.onProgress?.({ type: 'retry', ...info }),
  });
  await client.verify();
  const links = new LinkState(
    options.store,
    remoteKey(client.root, options.remote.namespace),
    client.root,
    options.remote.namespace,
  );
  const local = localRecords(options.store);
  const remote = await readRemote(client, local, links);
  const planned = plan(local, links.all(), remote, {
    policy: options.policy,
    decisions: options.decisions,
    mediaLinks: links.allMedia(),
  });
  const base = {
    remote: client.root,
    namespace: options.remote.namespace,
    operations: planned.operations,
    conflicts: planned.conflicts,
  };
  if (options.dryRun) {
    const count = (type: Operation['type']) =>
      planned.operations.filter((operation) => operation.type === type).length;
    return {
      ...base,
      dryRun: true,
      summary: {
        created: count('create'),
        updated:
          count('update') + planned.operations.filter((o) => o.type === 'adopt' && o.thenUpdate).length,
        deleted: count('delete'),
        adopted: count('adopt'),
        pulled: count('pull'),
        uploaded: picturesToUpload(planned.operations, local, links),
        conflicts: planned.conflicts.length,
        failed: 0,
      },
      failures: [],
      interrupted: false,
    };
  }
  const result = await execute(planned.operations, {
    client,
    store: options.store,
    now: options.clock?.(),
    links,
    local: new Map(local.map((record) => [linkKey(record.kind, record.id), record])),
    remote: new Map(remote.map((record) => [linkKey(record.kind, record.id), record])),
    onProgress: options.onProgress,
    signal: options.signal,
    backoffMs: options.remote.backoffMs,
    sleep: options.remote.sleep,
  });
  await links.saveMeta({
    ...links.meta,
    lastSyncUtc: (options.clock?.() ?? new Date()).toISOString(),
    failures: Object.fromEntries(
      result.failures.map((failure) => [linkKey(failure.kind, failure.localId), failure.message]),
    ),
  });
  return {
    ...base,
    conflicts: [...planned.conflicts, ...result.lateConflicts],
    dryRun: false,
    summary: { ...result.summary, conflicts: planned.conflicts.length + result.lateConflicts.length },
    failures: result.failures,
    interrupted: result.interrupted,
  };
}
