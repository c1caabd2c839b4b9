import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, readlink, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { seedDataFolder } from '../../bench/seedData';
import { runEventQuery, type EventQuery } from '../../src/main/core/eventQuery';
import { DeferredValue } from '../../src/main/store/chunkedJson';
import { serializeInChunks } from '../../src/main/store/durableJsonFile';
import { JournaledPersistence } from '../../src/main/store/persistence';
import { FileLines } from '../../src/main/store/fileLines';
import { RawLines } from '../../src/main/store/rawLines';
import type {
  DataFile,
  Settings,
  StoredEvent,
  StoredOrganizer,
  StoredVenue,
} from '../../src/main/store/schema';
import { CalendarStore, DATA_FILE_NAME } from '../../src/main/store/store';

// A start from the data file's events' keys (issue 17): the listing of all events is built from them and the
// records are read when first used. Held here against a start that reads and checks every record (the same
// file, no longer vouched for by its fingerprint), on the benchmark's realistic calendar.
const EVENTS = 3000;
const settings: Settings = { siteName: 'Test', siteDescription: '', timezone: 'UTC', postsPerPage: 10 };
const now = '2026-11-24 12:00:00';
let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'lazy-start-'));
  await seedDataFolder(dataDir, { events: EVENTS, now: new Date('2026-11-24T12:00:00Z'), seed: 11 });
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const open = () => CalendarStore.open({ dataDir, initialSettings: settings, lock: false });
const dataFile = () => join(dataDir, DATA_FILE_NAME);
const readDataFile = async () => JSON.parse(await readFile(dataFile(), 'utf8')) as Record<string, unknown>;
/** A start that reads every record: without the fingerprint, the file is checked as a foreign one. */
const openReadingEverything = async () => {
  await rm(`${dataFile()}.written`);
  const store = await open();
  expect(store.unreadEvents).toBe(0);
  return store;
};

const published = new Set(['publish'] as const);
const everyStatus = new Set(['publish', 'draft', 'pending', 'private', 'future'] as const);
/** Listing-only queries (statuses, hidden flag, language, dates): answered from the keys. */
const listingQueries: EventQuery[] = [
  { bounds: [{ field: 'end', op: '>=', value: now }], statuses: published, includeHidden: false },
  { bounds: [], statuses: everyStatus, includeHidden: true },
  {
    bounds: [
      { field: 'start', op: '>=', value: '2026-12-01 00:00:00' },
      { field: 'start', op: '<', value: '2027-01-01 00:00:00' },
    ],
    statuses: published,
    includeHidden: false,
    language: 'it',
  },
];
/** Queries that read other fields or the links. */
const otherQueries = (sample: StoredEvent): EventQuery[] => [
  { bounds: [], statuses: everyStatus, includeHidden: true, searchWords: ['concert'] },
  { bounds: [], statuses: published, includeHidden: false, categoryIds: new Set(sample.categoryIds) },
  { bounds: [], statuses: published, includeHidden: false, tagIds: new Set([sample.tagIds[0] ?? 1]) },
  { bounds: [], statuses: everyStatus, includeHidden: true, venueIds: new Set([sample.venueId]) },
  { bounds: [], statuses: published, includeHidden: false, featured: true },
];
const pages = [
  { offset: 0, limit: 50 },
  { offset: 120, limit: 10 },
];
/** What a query answers, as JSON: the total and every field of every record of the page, in order. */
const answersOf = (store: CalendarStore, queries: EventQuery[]) =>
  Promise.all(
    queries.flatMap((query) =>
      pages.map(async (page) => JSON.stringify(await runEventQuery(query, store, page))),
    ),
  );
const termCountsOf = (store: CalendarStore) =>
  [...store.terms.values()].map((term) => [term.id, store.eventIndex.termCount(term.id)]);

