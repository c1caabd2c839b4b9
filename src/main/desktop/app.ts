import { join } from 'node:path';
import { findDataFolder } from '../store/dataFolder';
import type { BrowserWindow } from 'electron';
import { startEngine, type Engine } from '../engine';
import { isValidTimezone } from '../core/dates/zones';
import { registerBridgeHandlers } from './bridgeHandlers';
import { menuTemplate } from './menu';
import { installSecurity } from './security';
import { safeStorageSecretBox } from './secrets';
import { startupErrorMessage } from './startupError';
import { checkForUpdates, loadElectronUpdater, RELEASE_BUILD } from './updates';
import { createMainWindow, preloadPathOf } from './window';
import { knownZone } from '../../shared/timeZones';
import { NAMESPACE } from '../../shared/enums';

/** The parts of Electron the shell uses: the real module in the app, a fake in the tests. */
export type DesktopElectron = Pick<
  typeof import('electron'),
  'app' | 'BrowserWindow' | 'dialog' | 'ipcMain' | 'Menu' | 'safeStorage' | 'session' | 'shell'
>;

export interface DesktopOptions {
  /** Folder of the built main process (out/main): the preload and the renderer are built next to it. */
  mainDir: string;
  /** The OS time zone (site time zone of a brand-new data folder). */
  timezone: string;
  env?: NodeJS.ProcessEnv;
}

export interface DesktopApp {
  engine: Engine;
  dataDir: string;
  window(): BrowserWindow | null;
}

export const APP_NAME = 'Calendar Desk';

/**
 * The data folder `calendar-desk` uses too (`CALENDAR_DESK_DATA`, else the platform's default); a calendar an
 * earlier desktop version kept in Electron's userData (`userData/data`) is found there and used where it is.
 */
export function desktopDataFolder(userData: string, env: NodeJS.ProcessEnv = process.env): string {
  return findDataFolder(undefined, { env, platform: process.platform, earlier: [join(userData, 'data')] })
    .dataDir;
}

/**
 * The desktop app: one instance per user, the engine on a free loopback port, one locked-down window on it,
 * and a quit that waits for the store to be flushed. Resolves to null when this process is not the one to run.
 */
export async function runDesktopApp(
  electron: DesktopElectron,
  options: DesktopOptions,
): Promise<DesktopApp | null> {
  const { app, dialog, shell } = electron;
  const isMac = process.platform === 'darwin';
  app.setName(APP_NAME);
  // Every renderer sandboxed, whatever a future window forgets to ask for (must precede `ready`).
  app.enableSandbox();
  if (!app.requestSingleInstanceLock()) {
    // Another Calendar Desk runs: it focuses its window (second-instance below), this one just leaves.
    app.quit();
    return null;
  }
  let window: BrowserWindow | null = null;
  app.on('second-instance', () => {
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  });

  await app.whenReady();
  const dataDir = desktopDataFolder(app.getPath('userData'), options.env);
  let engine: Engine;
  try {
    engine = await startEngine({
      dataDir,
      // No port: the one this folder last used (the feeds' addresses stay valid), else 8787, else a free one.
      host: '127.0.0.1',
      timezone: knownZone(options.timezone, isValidTimezone),
      rendererDir: join(options.mainDir, '..', 'renderer'),
      secretBox: safeStorageSecretBox(electron.safeStorage),
    });
  } catch (error) {
    dialog.showErrorBox('Calendar Desk cannot start', startupErrorMessage(error, dataDir));
    app.exit(1);
    return null;
  }
  const { origin } = engine;
  // Also shown in Settings, Calendar feeds (the feeds' admin answer carries it).
  if (engine.addressNotice) console.error(`calendar-desk: ${engine.addressNotice}`);
  const openExternal = (url: string) => shell.openExternal(url);

  installSecurity(electron.session.defaultSession, origin);
  registerBridgeHandlers(electron.ipcMain, {
    origin,
    connection: () => ({ apiRoot: engine.apiRoot, token: engine.adminToken }),
    openExternal,
  });

  const openWindow = (route = '/') => {
    const created = createMainWindow({
      BrowserWindow: electron.BrowserWindow,
      origin,
      preloadPath: preloadPathOf(options.mainDir),
      appVersion: app.getVersion(),
      openExternal,
    });
    created.on('closed', () => {
      if (window === created) window = null;
    });
    window = created;
    // A failed first load leaves the window blank rather than crashing the app; reload (View menu) retries.
    created.loadURL(`${origin}${route}`).catch(() => undefined);
    return created;
  };
  // Menu navigation is a hash change: the renderer (vue-router, hash history) routes without a reload.
  const navigate = (route: string) => {
    if (window) window.loadURL(`${origin}/#${route}`).catch(() => undefined);
    else openWindow(`/#${route}`);
  };
  electron.Menu.setApplicationMenu(
    electron.Menu.buildFromTemplate(
      menuTemplate({
        isMac,
        isPackaged: app.isPackaged,
        navigate,
        openDataFolder: () => void shell.openPath(dataDir),
        openReadme: () => void shell.openPath(join(app.getAppPath(), 'README.md')),
        openApiInBrowser: () => void shell.openExternal(`${engine.apiRoot}${NAMESPACE}`),
      }),
    ),
  );
  const first = openWindow();
  if (engine.notices.length > 0) {
    void dialog.showMessageBox(first, {
      type: 'info',
      title: APP_NAME,
      message: 'About your calendar data',
      detail: engine.notices.join('\n\n'),
    });
  }

  // Releases update themselves from GitHub Releases; a run from a clone or a local package never asks.
  void checkForUpdates({
    isPackaged: app.isPackaged,
    release: RELEASE_BUILD,
    env: options.env ?? process.env,
    load: loadElectronUpdater,
    report: (message) => console.error(`calendar-desk: ${message}`),
  });

  // Quit waits for the engine: the store flushes its journal and releases the folder lock, then we exit.
  let closing = false;
  app.on('before-quit', (event) => {
    event.preventDefault();
    if (closing) return;
    closing = true;
    engine.close().then(
      () => app.exit(0),
      (error: unknown) => {
        dialog.showErrorBox(
          'Calendar Desk could not close cleanly',
          `${(error as Error).message}\n\nYour last changes may not be saved. Data folder: ${dataDir}`,
        );
        app.exit(1);
      },
    );
  });
  app.on('window-all-closed', () => {
    if (!isMac) app.quit();
  });
  app.on('activate', () => {
    if (!window) openWindow();
  });
  return { engine, dataDir, window: () => window };
}
