/** The part of electron-updater's autoUpdater the app uses. */
export interface Updater {
  checkForUpdatesAndNotify(): Promise<unknown>;
}

export interface UpdateOptions {
  /** Electron's app.isPackaged: false when run from a clone (`npm start`). */
  isPackaged: boolean;
  /** Built by the release workflow (CALENDAR_DESK_RELEASE=1 at build time), whose packages GitHub Releases carry. */
  release: boolean;
  env: NodeJS.ProcessEnv;
  /** Loads electron-updater (only when updates are on). */
  load: () => Promise<Updater>;
  /** Where a failed check is told (a check that fails must not stop the app). */
  report: (message: string) => void;
}

/**
 * Updates come from the project's GitHub Releases, only to a packaged release build: never to a run from a clone or
 * a package built locally (its version is not one the feed knows); CALENDAR_DESK_NO_UPDATES=1 turns them off.
 */
export function updatesEnabled(options: Pick<UpdateOptions, 'isPackaged' | 'release' | 'env'>): boolean {
  return options.isPackaged && options.release && options.env.CALENDAR_DESK_NO_UPDATES !== '1';
}

/** Checks the feed once (electron-updater downloads in the background and offers the restart): true if it asked. */
export async function checkForUpdates(options: UpdateOptions): Promise<boolean> {
  if (!updatesEnabled(options)) return false;
  try {
    const updater = await options.load();
    await updater.checkForUpdatesAndNotify();
  } catch (error) {
    options.report(`Could not check for updates: ${(error as Error).message}`);
  }
  return true;
}

/** Set at build time by electron.vite.config.ts from CALENDAR_DESK_RELEASE (read at run time in the tests). */
export const RELEASE_BUILD = process.env.CALENDAR_DESK_RELEASE === '1';

/** electron-updater's autoUpdater (a CommonJS module: its exports arrive as the default export too). */
export async function loadElectronUpdater(): Promise<Updater> {
  const updater = (await import('electron-updater')) as unknown as {
    autoUpdater?: Updater;
    default?: { autoUpdater: Updater };
  };
  const autoUpdater = updater.autoUpdater ?? updater.default?.autoUpdater;
  if (!autoUpdater) throw new Error('electron-updater has no autoUpdater');
  return autoUpdater;
}
