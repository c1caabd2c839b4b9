import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CalendarStore } from '../../src/main/store/store';
import { ensureBuilt, isolatedEnv, ROOT } from './cliProcess';

let home: string;

beforeAll(async () => {
  await ensureBuilt();
  home = await mkdtemp(join(tmpdir(), 'calendar-desk-start-'));
});
afterAll(() => rm(home, { recursive: true, force: true }));

it('`npm start` without an Electron binary says so and runs the app headless, stopping with it', async () => {
  // An electron package whose binary was never downloaded and whose downloader fails, as on an offline machine.
  const fakeElectron = join(home, 'electron');
  await mkdir(fakeElectron);
  await writeFile(
    join(fakeElectron, 'install.js'),
    'console.error("HTTPError: download failed (getaddrinfo ENOTFOUND github.com)"); process.exit(1);',
  );
  const dataDir = join(home, 'data');
  const child = spawn(process.execPath, ['scripts/start.mjs', '--port', '0', '--data', dataDir], {
    cwd: ROOT,
    env: isolatedEnv(home, { CALENDAR_DESK_ELECTRON_PACKAGE: fakeElectron }),
  });
  const exited = new Promise<number | null>((resolveExit) => child.on('close', resolveExit));
  let stdout = '';
  await new Promise<void>((resolveReady, reject) => {
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (stdout.includes('Press Ctrl+C')) resolveReady();
    });
    void exited.then((code) => reject(new Error(`start.mjs exited (${code}) early:\n${stdout}`)));
  });

  expect(stdout).toContain('Fetching the Electron binary (a one-time download)…');
  expect(stdout).toContain(
    'Could not fetch it (HTTPError: download failed (getaddrinfo ENOTFOUND github.com)).',
  );
  expect(stdout).toContain('The Electron binary is not available on this machine');
  expect(stdout).toContain('open the "Web UI" link below in your browser');
  expect(stdout).toContain('npm run serve');
  const webUi = /Web UI:\s+(\S+)/.exec(stdout)?.[1] ?? '';
  expect(webUi).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#\/signin\?code=/);
  expect(stdout).not.toContain('cdt_');
  expect((await fetch(webUi.split('#')[0])).status).toBe(200);

  // Stopping the script stops the headless app it started: the data folder is free again.
  child.kill('SIGTERM');
  expect(await exited).toBe(0);

  // The next start does not wait for the download again, and says why there is no window in fewer words.
  const again = spawn(process.execPath, ['scripts/start.mjs', '--port', '0', '--data', dataDir], {
    cwd: ROOT,
    env: isolatedEnv(home, { CALENDAR_DESK_ELECTRON_PACKAGE: fakeElectron }),
  });
  const againExited = new Promise<number | null>((resolveExit) => again.on('close', resolveExit));
  let againOut = '';
  await new Promise<void>((resolveReady, reject) => {
    again.stdout.on('data', (chunk) => {
      againOut += chunk;
      if (againOut.includes('Press Ctrl+C')) resolveReady();
    });
    void againExited.then((code) => reject(new Error(`start.mjs exited (${code}) early:\n${againOut}`)));
  });
  expect(againOut).not.toContain('Fetching the Electron binary');
  expect(againOut).not.toContain('Building');
  expect(againOut).toContain('the Electron binary could not be downloaded on an earlier start');
  expect(againOut).toContain('npm start -- --fetch-electron');
  again.kill('SIGTERM');
  expect(await againExited).toBe(0);

  const store = await CalendarStore.open({
    dataDir,
    initialSettings: { siteName: 'x', siteDescription: 'x', timezone: 'UTC', postsPerPage: 10 },
  });
  await store.close();
});
