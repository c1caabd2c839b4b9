// `npm start`: launch the desktop app; where the Electron binary cannot be obtained (offline machines,
// blocked downloads), say so and run the same app headless in the browser instead of failing obscurely.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** The `electron` npm package folder; CALENDAR_DESK_ELECTRON_PACKAGE replaces it (tests use a broken one). */
function electronPackageDir() {
  if (process.env.CALENDAR_DESK_ELECTRON_PACKAGE) return process.env.CALENDAR_DESK_ELECTRON_PACKAGE;
  try {
    return dirname(require.resolve('electron/package.json'));
  } catch {
    return null;
  }
}

function electronBinary() {
  const packageDir = electronPackageDir();
  if (!packageDir) return null;
  const pathFile = join(packageDir, 'path.txt');
  const binary = () =>
    existsSync(pathFile) && join(packageDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  if (binary() && existsSync(binary())) return binary();
  console.log('Fetching the Electron binary (first start only)…');
  const install = spawnSync(process.execPath, [join(packageDir, 'install.js')], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (install.status === 0 && binary() && existsSync(binary())) return binary();
  // The downloader's own output is a stack trace: one line of it says enough.
  const output = `${install.stderr ?? ''}${install.stdout ?? ''}`.split('\n');
  const reason = output.find((line) => /error|failed/i.test(line));
  console.log(`Could not fetch it${reason ? ` (${reason.trim()})` : ''}.`);
  return null;
}

/** Runs the child in the foreground: Ctrl+C or a kill of this script stops it too, and its exit code is ours. */
function runChild(command, args) {
  const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const binary = electronBinary();
if (binary) {
  runChild(binary, ['.']);
} else {
  console.log('');
  console.log('The Electron binary is not available on this machine (it is downloaded on first start, and');
  console.log('that download failed), so the desktop window cannot open. Starting Calendar Desk headless');
  console.log(
    'instead: open the "Web UI" link below in your browser (it signs you in as the administrator).',
  );
  console.log('(Next time you can run this mode directly with: npm run serve)');
  console.log('');
  runChild(process.execPath, [join(ROOT, 'bin', 'calendar-desk.js'), 'serve', ...process.argv.slice(2)]);
}
