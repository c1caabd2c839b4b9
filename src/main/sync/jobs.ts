import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { SyncProgress } from './executor';
import { runSync, type SyncOptions, type SyncReport } from './sync';

export interface SyncJobStatus {
  id: string;
  state: 'running' | 'done' | 'failed';
  /** Operations done of the total (0/0 while the remote is being read). */
  done: number;
  total: number;
  last: string | null;
  report: SyncReport | null;
  error: { code: string; message: string } | null;
}

/**
 * Syncs running in the background of a server, one at a time, watched by polling `status()` (the admin API)
 * or by listening to `progress` events (in-process).
 */
export class SyncJobs extends EventEmitter {
  private readonly jobs = new Map<string, SyncJobStatus>();
  private running: string | null = null;

  get busy(): boolean {
    return this.running !== null;
  }

  start(options: Omit<SyncOptions, 'onProgress'>): SyncJobStatus {
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
    this.running = status.id;
    const onProgress = (event: SyncProgress) => {
      if (event.type === 'start') status.total = event.total;
      if (event.type === 'operation') {
        status.done = event.index;
        status.last = `${event.operation.type} ${event.operation.kind} "${event.operation.title}": ${event.outcome}`;
      }
      this.emit('progress', status.id, event);
    };
    runSync({ ...options, onProgress })
      .then(
        (report) => {
          status.state = 'done';
          status.report = report;
        },
        (error: Error & { code?: string }) => {
          status.state = 'failed';
          status.error = { code: error.code ?? 'SYNC_FAILED', message: error.message };
        },
      )
      .finally(() => {
        this.running = null;
        this.emit('finished', status.id);
      });
    return status;
  }

  status(id: string): SyncJobStatus | undefined {
    return this.jobs.get(id);
  }
}
