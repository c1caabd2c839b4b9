import { randomUUID } from 'node:crypto';
import { mkdtemp, open as openFile, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CalendarStore, DATA_FILE_NAME } from '../../src/main/store/store';
import { JournaledPersistence, type Persistence } from '../../src/main/store/persistence';
import type { Settings, StoredTerm } from '../../src/main/store/schema';
import type { StoreOp } from '../../src/main/store/store';

const settings: Settings = { siteName: 'Test', siteDescription: '', timezone: 'UTC', postsPerPage: 10 };
let dataDir: string;
const open = (options: Partial<Parameters<typeof CalendarStore.open>[0]> = {}) =>
  CalendarStore.open({ dataDir, initialSettings: settings, lock: false, ...options });
const term = (id: number, name: string): StoredTerm => ({
  id,
  uid: randomUUID(),
  taxonomy: 'tag',
  name,
  slug: name,
  description: '',
  parent: 0,
  language: 'en',
  modifiedUtc: '2026-11-22 00:00:00',
  revision: 1,
});
const addTag = (store: CalendarStore, name: string) =>
  store.mutate((tx) => tx.putTerm(term(tx.nextTermId(), name)));
const names = (store: CalendarStore) => [...store.terms.values()].map((stored) => stored.name);

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'robust-'));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dataDir, { recursive: true, force: true });
});

describe('store robustness', () => {
  it('writes all of a batch even when the disk takes it in pieces', async () => {
    const store = await open();
    const probe = await openFile(join(dataDir, 'probe'), 'w');
    const prototype = Object.getPrototypeOf(probe) as {
      write: (...args: unknown[]) => Promise<{ bytesWritten: number }>;
    };
    await probe.close();
    const realWrite = prototype.write;
    // A nearly full disk: each write call takes at most 7 bytes, without an error.
    vi.spyOn(prototype, 'write').mockImplementation(function (this: unknown, ...args: unknown[]) {
      const [buffer, offset, length, position] = args as [Buffer, number, number, number | null];
      if (!Buffer.isBuffer(buffer)) return realWrite.apply(this, args);
      return realWrite.call(this, buffer, offset, Math.min(length, 7), position);
    });
    await addTag(store, 'pieces');
    await addTag(store, 'more');
    vi.restoreAllMocks();
    const onDisk = await CalendarStore.inspect(dataDir, settings);
    expect(onDisk.terms.map((stored) => stored.name)).toEqual(['pieces', 'more']);
    await store.close();
  });

  it('restores the newest backup when the data file is missing but backups exist', async () => {
    const store = await open({ journal: { compactAfterBytes: 200 } });
    for (const name of ['a', 'b', 'c', 'd']) await addTag(store, name);
    await store.close();
    await unlink(join(dataDir, DATA_FILE_NAME));
    const restored = await open();
    expect(restored.notices.join(' ')).toMatch(/missing/);
    expect(names(restored)).toEqual(['a', 'b', 'c', 'd']);
    await restored.close();
  });

  it('keeps committing when starting a new journal fails, and still closes', async () => {
    const real = new JournaledPersistence<StoreOp>(dataDir, { compactAfterBytes: 1 });
    const persistence: Persistence<StoreOp> = Object.assign(Object.create(real) as Persistence<StoreOp>, {
      rotate: () =>
        Promise.reject(Object.assign(new Error('EMFILE: too many open files'), { code: 'EMFILE' })),
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const store = await open({ persistence });
    await addTag(store, 'first');
    await addTag(store, 'second'); // would hang forever if the write loop had died
    expect(store.notices.join(' ')).toMatch(/could not start a new journal/);
    await expect(store.close()).resolves.toBeUndefined();
  });
});
