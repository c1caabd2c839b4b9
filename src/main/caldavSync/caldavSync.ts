import { CalendarObjects } from '../dav/calendarObjects';
import { LinkState, remoteKey } from '../sync/linkState';
import type { Conflict, Operation } from '../sync/model';
import { plan } from '../sync/planner';
import { RemoteError } from '../sync/remoteErrors';
import { SyncStoppedError } from '../sync/executor';
import type { SyncOptions, SyncReport } from '../sync/sync';
import type { RecordFailure, SyncSummary } from '../../shared/schemas/sync';
import { DavCalendar } from './davCalendar';
import { emptySummary } from '../sync/execute/context';
import { executeCaldav } from './execute';
import { readRemote } from './readRemote';
import { localResources } from './resources';

/** The namespace a saved or given remote has when it is a CalDAV calendar (its root is the calendar's address). */
export const CALDAV_NAMESPACE = 'caldav';
export const isCaldavRemote = (remote: { namespace?: string }) => remote.namespace === CALDAV_NAMESPACE;

/** Rounds of one sync: a record changed on the server while a round wrote it is read and merged by the next. */
const MAX_ROUNDS = 3;

const add = (total: SyncSummary, more: SyncSummary) => {
  for (const key of Object.keys(total) as (keyof SyncSummary)[]) total[key] += more[key];
};

function dryRunSummary(operations: Operation[], conflicts: Conflict[], failed: number): SyncSummary {
  const count = (type: Operation['type']) => operations.filter((one) => one.type === type).length;
  const merges = operations.filter((one) => one.type === 'merge');
  return {
    ...emptySummary(),
    created: count('create'),
    updated:
      count('update') +
      operations.filter((one) => one.type === 'adopt' && one.thenUpdate).length +
      merges.filter((one) => one.toRemote.length > 0).length,
    deleted: count('delete'),
    adopted: count('adopt'),
    pulled: count('pull') + merges.filter((one) => one.toLocal.length > 0).length,
    imported: count('import'),
    trashed: count('trash'),
    conflicts: conflicts.length,
    failed,
  };
}

/**
 * The token to continue from after a round: past this round's own writes when the server's changes since the
 * round's token are exactly those (each changed resource has the ETag we linked, each gone one was deleted by
 * us), so the next sync does not read back what it sent; else the round's token (the next sync sees the rest).
 */
async function tokenAfterOwnWrites(
  dav: DavCalendar,
  links: LinkState,
  token: string,
  operations: Operation[],
): Promise<string> {
  if (!operations.some((one) => ['create', 'update', 'delete', 'merge', 'adopt'].includes(one.type)))
    return token;
  const since = await dav.changesSince(token).catch(() => null);
  if (!since) return token;
  const linked = new Map(
    links.all().flatMap((link) => (link.remoteHref ? [[link.remoteHref, link.remoteEtag] as const] : [])),
  );
  const ours = [...since.changed].every(([href, etag]) => etag !== null && linked.get(href) === etag);
  const goneOurs = [...since.gone].every((href) => !linked.has(href));
  return ours && goneOurs ? since.token : token;
}

/**
 * One sync of the local calendar with a CalDAV calendar: the same planner, policies, three-value conflicts,
 * dry run, progress and checkpoints as the other remotes (sync/sync.ts), over resources instead of records.
 */
export async function runCaldavSync(options: SyncOptions): Promise<SyncReport> {
  const { store, caller, remote } = options;
  const clock = options.clock ?? (() => new Date());
  const reading = new AbortController();
  const stop = () => reading.abort();
  if (options.signal?.aborted) reading.abort();
  options.signal?.addEventListener('abort', stop, { once: true });
  const dav = new DavCalendar(remote.root, {
    auth: remote.auth,
    signal: reading.signal,
    timeoutMs: remote.timeoutMs,
    attempts: remote.attempts,
    backoffMs: remote.backoffMs,
    sleep: remote.sleep,
    onRetry: (info) => options.onProgress?.({ type: 'retry', ...info }),
  });
  const objects = new CalendarObjects(store);
  const links = new LinkState(store, remoteKey(dav.url, CALDAV_NAMESPACE), dav.url, CALDAV_NAMESPACE);
  const direction = options.direction ?? 'both';
  const summary = emptySummary();
  const operations: Operation[] = [];
  const failures: RecordFailure[] = [];
  let conflicts: Conflict[] = [];
  let interrupted = false;
  try {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      let freshToken: string | null | undefined;
      if (round === 0) {
        const state = await dav.state();
        freshToken = state.token;
        if (!state.isCalendar)
          throw new RemoteError(
            'REMOTE_NOT_THIS_API',
            `${dav.url} is not a calendar on the CalDAV server: give the calendar's address, or the server's and ` +
              'the calendar name.',
          );
      }
      const read = await readRemote(dav, links, freshToken);
      const local = localResources(store, objects, caller, links);
      const planned = plan(
        [...local.values()].map((one) => one.record),
        links.all(),
        read.records,
        {
          policy: options.policy,
          decisions: options.decisions,
          direction,
        },
      );
      // A resource that could not be read is left as it is on both sides.
      const unreadable = new Set(read.failures.map((failure) => failure.localId).filter(Boolean));
      planned.operations = planned.operations.filter((one) => !unreadable.has(one.localId));
      if (round === 0)
        for (const failure of read.failures) options.onProgress?.({ type: 'rejected', ...failure });
      if (round === 0) failures.push(...read.failures);
      operations.push(...planned.operations);
      conflicts = planned.conflicts;
      if (options.dryRun)
        return {
          remote: dav.url,
          namespace: CALDAV_NAMESPACE,
          dryRun: true,
          operations,
          conflicts,
          summary: dryRunSummary(operations, conflicts, failures.length),
          failures,
          interrupted: false,
          sameNames: [],
        };
      const outcome = await executeCaldav(planned.operations, {
        dav,
        store,
        caller,
        objects,
        links,
        clock,
        local,
        resources: read.resources,
        onProgress: options.onProgress,
        signal: options.signal,
        concurrency: options.concurrency,
      });
      add(summary, outcome.summary);
      failures.push(...outcome.failures);
      interrupted = outcome.interrupted;
      const settled =
        direction === 'both' && !interrupted && !failures.length && !conflicts.length && outcome.stale === 0;
      const token =
        settled && read.token ? await tokenAfterOwnWrites(dav, links, read.token, planned.operations) : null;
      await links.saveMeta({
        ...links.meta,
        ...(token ? { davToken: token } : {}),
        lastSyncUtc: clock().toISOString(),
        failures: Object.fromEntries(
          failures.filter((one) => one.localId).map((one) => [`event:${one.localId}`, one.message]),
        ),
      });
      if (outcome.stale === 0 || interrupted) break;
    }
  } catch (error) {
    if (!reading.signal.aborted) throw error;
    throw new SyncStoppedError(
      'SYNC_CANCELLED',
      `The sync with ${dav.url} was cancelled: what was done stays done. Start it again to finish.`,
      operations.length > 0,
    );
  } finally {
    options.signal?.removeEventListener('abort', stop);
  }
  summary.conflicts = conflicts.length;
  // Resources that could not be read count as failed records, as a REST remote's rejected records do.
  summary.failed = failures.length;
  return {
    remote: dav.url,
    namespace: CALDAV_NAMESPACE,
    dryRun: false,
    operations,
    conflicts,
    summary,
    failures,
    interrupted,
    sameNames: [],
  };
}
