import { setImmediate as nextTurn } from 'node:timers/promises';

/** How long long work holds the event loop before it lets other requests be answered. */
export const SLICE_MS = 10;

/**
 * Long work of one request (reading a large import) in slices: `pause()` between two steps waits for the
 * next turn of the event loop once the slice is used up, so the server keeps answering meanwhile (issue 26).
 */
export class TimeSlices {
  private started = performance.now();

  async pause(): Promise<void> {
    if (performance.now() - this.started < SLICE_MS) return;
    await nextTurn();
    this.started = performance.now();
  }
}
