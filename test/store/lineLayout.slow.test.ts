import { createHash } from 'node:crypto';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { seedDataFolder } from '../../bench/seedData';
import { FileLines } from '../../src/main/store/fileLines';
import { layoutText } from '../../src/main/store/lineLayout';
import type { Settings, StoredEvent } from '../../src/main/store/schema';
import { CalendarStore, DATA_FILE_NAME } from '../../src/main/store/store';

// The layout of the events' lines beside the data file (issue 32): a start reads everything but the events'
// bytes, and those by position when wanted. Used only for the very file it was written for; otherwise the
// start reads the whole file, as without it.
const EVENTS = 400;
const settings: Settings = { siteName: 'Test', siteDescription: '', timezone: 'UTC', postsPerPage: 10 };
let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'line-layout-'));
  await seedDataFolder(dataDir, { events: EVENTS, now: new Date('2026-11-24T12:00:00Z'), seed: 5 });
});
afterEach(() => {
  vi.restoreAllMocks();
  return rm(dataDir, { recursive: true, force: true });
});

const open = () => CalendarStore.open({ dataDir, initialSettings: settings, lock: false });
const dataFile = () => join(dataDir, DATA_FILE_NAME);
const layoutFile = () => `${dataFile()}.lines`;
/** The lines' lengths a layout file records (base64 of 32-bit little-endian numbers), and back. */
const decodedLengths = (encoded: string) => {
  const bytes = Buffer.from(encoded, 'base64');
  return Array.from({ length: bytes.length / 4 }, (_, at) => bytes.readUInt32LE(4 * at));
};
const encodedLengths = (lengths: number[]) => {
  const bytes = Buffer.alloc(4 * lengths.length);
  lengths.forEach((length, at) => bytes.writeUInt32LE(length, 4 * at));
  return bytes.toString('base64');
};
/** The layout file as written, and the lines' lengths it records. */
async function recordedLayout() {
  const layout = JSON.parse(await readFile(layoutFile(), 'utf8')) as {
    fingerprint: string;
    first: number;
    lengths: string;
  };
  return { layout, lengths: decodedLengths(layout.lengths) };
}
const eventsOnDisk = async () =>
  (JSON.parse(await readFile(dataFile(), 'utf8')) as { events: StoredEvent[] }).events;

/** Every record the store holds once all are read, in the data file's order, and how many came by position. */
async function readEverything(store: CalendarStore) {
  const byPosition = vi.spyOn(FileLines.prototype, 'parse');
  store.readAllEvents();
  const events = [...store.events.values()];
  const count = byPosition.mock.calls.length;
  byPosition.mockRestore();
  return { events, byPosition: count };
}

/** A change to the first event's title, closed, so that the data file is written anew. */
async function retitleFirst(title: string) {
  const store = await open();
  store.readAllEvents();
  const first = [...store.events.values()][0];
  await store.mutate((tx) => tx.putEvent({ ...first, title }));
  await store.close();
}

/** A start leaves every event unread, then reads each record by position exactly as the file holds it. */
async function expectEveryRecordByPosition() {
  const store = await open();
  expect(store.unreadEvents).toBe(EVENTS);
  const { events, byPosition } = await readEverything(store);
  expect(byPosition).toBe(EVENTS);
  expect(events).toEqual(await eventsOnDisk());
  await store.close();
}

describe('a start with the layout of the data file it was written for', () => {
  it('leaves the events unread, then reads each record by position exactly as the file holds it', async () => {
    await expectEveryRecordByPosition();
  });

  it('reads a layout written by the version before (its lengths as a JSON array) as well', async () => {
    const { layout, lengths } = await recordedLayout();
    const checksum = createHash('sha256')
      .update(`1|${layout.fingerprint}|${layout.first}|${lengths.join(',')}`)
      .digest('hex');
    await writeFile(layoutFile(), JSON.stringify({ ...layout, version: 1, lengths, checksum }));
    await expectEveryRecordByPosition();
  });

  it('writes the layout anew with each data file: changes are found by the next start', async () => {
    await retitleFirst('Retitled');
    const store = await open();
    expect(store.unreadEvents).toBe(EVENTS);
    const { events, byPosition } = await readEverything(store);
    expect(byPosition).toBe(EVENTS);
    expect(events[0].title).toBe('Retitled');
    expect(events).toEqual(await eventsOnDisk());
    await store.close();
  });
});

