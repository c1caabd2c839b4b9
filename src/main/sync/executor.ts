/**
 * Runs a sync plan against the remote: its operations in dependency stages, a few at a time; one record's
 * failure recorded on it, a failure every later request would share (credentials, remote gone) stopping the
 * run. What one operation does is in execute/ (operations, pictures, request bodies, send-once).
 */
import type { Conflict, Operation } from './model';
import { linkKey } from './model';
import { RemoteError } from './remoteClient';
import type { RecordFailure, SyncSummary } from '../../shared/schemas/sync';
import { RecordProblem } from './eventPassword';
import { DEFAULT_CONCURRENCY, inPool, remoteCategoryDepth, stagesOf } from './stages';
import { executeContext, type ExecuteOptions } from './execute/context';
import { RunPictures } from './execute/pictures';
import { LateConflictError, RunOperations } from './execute/operations';

export type { RecordFailure, SyncSummary } from '../../shared/schemas/sync';
export type { ExecuteOptions, SyncProgress } from './execute/context';

type OperationOutcome = 'done' | 'adopted' | 'failed' | 'conflict';

/** The sync cannot go on (credentials revoked, remote gone): what is done stays done, a re-run resumes. */
export class SyncStoppedError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** Stopped part-way (exit status 3: run it again) rather than before anything was done (exit status 1). */
    readonly partWay = true,
  ) {
    super(message);
  }

  /** The CLI's exit status (README): 3 for a sync to run again, 1 for one that could not start. */
  get exitStatus(): number {
    return this.partWay ? 3 : 1;
  }
}

/** Remote errors that stop the whole sync rather than fail one record: every later request would fail too. */
const STOPPING_ERRORS = new Set(['REMOTE_BAD_CREDENTIALS', 'REMOTE_UNREACHABLE', 'REMOTE_UNAVAILABLE']);

export interface ExecuteResult {
  summary: SyncSummary;
  failures: RecordFailure[];
  /** Records found changed on the remote while the sync ran (If-Match refused): left as they are. */
  lateConflicts: Conflict[];
  interrupted: boolean;
}

/**
 * Performs a plan's operations in order, checkpointing each finished one in the store. A 4xx on one record is
 * recorded on it and the rest go on; 401 or an unreachable remote stops the run (a re-run resumes).
 */
export async function execute(operations: Operation[], options: ExecuteOptions): Promise<ExecuteResult> {
  const context = executeContext(options);
  const { summary, lateConflicts } = context;
  const failures: RecordFailure[] = [];
  const performer = new RunOperations(context, new RunPictures(context));
  context.progress({ type: 'start', total: operations.length });

  let completed = 0;
  /** The first error that stops the whole sync; no operation starts after it. */
  let stopping: RemoteError | null = null;
  const report = (operation: Operation, outcome: OperationOutcome, message?: string) => {
    completed++;
    context.progress({
      type: 'operation',
      index: completed,
      total: operations.length,
      operation,
      outcome,
      message,
    });
  };
  const run = async (operation: Operation) => {
    try {
      report(operation, await performer.perform(operation));
    } catch (error) {
      if (error instanceof RemoteError && STOPPING_ERRORS.has(error.code)) {
        stopping ??= error;
        return;
      }
      if (error instanceof LateConflictError) {
        report(operation, 'conflict', error.message);
        return;
      }
      if (!(error instanceof RemoteError) && !(error instanceof RecordProblem)) throw error;
      const message = failureMessage(error);
      summary.failed++;
      failures.push({
        kind: operation.kind,
        localId: operation.localId,
        title: operation.title,
        code: error instanceof RemoteError ? (error.remoteCode ?? error.code) : error.code,
        message,
      });
      report(operation, 'failed', message);
    }
  };
  /**
   * A page of events new on the remote: imported in one store change; should one of them be refused here,
   * one by one (each failure its own).
   */
  const runImports = async (page: ImportOperation[]) => {
    let imported = false;
    try {
      imported = await performer.importEvents(page);
    } catch (error) {
      // Told by the operations one by one (a stopping error, a record the remote answers badly).
      if (!(error instanceof RemoteError)) throw error;
    }
    if (imported) for (const operation of page) report(operation, 'done');
    else for (const operation of page) if (mayStart()) await run(operation);
  };
  let started = 0;
  const mayStart = () => !stopping && !options.signal?.aborted;
  for (const stage of stagesOf(operations, options.local, remoteCategoryDepth(options.remote))) {
    await inPool(workOf(stage), options.concurrency ?? DEFAULT_CONCURRENCY, mayStart, (work) => {
      if (!Array.isArray(work)) {
        started++;
        return run(work);
      }
      started += work.length;
      return runImports(work);
    });
    if (!mayStart()) break;
  }
  // Cancelled with operations not started (those under way when it came were finished).
  const interrupted = options.signal?.aborted === true && started < operations.length;
  // Sent concurrently, failures come in any order: listed in the plan's.
  const order = new Map(
    operations.map((operation, index) => [linkKey(operation.kind, operation.localId), index]),
  );
  failures.sort((a, b) => order.get(linkKey(a.kind, a.localId))! - order.get(linkKey(b.kind, b.localId))!);
  if (stopping) {
    const error: RemoteError = stopping;
    throw new SyncStoppedError(
      error.code,
      `${error.message} The sync stopped after ${completed} of ${operations.length} operations; what was done is saved, run it again to continue.`,
    );
  }
  summary.conflicts += lateConflicts.length;
  return { summary, failures, lateConflicts, interrupted };
}

