/** The only two IPC channels between the preload bridge and the main process (ipcRenderer.invoke ↔ ipcMain.handle). */
export const BRIDGE_CHANNELS = {
  connection: 'calendar-desk:connection',
  openExternal: 'calendar-desk:open-external',
} as const;

/**
 * The main process hands the app version to the sandboxed preload as a command-line switch
 * (webPreferences.additionalArguments): the preload cannot read package.json, and a third channel is not needed.
 */
export const APP_VERSION_SWITCH = '--calendar-desk-version=';
