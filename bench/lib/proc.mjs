// Child processes of the benchmark: the server under test, the bare Koa server, the seeder. Every child is
// tracked so that an interrupted run leaves none behind.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

const children = new Set();

function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Kills the children still running (on an error or Ctrl+C). */
export function killChildren() {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/**
 * Spawns `node args...` and resolves with the first stdout line `match` accepts (its match), keeping the child
 * running. Rejects if the child exits first or `timeoutMs` passes.
 */
export function spawnUntil(args, { match, timeoutMs = 120_000, env = process.env, cwd } = {}) {
  const child = track(spawn(process.execPath, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] }));
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    if (stderr.length < 20_000) stderr += chunk;
  });
  const lines = createInterface({ input: child.stdout });
  const output = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')}: no answer within ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    const onExit = (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(
          `${args.join(' ')} exited (${signal ?? code}) before it was ready:\n${output.join('\n')}\n${stderr}`,
        ),
      );
    };
    child.once('exit', onExit);
    lines.on('line', (line) => {
      output.push(line);
      const found = match(line);
      if (found) {
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve({ child, found, output, stderr: () => stderr });
      }
    });
  });
}

/** Runs `node args...` to completion and returns its stdout (rejects on a non-zero exit). */
export async function runNode(args, { env = process.env, cwd } = {}) {
  const child = track(spawn(process.execPath, args, { env, cwd, stdio: ['ignore', 'pipe', 'inherit'] }));
  let stdout = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => (stdout += chunk));
  const [code, signal] = await once(child, 'exit');
  if (code !== 0) throw new Error(`${args.join(' ')} failed (${signal ?? code})`);
  return stdout;
}

/** Sends SIGTERM and waits for the exit (SIGKILL after `timeoutMs`). Returns the time it took and how it ended. */
export async function stopChild(child, timeoutMs = 60_000) {
  if (child.exitCode !== null || child.signalCode !== null)
    return { ms: 0, code: child.exitCode, killed: false };
  const started = performance.now();
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    child.kill('SIGKILL');
  }, timeoutMs);
  const [code, signal] = await exited;
  clearTimeout(timer);
  return { ms: Math.round(performance.now() - started), code: code ?? signal, killed };
}

/** Resident memory of a process, from /proc (Linux): current (VmRSS) and peak (VmHWM), in MB; null elsewhere. */
export function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMB: round(kb('VmRSS') / 1024), peakRssMB: round(kb('VmHWM') / 1024) };
  } catch {
    return null;
  }
}

/** CPU time (user + system) a process has used so far, in ms, from /proc (Linux); null elsewhere. */
export function cpuMsOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces: fields are counted after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
/** USER_HZ: 100 on every mainstream Linux build. */
const CLOCK_TICKS = 100;

export const round = (value, digits = 1) => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

/**
 * Waits until a process stops using the CPU (less than 10% of a core over 300 ms), e.g. a server still
 * answering requests a finished load run abandoned, so that they do not spill into the next measurement.
 */
export async function waitIdle(pid, timeoutMs = 60_000) {
  const deadline = performance.now() + timeoutMs;
  let before = cpuMsOf(pid);
  if (before === null) return;
  while (performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const now = cpuMsOf(pid);
    if (now === null || now - before < 30) return;
    before = now;
  }
}

/**
 * Runs a bench script's `main`: every child it started is killed when it fails or is interrupted, and a
 * failure is one line on stderr (prefixed with `name`) and exit code 1.
 */
export function runMain(name, main) {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      killChildren();
      process.exit(130);
    });
  }
  main().catch((error) => {
    killChildren();
    console.error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}

/**
 * Runs `measure(side, index)` for each side in turn, `rounds` times, so that a noisy spell of the machine falls on
 * every side (issue 32: "alternating the two sides"). Answers each side's results, in the sides' order.
 */
export async function inTurns(sides, rounds, measure) {
  const results = sides.map(() => []);
  for (let turn = 0; turn < rounds; turn++)
    for (const [index, side] of sides.entries()) results[index].push(await measure(side, index));
  return results;
}
