// The sandboxed preload: exposes `window.calendarDesk` (CalendarDeskBridge) and nothing else. No Node, no
// generic IPC: each function invokes one named channel, and the main process checks who is asking.
import { contextBridge, ipcRenderer } from 'electron';
import type { ApiConnection, CalendarDeskBridge } from '../shared/bridge';
import { APP_VERSION_SWITCH, BRIDGE_CHANNELS } from '../shared/bridgeChannels';

const versionSwitch = process.argv.find((arg) => arg.startsWith(APP_VERSION_SWITCH));

const bridge = {
  connection: () => ipcRenderer.invoke(BRIDGE_CHANNELS.connection) as Promise<ApiConnection>,
  appVersion: versionSwitch ? versionSwitch.slice(APP_VERSION_SWITCH.length) : '',
  openExternal: (url: string) =>
    ipcRenderer.invoke(BRIDGE_CHANNELS.openExternal, String(url)) as Promise<boolean>,
} satisfies CalendarDeskBridge;

contextBridge.exposeInMainWorld('calendarDesk', bridge);
