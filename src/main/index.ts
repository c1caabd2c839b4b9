// Electron entry (issue 4 builds the real shell): start the engine and open a window on its web UI.
import { app, BrowserWindow } from 'electron';
import { join } from 'node:path';
import { startEngine } from './engine';

async function launch() {
  const engine = await startEngine({
    dataDir: app.getPath('userData'),
    port: 0,
    rendererDir: join(__dirname, '../renderer'),
  });
  const window = new BrowserWindow({
    webPreferences: { contextIsolation: true, sandbox: true, nodeIntegration: false },
  });
  await window.loadURL(`${engine.origin}/`);
  app.on('before-quit', () => void engine.close());
}

void app.whenReady().then(launch);
