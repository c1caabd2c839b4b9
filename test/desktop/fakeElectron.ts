import { EventEmitter } from 'node:events';
import { vi } from 'vitest';
import type { BrowserWindowConstructorOptions } from 'electron';
import type { DesktopElectron } from '../../src/main/desktop/app';

/** A stand-in for the parts of Electron the shell uses (the binary cannot run on CI machines). */
export class FakeWebContents extends EventEmitter {
  windowOpenHandler?: (details: { url: string }) => { action: string };
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.windowOpenHandler = handler;
  }
  /** Emits a navigation event the way Chromium does; true when the shell refused it. */
  navigate(event: 'will-navigate' | 'will-redirect', url: string): boolean {
    let refused = false;
    this.emit(event, { url, preventDefault: () => (refused = true) }, url);
    return refused;
  }
}

export class FakeWindow extends EventEmitter {
  static instances: FakeWindow[] = [];
  readonly webContents = new FakeWebContents();
  readonly loaded: string[] = [];
  shown = false;
  focused = false;
  constructor(readonly options: BrowserWindowConstructorOptions) {
    super();
    FakeWindow.instances.push(this);
  }
  loadURL(url: string) {
    this.loaded.push(url);
    return Promise.resolve();
  }
  isMinimized = () => false;
  restore() {}
  show() {
    this.shown = true;
  }
  focus() {
    this.focused = true;
  }
}

export type HeadersListener = (
  details: { url: string; responseHeaders?: Record<string, string[]> },
  callback: (response: { responseHeaders?: Record<string, string[]> }) => void,
) => void;

export function fakeElectron(options: { userData: string; singleInstance?: boolean; systemLocale?: string }) {
  FakeWindow.instances = [];
  const handlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>();
  let headersListener: HeadersListener | undefined;
  let permissionRequest:
    | ((
        contents: unknown,
        permission: string,
        callback: (ok: boolean) => void,
        details: { requestingUrl: string },
      ) => void)
    | undefined;
  let permissionCheck:
    ((contents: unknown, permission: string, requestingOrigin: string) => boolean) | undefined;
  let exited: (code: number) => void = () => {};
  const exit = new Promise<number>((resolveExit) => (exited = resolveExit));
  const app = Object.assign(new EventEmitter(), {
    isPackaged: false,
    setName: vi.fn(),
    enableSandbox: vi.fn(),
    requestSingleInstanceLock: vi.fn(() => options.singleInstance ?? true),
    quit: vi.fn(),
    exit: vi.fn((code: number) => exited(code)),
    whenReady: vi.fn(() => Promise.resolve()),
    getPath: vi.fn((name: string) => (name === 'userData' ? options.userData : `/nonexistent/${name}`)),
    getVersion: () => '9.8.7',
    getSystemLocale: () => options.systemLocale ?? 'en-US',
    getAppPath: () => process.cwd(),
  });
  const electron = {
    app,
    BrowserWindow: FakeWindow,
    dialog: { showErrorBox: vi.fn(), showMessageBox: vi.fn(() => Promise.resolve({ response: 0 })) },
    ipcMain: {
      handle: vi.fn((channel: string, handler: (event: unknown, ...args: unknown[]) => unknown) => {
        handlers.set(channel, handler);
      }),
    },
    Menu: { buildFromTemplate: vi.fn((template: unknown) => template), setApplicationMenu: vi.fn() },
    session: {
      defaultSession: {
        webRequest: { onHeadersReceived: (listener: HeadersListener) => (headersListener = listener) },
        setPermissionRequestHandler: (handler: typeof permissionRequest) => (permissionRequest = handler),
        setPermissionCheckHandler: (handler: typeof permissionCheck) => (permissionCheck = handler),
      },
    },
    // A stand-in keychain: reversible, and recognisable in the data file ("sealed:").
    safeStorage: {
      isEncryptionAvailable: () => true,
      encryptString: vi.fn((text: string) => Buffer.from(`sealed:${[...text].reverse().join('')}`)),
      decryptString: vi.fn((blob: Buffer) => [...blob.toString().slice('sealed:'.length)].reverse().join('')),
    },
    shell: {
      openExternal: vi.fn((_url: string) => Promise.resolve()),
      openPath: vi.fn((_path: string) => Promise.resolve('')),
    },
  };
  return {
    electron,
    /** The same object typed as the shell expects it. */
    asElectron: electron as unknown as DesktopElectron,
    app,
    exit,
    /** Calls an IPC handler as a frame showing `frameUrl` would. */
    invoke: (channel: string, frameUrl: string | null, ...args: unknown[]) => {
      const handler = handlers.get(channel);
      if (!handler) throw new Error(`no handler on ${channel}`);
      return Promise.resolve().then(() =>
        handler({ senderFrame: frameUrl === null ? null : { url: frameUrl } }, ...args),
      );
    },
    channels: () => [...handlers.keys()],
    headers: (details: Parameters<HeadersListener>[0]) =>
      new Promise<{ responseHeaders?: Record<string, string[]> }>((resolveHeaders) => {
        if (!headersListener) throw new Error('no onHeadersReceived listener');
        headersListener(details, resolveHeaders);
      }),
    permissionRequest: (permission: string, requestingUrl = 'http://127.0.0.1:1/') =>
      new Promise<boolean>((resolvePermission) =>
        permissionRequest?.(null, permission, resolvePermission, { requestingUrl }),
      ),
    permissionCheck: (permission = 'media', requestingOrigin = 'http://127.0.0.1:1') =>
      permissionCheck?.(null, permission, requestingOrigin),
  };
}

/** Fakes made inside a `vi.mock('electron', …)` factory, for the test to reach. */
export const mockedElectrons: ReturnType<typeof fakeElectron>[] = [];
