import { setImmediate as nextTurn } from 'node:timers/promises';
import { JobRegistry } from '../core/jobs';
import type { ImportJobStatus } from '../../shared/schemas/imports';
import { ImportError } from './errors';
import type { ImportOptions, ImportResult } from './importFile';

/** Runs an import, calling `onEntry` after each entry of the file. */
export type ImportRun = (onEntry: NonNullable<ImportOptions['onEntry']>) => Promise<ImportResult>;

/**
 * Imports running in the background of a server, one at a time, watched by polling `status()` (the admin API
 * `GET import-jobs/{id}`, for the Import screen's progress bar). Each import stays one import of the history (a large one is applied
 * a slice of rows per store change: its progress moves meanwhile, see importFile.ts).
 */
export class ImportJobs {
  private readonly jobs = new JobRegistry<ImportJobStatus>();

  get busy(): boolean {
    return this.jobs.busy;
  }

  /** Starts `run` on the next turn (the caller answers first, with the job `running` at 0). */
  start(run: ImportRun): ImportJobStatus {
    return this.jobs.start(
      { done: 0, total: 0, result: null, error: null },
      {
        run: (status) => {
          const onEntry = (done: number, total: number) => {
            status.done = done;
            status.total = total;
          };
          return nextTurn().then(() => run(onEntry));
        },
        done: (status, result) => {
          status.result = result;
        },
        failed: (status, error) => {
          status.error =
            error instanceof ImportError
              ? { code: error.code.toLowerCase(), message: error.message, problems: error.problems }
              : { code: (error.code ?? 'import_failed').toLowerCase(), message: error.message };
        },
      },
    );
  }

  status(id: string): ImportJobStatus | undefined {
    return this.jobs.status(id);
  }
}
