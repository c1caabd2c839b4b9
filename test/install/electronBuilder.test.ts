import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, matchesGlob } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../cli/cliProcess';
import { checkForUpdates, updatesEnabled } from '../../src/main/desktop/updates';

// The desktop packages cannot be built here (no Electron binary): their configuration is proven instead, with
// electron-builder's own validation (its JSON schema), the files it names, and what it would pack.
const require = createRequire(import.meta.url);
const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  validateConfiguration: (config: object, debugLogger: { isEnabled: boolean }) => Promise<void>;
};
const yaml = require('js-yaml') as { load: (text: string) => unknown };

interface BuilderConfig {
  appId: string;
  productName: string;
  directories: { buildResources: string; output: string };
  files: string[];
  fileAssociations: { ext: string; mimeType: string }[];
  linux: { target: string[]; icon: string };
  win: { target: string[]; icon: string };
  mac: { target: string[]; icon: string };
  deb: { packageName: string };
  publish: { provider: string };
}

let config: BuilderConfig;
let manifest: {
  main: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const debug = { isEnabled: false };

beforeAll(async () => {
  config = JSON.parse(await readFile(join(ROOT, 'electron-builder.json'), 'utf8')) as BuilderConfig;
  manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as typeof manifest;
  await ensureBuilt();
}, 240_000);

describe('electron-builder configuration', () => {
  it('passes electron-builder’s own schema, which refuses a misspelt option', async () => {
    await expect(validateConfiguration(structuredClone(config), debug)).resolves.toBeUndefined();
    await expect(
      validateConfiguration({ ...structuredClone(config), linux: { targets: ['AppImage'] } }, debug),
    ).rejects.toThrow(/linux/);
  });

  it('builds Linux AppImage and .deb, Windows NSIS, macOS dmg and zip, with an app id and the .ics association', () => {
    expect(config.appId).toMatch(/^[a-z]+(\.[A-Za-z]+)+$/);
    expect(config.productName).toBe('Calendar Desk');
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.mac.target).toEqual(['dmg', 'zip']);
    expect(config.fileAssociations).toEqual([
      expect.objectContaining({ ext: 'ics', mimeType: 'text/calendar' }),
    ]);
    // Apart from the headless edition's package (calendar-desk), so both can be installed.
    expect(config.deb.packageName).toBe('calendar-desk-desktop');
    expect(config.publish.provider).toBe('github');
  });

  it('every file it names exists: icons in resources/ large enough for every platform', async () => {
    expect(config.directories.buildResources).toBe('resources');
    for (const icon of new Set([config.linux.icon, config.win.icon, config.mac.icon])) {
      const path = join(ROOT, config.directories.buildResources, icon);
      expect(existsSync(path), path).toBe(true);
      // PNG width and height (IHDR): electron-builder makes .ico and .icns from a PNG of 512 px or more.
      const png = await readFile(path);
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect(png.readUInt32BE(16)).toBeGreaterThanOrEqual(512);
      expect(png.readUInt32BE(20)).toBeGreaterThanOrEqual(512);
    }
  });

  it('packs the app’s main, its preload and the web UI; Electron is a dev dependency, the updater a runtime one', () => {
    const packed = (file: string) => config.files.some((pattern) => matchesGlob(file, pattern));
    for (const file of [manifest.main, 'out/preload/index.cjs', 'out/renderer/index.html', 'package.json']) {
      expect(existsSync(join(ROOT, file)), file).toBe(true);
      expect(packed(file), file).toBe(true);
    }
    expect(packed('src/main/index.ts')).toBe(false);
    expect(packed('test/install/electronBuilder.test.ts')).toBe(false);
    expect(manifest.devDependencies.electron).toBeDefined();
    expect(manifest.dependencies.electron).toBeUndefined();
    expect(manifest.dependencies['electron-updater']).toBeDefined();
  });

  it('the release workflow builds on Linux, Windows and macOS runners, as a release, and publishes', async () => {
    const workflow = yaml.load(await readFile(join(ROOT, '.github', 'workflows', 'release.yml'), 'utf8')) as {
      jobs: Record<
        string,
        { strategy?: { matrix: { os: string[] } }; env?: Record<string, string>; steps: { run?: string }[] }
      >;
    };
    const desktop = workflow.jobs.desktop;
    expect(desktop.strategy?.matrix.os).toEqual(['ubuntu-latest', 'windows-latest', 'macos-latest']);
    expect(desktop.env?.CALENDAR_DESK_RELEASE).toBe('1');
    expect(desktop.steps.map((step) => step.run ?? '').join('\n')).toMatch(
      /electron-builder --publish always/,
    );
    expect(workflow.jobs.headless.steps.map((step) => step.run ?? '').join('\n')).toContain(
      'npm run dist:headless',
    );
  });
});

describe('updates', () => {
  const load = () => Promise.resolve({ checkForUpdatesAndNotify: () => Promise.resolve(null) });

  it('are on for a packaged release build only, and can be turned off', () => {
    expect(updatesEnabled({ isPackaged: true, release: true, env: {} })).toBe(true);
    expect(updatesEnabled({ isPackaged: false, release: true, env: {} })).toBe(false);
    expect(updatesEnabled({ isPackaged: true, release: false, env: {} })).toBe(false);
    expect(updatesEnabled({ isPackaged: true, release: true, env: { CALENDAR_DESK_NO_UPDATES: '1' } })).toBe(
      false,
    );
  });

  it('a build that is not a release never loads the updater; a failed check is told, not thrown', async () => {
    const reports: string[] = [];
    let loaded = 0;
    const options = {
      isPackaged: true,
      release: false,
      env: {},
      report: (message: string) => reports.push(message),
      load: () => {
        loaded += 1;
        return load();
      },
    };
    expect(await checkForUpdates(options)).toBe(false);
    expect(loaded).toBe(0);
    expect(await checkForUpdates({ ...options, release: true })).toBe(true);
    expect(loaded).toBe(1);
    expect(
      await checkForUpdates({
        ...options,
        release: true,
        load: () => Promise.reject(new Error('offline')),
      }),
    ).toBe(true);
    expect(reports).toEqual(['Could not check for updates: offline']);
  });
});
