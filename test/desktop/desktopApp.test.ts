import { dataFolderText } from '../helpers/server';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runDesktopApp, type DesktopApp } from '../../src/main/desktop/app';
import { CalendarStore, DATA_FILE_NAME } from '../../src/main/store/store';
import { resolveDataFolder } from '../../src/main/store/dataFolder';
import { BRIDGE_CHANNELS } from '../../src/shared/bridgeChannels';
import { ensureBuilt } from '../cli/cliProcess';
import { fakeElectron, FakeWindow } from './fakeElectron';

const ROOT = resolve(__dirname, '../..');
const MAIN_DIR = join(ROOT, 'out', 'main');
const SETTINGS = { siteName: 'x', siteDescription: 'x', timezone: 'UTC', postsPerPage: 10 };

let userData: string;
let fake: ReturnType<typeof fakeElectron>;
let desktop: DesktopApp | null;

// The window loads the built preload and renderer (out/): build them if the sources are newer.
beforeAll(() => ensureBuilt());
beforeEach(async () => {
  userData = await mkdtemp(join(tmpdir(), 'calendar-desk-desktop-'));
  fake = fakeElectron({ userData });
  desktop = null;
});
afterEach(async () => {
  if (desktop && !fake.app.exit.mock.calls.length) await desktop.engine.close();
  await rm(userData, { recursive: true, force: true });
});

/** A throwaway home (never the real user's calendar): the default data folder lands inside it. */
const homeEnv = () => ({ HOME: join(userData, 'home'), XDG_CONFIG_HOME: join(userData, 'home', '.config') });

const start = async (timezone = 'Pacific/Auckland') => {
  desktop = await runDesktopApp(fake.asElectron, { mainDir: MAIN_DIR, timezone, env: homeEnv() });
  if (!desktop) throw new Error('the desktop app did not start');
  return { desktop, origin: desktop.engine.origin, window: FakeWindow.instances[0] };
};

const fetchHeaders = async (url: string) => {
  const response = await fetch(url);
  await response.arrayBuffer();
  const headers: Record<string, string[]> = {};
  response.headers.forEach((value, name) => (headers[name] = [value]));
  return headers;
};

