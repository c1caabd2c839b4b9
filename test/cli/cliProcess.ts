import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** Runs the `calendar-desk` command as users do: `node bin/calendar-desk.js …`, a real child process. */
export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const BIN = join(ROOT, 'bin', 'calendar-desk.js');
const BUILT = join(ROOT, 'out', 'main', 'cli.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds the CLI (`npx electron-vite build`, about 1.5 s) when it is missing or older than its sources. */
export async function ensureBuilt(): Promise<void> {
  const sources = Math.max(
    ...['src/main', 'src/shared', 'src/preload', 'src/renderer'].map((dir) => newestSource(join(ROOT, dir))),
    statSync(join(ROOT, 'electron.vite.config.ts')).mtimeMs,
  );
  if (existsSync(BUILT) && statSync(BUILT).mtimeMs >= sources) return;
  await promisify(execFile)('npx', ['electron-vite', 'build'], { cwd: ROOT, timeout: 120_000 });
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** An environment that cannot reach the user's real calendar nor their remotes' secrets: a throwaway home. */
export function isolatedEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    ...extra,
  };
  for (const name of ['CALENDAR_DESK_DATA', 'CALENDAR_DESK_REMOTE_TOKEN', 'CALENDAR_DESK_REMOTE_PASSWORD'])
    if (!(name in extra)) delete env[name];
  delete env.CALENDAR_DESK_TIMEZONE;
  // A new calendar's currency follows the machine's locale: tests start from none (the original's `$` USD).
  for (const name of ['LC_ALL', 'LC_MONETARY', 'LANG']) if (!(name in extra)) delete env[name];
  env.LANG = extra.LANG ?? 'C.UTF-8';
  return env;
}

export function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<RunResult> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolveRun({ code, stdout, stderr }));
  });
}

export interface CliProcess {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves when the output so far satisfies `test` (checked on every chunk). */
  waitFor(test: (output: { stdout: string; stderr: string }) => boolean): Promise<void>;
  exited: Promise<RunResult>;
}

/** Starts a command and lets the test act while it runs (e.g. break the remote mid-sync). */
export function startCli(args: string[], env: NodeJS.ProcessEnv): CliProcess {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env });
  let stdout = '';
  let stderr = '';
  const watchers = new Set<() => void>();
  const notify = () => watchers.forEach((check) => check());
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
    notify();
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    notify();
  });
  const exited = new Promise<RunResult>((resolveExit, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolveExit({ code, stdout, stderr }));
  });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    waitFor: (test) =>
      new Promise((resolveWait, reject) => {
        const check = () => {
          if (!test({ stdout, stderr })) return;
          watchers.delete(check);
          resolveWait();
        };
        watchers.add(check);
        void exited.then((result) => {
          if (watchers.delete(check))
            reject(new Error(`exited (${result.code}) before the awaited output: ${stderr.slice(-2000)}`));
        });
        check();
      }),
    exited,
  };
}

/** The last non-empty line of an output. */
export const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';

export interface ServeProcess {
  child: ChildProcess;
  stdout: string;
  stderr: () => string;
  apiRoot: string;
  /** The UI's address (`http://127.0.0.1:port/`), without the sign-in fragment. */
  webUi: string;
  /** The whole `Web UI` line: the address with `#/signin?code=…` (a one-time code). */
  signInLink: string;
  tokenFile: string;
  exited: Promise<number | null>;
}

/** Starts `serve` and resolves once it has printed where it listens (or rejects with what it printed). */
export function startServe(
  args: string[],
  env: NodeJS.ProcessEnv,
  /** Options of Node itself (a benchmark preloading a module: `--import …`). */
  nodeArgs: string[] = [],
): Promise<ServeProcess> {
  return startServeOf([process.execPath, ...nodeArgs, BIN], args, env);
}

/** {@link startServe} of another `calendar-desk` (an installed one): `command` is the program and its first arguments. */
export function startServeOf(
  command: string[],
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd = ROOT,
): Promise<ServeProcess> {
  const [file, ...first] = command;
  const child = spawn(file, [...first, 'serve', ...args], { cwd, env });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolveExit) => child.on('close', resolveExit));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolveStart, reject) => {
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (!stdout.includes('Press Ctrl+C')) return;
      const field = (label: string) => new RegExp(`${label}:\\s+(\\S+)`).exec(stdout)?.[1] ?? '';
      resolveStart({
        child,
        stdout,
        stderr: () => stderr,
        apiRoot: field('API root'),
        webUi: field('Web UI').split('#')[0],
        signInLink: field('Web UI'),
        tokenFile: field('Admin token'),
        exited,
      });
    });
    void exited.then((code) => reject(new Error(`serve exited (${code}) before it was ready: ${stderr}`)));
  });
}
