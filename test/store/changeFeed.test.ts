import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { Adapter } from 'lowdb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventRecord } from '../../src/main/core/eventRecord';
import {
  CalendarStore,
  DATA_FILE_NAME,
  type OpenStoreOptions,
  type StoreOp,
} from '../../src/main/store/store';
import { JournaledPersistence } from '../../src/main/store/persistence';
import type { JournalEntry } from '../../src/main/store/journal';
import type { DataFile, Settings, StoredEvent, StoredTerm } from '../../src/main/store/schema';

/** The store's change feed (CONTRACT §7): numbers, tombstones and their pruning, across crashes and upgrades. */

const settings: Settings = { siteName: 'Test', siteDescription: '', timezone: 'UTC', postsPerPage: 10 };
let dataDir: string;
const open = (options: Partial<OpenStoreOptions> = {}) =>
  CalendarStore.open({ dataDir, initialSettings: settings, lock: false, ...options });

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'change-feed-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const term = (id: number, name: string, taxonomy: StoredTerm['taxonomy'] = 'tag'): StoredTerm => ({
  id,
  uid: randomUUID(),
  taxonomy,
  name,
  slug: name.toLowerCase(),
  description: '',
  parent: 0,
  language: 'en',
  modifiedUtc: '2026-11-01 00:00:00',
  revision: 1,
});

const event = (id: number, title: string): StoredEvent =>
  eventRecord({
    id,
    authorId: 1,
    status: 'publish',
    language: 'en',
    dateUtc: '2026-11-01 00:00:00',
    timezone: 'UTC',
    title,
    slug: title.toLowerCase(),
  });

const addTag = (store: CalendarStore, name: string) =>
  store.mutate((tx) => {
    const tag = term(tx.nextTermId(), name);
    tx.putTerm(tag);
    return tag;
  });

/** The whole feed as a reader without a cursor (records) and one from the start (records and tombstones). */
const feedOf = (store: CalendarStore) => ({
  state: store.changeFeed.state(),
  full: store.changeFeed.read(null, 1000).items,
  fromStart: store.changeFeed.read(0, 1000).items,
});
const summary = (store: CalendarStore, after: number | null = 0) =>
  store.changeFeed
    .read(after, 1000)
    .items.map((item) => `${item.seq} ${item.tombstone ? 'delete' : 'upsert'} ${item.kind} ${item.id}`);