describe('desktop shell: start', () => {
  it('starts the engine on a loopback port over the platform data folder, with the OS time zone for a new calendar', async () => {
    const { desktop, origin, window } = await start('Pacific/Auckland');
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(desktop.engine.port).toBeGreaterThan(0);
    // The folder `calendar-desk serve` uses too.
    expect(desktop.dataDir).toBe(resolveDataFolder(undefined, homeEnv()));
    expect(desktop.dataDir).toBe(join(userData, 'home', '.local', 'share', 'calendar-desk'));
    expect(desktop.engine.store.settings.timezone).toBe('Pacific/Auckland');
    expect(fake.app.setName).toHaveBeenCalledWith('Calendar Desk');
    expect(window.loaded).toEqual([`${origin}/`]);
    expect((await fetch(`${origin}/`)).status).toBe(200);
  });

  it('falls back to UTC when the OS reports no usable time zone, rather than refusing to start', async () => {
    const { desktop } = await start('Not/A_Zone');
    expect(desktop.engine.store.settings.timezone).toBe('UTC');
  });

  it('keeps the time zone of an existing calendar, and honours CALENDAR_DESK_DATA', async () => {
    const dataDir = join(userData, 'elsewhere');
    const store = await CalendarStore.open({
      dataDir,
      initialSettings: { ...SETTINGS, timezone: 'Europe/Rome' },
    });
    await store.close();
    desktop = await runDesktopApp(fake.asElectron, {
      mainDir: MAIN_DIR,
      timezone: 'Asia/Tokyo',
      env: { CALENDAR_DESK_DATA: dataDir },
    });
    expect(desktop?.dataDir).toBe(dataDir);
    expect(desktop?.engine.store.settings.timezone).toBe('Europe/Rome');
  });

  it('opens one window with isolated, sandboxed, Node-free web preferences and the built CommonJS preload', async () => {
    const { window } = await start();
    expect(FakeWindow.instances).toHaveLength(1);
    const preferences = window.options.webPreferences ?? {};
    expect(preferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      preload: join(ROOT, 'out', 'preload', 'index.cjs'),
    });
    expect(preferences.additionalArguments).toEqual(['--calendar-desk-version=9.8.7']);
    expect(fake.app.enableSandbox).toHaveBeenCalled();
    // Shown once painted, or when the page failed to load (so the user can reload), never before.
    expect(window.shown).toBe(false);
    window.webContents.emit('did-fail-load');
    expect(window.shown).toBe(true);
    // Built by `npm ci` (prepare): a sandboxed preload must be CommonJS and bundle its imports.
    expect(existsSync(preferences.preload!)).toBe(true);
    const preload = await readFile(preferences.preload!, 'utf8');
    expect(preload).toContain('require("electron")');
    expect(preload).not.toMatch(/^\s*(import|export)\s/m);
    expect(preload).toContain('exposeInMainWorld("calendarDesk"');
  });

  it('shows what is wrong and quits when the data folder is in use by another process', async () => {
    const dataDir = join(userData, 'data');
    const other = await CalendarStore.open({ dataDir, initialSettings: SETTINGS });
    try {
      expect(
        await runDesktopApp(fake.asElectron, { mainDir: MAIN_DIR, timezone: 'UTC', env: homeEnv() }),
      ).toBeNull();
    } finally {
      await other.close();
    }
    expect(fake.app.exit).toHaveBeenCalledWith(1);
    expect(FakeWindow.instances).toHaveLength(0);
    const [title, message] = fake.electron.dialog.showErrorBox.mock.calls[0] as string[];
    expect(title).toBe('Calendar Desk cannot start');
    expect(message).toMatch(/^The data folder is in use by another Calendar Desk\./);
    expect(message).toContain(dataDir);
    expect(message).toContain('CALENDAR_DESK_DATA');
  });

  it('shows what is wrong and quits when the data file is damaged, leaving it in place', async () => {
    const dataDir = join(userData, 'data');
    await mkdir(dataDir, { recursive: true });
    await writeFile(join(dataDir, DATA_FILE_NAME), '{"not": "a calendar"');
    expect(
      await runDesktopApp(fake.asElectron, { mainDir: MAIN_DIR, timezone: 'UTC', env: homeEnv() }),
    ).toBeNull();
    expect(fake.app.exit).toHaveBeenCalledWith(1);
    const [, message] = fake.electron.dialog.showErrorBox.mock.calls[0] as string[];
    expect(message).toMatch(/^Your calendar data could not be opened\./);
    expect(message).toContain(dataDir);
    expect(await readFile(join(dataDir, DATA_FILE_NAME), 'utf8')).toBe('{"not": "a calendar"');
  });
});

