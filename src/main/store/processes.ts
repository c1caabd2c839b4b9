import { readFileSync } from 'node:fs';

/** Whether the state of another process can be read here (Linux: `/proc/<pid>/stat`). */
export const PROCESS_STATE_READABLE = process.platform === 'linux';

/**
 * Whether a process of this machine with that pid is running. A process that was killed but that its
 * parent has not collected yet (a zombie, state `Z`) still has its pid, but will never write again: it is
 * not running. Only Linux lets us see that state; elsewhere a zombie looks alive (see {@link waitUntilGone}).
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !PROCESS_STATE_READABLE || !hasEnded(pid);
}

/** Whether `/proc` says the process ended (a zombie, or gone since the signal check). */
function hasEnded(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
  // `pid (command) state …`: the command may hold spaces and parentheses, so the state follows the last `)`.
  const state = stat.slice(stat.lastIndexOf(')') + 1).trim()[0];
  return state === 'Z' || state === 'X' || state === 'x';
}

/**
 * Waits up to `ms` for the process to stop running; true once it has. Where the state of a process cannot
 * be read, a process killed a moment ago may still be a zombie waiting for its parent: this gives the parent
 * the moment it needs.
 */
export async function waitUntilGone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isRunning(pid)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}
