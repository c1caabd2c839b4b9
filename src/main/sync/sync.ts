import type { CalendarStore } from '../store/store';
import type { Caller } from '../core/capabilities';
import { localRecords } from './localRecords';
import { LinkState, remoteKey } from './linkState';
import {
  COLLECTION,
  linkKey,
  type SyncKind,
  type ConflictPolicy,
  type Decisions,
  type LocalRecord,
  type SyncDirection,
  type Operation,
} from './model';
import { plan } from './planner';
import { RemoteClient, RemoteError, type RemoteOptions } from './remoteClient';
import { execute, SyncStoppedError, type SyncProgress } from './executor';
import { readRemote } from './remoteRead';
import { readRemoteChanges } from './remoteFeed';
import { findRemoteSeries } from './remoteSeries';
import type { AdHocSyncRequest, Conflict, RecordFailure, SyncReport } from '../../shared/schemas/sync';
import { sameNameGroups, settleSameNames, type SameNameChoice, type SameNameGroup } from './sameNames';

export interface SyncOptions {
  store: CalendarStore;
  /** Who starts the sync (the API's caller, the CLI's folder owner): what it takes from the remote is written as them. */
  caller: Caller;
  remote: RemoteOptions;
  policy: ConflictPolicy;
  /** `both` (default): send local changes and take the remote's; `push` or `pull`: one way only. */
  direction?: SyncDirection;
  /** Per-record decisions (`kind:localId` → choice), e.g. from the desktop app's conflict list. */
  decisions?: Decisions;
  dryRun?: boolean;
  onProgress?: (event: SyncProgress) => void;
  signal?: AbortSignal;
  clock?: () => Date;
  /** Operations sent at once (default 4), in the dependency order's stages. */
  concurrency?: number;
  /** Venues or organizers of one name the remote would make one record: kept apart or merged (sameNames.ts). */
  sameNames?: SameNameChoice;
}

export type { SyncReport } from '../../shared/schemas/sync';

/** What a sync with the remote given in full asks for (`calendar-desk sync`, `POST sync-jobs`), as sync options. */
export function adHocSyncOptions(
  request: AdHocSyncRequest,
): Pick<SyncOptions, 'remote' | 'policy' | 'direction' | 'decisions' | 'dryRun' | 'sameNames'> {
  return {
    remote: { root: request.remote, namespace: request.namespace, auth: request.auth },
    policy: request.policy,
    direction: request.direction,
    decisions: request.decisions,
    dryRun: request.dry_run,
    sameNames: request.same_names,
  };
}

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

/** Operations that write to the remote (a create, an update, a deletion). */
const writesRemote = (operation: Operation) =>
  operation.type === 'create' ||
  operation.type === 'update' ||
  operation.type === 'delete' ||
  (operation.type === 'adopt' && operation.thenUpdate);

/**
 * The pre-check of what the plan needs: a remote account that may not write some of the kinds it would send
 * (a WordPress author and tags) is refused before anything is sent, naming the kinds and the capability.
 */
function refuseUnwritableKinds(client: RemoteClient, operations: Operation[]): void {
  const counts = new Map<SyncKind, number>();
  for (const operation of operations) {
    if (writesRemote(operation) && client.writeRefusals.has(operation.kind))
      counts.set(operation.kind, (counts.get(operation.kind) ?? 0) + 1);
  }
  if (counts.size === 0) return;
  const kinds = [...counts.keys()];
  const capabilities = [...new Set(kinds.flatMap((kind) => client.writeRefusals.get(kind)!))];
  const listed = (items: string[]) =>
    items.length === 1 ? items[0] : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
  const dependents = kinds.some((kind) => kind !== 'event') ? ', and the events that use them with them' : '';
  throw new RemoteError(
    'REMOTE_INSUFFICIENT_ROLE',
    `The remote account ${client.account ?? ''} may not create or change ${listed(kinds.map((kind) => COLLECTION[kind]))} ` +
      `on the site (it lacks the ${listed(capabilities)} capabilit${capabilities.length === 1 ? 'y' : 'ies'}), ` +
      `so ${listed([...counts].map(([kind, count]) => `${count} ${count === 1 ? kind : COLLECTION[kind]}`))} ` +
      `of this calendar would fail${dependents}. Nothing was sent. Sync with an editor or administrator ` +
      "account, or ask the site's administrator to give this account that permission.",
    403,
  );
}

/**
 * Venues or organizers of one name that the remote would make one record, not settled: nothing is sent (each
 * would be linked to the same site record, and every sync would copy its address over the others).
 */
