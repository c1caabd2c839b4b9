import { resolve } from 'node:path';

/** The last task queued per file (by absolute path), settled or not. */
const tails = new Map<string, Promise<unknown>>();

/**
 * Runs `task` once every task queued before it for the same file has settled (failed ones included), and
 * gives its result. The small files of the data folder (feed secret, import addresses, port, owner record)
 * are each rewritten whole: two requests writing one at the same moment must not interleave, and whatever
 * the task keeps in memory after its write then follows the order of the writes on disk.
 */
export function queueFileWrite<T>(file: string, task: () => Promise<T>): Promise<T> {
  const key = resolve(file);
  const run = (tails.get(key) ?? Promise.resolve()).then(task);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  tails.set(key, tail);
  // Forgotten once idle, so a long-running process keeps no entry per file it ever wrote.
  void tail.then(() => {
    if (tails.get(key) === tail) tails.delete(key);
  });
  return run;
}