describe('desktop shell: what the window may do', () => {
  it('adds the desktop CSP, with connect-src pinned to the engine origin, to every engine response', async () => {
    const { origin } = await start();
    const served = await fetchHeaders(`${origin}/`);
    const { responseHeaders } = await fake.headers({ url: `${origin}/`, responseHeaders: served });
    const policies = responseHeaders?.['content-security-policy'] ?? [];
    // The server's own policy stays; the desktop one is added (both apply).
    expect(policies[0]).toBe(served['content-security-policy'][0]);
    expect(policies.at(-1)).toContain(`connect-src ${origin};`);
    expect(policies.at(-1)).toContain("script-src 'self';");
    expect(policies.at(-1)).toContain("object-src 'none'");

    const api = await fake.headers({ url: `${origin}/wp-json/`, responseHeaders: {} });
    expect(api.responseHeaders?.['Content-Security-Policy']?.[0]).toContain(`connect-src ${origin};`);
    // Other origins are left alone.
    expect(await fake.headers({ url: 'https://example.com/', responseHeaders: {} })).toEqual({});
  });

  it('grants no web permission but clipboard writes, and those only to the engine', async () => {
    const { origin } = await start();
    expect(await fake.permissionRequest('media', `${origin}/`)).toBe(false);
    expect(await fake.permissionRequest('notifications', `${origin}/`)).toBe(false);
    expect(fake.permissionCheck('media', origin)).toBe(false);
    expect(await fake.permissionRequest('clipboard-sanitized-write', `${origin}/#/settings`)).toBe(true);
    expect(fake.permissionCheck('clipboard-sanitized-write', origin)).toBe(true);
    expect(await fake.permissionRequest('clipboard-sanitized-write', 'https://example.com/')).toBe(false);
    expect(fake.permissionCheck('clipboard-sanitized-write', 'https://example.com')).toBe(false);
  });

  it('stays on the engine: other navigations are refused, web and mail links go to the system browser', async () => {
    const { origin, window } = await start();
    const contents = window.webContents;
    expect(contents.navigate('will-navigate', `${origin}/#/venues`)).toBe(false);
    expect(contents.navigate('will-navigate', 'https://example.com/page')).toBe(true);
    expect(contents.navigate('will-redirect', 'http://evil.example/')).toBe(true);
    expect(contents.navigate('will-navigate', `http://127.0.0.1:${desktop!.engine.port + 1}/`)).toBe(true);
    expect(contents.navigate('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(contents.navigate('will-navigate', 'javascript:alert(1)')).toBe(true);
    expect(fake.electron.shell.openExternal.mock.calls.map(([url]) => url)).toEqual([
      'https://example.com/page',
      'http://evil.example/',
      `http://127.0.0.1:${desktop!.engine.port + 1}/`,
    ]);
  });

  it('never opens a new window: http(s) and mailto go to the system browser, javascript: and file: nowhere', async () => {
    const { origin, window } = await start();
    const open = (url: string) => window.webContents.windowOpenHandler!({ url });
    for (const url of [
      'https://example.com/',
      'mailto:info@example.com',
      'javascript:alert(1)',
      'file:///etc/passwd',
      `${origin}/#/calendar`,
    ]) {
      expect(open(url), url).toEqual({ action: 'deny' });
    }
    expect(fake.electron.shell.openExternal.mock.calls.map(([url]) => url)).toEqual([
      'https://example.com/',
      'mailto:info@example.com',
      `${origin}/#/calendar`,
    ]);
  });
});

describe('desktop shell: the bridge', () => {
  it('listens on exactly two channels', async () => {
    await start();
    expect(fake.channels().sort()).toEqual(Object.values(BRIDGE_CHANNELS).sort());
  });

  it('gives the engine page the API root and the admin token, which work against the API', async () => {
    const { desktop, origin } = await start();
    const connection = (await fake.invoke(BRIDGE_CHANNELS.connection, `${origin}/#/calendar`)) as {
      apiRoot: string;
      token: string;
    };
    expect(connection).toEqual({ apiRoot: `${origin}/wp-json/`, token: desktop.engine.adminToken });
    const response = await fetch(`${connection.apiRoot}cal/events/v1/events`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${connection.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        title: 'Bridge test',
        start_date: '2030-01-01 10:00',
        end_date: '2030-01-01 11:00',
      }),
    });
    expect(response.status).toBe(201);
  });

  it('seals the passwords of sync remotes with the system keychain (safeStorage), never in clear', async () => {
    const { desktop } = await start();
    const response = await fetch(`${desktop.engine.apiRoot}calendar-desk/v1/remotes`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${desktop.engine.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify([
        {
          name: 'Website',
          root: 'https://example.org/wp-json/',
          auth_type: 'password',
          user: 'ed',
          secret: 'hunter2 pass',
        },
      ]),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([expect.objectContaining({ has_secret: true })]);
    await desktop.engine.store.idle();
    const onDisk = await dataFolderText(desktop.dataDir);
    expect(onDisk).not.toContain('hunter2');
    // Sealed with the origin it was entered for (it is only ever sent there).
    const bound = `origin-bound-v1:${JSON.stringify({ origin: 'https://example.org', secret: 'hunter2 pass' })}`;
    expect(fake.electron.safeStorage.encryptString).toHaveBeenCalledWith(bound);
    expect(onDisk).toContain(Buffer.from(`sealed:${[...bound].reverse().join('')}`).toString('base64'));
  });

  it('refuses frames not served by the engine', async () => {
    const { desktop } = await start();
    for (const frame of [
      'https://evil.example/',
      `http://127.0.0.1:${desktop.engine.port + 1}/`,
      'file:///x',
      null,
    ]) {
      await expect(fake.invoke(BRIDGE_CHANNELS.connection, frame)).rejects.toMatchObject({
        code: 'BRIDGE_SENDER_REFUSED',
      });
      await expect(
        fake.invoke(BRIDGE_CHANNELS.openExternal, frame, 'https://example.com/'),
      ).rejects.toMatchObject({ code: 'BRIDGE_SENDER_REFUSED' });
    }
    expect(fake.electron.shell.openExternal).not.toHaveBeenCalled();
  });

  it('opens only http(s) and mailto URLs externally, answering false for the rest', async () => {
    const { origin } = await start();
    const open = (url: unknown) => fake.invoke(BRIDGE_CHANNELS.openExternal, `${origin}/`, url);
    expect(await open('https://example.com/docs')).toBe(true);
    expect(await open('mailto:info@example.com')).toBe(true);
    expect(await open('javascript:alert(1)')).toBe(false);
    expect(await open('file:///etc/passwd')).toBe(false);
    expect(await open('not a url')).toBe(false);
    expect(await open(42)).toBe(false);
    expect(fake.electron.shell.openExternal.mock.calls.map(([url]) => url)).toEqual([
      'https://example.com/docs',
      'mailto:info@example.com',
    ]);
  });
});

describe('desktop shell: menu, second instance, quit', () => {
  const menuItem = (label: string) => {
    const template = fake.electron.Menu.buildFromTemplate.mock.calls[0][0] as MenuItemConstructorOptions[];
    const items = template.flatMap((menu) => (Array.isArray(menu.submenu) ? menu.submenu : []));
    return { items, item: items.find((candidate) => candidate.label === label) };
  };
  // The shell's menu handlers take no arguments: call them as a menu would, without any.
  const click = (label: string) => (menuItem(label).item?.click as (() => void) | undefined)?.();

  it('menu items navigate the window by URL hash; dev tools only in development', async () => {
    const { origin, window } = await start();
    click('New Event');
    click('Venues');
    expect(window.loaded).toEqual([`${origin}/`, `${origin}/#/events/new`, `${origin}/#/venues`]);
    expect(menuItem('New Event').item?.accelerator).toBe('CmdOrCtrl+N');
    expect(menuItem('').items.some((item) => item.role === 'toggleDevTools')).toBe(true);
    expect(fake.electron.Menu.setApplicationMenu).toHaveBeenCalled();
  });

  it('a second launch focuses the existing window', async () => {
    const { window } = await start();
    fake.app.emit('second-instance');
    expect(window.focused).toBe(true);
    expect(FakeWindow.instances).toHaveLength(1);
  });

  it('quitting waits for the engine: the store is flushed and the folder released before exit(0)', async () => {
    const { desktop, origin } = await start();
    const created = await fetch(`${desktop.engine.apiRoot}cal/events/v1/events`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${desktop.engine.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        title: 'Saved on quit',
        start_date: '2030-01-01 10:00',
        end_date: '2030-01-01 11:00',
      }),
    });
    expect(created.status).toBe(201);
    let prevented = 0;
    const beforeQuit = { preventDefault: () => prevented++ };
    fake.app.emit('before-quit', beforeQuit);
    fake.app.emit('before-quit', beforeQuit); // a second Cmd+Q while closing also waits
    expect(await fake.exit).toBe(0);
    expect(prevented).toBe(2);
    expect(fake.app.exit).toHaveBeenCalledTimes(1);
    await expect(fetch(`${origin}/`)).rejects.toThrow();

    const reopened = await CalendarStore.open({ dataDir: desktop.dataDir, initialSettings: SETTINGS });
    try {
      expect(reopened.events.toArray().map((event) => event.title)).toContain('Saved on quit');
    } finally {
      await reopened.close();
    }
  });
});
