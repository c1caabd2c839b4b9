/**
 * What every part of one sync run shares: the remote, the local calendar and its links, the caller's options,
 * the running tally and the progress told to watchers. Built once per run by `execute` (sync/executor.ts).
 */
import type { Conflict, Link, LocalRecord, Operation, RemoteRecord, SyncKind } from '../model';
import { contentHash } from '../compare';
import type { RemoteClient } from '../remoteClient';
import type { LinkState } from '../linkState';
import type { SyncSummary } from '../../../shared/schemas/sync';
import type { CalendarStore } from '../../store/store';
import type { Caller } from '../../core/capabilities';
import { eventPasswords } from '../eventPassword';

/** What the executor tells its watchers (CLI bar, `--json` lines, the desktop app's job status). */
export type SyncProgress =
  | { type: 'start'; total: number }
  | {
      type: 'operation';
      index: number;
      total: number;
      operation: Operation;
      outcome: 'done' | 'adopted' | 'failed' | 'conflict';
      message?: string;
    }
  | { type: 'retry'; attempt: number; waitMs: number; reason: string }
  /**
   * A record the remote sent that does not fit its kind (`remoteDialects.ts`), left out of the sync; `message`
   * in the remote's words. Told once the remote is read, before any operation; the report lists it too.
   */
  | { type: 'rejected'; kind: SyncKind; title: string; message: string }
  /** A picture was uploaded (`uploaded`: how many so far in this run), before the record that shows it. */
  | { type: 'upload'; fileName: string; remoteId: number; uploaded: number };

export interface ExecuteOptions {
  client: RemoteClient;
  /** The local calendar (a `pull` writes into it). */
  store: CalendarStore;
  /** Who started the sync: a `pull` writes as this user, under the rules of the API's writes. */
  caller: Caller;
  now?: Date;
  links: LinkState;
  local: Map<string, LocalRecord>;
  remote: Map<string, RemoteRecord>;
  onProgress?: (event: SyncProgress) => void;
  /** Stops between operations (the desktop app's Cancel; tests interrupt a sync with it). */
  signal?: AbortSignal;
  /** Operations sent at once, within each stage of the dependency order (default 4). */
  concurrency?: number;
  /** Tries of a create whose outcome is unknown (looked up by slug before each new try). */
  createAttempts?: number;
  backoffMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface ExecuteContext {
  readonly options: ExecuteOptions;
  readonly client: RemoteClient;
  readonly links: LinkState;
  /** What the run did so far (the report's summary). */
  readonly summary: SyncSummary;
  /** Records found changed on the remote while the sync ran (If-Match refused): left as they are. */
  readonly lateConflicts: Conflict[];
  /** An event's password, which may travel apart from its body (WordPress). */
  readonly passwords: ReturnType<typeof eventPasswords>;
  readonly sleep: (ms: number) => Promise<void>;
  progress(event: SyncProgress): void;
}

/** A sync's summary before anything is done (every remote's executor starts from it). */
export const emptySummary = (): SyncSummary => ({
  created: 0,
  updated: 0,
  deleted: 0,
  adopted: 0,
  pulled: 0,
  imported: 0,
  trashed: 0,
  uploaded: 0,
  conflicts: 0,
  failed: 0,
});

export function executeContext(options: ExecuteOptions): ExecuteContext {
  return {
    options,
    client: options.client,
    links: options.links,
    summary: emptySummary(),
    lateConflicts: [],
    passwords: eventPasswords(options.client, options.links),
    sleep: options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))),
    progress: (event) => options.onProgress?.(event),
  };
}

/** The link to store after the remote answered with `record` for local revision `revision`. */
export const linkFor = (
  kind: SyncKind,
  localId: number,
  revision: number | null,
  record: RemoteRecord,
): Link => ({
  kind,
  localId,
  remoteId: record.id,
  pushedRevision: revision,
  remoteModifiedUtc: record.modifiedUtc,
  remoteEtag: record.etag,
  remoteHash: contentHash(record.fields),
  // What the remote answered is what both sides now hold: the base of the next three-way merge.
  base: record.fields,
});