type ImportOperation = Extract<Operation, { type: 'import' }>;

/** Events new on the remote imported in one store change (and their texts read in one request). */
export const IMPORT_PAGE = 50;

/** A stage's work: its operations one by one, but the imports of events by pages of {@link IMPORT_PAGE}. */
function workOf(stage: Operation[]): (Operation | ImportOperation[])[] {
  const imports = stage.filter(
    (operation): operation is ImportOperation => operation.type === 'import' && operation.kind === 'event',
  );
  const work: (Operation | ImportOperation[])[] = stage.filter(
    (operation) => operation.type !== 'import' || operation.kind !== 'event',
  );
  for (let at = 0; at < imports.length; at += IMPORT_PAGE) work.push(imports.slice(at, at + IMPORT_PAGE));
  return work;
}

/**
 * A record's failure as its user reads it: what happened and what they can do. Messages written for one case
 * (a picture, a password, a role) already say it; the remote's own refusals get it here, by kind of answer.
 */
function failureMessage(error: RemoteError | RecordProblem): string {
  if (error instanceof RecordProblem) return error.message;
  if (error.code === 'REMOTE_UNKNOWN_OUTCOME') {
    return (
      `${error.message} The site did not confirm it after several tries: run the sync again; it looks for ` +
      'the record on the site before sending it again, so nothing is duplicated.'
    );
  }
  if (error.code === 'REMOTE_BAD_RECORD') {
    return `${error.message} Tell the site's administrator: another plugin may change what the site answers.`;
  }
  if (error.code !== 'REMOTE_HTTP_ERROR' || error.status === null) return error.message;
  const status = error.status;
  const advice =
    status === 403
      ? 'This account may not do that on the site: sync with an editor or administrator account.'
      : status === 404 || status === 410
        ? 'The site no longer has it: run the sync again, which then asks (--policy) whether to send it anew.'
        : status >= 500
          ? "The site failed on this record: its administrator finds why in the site's PHP error log. Run the sync again once that is fixed."
          : status === 400
            ? 'The site refused what was sent: if the reason names something of this record you can change here, ' +
              'correct it and run the sync again; otherwise this Calendar Desk does not fit the version of ' +
              'The Events Calendar on the site: report it to the Calendar Desk developers with this message.'
            : "Run the sync again; if it fails the same way, tell the site's administrator.";
  return `${error.message} ${advice}`;
}
