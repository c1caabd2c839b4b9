import { EventEmitter } from 'node:events';
import { JobRegistry } from '../core/jobs';
import { SyncStoppedError, type SyncProgress } from './executor';
import type { SyncJobStatus } from '../../shared/schemas/sync';
import { runSync, type SyncOptions, type SyncReport } from './sync';

export type { SyncJobStatus } from '../../shared/schemas/sync';

/**
 * Syncs running in the background of a server, one at a time, watched by polling `status()` (the admin API)
 * or by listening to `progress` events (in-process).
 */
export class SyncJobs extends EventEmitter {
  private readonly jobs = new JobRegistry<SyncJobStatus>();

  /** `run`: the sync of a job (default: the REST remotes'; the server passes one that knows every kind). */
  constructor(private readonly run: (options: SyncOptions) => Promise<SyncReport> = runSync) {
    super();
  }

  get busy(): boolean {
    return this.jobs.busy;
  }

  start(options: Omit<SyncOptions, 'onProgress' | 'signal'>): SyncJobStatus {
    return this.jobs.start(
      { done: 0, total: 0, last: null, report: null, error: null },
      {
        run: (status, signal) => {
          const onProgress = (event: SyncProgress) => {
            if (event.type === 'start') status.total = event.total;
            if (event.type === 'operation') {
              status.done = event.index;
              status.last = `${event.operation.type} ${event.operation.kind} "${event.operation.title}": ${event.outcome}`;
            }
            if (event.type === 'upload') status.last = `uploaded picture ${event.fileName}`;
            if (event.type === 'rejected')
              status.last = `left out ${event.kind} "${event.title}": ${event.message}`;
            this.emit('progress', status.id, event);
          };
          return this.run({ ...options, onProgress, signal });
        },
        done: (status, report) => {
          status.report = report;
        },
        failed: (status, error) => {
          status.error = {
            code: error.code ?? 'SYNC_FAILED',
            message: error.message,
            stoppedPartWay: error instanceof SyncStoppedError && error.partWay,
          };
        },
        finished: (id) => this.emit('finished', id),
      },
    );
  }

  /**
   * Stops a running job: while the remote is read, at once (it fails with SYNC_CANCELLED, nothing done); once
   * operations run, after those under way (what is done stays done; a new sync resumes).
   */
  cancel(id: string): boolean {
    return this.jobs.cancel(id);
  }

  status(id: string): SyncJobStatus | undefined {
    return this.jobs.status(id);
  }
}
