import { homedir } from 'node:os';
import { join } from 'node:path';

export const APP_FOLDER_NAME = 'Calendar Desk';

/**
 * The data folder: `--data`, else `CALENDAR_DESK_DATA`, else the platform's app-data folder — the same place
 * Electron's `app.getPath('userData')` points to, so the desktop app and the CLI share one calendar.
 */
export function resolveDataFolder(
  explicit?: string,
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): string {
  if (explicit) return explicit;
  if (env.CALENDAR_DESK_DATA) return env.CALENDAR_DESK_DATA;
  if (platform === 'win32')
    return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_FOLDER_NAME);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_FOLDER_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_FOLDER_NAME);
}
