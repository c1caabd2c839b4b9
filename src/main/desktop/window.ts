import { join } from 'node:path';
import type { BrowserWindow, BrowserWindowConstructorOptions } from 'electron';
import { APP_VERSION_SWITCH } from '../../shared/bridgeChannels';
import { guardWebContents } from './security';

/** The built preload next to the built main process: out/preload/index.cjs (CommonJS, as sandboxing needs). */
export const preloadPathOf = (mainDir: string) => join(mainDir, '..', 'preload', 'index.cjs');

/** A locked-down renderer: isolated, sandboxed, no Node, same-origin rules on, only the bridge preloaded. */
export function mainWindowOptions(preloadPath: string, appVersion: string): BrowserWindowConstructorOptions {
  return {
    title: 'Calendar Desk',
    width: 1200,
    height: 800,
    minWidth: 720,
    minHeight: 480,
    show: false,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      additionalArguments: [`${APP_VERSION_SWITCH}${appVersion}`],
    },
  };
}

export interface MainWindowDeps {
  BrowserWindow: typeof BrowserWindow;
  origin: string;
  preloadPath: string;
  appVersion: string;
  openExternal: (url: string) => Promise<void>;
}

/** Creates the main window, kept on the engine origin; it shows itself once its first page is painted. */
export function createMainWindow(deps: MainWindowDeps): BrowserWindow {
  const window = new deps.BrowserWindow(mainWindowOptions(deps.preloadPath, deps.appVersion));
  guardWebContents(window.webContents, deps.origin, deps.openExternal);
  window.once('ready-to-show', () => window.show());
  // A page that failed to load is never "ready": show the window anyway, so View > Reload can retry.
  window.webContents.once('did-fail-load', () => window.show());
  return window;
}
