/** How long long work holds the event loop before it lets other requests be answered. */
export const SLICE_MS = 10;

/**
 * Sliced work waiting for a turn, first come first served. One slice runs per turn of the event loop, whatever
 * the number of requests doing sliced work: had each its own `setImmediate`, one turn would run a slice of every
 * one of them back to back (ten searches at once: ten slices, 100 ms without reading a request).
 */
const waiting: Array<() => void> = [];

function runNextSlice() {
  waiting.shift()?.();
  if (waiting.length > 0) setImmediate(runNextSlice);
}

function nextSliceTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (waiting.length === 1) setImmediate(runNextSlice);
  });
}

/**
 * Long work of one request (reading a large import, a search looking at thousands of events) in slices:
 * `pause()` between two steps waits for a turn of the event loop of its own once the slice is used up, so the
 * server keeps answering meanwhile (issues 26 and 32).
 */
export class TimeSlices {
  private started = performance.now();

  /** `budgetMs`: the work between two turns (tests pass 0 to make every pause one). */
  constructor(private readonly budgetMs = SLICE_MS) {}

  async pause(): Promise<void> {
    if (performance.now() - this.started < this.budgetMs) return;
    await nextSliceTurn();
    this.started = performance.now();
  }
}
