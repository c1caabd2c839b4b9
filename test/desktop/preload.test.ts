import { beforeAll, expect, it, vi } from 'vitest';
import type { CalendarDeskBridge } from '../../src/shared/bridge';
import { BRIDGE_CHANNELS } from '../../src/shared/bridgeChannels';

const electron = vi.hoisted(() => ({
  contextBridge: { exposeInMainWorld: vi.fn() },
  ipcRenderer: { invoke: vi.fn((channel: string) => Promise.resolve(`answer of ${channel}`)) },
}));
vi.mock('electron', () => electron);

let bridge: CalendarDeskBridge;

beforeAll(async () => {
  process.argv.push('--calendar-desk-version=1.2.3');
  await import('../../src/preload/index');
  expect(electron.contextBridge.exposeInMainWorld).toHaveBeenCalledTimes(1);
  const [key, exposed] = electron.contextBridge.exposeInMainWorld.mock.calls[0] as [
    string,
    CalendarDeskBridge,
  ];
  expect(key).toBe('calendarDesk');
  bridge = exposed;
});

it('exposes only the typed bridge: connection, appVersion, openExternal', () => {
  expect(Object.keys(bridge).sort()).toEqual(['appVersion', 'connection', 'openExternal']);
  expect(bridge.appVersion).toBe('1.2.3');
});

it('each function invokes its one named channel', async () => {
  expect(await bridge.connection()).toBe(`answer of ${BRIDGE_CHANNELS.connection}`);
  await bridge.openExternal('https://example.com/');
  expect(electron.ipcRenderer.invoke).toHaveBeenLastCalledWith(
    BRIDGE_CHANNELS.openExternal,
    'https://example.com/',
  );
});
