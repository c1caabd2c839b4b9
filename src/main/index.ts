// Electron entry. Only this file and src/main/desktop/ import electron; the engine runs without it.
import * as electron from 'electron';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

// Read the OS time zone now: loading the engine pins process.env.TZ to UTC (hence the dynamic import below).
const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const mainDir = dirname(fileURLToPath(import.meta.url));

/** The running app (null when another instance runs or start failed); tests await it. */
export const desktop = import('./desktop/app')
  .then(({ runDesktopApp }) => runDesktopApp(electron, { mainDir, timezone }))
  .catch((error: unknown) => {
    electron.dialog.showErrorBox('Calendar Desk cannot start', String((error as Error)?.stack ?? error));
    electron.app.exit(1);
    return null;
  });