describe('a start from the events’ keys', () => {
  it('answers the default listing without reading the calendar, and every query as a start that reads every record', async () => {
    const lazy = await open();
    expect(lazy.unreadEvents).toBe(EVENTS);
    const listings = await answersOf(lazy, listingQueries);
    // Only the pages' records were read.
    expect(lazy.unreadEvents).toBeGreaterThan(EVENTS - 300);
    const counts = termCountsOf(lazy);
    const sample = lazy.events.get(
      lazy.eventIndex.listing.run({ bounds: [], statuses: published, includeHidden: false }, 0, 1).items[0]
        .id,
    )!;
    const others = await answersOf(lazy, otherQueries(sample));
    const bySlug = lazy.eventBySlug(sample.slug);
    expect(lazy.unreadEvents).toBe(0);
    const snapshot = JSON.stringify(lazy.snapshot());
    await lazy.close();

    const full = await openReadingEverything();
    expect(await answersOf(full, listingQueries)).toEqual(listings);
    expect(await answersOf(full, otherQueries(sample))).toEqual(others);
    expect(termCountsOf(full)).toEqual(counts);
    expect(full.eventBySlug(sample.slug)).toEqual(bySlug);
    // Every record as written, its fields in their order (the import history's digests hash that JSON).
    expect(JSON.stringify(full.snapshot())).toBe(snapshot);
    await full.close();
  });

  it('reads the rest between requests, then builds the links from the records', async () => {
    const store = await open();
    let settled = false;
    void store.allEventsRead().then(() => (settled = true));
    const completing = store.completeIndexesSoon();
    // One slice at a time: the start is not blocked by the reading.
    expect(store.unreadEvents).toBe(EVENTS);
    await completing;
    expect(store.unreadEvents).toBe(0);
    expect(settled).toBe(true);
    const anyEvent = store.events.get([...store.events.values()][0].id)!;
    expect(store.eventIndex.byVenue.get(anyEvent.venueId!)?.has(anyEvent.id) ?? !anyEvent.venueId).toBe(true);
    for (const id of anyEvent.categoryIds)
      expect(store.eventIndex.byTerm.get(id)?.has(anyEvent.id)).toBe(true);
    await store.close();
  });

  it('a read needing every record, and a change, wait for the reading between requests instead of doing it at once', async () => {
    const full = await openReadingEverything();
    const sample = [...full.events.values()][7];
    const expected = await answersOf(full, otherQueries(sample));
    await full.close();

    const store = await open();
    // Both asked before any record is read: neither reads all 3,000 in one piece (issue 32: a stall of most of
    // a second at 100,000 events); both are answered once the background reading is through.
    const answers = store.readAfterLoading(() => answersOf(store, otherQueries(sample)));
    const written = store.mutate((tx) =>
      tx.setSettings({ ...store.settings, siteName: 'Changed while reading' }),
    );
    expect(store.unreadEvents).toBe(EVENTS);
    expect(await answers).toEqual(expected);
    await written;
    expect(store.unreadEvents).toBe(0);
    expect(store.settings.siteName).toBe('Changed while reading');
    await store.close();
    const again = await open();
    expect(again.settings.siteName).toBe('Changed while reading');
    expect(await answersOf(again, otherQueries(sample))).toEqual(expected);
    await again.close();
  });

  it('keeps changes made right after the start, and the next start begins from the keys again', async () => {
    const store = await open();
    const [first] = store.eventIndex.listing.run(
      { bounds: [], statuses: published, includeHidden: false },
      0,
      1,
    ).items;
    const changed = await store.mutate((tx) => {
      const event = store.events.get(first.id)!;
      const next = { ...event, title: 'Changed right after the start', revision: event.revision + 1 };
      tx.putEvent(next);
      const created = {
        ...event,
        id: tx.nextPostId(),
        uid: randomUUID(),
        slug: 'created-right-after-the-start',
        startLocal: '2031-01-01 10:00:00',
        endLocal: '2031-01-01 12:00:00',
      };
      tx.putEvent(created);
      return { next, created };
    });
    expect(store.unreadEvents).toBe(0);
    const expected = JSON.stringify(store.snapshot().events);
    // Closing folds the journal into the data file, with fresh keys.
    await store.close();
    const again = await open();
    expect(again.unreadEvents).toBe(EVENTS + 1);
    expect(again.events.get(changed.next.id)?.title).toBe('Changed right after the start');
    expect(again.eventBySlug('created-right-after-the-start')?.id).toBe(changed.created.id);
    expect(JSON.stringify(again.snapshot().events)).toBe(expected);
    await again.close();
  });

  it('a data file of an older version, without keys, is read whole and given its keys soon', async () => {
    // Written as the previous version wrote it: the same persistence, no keys.
    await rm(`${dataFile()}.written`);
    const persistence = new JournaledPersistence(dataDir);
    const { base } = await persistence.load((raw) => raw as DataFile);
    const { eventKeys, ...older } = base as DataFile & { eventKeys: unknown };
    expect(eventKeys).toBeDefined();
    await persistence.writeSnapshot(older as DataFile);
    await persistence.close();
    expect(await readDataFile()).not.toHaveProperty('eventKeys');

    const store = await open();
    expect(store.unreadEvents).toBe(0);
    await store.idle();
    expect(await readDataFile()).toHaveProperty('eventKeys');
    await store.close();
    const next = await open();
    expect(next.unreadEvents).toBe(EVENTS);
    await next.close();
  });

  it('keys in a file someone else changed are ignored: every record is read and checked', async () => {
    const content = await readDataFile();
    // Keys that would be read (ids as an array, as files written before kept them), but wrong.
    const keys = content.eventKeys as { ids: unknown };
    keys.ids = (content.events as StoredEvent[]).map((event) => event.id).reverse();
    // In the app's own layout (records line by line), so only the fingerprint tells it is not the app's file.
    await writeFile(dataFile(), [...serializeInChunks(content)].join(''));
    const store = await open();
    expect(store.unreadEvents).toBe(0);
    const events = [...store.events.values()];
    expect(events).toHaveLength(EVENTS);
    expect(events.map((event) => event.id)).toEqual(
      (content.events as StoredEvent[]).map((event) => event.id),
    );
    await store.close();
  });
});