function sameNamesError(groups: SameNameGroup[]): RemoteError {
  const listed = groups
    .map(
      (group) => `${group.localIds.length} ${group.kind}s "${group.name}" (ids ${group.localIds.join(', ')})`,
    )
    .join('; ');
  const apart = groups.flatMap((group) => group.apartNames.slice(1).map((name) => `"${name}"`)).join(', ');
  return new RemoteError(
    'SYNC_SAME_NAMES',
    `This calendar has ${listed}: the site would make each group one record and give them one address. ` +
      `Nothing was sent. Run the sync again with --keep-apart (they are renamed ${apart}, here and on the ` +
      'site) or --merge-same-names (each group becomes one record here first), or rename them yourself.',
    409,
  );
}

/**
 * Takes out of the plan everything about a record the remote sent that does not fit its kind (see
 * {@link RemoteClient.rejected}): no operation or conflict on it, nor on the local record linked to it (it is
 * not gone there, only unreadable). Each is a failure of that record, in the remote's words; localId 0 for one
 * not linked here.
 */
function leaveOutRejected(
  client: RemoteClient,
  links: LinkState,
  planned: { operations: Operation[]; conflicts: Conflict[] },
): RecordFailure[] {
  if (client.rejected.size === 0) return [];
  const localIds = new Map<string, number>();
  for (const link of links.all()) {
    if (link.remoteId !== null && client.rejected.has(linkKey(link.kind, link.remoteId)))
      localIds.set(linkKey(link.kind, link.remoteId), link.localId);
  }
  const blockedLocal = new Set([...localIds].map(([key, localId]) => `${key.split(':')[0]}:${localId}`));
  const concerns = (item: { kind: SyncKind; localId: number; remoteId?: number | null }) =>
    (item.remoteId != null && client.rejected.has(linkKey(item.kind, item.remoteId))) ||
    (item.localId !== 0 && blockedLocal.has(linkKey(item.kind, item.localId)));
  planned.operations = planned.operations.filter((operation) => !concerns(operation));
  planned.conflicts = planned.conflicts.filter((conflict) => !concerns(conflict));
  return [...client.rejected].map(([key, record]) => ({
    kind: record.kind,
    localId: localIds.get(key) ?? 0,
    title: record.title,
    code: 'remote_bad_record',
    message: record.message,
  }));
}

/**
 * The user's decisions, with `local-wins` for each record this sync renamed to keep it apart (unless decided
 * otherwise): its twin there (same uid) still has the shared name, and the new one was chosen to be sent, here
 * and on the site. Without it, each would wait as a conflict on its name at every sync.
 */
function withRenamedApart(decisions: Decisions | undefined, renamed: Set<string>): Decisions | undefined {
  if (renamed.size === 0) return decisions;
  const all: Decisions = { ...decisions };
  for (const key of renamed) all[key] ??= 'local-wins';
  return all;
}

/** What a sync reads before it plans: the remote verified, the links, the local records and the remote's. */
async function readBeforePlan(client: RemoteClient, options: SyncOptions) {
  await client.verify();
  const links = new LinkState(
    options.store,
    remoteKey(client.root, options.remote.namespace),
    client.root,
    options.remote.namespace,
  );
  // A remote's create reuses a venue or organizer of the same title. Only what is sent is at stake: a pull
  // alone takes the remote's records, each linked to its own.
  const direction = options.direction ?? 'both';
  let sameNames = direction === 'pull' ? [] : sameNameGroups(options.store, links);
  const sameNamesFound = sameNames;
  let renamedApart = new Set<string>();
  if (sameNames.length > 0 && options.sameNames && !options.dryRun) {
    const now = options.clock?.() ?? new Date();
    renamedApart = await settleSameNames(
      sameNames,
      options.sameNames,
      options.store,
      links,
      options.caller,
      now,
    );
    sameNames = sameNameGroups(options.store, links);
  }
  if (sameNames.length > 0 && !options.dryRun) throw sameNamesError(sameNames);
  const local = localRecords(options.store);
  // Another Calendar Desk tells what changed since the cursor; other remotes are read in full every time.
  const feed = client.mayHaveChangeFeed
    ? await readRemoteChanges(client, local, links, links.meta.cursor ?? null)
    : null;
  const remote = feed?.records ?? (await readRemote(client, local, links));
  if (!client.isWordPress && direction !== 'push') {
    const linkedHeads = new Set(
      local
        .filter((record) => record.series?.headId === record.id)
        .map((record) => links.remoteIdOf('event', record.id))
        .filter((id): id is number => id !== null),
    );
    await findRemoteSeries(client, remote, links.all(), linkedHeads);
  }
  return { links, local, feed, remote, sameNamesFound, renamedApart };
}

