import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { SyncStoppedError, type SyncProgress } from './executor';
import type { SyncJobStatus } from '../../shared/schemas/sync';
import { runSync, type SyncOptions } from './sync';

export type { SyncJobStatus } from '../../shared/schemas/sync';

const KEPT_JOBS = 20;

/**
 * Syncs running in the background of a server, one at a time, watched by polling `status()` (the admin API)
 * or by listening to `progress` events (in-process).
 */
export class SyncJobs extends EventEmitter {
  private readonly jobs = new Map<string, SyncJobStatus>();
  private running: string | null = null;
  private readonly stops = new Map<string, AbortController>();

  get busy(): boolean {
    return this.running !== null;
  }

  start(options: Omit<SyncOptions, 'onProgress' | 'signal'>): SyncJobStatus {
    const status: SyncJobStatus = {
      id: randomUUID(),
      state: 'running',
      done: 0,
      total: 0,
      last: null,
      report: null,
      error: null,
    };
    this.jobs.set(status.id, status);
    // Keep the latest few finished jobs for their status; older ones are forgotten.
    for (const id of [...this.jobs.keys()].slice(0, Math.max(0, this.jobs.size - KEPT_JOBS)))
      this.jobs.delete(id);
    this.running = status.id;
    const stop = new AbortController();
    this.stops.set(status.id, stop);
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
    runSync({ ...options, onProgress, signal: stop.signal })
      .then(
        (report) => {
          status.state = 'done';
          status.report = report;
        },
        (error: Error & { code?: string }) => {
          status.state = 'failed';
          status.error = {
            code: error.code ?? 'SYNC_FAILED',
            message: error.message,
            stoppedPartWay: error instanceof SyncStoppedError && error.partWay,
          };
        },
      )
      .finally(() => {
        this.running = null;
        this.stops.delete(status.id);
        this.emit('finished', status.id);
      });
    return status;
  }

  /**
   * Stops a running job: while the remote is read, at once (it fails with SYNC_CANCELLED, nothing done); once
   * operations run, after those under way (what is done stays done; a new sync resumes).
   */
  cancel(id: string): boolean {
    const stop = this.stops.get(id);
    stop?.abort();
    return stop !== undefined;
  }

  status(id: string): SyncJobStatus | undefined {
    return this.jobs.get(id);
  }
}
