import { randomUUID } from 'node:crypto';
import type { ImportJobStatus } from '../../shared/schemas/imports';
import { ImportError } from './errors';
import type { ImportOptions, ImportResult } from './importFile';

const KEPT_JOBS = 20;

/** Runs an import, calling `onEntry` after each entry of the file. */
export type ImportRun = (onEntry: NonNullable<ImportOptions['onEntry']>) => Promise<ImportResult>;

/**
 * Imports running in the background of a server, one at a time, watched by polling `status()` (the admin API
 * `GET import-jobs/{id}`, for the Import screen's progress bar). Each import stays one import of the history (a large one is applied
 * a slice of rows per store change: its progress moves meanwhile, see importFile.ts).
 */
export class ImportJobs {
  private readonly jobs = new Map<string, ImportJobStatus>();
  private running: string | null = null;

  get busy(): boolean {
    return this.running !== null;
  }

  /** Starts `run` on the next turn (the caller answers first, with the job `running` at 0). */
  start(run: ImportRun): ImportJobStatus {
    const status: ImportJobStatus = {
      id: randomUUID(),
      state: 'running',
      done: 0,
      total: 0,
      result: null,
      error: null,
    };
    this.jobs.set(status.id, status);
    // Keep the latest few finished jobs for their status; older ones are forgotten.
    for (const id of [...this.jobs.keys()].slice(0, Math.max(0, this.jobs.size - KEPT_JOBS)))
      this.jobs.delete(id);
    this.running = status.id;
    const onEntry = (done: number, total: number) => {
      status.done = done;
      status.total = total;
    };
    new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => run(onEntry))
      .then(
        (result) => {
          status.state = 'done';
          status.result = result;
        },
        (error: Error & { code?: string }) => {
          status.state = 'failed';
          status.error =
            error instanceof ImportError
              ? { code: error.code.toLowerCase(), message: error.message, problems: error.problems }
              : { code: (error.code ?? 'import_failed').toLowerCase(), message: error.message };
        },
      )
      .finally(() => {
        this.running = null;
      });
    return status;
  }

  status(id: string): ImportJobStatus | undefined {
    return this.jobs.get(id);
  }
}
