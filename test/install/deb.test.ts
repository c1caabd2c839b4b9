import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../cli/cliProcess';
import { launchChromium } from '../e2e/browser';

// The headless edition as a Debian user gets it: `npm run dist:headless` makes the .deb, `dpkg -i` installs it (CI
// runs as root), "Calendar Desk" in the menu runs the launcher, which starts the server and opens the browser
// signed in; removing the package leaves the user's calendar where it is.
const run = promisify(execFile);
const version = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;
const DEB = join(ROOT, 'dist', `calendar-desk_${version}_amd64.deb`);
const DESKTOP_FILE = '/usr/share/applications/calendar-desk.desktop';

let work: string;
let home: string;
let opened: string;
let env: NodeJS.ProcessEnv;
const dataDir = () => join(home, '.local', 'share', 'calendar-desk');

/** Runs the menu entry's command as the desktop would, and resolves once it has ended. */
async function launch(): Promise<{ code: number | null; stderr: string }> {
  const entry = await readFile(DESKTOP_FILE, 'utf8');
  const exec = /^Exec=(.+)$/m.exec(entry)?.[1] ?? '';
  const child = spawn('/bin/sh', ['-c', exec], { cwd: home, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolveRun) => child.on('close', (code) => resolveRun({ code, stderr })));
}

/** The server the launcher left running (its pid is in the folder's owner record): stopped as a user would. */
async function stopServer(): Promise<void> {
  const owner = join(dataDir(), 'owner.json');
  if (!existsSync(owner)) return;
  const { pid } = JSON.parse(await readFile(owner, 'utf8')) as { pid: number };
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!alive()) return;
  process.kill(pid, 'SIGTERM');
  while (alive()) await new Promise((resolveWait) => setTimeout(resolveWait, 100));
}

beforeAll(async () => {
  if (process.getuid?.() !== 0)
    throw new Error('this test installs a .deb with dpkg -i: run it as root (CI does)');
  work = await mkdtemp(join(tmpdir(), 'calendar-desk-deb-'));
  home = join(work, 'home');
  opened = join(work, 'opened-url');
  // The desktop's browser opener, replaced by one that writes down the address it was given.
  const fakeBin = join(work, 'bin');
  await mkdir(fakeBin, { recursive: true });
  await mkdir(home);
  await writeFile(join(fakeBin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${opened}'\n`);
  await chmod(join(fakeBin, 'xdg-open'), 0o755);
  env = { PATH: `${fakeBin}:/usr/local/bin:/usr/bin:/bin`, HOME: home, LANG: 'C.UTF-8' };

  await ensureBuilt();
  await run(process.execPath, [join(ROOT, 'scripts', 'dist-headless.mjs'), '--skip-web-build'], {
    cwd: ROOT,
    timeout: 900_000,
  });
  await run('dpkg', ['-i', DEB], { timeout: 120_000 });
}, 1_000_000);

afterAll(async () => {
  await stopServer();
  await run('dpkg', ['-r', 'calendar-desk']).catch(() => undefined);
  await rm(work, { recursive: true, force: true });
}, 120_000);

describe('the headless edition, installed from its .deb', { timeout: 180_000 }, () => {
  it('installs the executable, a menu entry and its icon', async () => {
    const entry = await readFile(DESKTOP_FILE, 'utf8');
    expect(entry).toMatch(/^Name=Calendar Desk$/m);
    expect(entry).toMatch(/^Exec=calendar-desk-launch$/m);
    expect(entry).toMatch(/^Icon=calendar-desk$/m);
    expect(existsSync('/usr/share/icons/hicolor/scalable/apps/calendar-desk.svg')).toBe(true);
    expect(existsSync('/usr/share/icons/hicolor/512x512/apps/calendar-desk.png')).toBe(true);
    const { stdout } = await run('calendar-desk', ['--help'], { env });
    expect(stdout).toContain('Usage: calendar-desk');
  });

  it('the menu entry starts the server and opens the web UI signed in; a browser can then add an event', async () => {
    const first = await launch();
    expect(first.code, first.stderr).toBe(0);
    const [link] = (await readFile(opened, 'utf8')).trim().split('\n');
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#\/signin\?code=/);
    const origin = new URL(link).origin;

    // Chosen again while it runs: the same server, a new one-time link.
    const second = await launch();
    expect(second.code, second.stderr).toBe(0);
    const links = (await readFile(opened, 'utf8')).trim().split('\n');
    expect(links).toHaveLength(2);
    expect(new URL(links[1]).origin).toBe(origin);
    expect(links[1]).not.toBe(link);

    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      page.setDefaultTimeout(20_000);
      await page.goto(links[1]);
      await page.getByRole('heading', { name: 'Calendar', exact: true }).waitFor();
      expect(page.url()).not.toContain('code=');
      await page.locator('.fc-daygrid-day.fc-day-today .fc-daygrid-day-frame').click();
      await page.getByRole('heading', { name: 'New event' }).waitFor();
      await page.locator('#event-title').fill('Choir rehearsal');
      await page.getByTestId('save-event').click();
      await page.getByRole('heading', { name: 'Calendar', exact: true }).waitFor();
      await page.getByText('Choir rehearsal').first().waitFor();
    } finally {
      await browser.close();
    }
    const events = (await (await fetch(`${origin}/wp-json/cal/events/v1/events`)).json()) as {
      events: { title: string }[];
    };
    expect(events.events.map((event) => event.title)).toContain('Choir rehearsal');
  });

  it('removing the package leaves the user’s calendar in their data folder', async () => {
    await stopServer();
    await run('dpkg', ['-r', 'calendar-desk'], { timeout: 120_000 });
    expect(existsSync('/usr/bin/calendar-desk')).toBe(false);
    expect(existsSync(DESKTOP_FILE)).toBe(false);
    expect(await readFile(join(dataDir(), 'calendar.json'), 'utf8')).toContain('Choir rehearsal');
  });
});
