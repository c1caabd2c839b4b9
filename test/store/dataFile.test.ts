import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CalendarStore,
  DATA_FILE_NAME,
  DataFileInvalidError,
  DataFileUnreadableError,
} from '../../src/main/store/store';
import { emptyDataFile, type Settings } from '../../src/main/store/schema';

const settings: Settings = { siteName: 'Test', siteDescription: '', timezone: 'UTC', postsPerPage: 10 };
let dataDir: string;
const dataFile = () => join(dataDir, DATA_FILE_NAME);

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'calendar-desk-file-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const open = () => CalendarStore.open({ dataDir, initialSettings: settings });

/** Opening must fail with DataFileInvalidError, and must leave the damaged file exactly as it was. */
async function expectInvalid(content: string, reason: RegExp) {
  await writeFile(dataFile(), content);
  const error = await open().then(
    (store) => store.close().then(() => null),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DataFileInvalidError);
  expect((error as Error).message).toContain(dataFile());
  expect((error as Error).message).toMatch(reason);
  expect(await readFile(dataFile(), 'utf8')).toBe(content);
  // The folder is not left locked by the failed attempt.
  expect(await readdir(dataDir)).toEqual([DATA_FILE_NAME]);
}

describe('opening the data file', () => {
  it('initialises a missing file as an empty calendar', async () => {
    const store = await open();
    expect(store.events.size).toBe(0);
    await store.close();
    const empty = emptyDataFile(settings);
    // The change feed's id is new for every calendar.
    expect(JSON.parse(await readFile(dataFile(), 'utf8'))).toEqual({
      ...empty,
      changeFeed: { ...empty.changeFeed, id: store.changeFeed.id },
    });
  });

  it('refuses a file that is not JSON', () => expectInvalid('{"schemaVersion": 1, "events": [', /JSON/));

  it('refuses an empty file', () => expectInvalid('', /JSON/));

  it('refuses a file holding null (instead of starting an empty calendar over it)', () =>
    expectInvalid('null', /null/));

  it('refuses a falsy JSON value', () => expectInvalid('0', /not a valid Calendar Desk file/));

  it('refuses JSON that does not match the schema, naming the fields', () =>
    expectInvalid('{"schemaVersion": 1, "events": []}', /counters.*settings/));

  it('refuses a record with a wrong field, naming where it is', async () => {
    const data = emptyDataFile(settings);
    const broken = { ...data, events: [{ id: 'seven' }] };
    await expectInvalid(JSON.stringify(broken), /events\.0\./);
  });

  it('says so when the file comes from a newer version', () =>
    expectInvalid(JSON.stringify({ ...emptyDataFile(settings), schemaVersion: 99 }), /newer/));

  it('reports a data file it cannot read at all', async () => {
    await mkdir(dataFile());
    const error = await open().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(DataFileUnreadableError);
    expect((error as Error).message).toContain(dataFile());
  });

  it('opens the folder again once the file is fixed', async () => {
    await writeFile(dataFile(), 'garbage');
    await expect(open()).rejects.toBeInstanceOf(DataFileInvalidError);
    await writeFile(dataFile(), JSON.stringify(emptyDataFile(settings)));
    const store = await open();
    await store.close();
  });
});