describe('a layout that does not match the data file is ignored: the start reads the file as without it', () => {
  const expectFullRead = async (title?: string) => {
    // Watched from before the start: nothing is read by position, neither then nor after.
    const byPosition = vi.spyOn(FileLines.prototype, 'parse');
    const store = await open();
    store.readAllEvents();
    const events = [...store.events.values()];
    expect(byPosition).not.toHaveBeenCalled();
    expect(events).toEqual(await eventsOnDisk());
    if (title) expect(events[0].title).toBe(title);
    expect(store.readOnly).toBeNull();
    await store.close();
  };

  it('an older layout (of the data file written before)', async () => {
    await copyFile(layoutFile(), `${layoutFile()}.old`);
    await retitleFirst('Newer title, longer than the one before it');
    await copyFile(`${layoutFile()}.old`, layoutFile());
    await expectFullRead('Newer title, longer than the one before it');
  });

  it('a layout for another fingerprint', async () => {
    const layout = JSON.parse(await readFile(layoutFile(), 'utf8')) as Record<string, unknown>;
    await writeFile(layoutFile(), JSON.stringify({ ...layout, fingerprint: '{"size":1}' }));
    await expectFullRead();
  });

  it('a layout edited by hand (its checksum no longer holds), or cut short', async () => {
    const { layout, lengths } = await recordedLayout();
    [lengths[0], lengths[1]] = [lengths[1]! + 1, lengths[0]! - 1];
    await writeFile(layoutFile(), JSON.stringify({ ...layout, lengths: encodedLengths(lengths) }));
    await expectFullRead();
    const text = await readFile(layoutFile(), 'utf8');
    await writeFile(layoutFile(), text.slice(0, text.length >> 1));
    await expectFullRead();
    // JSON, but not a layout at all.
    for (const other of ['null', '7', '"lines"']) {
      await writeFile(layoutFile(), other);
      await expectFullRead();
    }
  });

  it('a data file edited by hand (same size, one title changed), even with its fingerprint and layout kept', async () => {
    const text = await readFile(dataFile(), 'utf8');
    const title = (await eventsOnDisk())[0].title;
    const edited = title.slice(0, -1) + (title.endsWith('X') ? 'Y' : 'X');
    await writeFile(dataFile(), text.replace(JSON.stringify(title), JSON.stringify(edited)));
    await expectFullRead(edited);
  });
});

describe('a layout that holds together but is wrong (its lines are not where it says)', () => {
  it('is found out as the records are read: reported, nothing changed, and the next start reads the whole file', async () => {
    const { layout, lengths } = await recordedLayout();
    [lengths[3], lengths[4]] = [lengths[4] + 7, lengths[3] - 7];
    const offsets = [layout.first];
    for (const length of lengths) offsets.push(offsets[offsets.length - 1] + length);
    await writeFile(layoutFile(), layoutText({ key: 'events', offsets }, layout.fingerprint)!);
    const store = await open();
    expect(store.unreadEvents).toBe(EVENTS);
    expect(() => store.readAllEvents()).toThrow(/damaged: the record of event \d+ .* cannot be read/);
    await expect(store.mutate((tx) => tx.setSettings({ ...store.settings, siteName: 'X' }))).rejects.toThrow(
      /read-only/,
    );
    await store.close();
    const next = await open();
    next.readAllEvents();
    expect([...next.events.values()]).toEqual(await eventsOnDisk());
    expect(next.readOnly).toBeNull();
    await next.close();
  });
});