/**
 * One sync of the local calendar with a remote: verify the remote, read it, plan (two-way unless `direction`
 * says otherwise), and (unless a dry run) execute with a checkpoint per operation.
 */
export async function runSync(options: SyncOptions): Promise<SyncReport> {
  // A cancel stops the reading at once (nothing is sent before the plan), every request and retry's wait
  // included; once operations run, it lets those under way finish (the executor starts no more).
  const reading = new AbortController();
  const stopReading = () => reading.abort();
  if (options.signal?.aborted) reading.abort();
  options.signal?.addEventListener('abort', stopReading, { once: true });
  const client = new RemoteClient({
    ...options.remote,
    signal: reading.signal,
    onRetry: (info) => options.onProgress?.({ type: 'retry', ...info }),
  });
  let read: Awaited<ReturnType<typeof readBeforePlan>>;
  try {
    read = await readBeforePlan(client, options);
  } catch (error) {
    if (!reading.signal.aborted) throw error;
    throw new SyncStoppedError(
      'SYNC_CANCELLED',
      `The sync was cancelled while ${client.root} was being read: nothing was sent or changed. Start it again to sync.`,
      false,
    );
  } finally {
    options.signal?.removeEventListener('abort', stopReading);
  }
  const { links, local, feed, remote, sameNamesFound, renamedApart } = read;
  const direction = options.direction ?? 'both';
  const planned = plan(local, links.all(), remote, {
    policy: options.policy,
    decisions: withRenamedApart(options.decisions, renamedApart),
    mediaLinks: links.allMedia(),
    direction,
    sentProtected: (localEventId) => links.isProtected(localEventId),
  });
  const rejected = leaveOutRejected(client, links, planned);
  for (const failure of rejected)
    options.onProgress?.({
      type: 'rejected',
      kind: failure.kind,
      title: failure.title,
      message: failure.message,
    });
  refuseUnwritableKinds(client, planned.operations);
  const base = {
    remote: client.root,
    namespace: options.remote.namespace,
    operations: planned.operations,
    conflicts: planned.conflicts,
    sameNames: sameNamesFound,
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
          count('update') +
          planned.operations.filter(
            (o) => (o.type === 'adopt' && o.thenUpdate) || (o.type === 'merge' && o.toRemote.length > 0),
          ).length,
        deleted: count('delete'),
        adopted: count('adopt'),
        pulled:
          count('pull') + planned.operations.filter((o) => o.type === 'merge' && o.toLocal.length > 0).length,
        imported: count('import'),
        trashed: count('trash'),
        uploaded: picturesToUpload(planned.operations, local, links),
        conflicts: planned.conflicts.length,
        failed: rejected.length,
      },
      failures: rejected,
      interrupted: false,
    };
  }
  const result = await execute(planned.operations, {
    client,
    store: options.store,
    caller: options.caller,
    now: options.clock?.(),
    links,
    local: new Map(local.map((record) => [linkKey(record.kind, record.id), record])),
    remote: new Map(remote.map((record) => [linkKey(record.kind, record.id), record])),
    onProgress: options.onProgress,
    signal: options.signal,
    concurrency: options.concurrency,
    backoffMs: options.remote.backoffMs,
    sleep: options.remote.sleep,
  });
  const conflictsLeft = planned.conflicts.length + result.lateConflicts.length;
  // The cursor moves on only when this sync took in everything the feed told (two-way, nothing failed or left
  // open): otherwise the next sync reads those changes again.
  const settled =
    feed !== null &&
    direction === 'both' &&
    !result.interrupted &&
    !result.failures.length &&
    !rejected.length &&
    !conflictsLeft;
  const failures = [...rejected, ...result.failures];
  await links.saveMeta({
    ...links.meta,
    ...(settled ? { cursor: feed.cursor } : {}),
    lastSyncUtc: (options.clock?.() ?? new Date()).toISOString(),
    failures: Object.fromEntries(
      failures
        .filter((failure) => failure.localId !== 0)
        .map((failure) => [linkKey(failure.kind, failure.localId), failure.message]),
    ),
  });
  return {
    ...base,
    conflicts: [...planned.conflicts, ...result.lateConflicts],
    dryRun: false,
    summary: { ...result.summary, conflicts: conflictsLeft, failed: result.summary.failed + rejected.length },
    failures,
    interrupted: result.interrupted,
  };
}
