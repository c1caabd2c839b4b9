import { randomUUID } from 'node:crypto';

/** The fields every background job's status has (the rest is the kind of job's own). */
export interface JobStatusBase {
  id: string;
  state: 'running' | 'done' | 'failed';
}

/** One kind of background job: how it runs and how its outcome lands in its status. */
export interface JobWork<S extends JobStatusBase, R> {
  /** Runs the job (started at once; it may defer itself), reporting progress by changing `status`. */
  run(status: S, signal: AbortSignal): Promise<R>;
  /** Records the result (`state` is already `done`). */
  done(status: S, result: R): void;
  /** Records the error (`state` is already `failed`). */
  failed(status: S, error: Error & { code?: string }): void;
  /** Called once the job has ended either way and the registry is free again. */
  finished?(id: string): void;
}

/**
 * Jobs running in the background of a server, one at a time, watched by polling `status()`. The latest
 * `kept` jobs are kept for their status; older ones are forgotten.
 */
export class JobRegistry<S extends JobStatusBase> {
  private readonly jobs = new Map<string, S>();
  private running: string | null = null;
  private readonly stops = new Map<string, AbortController>();

  constructor(private readonly kept = 20) {}

  get busy(): boolean {
    return this.running !== null;
  }

  /** Starts a job whose status is `fields`, `running`; answers that status (changed in place as it runs). */
  start<R>(fields: Omit<S, 'id' | 'state'>, work: JobWork<S, R>): S {
    const status = { id: randomUUID(), state: 'running', ...fields } as S;
    this.jobs.set(status.id, status);
    for (const id of [...this.jobs.keys()].slice(0, Math.max(0, this.jobs.size - this.kept)))
      this.jobs.delete(id);
    this.running = status.id;
    const stop = new AbortController();
    this.stops.set(status.id, stop);
    work
      .run(status, stop.signal)
      .then(
        (result) => {
          status.state = 'done';
          work.done(status, result);
        },
        (error: Error & { code?: string }) => {
          status.state = 'failed';
          work.failed(status, error);
        },
      )
      .finally(() => {
        this.running = null;
        this.stops.delete(status.id);
        work.finished?.(status.id);
      });
    return status;
  }

  /** Signals a running job to stop (how it stops is the job's own); false when no such job runs. */
  cancel(id: string): boolean {
    const stop = this.stops.get(id);
    stop?.abort();
    return stop !== undefined;
  }

  status(id: string): S | undefined {
    return this.jobs.get(id);
  }
}
