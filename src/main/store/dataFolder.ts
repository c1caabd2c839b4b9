import { constants } from 'node:fs';
import { access, chmod, mkdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export const APP_FOLDER_NAME = 'Calendar Desk';

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

/**
 * The data folder: `--data`, else `CALENDAR_DESK_DATA`, else `data` in the platform's app-data folder of the
 * app — inside what Electron's `app.getPath('userData')` points to (apart from Chromium's own files there),
 * so the desktop app and the CLI share one calendar. Always absolute, so messages and the folder's owner
 * record name it unambiguously.
 */
export function resolveDataFolder(
  explicit?: string,
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): string {
  if (explicit) return resolve(explicit);
  if (env.CALENDAR_DESK_DATA) return resolve(env.CALENDAR_DESK_DATA);
  if (platform === 'win32')
    return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_FOLDER_NAME, 'data');
  if (platform === 'darwin')
    return join(homedir(), 'Library', 'Application Support', APP_FOLDER_NAME, 'data');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_FOLDER_NAME, 'data');
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
