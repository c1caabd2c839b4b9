// `npm start`: build what changed, then launch the desktop app; where the Electron binary cannot be obtained
// (offline machines, blocked downloads), say so and run the same app headless in the browser instead of failing
// obscurely. A failed download is remembered, so later starts do not wait for it again (--fetch-electron retries).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
/** The mark of a failed download, kept in the electron package (a fresh `npm ci` clears it). */
const FETCH_FAILED_MARK = '.calendar-desk-fetch-failed';
const args = process.argv.slice(2);
const retryFetch = args.includes('--fetch-electron');
const serveArgs = args.filter((arg) => arg !== '--fetch-electron');

/** The newest modification time under `path` (a file or a folder), in ms. */
function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)));
  return newest;
}

/** Builds the app when its sources changed since the last build (or there is none): a start is quick. */
function buildIfChanged() {
  const built = ['out/main/index.js', 'out/main/cli.js', 'out/renderer/index.html'].map((file) =>
    newestChange(join(ROOT, file)),
  );
  const sources = Math.max(
    ...['src', 'electron.vite.config.ts', 'package.json', 'package-lock.json'].map((file) =>
      newestChange(join(ROOT, file)),
    ),
  );
  if (built.every((time) => time > sources)) return;
  console.log('Building Calendar Desk…');
  const build = spawnSync(
    process.execPath,
    [join(dirname(require.resolve('electron-vite/package.json')), 'bin', 'electron-vite.js'), 'build'],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  if (build.status !== 0) {
    // Only a failed build's output is worth reading.
    process.stderr.write(`${build.stdout}${build.stderr}`);
    console.error('The build failed (see above).');
    process.exit(1);
  }
}

/** The `electron` npm package folder; CALENDAR_DESK_ELECTRON_PACKAGE replaces it (tests use a broken one). */
function electronPackageDir() {
  if (process.env.CALENDAR_DESK_ELECTRON_PACKAGE) return process.env.CALENDAR_DESK_ELECTRON_PACKAGE;
  try {
    return dirname(require.resolve('electron/package.json'));
  } catch {
    return null;
  }
}

/** Set when this start skipped the download because an earlier one failed. */
let failedEarlier = false;

function electronBinary() {
  const packageDir = electronPackageDir();
  if (!packageDir) return null;
  const pathFile = join(packageDir, 'path.txt');
  const binary = () =>
    existsSync(pathFile) && join(packageDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  if (binary() && existsSync(binary())) return binary();
  const failedMark = join(packageDir, FETCH_FAILED_MARK);
  if (existsSync(failedMark) && !retryFetch) {
    failedEarlier = true;
    return null;
  }
  console.log('Fetching the Electron binary (a one-time download)…');
  const install = spawnSync(process.execPath, [join(packageDir, 'install.js')], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (install.status === 0 && binary() && existsSync(binary())) {
    rmSync(failedMark, { force: true });
    return binary();
  }
  // The downloader's own output is a stack trace: one line of it says enough.
  const output = `${install.stderr ?? ''}${install.stdout ?? ''}`.split('\n');
  const reason = output.find((line) => /error|failed/i.test(line));
  console.log(`Could not fetch it${reason ? ` (${reason.trim()})` : ''}.`);
  writeFileSync(failedMark, `${new Date().toISOString()} ${reason ?? ''}\n`);
  return null;
}

/** Runs the child in the foreground: Ctrl+C or a kill of this script stops it too, and its exit code is ours. */
function runChild(command, args) {
  const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

buildIfChanged();
const binary = electronBinary();
if (binary) {
  runChild(binary, ['.']);
} else {
  console.log('');
  if (failedEarlier) {
    console.log('No desktop window: the Electron binary could not be downloaded on an earlier start.');
    console.log('Starting Calendar Desk headless: open the "Web UI" link below in your browser.');
    console.log('(npm start -- --fetch-electron tries the download again; npm run serve skips this check.)');
  } else {
    console.log('The Electron binary is not available on this machine (it is downloaded on first start, and');
    console.log('that download failed), so the desktop window cannot open. Starting Calendar Desk headless');
    console.log(
      'instead: open the "Web UI" link below in your browser (it signs you in as the administrator).',
    );
    console.log('(Next time you can run this mode directly with: npm run serve)');
  }
  console.log('');
  runChild(process.execPath, [join(ROOT, 'bin', 'calendar-desk.js'), 'serve', ...serveArgs]);
}
