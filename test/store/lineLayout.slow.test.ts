import { createHash } from 'node:crypto';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { seedDataFolder } from '../../bench/seedData';
import { FileLines } from '../../src/main/store/fileLines';
import { EventKeyColumns, type EventKeys } from '../../src/main/store/lazyEvents';
import { layoutFileBytes } from '../../src/main/store/lineLayout';
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
const encodedLengths = (lengths: number[]) => {
  const bytes = Buffer.alloc(4 * lengths.length);
  lengths.forEach((length, at) => bytes.writeUInt32LE(length, 4 * at));
  return bytes.toString('base64');
};
/** The layout file as written (version 3: a line of JSON, then the lengths and key columns in binary). */
async function recordedLayout() {
  const bytes = await readFile(layoutFile());
  const newline = bytes.indexOf(0x0a);
  const layout = JSON.parse(bytes.toString('utf8', 0, newline)) as {
    version: number;
    key: string;
    fingerprint: string;
    first: number;
    count: number;
    keys: Record<string, unknown> | null;
    checksum: string;
  };
  const body = bytes.subarray(newline + 1);
  const lengths = Array.from({ length: layout.count }, (_, at) => body.readUInt32LE(4 * at));
  return { layout, lengths, body };
}
/** A layout file whose lines have `lengths`, written as the app writes one (its checksum holds). */
const writeLayout = (
  first: number,
  lengths: number[],
  fingerprint: string,
  keys: EventKeyColumns | null,
  keysLine?: { from: number; to: number },
) => {
  const offsets = [first];
  for (const length of lengths) offsets.push(offsets[offsets.length - 1]! + length);
  const member = keysLine && { key: 'eventKeys', ...keysLine };
  return writeFile(
    layoutFile(),
    Buffer.concat(layoutFileBytes({ key: 'events', offsets, member }, fingerprint, keys)!),
  );
};
/** The key columns of the data file's own keys (as the app writes them into the layout). */
const columnsOnDisk = async () =>
  EventKeyColumns.of((JSON.parse(await readFile(dataFile(), 'utf8')) as { eventKeys: EventKeys }).eventKeys)!;
/** Bytes this process has read so far (by any means: `rchar` of /proc/self/io). */
const bytesRead = async () => Number(/rchar: (\d+)/.exec(await readFile('/proc/self/io', 'utf8'))![1]);
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

  it('reads layouts written by the versions before (the lengths as a JSON array, then as base64 in JSON)', async () => {
    const { layout, lengths } = await recordedLayout();
    const { fingerprint, first } = layout;
    const checksum = (version: number, text: string) =>
      createHash('sha256').update(`${version}|${fingerprint}|${first}|${text}`).digest('hex');
    const common = { key: 'events', fingerprint, first };
    const version1 = { ...common, version: 1, lengths, checksum: checksum(1, lengths.join(',')) };
    await writeFile(layoutFile(), JSON.stringify(version1));
    await expectEveryRecordByPosition();
    const base64 = encodedLengths(lengths);
    await writeFile(
      layoutFile(),
      JSON.stringify({ ...common, version: 2, lengths: base64, checksum: checksum(2, base64) }),
    );
    await expectEveryRecordByPosition();
  });

  it("keeps the events' keys as numbers and starts from them, not from the data file's keys", async () => {
    const { layout, body } = await recordedLayout();
    expect(layout.version).toBe(3);
    expect(layout.keys).toMatchObject({ statusNames: expect.arrayContaining(['publish']) });
    expect(body.length).toBe(EVENTS * (4 + 4 + 16 + 3));
    // The columns start 8-byte aligned (the JSON line padded with spaces): a start reads them in place.
    expect(((await readFile(layoutFile())).length - body.length) % 8).toBe(0);
    // The data file's own keys line is not parsed: a start that had to would fail on it.
    const parse = vi.spyOn(JSON, 'parse');
    const store = await open();
    const keysParsed = parse.mock.calls.some(([text]) => String(text).includes('"eventKeys"'));
    parse.mockRestore();
    expect(keysParsed).toBe(false);
    expect(store.unreadEvents).toBe(EVENTS);
    // What the columns say is what the records hold: every placeholder is read and checked against its record.
    const { events, byPosition } = await readEverything(store);
    expect(byPosition).toBe(EVENTS);
    expect(events).toEqual(await eventsOnDisk());
    await store.close();
  });

  it("does not even read the bytes of the data file's keys line", async () => {
    const { layout, lengths } = await recordedLayout();
    const [from, to] = layout.keys!.line as [number, number];
    const file = await readFile(dataFile());
    expect(file.toString('utf8', from, from + 13)).toBe('"eventKeys":{');
    expect([0x2c, 0x0a]).toContain(file[to]);
    const startReads = async () => {
      const before = await bytesRead();
      const store = await open();
      const read = (await bytesRead()) - before;
      expect(store.unreadEvents).toBe(EVENTS);
      await store.close();
      return read;
    };
    const skipping = await startReads();
    // The same layout without the line's place: the start reads its bytes (and still does not parse them).
    await writeLayout(layout.first, lengths, layout.fingerprint, await columnsOnDisk());
    const reading = await startReads();
    expect(reading - skipping).toBeGreaterThanOrEqual(0.9 * (to - from));
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
    const { layout, lengths } = await recordedLayout();
    await writeLayout(layout.first, lengths, '{"size":1}', null);
    await expectFullRead();
  });

  it('a layout edited by hand (its checksum no longer holds), or cut short', async () => {
    const { body } = await recordedLayout();
    const bytes = await readFile(layoutFile());
    const bodyAt = bytes.length - body.length;
    // Two lines' lengths swapped but summing as before; then one event's status code changed.
    const edited = Buffer.from(bytes);
    edited.writeUInt32LE(body.readUInt32LE(4) + 1, bodyAt);
    edited.writeUInt32LE(body.readUInt32LE(0) - 1, bodyAt + 4);
    await writeFile(layoutFile(), edited);
    await expectFullRead();
    const status = Buffer.from(bytes);
    status[bodyAt + EVENTS * (4 + 4 + 16)] ^= 1;
    await writeFile(layoutFile(), status);
    await expectFullRead();
    await writeFile(layoutFile(), bytes.subarray(0, bytes.length - 3));
    await expectFullRead();
    await writeFile(layoutFile(), bytes.subarray(0, bytes.length >> 1));
    await expectFullRead();
    // JSON, but not a layout at all.
    for (const other of ['null', '7', '"lines"', 'null\n', '{"version":3}\n']) {
      await writeFile(layoutFile(), other);
      await expectFullRead();
    }
  });

  it("a layout whose keys line is not where it says (the data file's line is checked before it is skipped)", async () => {
    const { layout, lengths } = await recordedLayout();
    const [from, to] = layout.keys!.line as [number, number];
    await writeLayout(layout.first, lengths, layout.fingerprint, await columnsOnDisk(), {
      from: from - 2,
      to,
    });
    await expectFullRead();
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
    [lengths[3], lengths[4]] = [lengths[4]! + 7, lengths[3]! - 7];
    await writeLayout(layout.first, lengths, layout.fingerprint, null);
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
