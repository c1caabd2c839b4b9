// `npm start`: launch the desktop app; where the Electron binary cannot be obtained (offline machines,
// blocked downloads), say so and run the same app headless in the browser instead of failing obscurely.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

function electronBinary() {
  let packageDir;
  try {
    packageDir = dirname(require.resolve('electron/package.json'));
  } catch {
    return null;
  }
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

const binary = electronBinary();
if (binary) {
  const child = spawn(binary, ['.'], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  console.log('');
  console.log('The Electron binary is not available on this machine (it is downloaded on first start, and');
  console.log(
    'that download failed). Starting Calendar Desk headless instead: open the address below in a browser.',
  );
  console.log('(Next time you can run this mode directly with: npm run serve)');
  console.log('');
  const child = spawn(process.execPath, ['bin/calendar-desk.js', 'serve', ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  child.on('exit', (code) => process.exit(code ?? 0));
}