describe('the change feed of the store', () => {
  it('numbers every change, keeps deletions, and is the same after a crash and after folding the journal', async () => {
    const store = await open();
    const [a, b] = [await addTag(store, 'a'), await addTag(store, 'b')];
    await addTag(store, 'c');
    await store.mutate((tx) => tx.putTerm({ ...a, name: 'a2', revision: 2 }));
    const fair = await store.mutate((tx) => {
      const created = event(tx.nextPostId(), 'Fair');
      tx.putEvent(created);
      return created;
    });
    await store.mutate((tx) => tx.deleteTerm(b.id, '2026-11-20 10:00:00'));
    await store.mutate((tx) => tx.deletePost('event', fair.id, '2026-11-21 10:00:00'));

    expect(summary(store)).toEqual([
      '3 upsert tag 3',
      '4 upsert tag 1',
      '6 delete tag 2',
      `7 delete event ${fair.id}`,
    ]);
    expect(store.changeFeed.state().tombstones).toEqual([
      { seq: 6, kind: 'tag', id: b.id, uid: b.uid, deletedUtc: '2026-11-20 10:00:00' },
      { seq: 7, kind: 'event', id: fair.id, uid: fair.uid, deletedUtc: '2026-11-21 10:00:00' },
    ]);
    // A full read lists what exists, without tombstones.
    expect(store.changeFeed.read(null, 1000).items.map((item) => item.seq)).toEqual([3, 4]);
    const before = feedOf(store);

    // No close(): as after SIGKILL, the journal alone must give back the same feed.
    const crashed = await open();
    expect(feedOf(crashed)).toEqual(before);
    expect(await crashed.mutate((tx) => tx.putTerm({ ...a, name: 'a3', revision: 3 }))).toBeUndefined();
    expect(crashed.changeFeed.seqOf('tag', a.id)).toBe(8);
    const afterCrash = feedOf(crashed);
    await crashed.close();

    // Folded into the data file now.
    const file = JSON.parse(await readFile(join(dataDir, DATA_FILE_NAME), 'utf8')) as DataFile;
    expect(file.changeFeed.seq).toBe(8);
    const reopened = await open();
    expect(feedOf(reopened)).toEqual(afterCrash);
    await reopened.close();
  });

  it('deleting an event for good takes it out of every index', async () => {
    const store = await open();
    const fair = await store.mutate((tx) => {
      const created = event(tx.nextPostId(), 'Fair');
      tx.putEvent(created);
      return created;
    });
    await store.mutate((tx) => tx.deletePost('event', fair.id, '2026-11-21 10:00:00'));
    expect(store.events.has(fair.id)).toBe(false);
    expect(store.eventBySlug('fair')).toBeUndefined();
    expect(
      [...store.eventIndex.listing.partitionContents()].flatMap((partition) => partition.events),
    ).toEqual([]);
    expect(store.changeFeed.seqOf('event', fair.id)).toBeUndefined();
    await store.close();
  });

  it('prunes tombstones beyond the limits in the same write, and a replay prunes exactly the same', async () => {
    const tombstones = { count: 3, days: 90 };
    const store = await open({ tombstones });
    const tags: StoredTerm[] = [];
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f']) tags.push(await addTag(store, name));
    for (const [index, tag] of tags.slice(0, 5).entries()) {
      await store.mutate((tx) => tx.deleteTerm(tag.id, `2026-11-2${index} 10:00:00`));
    }
    // Five deletions (seqs 7-11), three kept: a cursor before the second one (seq 8) may have missed it.
    expect(store.changeFeed.state().tombstones.map((tombstone) => tombstone.seq)).toEqual([9, 10, 11]);
    expect(store.changeFeed.horizon).toBe(8);
    // One more, 100 days later: every older tombstone is past 90 days, only the new one stays.
    await store.mutate((tx) => tx.deleteTerm(tags[5].id, '2027-03-10 10:00:00'));
    expect(store.changeFeed.state().tombstones.map((tombstone) => tombstone.seq)).toEqual([12]);
    expect(store.changeFeed.horizon).toBe(11);
    const before = feedOf(store);

    const crashed = await open({ tombstones });
    expect(feedOf(crashed)).toEqual(before);
    await crashed.close();
  });

  it('a change whose write fails gives up its number: the record keeps its own, the number is never given again', async () => {
    const adapter = new FlakyMemory();
    const store = await open({ adapter });
    const tag = await addTag(store, 'a');
    const before = store.changeFeed.state();
    adapter.failing = true;
    await expect(store.mutate((tx) => tx.putTerm({ ...tag, name: 'lost', revision: 2 }))).rejects.toThrow(
      /could not write/,
    );
    await expect(store.mutate((tx) => tx.deleteTerm(tag.id, '2026-11-20 10:00:00'))).rejects.toThrow(
      /could not write/,
    );
    expect(store.changeFeed.seqOf('tag', tag.id)).toBe(1);
    expect(store.changeFeed.state()).toEqual({ ...before, seq: 3 });
    expect(store.terms.get(tag.id)?.name).toBe('a');

    // A rule error inside the change takes its number back (nothing was seen); a failed write did not.
    await expect(
      store.mutate((tx) => {
        tx.putTerm({ ...tag, name: 'never', revision: 2 });
        throw new Error('rule broken');
      }),
    ).rejects.toThrow('rule broken');
    expect(store.changeFeed.seq).toBe(3);

    adapter.failing = false;
    await store.mutate((tx) => tx.putTerm({ ...tag, name: 'kept', revision: 2 }));
    expect(store.changeFeed.seqOf('tag', tag.id)).toBe(4);
    expect(summary(store)).toEqual(['4 upsert tag 1']);
    await store.close();
  });

  it('a replay keeps the numbers readers saw, also after a failed write left a gap', async () => {
    const persistence = new FlakyJournal(dataDir);
    const store = await open({ persistence });
    const tag = await addTag(store, 'a');
    persistence.failing = true;
    await expect(addTag(store, 'lost')).rejects.toThrow(/could not write/);
    persistence.failing = false;
    await store.mutate((tx) => tx.putTerm({ ...tag, name: 'a2', revision: 2 }));
    // A reader saw the tag at change 3 and keeps that cursor.
    expect(summary(store)).toEqual(['3 upsert tag 1']);

    // No close(): as after SIGKILL. The replayed change keeps its 3, so the next one is 4, after the cursor.
    const crashed = await open();
    expect(summary(crashed)).toEqual(['3 upsert tag 1']);
    await crashed.mutate((tx) => tx.putTerm({ ...tag, name: 'a3', revision: 3 }));
    expect(summary(crashed, 3)).toEqual(['4 upsert tag 1']);
    await crashed.close();
  });

  /** A data file of an older `schemaVersion` with two events and two terms (a category and a tag). */
  const fairAndMarket = (schemaVersion: number) => ({
    schemaVersion,
    journalSeq: 0,
    counters: { post: 2, term: 2, user: 0 },
    settings,
    ...{ venues: [], organizers: [], media: [], users: [], tokens: [], syncLinks: {} },
    events: [event(1, 'Fair'), event(2, 'Market')],
    terms: [term(1, 'Music', 'category'), term(2, 'weekly')],
  });

  it('starts with every record of a schema version 3 file, terms first and events last, once', async () => {
    const v3 = fairAndMarket(3);
    await writeFile(join(dataDir, DATA_FILE_NAME), JSON.stringify(v3));
    const store = await open();
    expect(store.notices.join(' ')).toMatch(/upgraded to schema version 5/);
    expect(summary(store, null)).toEqual([
      '1 upsert category 1',
      '2 upsert tag 2',
      '3 upsert event 1',
      '4 upsert event 2',
    ]);
    const onDisk = JSON.parse(await readFile(join(dataDir, DATA_FILE_NAME), 'utf8')) as DataFile;
    expect(onDisk.changeFeed).toEqual(store.changeFeed.state());
    const id = store.changeFeed.id;
    await store.close();
    const reopened = await open();
    expect(reopened.changeFeed.id).toBe(id);
    expect(reopened.notices.join(' ')).not.toMatch(/upgraded/);
    await reopened.close();
  });

  it('reads a schema version 4 file’s feed (entries as arrays) as the same feed, and keeps it in columns', async () => {
    const v4 = {
      ...fairAndMarket(4),
      changeFeed: {
        id: '6f1c1f9e-4a57-4f53-9a51-2b1c1c7d8e90',
        seq: 9,
        horizon: 0,
        live: [
          [3, 'category', 1],
          [5, 'tag', 2],
          [7, 'event', 2],
          [9, 'event', 1],
        ],
        tombstones: [],
      },
    };
    await writeFile(join(dataDir, DATA_FILE_NAME), JSON.stringify(v4));
    const store = await open();
    expect(store.notices.join(' ')).toMatch(/upgraded to schema version 5/);
    expect(summary(store, null)).toEqual([
      '3 upsert category 1',
      '5 upsert tag 2',
      '7 upsert event 2',
      '9 upsert event 1',
    ]);
    expect(store.changeFeed.id).toBe(v4.changeFeed.id);
    const onDisk = JSON.parse(await readFile(join(dataDir, DATA_FILE_NAME), 'utf8')) as DataFile;
    expect(onDisk.changeFeed.live).toEqual({
      seqs: [3, 5, 7, 9],
      kinds: expect.any(String),
      ids: [1, 2, 2, 1],
    });
    await store.close();
    // A kind no record has: the file is refused with the feed named, not read as another feed.
    await writeFile(
      join(dataDir, DATA_FILE_NAME),
      JSON.stringify({ ...v4, changeFeed: { ...v4.changeFeed, live: [[3, 'song', 1]] } }),
    );
    await rm(join(dataDir, 'backups'), { recursive: true, force: true });
    await expect(open()).rejects.toThrow(/changeFeed.live/);
  });

  it('numbers the changes of journal batches written before the feed existed, deletions as tombstones', async () => {
    const [music, weekly] = [term(1, 'Music', 'category'), term(2, 'weekly')];
    const v3 = {
      schemaVersion: 3,
      journalSeq: 0,
      counters: { post: 0, term: 3, user: 0 },
      settings,
      ...{ events: [], venues: [], organizers: [], media: [], users: [], tokens: [], syncLinks: {} },
      terms: [music, weekly],
    };
    await writeFile(join(dataDir, DATA_FILE_NAME), JSON.stringify(v3));
    // The program stopped before folding this batch (old format: no numbers, no tombstone), then was upgraded.
    const json = JSON.stringify({
      seq: 1,
      ops: [
        { t: 'put', c: 'terms', v: term(3, 'new') },
        { t: 'del', c: 'terms', id: 1 },
      ],
    });
    await writeFile(
      join(dataDir, 'journal-000000000001.log'),
      `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`,
    );
    const store = await open();
    expect(summary(store)).toEqual(['2 upsert tag 2', '3 upsert tag 3', '4 delete category 1']);
    expect(store.changeFeed.state().tombstones[0]).toMatchObject({
      uid: music.uid,
      deletedUtc: music.modifiedUtc,
    });
    const before = feedOf(store);
    await store.close();
    const reopened = await open();
    expect(feedOf(reopened)).toEqual(before);
    await reopened.close();
  });
});

/** The whole file kept in memory, with a switch that makes writes fail (a full disk). */
class FlakyMemory implements Adapter<DataFile> {
  private data: DataFile | null = null;
  failing = false;

  async read() {
    return this.data;
  }

  async write(data: DataFile) {
    if (this.failing) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    this.data = structuredClone(data);
  }
}

/** The real journal, with a switch that makes commits fail (a full disk). */
class FlakyJournal extends JournaledPersistence<StoreOp> {
  failing = false;

  override async commit(entry: JournalEntry<StoreOp>): Promise<void> {
    if (this.failing) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    await super.commit(entry);
  }
}

describe('the feed as a compaction keeps it', () => {
  it('is the feed as it was when asked, whatever changed before its entries are made', async () => {
    const store = await open();
    try {
      await addTag(store, 'choir');
      await addTag(store, 'theatre');
      const expected = store.changeFeed.state();
      const later = store.changeFeed.stateLater();
      await addTag(store, 'dance');
      await store.mutate((tx) => tx.deleteTerm([...store.terms.values()][0].id, '2026-11-28 10:00:00'));
      expect(later()).toEqual(expected);
      expect(store.changeFeed.state()).not.toEqual(expected);
    } finally {
      await store.close();
    }
  });
});
