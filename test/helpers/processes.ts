import { spawn } from 'node:child_process';

/** The pid of a process of this machine that has just ended (what a crashed writer's files name). */
export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('close', resolve));
  return child.pid!;
}
