import { constants } from 'node:fs';
import { readdirSync } from 'node:fs';
import { access, chmod, mkdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, posix, resolve, win32 } from 'node:path';

export const APP_FOLDER_NAME = 'Calendar Desk';
/** The folder's name on Linux, where data folders are lower case without spaces (XDG). */
export const LINUX_FOLDER_NAME = 'calendar-desk';
/** Electron names its userData after the package when it runs unpackaged (`npm start`). */
const PACKAGE_FOLDER_NAME = 'calendar-desk';

/** A data folder that cannot be used (a file, not readable or writable): the message says what to do. */
export class DataFolderError extends Error {
  readonly code = 'DATA_FOLDER_UNUSABLE';
  constructor(
    readonly dataDir: string,
    reason: string,
  ) {
    super(`The data folder ${dataDir} ${reason}. Pick another folder with --data (or CALENDAR_DESK_DATA).`);
  }
}

/** Where the user's folders are: the environment, the platform and the home folder read from them. */
export interface Places {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** The home folder (default: $HOME, %USERPROFILE% on Windows, else the system's). */
  home?: string;
  /** Other folders an earlier version may have used (the desktop app adds Electron's userData/data). */
  earlier?: string[];
}

const homeOf = ({ env, platform, home }: Places): string =>
  home ?? (platform === 'win32' ? env.USERPROFILE : env.HOME) ?? homedir();

/** An XDG base directory variable counts only when it is an absolute path (the spec says to ignore others). */
const xdgDir = (value: string | undefined, fallback: string): string =>
  value && isAbsolute(value) ? value : fallback;

/** Node's `join` of the platform the folder is for (Windows paths on Linux in the tests, and back). */
const joinFor =
  (platform: NodeJS.Platform) =>
  (...parts: string[]) =>
    platform === 'win32' ? win32.join(...parts) : posix.join(...parts);

/** The platform's app-data folder (`%APPDATA%`, `~/Library/Application Support`) and Linux's data home. */
function appDataRoot(places: Places): string {
  const { env, platform } = places;
  const join = joinFor(platform);
  const home = homeOf(places);
  if (platform === 'win32') return env.APPDATA || join(home, 'AppData', 'Roaming');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support');
  return xdgDir(env.XDG_DATA_HOME, join(home, '.local', 'share'));
}

/**
 * The default data folder of this platform, the same for the desktop app and `calendar-desk`: Linux
 * `$XDG_DATA_HOME/calendar-desk` (`~/.local/share/calendar-desk`), macOS
 * `~/Library/Application Support/Calendar Desk/data`, Windows `%APPDATA%\Calendar Desk\data` (beside, not among,
 * the files Chromium keeps in the desktop app's folder there).
 */
export function platformDataFolder(places: Places): string {
  const join = joinFor(places.platform);
  const root = appDataRoot(places);
  if (places.platform === 'win32' || places.platform === 'darwin') return join(root, APP_FOLDER_NAME, 'data');
  return join(root, LINUX_FOLDER_NAME);
}

/**
 * Folders earlier versions kept the calendar in, most likely first: on Linux the CLI's
 * `$XDG_CONFIG_HOME/Calendar Desk/data`; everywhere the `data` folder of the desktop app's userData when it ran
 * unpackaged (named after the package) — and whatever the caller adds.
 */
export function earlierDataFolders(places: Places): string[] {
  const { env, platform } = places;
  const join = joinFor(platform);
  const home = homeOf(places);
  const folders: string[] = [];
  if (platform === 'win32' || platform === 'darwin') {
    folders.push(join(appDataRoot(places), PACKAGE_FOLDER_NAME, 'data'));
  } else {
    const config = xdgDir(env.XDG_CONFIG_HOME, join(home, '.config'));
    folders.push(join(config, APP_FOLDER_NAME, 'data'), join(config, PACKAGE_FOLDER_NAME, 'data'));
  }
  for (const folder of places.earlier ?? []) if (!folders.includes(folder)) folders.push(folder);
  return folders.filter((folder) => folder !== platformDataFolder(places));
}

/** A folder that holds something (an empty one left behind is no calendar to keep). */
function holdsData(folder: string): boolean {
  try {
    return readdirSync(folder).length > 0;
  } catch {
    return false;
  }
}

/** The data folder and why it is that one: named (`--data`, `CALENDAR_DESK_DATA`), the default, or kept from before. */
export interface FoundDataFolder {
  dataDir: string;
  source: 'option' | 'environment' | 'default' | 'earlier';
}

/**
 * The data folder: `--data`, else `CALENDAR_DESK_DATA`, else the platform's default folder when it holds a
 * calendar or no earlier folder does, else the earlier folder that holds one — used where it is, never moved or
 * copied, so an update finds the calendar where the previous version left it. Always absolute.
 */
export function findDataFolder(explicit: string | undefined, places: Places): FoundDataFolder {
  if (explicit) return { dataDir: resolve(explicit), source: 'option' };
  if (places.env.CALENDAR_DESK_DATA)
    return { dataDir: resolve(places.env.CALENDAR_DESK_DATA), source: 'environment' };
  const current = platformDataFolder(places);
  if (!holdsData(current)) {
    const earlier = earlierDataFolders(places).find(holdsData);
    if (earlier) return { dataDir: earlier, source: 'earlier' };
  }
  return { dataDir: current, source: 'default' };
}

/** {@link findDataFolder} for this process: the folder alone. */
export function resolveDataFolder(
  explicit?: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  return findDataFolder(explicit, { env, platform }).dataDir;
}

/**
 * Creates the data folder if needed (mode 0700) and checks that it is a folder this process may read and
 * write. One it may only read fails with the system's error (EROFS, EACCES): the store then opens it
 * read-only. An existing folder others may enter (made by hand, or by an older version) is made private:
 * it holds the admin token, the feeds' secret and the calendar's drafts.
 */
export async function prepareDataFolder(dataDir: string): Promise<void> {
  const info = await stat(dataDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    if (error.code === 'ENOTDIR') throw new DataFolderError(dataDir, 'is inside a file, not a folder');
    throw new DataFolderError(dataDir, `cannot be read (${error.code ?? error.message})`);
  });
  if (info && !info.isDirectory()) throw new DataFolderError(dataDir, 'is a file, not a folder');
  if (info && (info.mode & 0o077) !== 0) {
    // Not ours (EPERM) or on a read-only disk (EROFS): left as it is; the checks below say what matters.
    await chmod(dataDir, 0o700).catch(() => undefined);
  }
  if (!info) {
    await mkdir(dataDir, { recursive: true, mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
      const reason =
        error.code === 'EEXIST' || error.code === 'ENOTDIR'
          ? 'cannot be created: part of its path is a file'
          : `cannot be created (${error.code ?? error.message})`;
      throw new DataFolderError(dataDir, reason);
    });
  }
  try {
    await access(dataDir, constants.R_OK | constants.X_OK);
  } catch {
    throw new DataFolderError(dataDir, 'is not readable by you');
  }
  await access(dataDir, constants.W_OK);
}
