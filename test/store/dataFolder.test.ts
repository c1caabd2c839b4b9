import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { earlierDataFolders, findDataFolder, platformDataFolder } from '../../src/main/store/dataFolder';

describe('data folder: the platform default', () => {
  it('Linux: $XDG_DATA_HOME/calendar-desk, else ~/.local/share/calendar-desk', () => {
    expect(
      platformDataFolder({ env: { XDG_DATA_HOME: '/data/ana' }, platform: 'linux', home: '/home/ana' }),
    ).toBe('/data/ana/calendar-desk');
    expect(platformDataFolder({ env: {}, platform: 'linux', home: '/home/ana' })).toBe(
      '/home/ana/.local/share/calendar-desk',
    );
    // The XDG spec: a relative value is ignored.
    expect(
      platformDataFolder({ env: { XDG_DATA_HOME: 'share' }, platform: 'linux', home: '/home/ana' }),
    ).toBe('/home/ana/.local/share/calendar-desk');
    // The home comes from $HOME when no home is given.
    expect(platformDataFolder({ env: { HOME: '/home/bo' }, platform: 'freebsd' })).toBe(
      '/home/bo/.local/share/calendar-desk',
    );
  });

  it('macOS: ~/Library/Application Support/Calendar Desk/data', () => {
    expect(platformDataFolder({ env: { XDG_DATA_HOME: '/x' }, platform: 'darwin', home: '/Users/ana' })).toBe(
      '/Users/ana/Library/Application Support/Calendar Desk/data',
    );
  });

  it('Windows: %APPDATA%\\Calendar Desk\\data, else the roaming folder under %USERPROFILE%', () => {
    expect(
      platformDataFolder({ env: { APPDATA: 'C:\\Users\\ana\\AppData\\Roaming' }, platform: 'win32' }),
    ).toBe('C:\\Users\\ana\\AppData\\Roaming\\Calendar Desk\\data');
    expect(platformDataFolder({ env: { USERPROFILE: 'C:\\Users\\bo' }, platform: 'win32' })).toBe(
      'C:\\Users\\bo\\AppData\\Roaming\\Calendar Desk\\data',
    );
  });

  it('names the folders earlier versions used: the CLI’s ~/.config one and Electron’s unpackaged userData', () => {
    expect(earlierDataFolders({ env: {}, platform: 'linux', home: '/home/ana' })).toEqual([
      '/home/ana/.config/Calendar Desk/data',
      '/home/ana/.config/calendar-desk/data',
    ]);
    expect(
      earlierDataFolders({
        env: { XDG_CONFIG_HOME: '/cfg' },
        platform: 'linux',
        home: '/h',
        earlier: ['/u/data'],
      }),
    ).toEqual(['/cfg/Calendar Desk/data', '/cfg/calendar-desk/data', '/u/data']);
    expect(earlierDataFolders({ env: {}, platform: 'darwin', home: '/Users/ana' })).toEqual([
      '/Users/ana/Library/Application Support/calendar-desk/data',
    ]);
    expect(earlierDataFolders({ env: { APPDATA: 'C:\\R' }, platform: 'win32' })).toEqual([
      'C:\\R\\calendar-desk\\data',
    ]);
  });
});

describe('data folder: which one is used', () => {
  let home: string;
  const linux = (env: NodeJS.ProcessEnv = {}, earlier?: string[]) =>
    findDataFolder(undefined, { env, platform: 'linux', home, earlier });

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'calendar-desk-home-'));
  });
  afterEach(() => rm(home, { recursive: true, force: true }));

  const calendarIn = async (folder: string, text = '{"events":[]}') => {
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'calendar.json'), text);
  };

  it('a new user gets the platform default', () => {
    expect(linux()).toEqual({ dataDir: join(home, '.local/share/calendar-desk'), source: 'default' });
  });

  it('finds the calendar an earlier version kept in ~/.config and uses it in place, unchanged', async () => {
    const old = join(home, '.config', 'Calendar Desk', 'data');
    await calendarIn(old, '{"mine":true}');
    expect(linux()).toEqual({ dataDir: old, source: 'earlier' });
    // Nothing is moved or copied: the old folder keeps its file, the new one is not made.
    expect(await readFile(join(old, 'calendar.json'), 'utf8')).toBe('{"mine":true}');
    expect(await readdir(home)).toEqual(['.config']);
  });

  it('finds the desktop app’s earlier userData/data folder', async () => {
    const userData = join(home, '.config', 'Some Name');
    await calendarIn(join(userData, 'data'));
    expect(linux({}, [join(userData, 'data')])).toEqual({
      dataDir: join(userData, 'data'),
      source: 'earlier',
    });
  });

  it('an empty earlier folder is no calendar: the default is used', async () => {
    await mkdir(join(home, '.config', 'Calendar Desk', 'data'), { recursive: true });
    expect(linux().source).toBe('default');
  });

  it('once the default holds a calendar, it wins over any earlier folder', async () => {
    await calendarIn(join(home, '.config', 'Calendar Desk', 'data'));
    await calendarIn(join(home, 'share', 'calendar-desk'));
    expect(linux({ XDG_DATA_HOME: join(home, 'share') })).toEqual({
      dataDir: join(home, 'share', 'calendar-desk'),
      source: 'default',
    });
  });

  it('--data, then CALENDAR_DESK_DATA, come before any of them (made absolute)', async () => {
    await calendarIn(join(home, '.config', 'Calendar Desk', 'data'));
    expect(findDataFolder('rel', { env: { CALENDAR_DESK_DATA: '/x' }, platform: 'linux', home })).toEqual({
      dataDir: join(process.cwd(), 'rel'),
      source: 'option',
    });
    expect(linux({ CALENDAR_DESK_DATA: '/x/y' })).toEqual({ dataDir: '/x/y', source: 'environment' });
  });
});
