import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { z } from 'zod';
import { isAllowedExternalUrl, type ApiConnection } from '../../shared/bridge';
import { BRIDGE_CHANNELS } from '../../shared/bridgeChannels';
import { isEngineUrl } from './security';

export interface BridgeDeps {
  /** The engine origin: only frames showing it may use the bridge. */
  origin: string;
  connection: () => ApiConnection;
  openExternal: (url: string) => Promise<void>;
}

export class BridgeRefusedError extends Error {
  readonly code = 'BRIDGE_SENDER_REFUSED';
}

const externalUrlArg = z.string().max(8192);

/** The main side of the preload bridge: the two channels, each refusing any frame not served by the engine. */
export function registerBridgeHandlers(ipcMain: Pick<IpcMain, 'handle'>, deps: BridgeDeps): void {
  const checkSender = (event: IpcMainInvokeEvent) => {
    const url = event.senderFrame?.url ?? '';
    if (!isEngineUrl(url, deps.origin)) {
      throw new BridgeRefusedError(`Calendar Desk refused a bridge call from ${url || 'an unknown frame'}.`);
    }
  };
  ipcMain.handle(BRIDGE_CHANNELS.connection, (event) => {
    checkSender(event);
    return deps.connection();
  });
  ipcMain.handle(BRIDGE_CHANNELS.openExternal, async (event, url: unknown) => {
    checkSender(event);
    const parsed = externalUrlArg.safeParse(url);
    if (!parsed.success || !isAllowedExternalUrl(parsed.data)) return false;
    await deps.openExternal(parsed.data);
    return true;
  });
}