describe('a record the disk damaged after the start', () => {
  it('is reported, changes are refused, and the next start checks the whole file', async () => {
    const store = await open();
    // Lines kept as read, or read by position (FileLines, with the layout file): the 8th fails either way.
    const spies = [RawLines.prototype, FileLines.prototype].map((prototype) => {
      const parse = prototype.parse;
      return vi.spyOn(prototype, 'parse').mockImplementation(function (this: RawLines, at) {
        if (at === 7) throw new SyntaxError('Unexpected token in JSON at position 12');
        return parse.call(this, at);
      });
    });
    try {
      expect(() => store.readAllEvents()).toThrow(/damaged: the record of event \d+ in .* cannot be read/);
      await expect(store.completeIndexesSoon()).resolves.toBeUndefined();
      await expect(
        store.mutate((tx) => tx.setSettings({ ...store.settings, siteName: 'Changed' })),
      ).rejects.toThrow(/read-only because the record of event \d+ .*restart Calendar Desk/);
      expect(store.notices.join('\n')).toMatch(/Read-only: the record of event \d+/);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    await store.close();
    await expect(readFile(`${dataFile()}.written`)).rejects.toThrow(/ENOENT/);
    // The bytes on disk are intact here: the full check finds every record.
    const next = await open();
    expect(next.unreadEvents).toBe(0);
    expect(next.events.size).toBe(EVENTS);
    await next.close();
  });

  /** How many of this process's open files are the data file (Linux: /proc/self/fd). */
  async function dataFileHandles(): Promise<number> {
    const file = join(dataDir, DATA_FILE_NAME);
    const links = await Promise.all(
      (await readdir('/proc/self/fd')).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')),
    );
    return links.filter((link) => link === file).length;
  }

  it('while the journal is replayed at the start: the start checks the whole file instead', async () => {
    const store = await open();
    await store.mutate((tx) => tx.setSettings({ ...store.settings, siteName: 'Changed before a crash' }));
    // No close(): as after a crash, the change is only in the journal.
    // Lines kept as read, or read by position (FileLines, with the layout file): the 8th fails either way.
    const spies = [RawLines.prototype, FileLines.prototype].map((prototype) => {
      const parse = prototype.parse;
      return vi.spyOn(prototype, 'parse').mockImplementation(function (this: RawLines, at) {
        if (at === 7) throw new SyntaxError('Unexpected token in JSON at position 12');
        return parse.call(this, at);
      });
    });
    let next: CalendarStore;
    const handlesBefore = await dataFileHandles();
    try {
      next = await open();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    // The start that failed let go of the data file (the one that checked it whole has read it all).
    expect(await dataFileHandles()).toBeLessThanOrEqual(handlesBefore);
    expect(next.unreadEvents).toBe(0);
    expect(next.events.size).toBe(EVENTS);
    expect(next.settings.siteName).toBe('Changed before a crash');
    expect(next.readOnly).toBeNull();
    await next.close();
  });
});

describe('a start from the keys and the journal', () => {
  it('replays the changes a crash left in the journal over the records', async () => {
    const store = await open();
    const [first] = store.eventIndex.listing.run(
      { bounds: [], statuses: published, includeHidden: false },
      0,
      1,
    ).items;
    await store.mutate((tx) => {
      const event = store.events.get(first.id)!;
      tx.putEvent({ ...event, title: 'Changed before a crash', revision: event.revision + 1 });
    });
    const expected = JSON.stringify(store.snapshot().events);
    // No close(): the change is only in the journal.
    const next = await open();
    expect(next.unreadEvents).toBe(0);
    expect(JSON.stringify(next.snapshot().events)).toBe(expected);
    await next.close();
  });

  it('a file vouched for whose lines are not one record each is read whole, as JSON.parse reads it', async () => {
    const content = await readFile(dataFile(), 'utf8');
    // Two records on one line (still the same JSON document), and the fingerprint made to vouch for it.
    const joined = content.replace(/\},\n\{"id":/, '},{"id":');
    expect(joined).not.toBe(content);
    await writeFile(dataFile(), joined);
    const { size, mtimeMs, ctimeMs, ino } = await stat(dataFile());
    const journalSeq = (JSON.parse(joined) as { journalSeq: number }).journalSeq;
    await writeFile(`${dataFile()}.written`, JSON.stringify({ size, mtimeMs, ctimeMs, ino, journalSeq }));
    const store = await open();
    expect(store.unreadEvents).toBe(0);
    expect(store.events.size).toBe(EVENTS);
    expect(store.notices).toEqual([]);
    await store.close();
  });
});

describe('venues and organizers a start leaves unread', () => {
  /** The venues and organizers in the data file, as a start that parses it whole has them. */
  const postsInFile = async () => {
    const content = await readDataFile();
    return { venues: content.venues as StoredVenue[], organizers: content.organizers as StoredOrganizer[] };
  };

  it('are read when first used, by id or by slug, and equal the data file’s records, in its order', async () => {
    const { venues, organizers } = await postsInFile();
    expect(venues.length).toBeGreaterThan(3);
    const store = await open();
    expect(store.unreadLinkedPosts).toBe(venues.length + organizers.length);
    expect(store.venues.size).toBe(venues.length);
    expect(store.venues.get(venues[1]!.id)).toEqual(venues[1]);
    expect(store.organizers.get(organizers[1]!.id)).toEqual(organizers[1]);
    expect(store.unreadLinkedPosts).toBe(venues.length + organizers.length - 2);
    // A slug is known once its record is read: a lookup by slug reads them all.
    expect(store.venues.getByKey(venues[2]!.slug)).toEqual(venues[2]);
    expect(store.venues.hasKey(venues[0]!.slug)).toBe(true);
    expect(store.venues.hasKey('no-such-venue')).toBe(false);
    expect([...store.venues.values()]).toEqual(venues);
    expect([...store.organizers.values()]).toEqual(organizers);
    expect(store.unreadLinkedPosts).toBe(0);
    await store.close();
  });

  it('are read between requests after the start, and before any change', async () => {
    const store = await open();
    expect(store.unreadLinkedPosts).toBeGreaterThan(0);
    await store.completeIndexesSoon();
    expect(store.unreadLinkedPosts).toBe(0);
    await store.close();

    const { venues } = await postsInFile();
    const next = await open();
    expect(next.unreadLinkedPosts).toBeGreaterThan(0);
    await next.mutate((tx) => tx.putVenue({ ...venues[0]!, name: 'Renamed right after the start' }));
    expect(next.unreadLinkedPosts).toBe(0);
    expect(next.venues.get(venues[0]!.id)?.name).toBe('Renamed right after the start');
    await next.close();
    const last = await open();
    expect(last.venues.get(venues[0]!.id)?.name).toBe('Renamed right after the start');
    expect([...last.venues.values()].map((venue) => venue.id)).toEqual(venues.map((venue) => venue.id));
    await last.close();
  });

  it('one the disk damaged after the start is reported, and changes are refused', async () => {
    const { venues } = await postsInFile();
    const damaged = venues[3]!;
    const store = await open();
    const parse = RawLines.prototype.parse;
    const spy = vi.spyOn(RawLines.prototype, 'parse').mockImplementation(function (this: RawLines, at) {
      if (this.leadingId(at) === damaged.id) throw new SyntaxError('Unexpected token in JSON');
      return parse.call(this, at);
    });
    try {
      expect(store.venues.get(venues[2]!.id)).toEqual(venues[2]);
      expect(() => store.venues.get(damaged.id)).toThrow(
        new RegExp(`damaged: the record of venue ${damaged.id} in .* cannot be read`),
      );
      await expect(
        store.mutate((tx) => tx.setSettings({ ...store.settings, siteName: 'Changed' })),
      ).rejects.toThrow(new RegExp(`read-only because the record of venue ${damaged.id} `));
    } finally {
      spy.mockRestore();
    }
    await store.close();
  });
});

describe('the change feed a start leaves unparsed', () => {
  it('is parsed when first used, or between requests, and is the feed the data file holds', async () => {
    const { changeFeed } = (await readDataFile()) as { changeFeed: { id: string; seq: number } };
    const store = await open();
    expect(store.changeFeed.unread).toBe(true);
    expect(store.changeFeed.seq).toBe(changeFeed.seq);
    expect(store.changeFeed.id).toBe(changeFeed.id);
    expect(store.changeFeed.unread).toBe(false);
    expect(JSON.stringify(store.changeFeed.state())).toBe(JSON.stringify(changeFeed));
    await store.close();

    const next = await open();
    expect(next.changeFeed.unread).toBe(true);
    await next.completeIndexesSoon();
    expect(next.changeFeed.unread).toBe(false);
    await next.close();
  });

  it('a change right after the start takes the next number of the file’s feed', async () => {
    const { changeFeed } = (await readDataFile()) as { changeFeed: { seq: number } };
    const store = await open();
    const [venue] = (await readDataFile()).venues as StoredVenue[];
    await store.mutate((tx) => tx.putVenue({ ...venue!, name: 'Renamed' }));
    expect(store.changeFeed.seqOf('venue', venue!.id)).toBe(changeFeed.seq + 1);
    await store.close();
  });

  it('one the disk damaged after the start is reported, and changes are refused', async () => {
    const store = await open();
    const spy = vi.spyOn(DeferredValue.prototype, 'parse').mockImplementation(() => {
      throw new SyntaxError('Unexpected end of JSON input');
    });
    try {
      expect(() => store.changeFeed.seq).toThrow(/damaged: the change feed in .* cannot be read/);
      await store.completeIndexesSoon();
      await expect(
        store.mutate((tx) => tx.setSettings({ ...store.settings, siteName: 'Changed' })),
      ).rejects.toThrow(/read-only because the change feed in /);
    } finally {
      spy.mockRestore();
    }
    await store.close();
  });
});
