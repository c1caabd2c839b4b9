import { randomUUID } from 'node:crypto';
import { Memory } from 'lowdb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CalendarStore } from '../../src/main/store/store';
import { eventRecord } from '../../src/main/core/eventRecord';
import type { DataFile, Settings, StoredEvent } from '../../src/main/store/schema';
import { wallClockSeconds, wallClockText, type PartitionedEvents } from '../../src/main/store/eventIndex';
import { matchesQuery, runEventQuery, type EventQuery } from '../../src/main/core/eventQuery';
import { POST_STATUSES } from '../../src/shared/enums';

const settings: Settings = { siteName: 'Test', siteDescription: '', timezone: 'UTC', postsPerPage: 10 };

/** A store kept in memory (no lock, no disk), so hundreds of runs stay fast. */
const memoryStore = (adapter = new Memory<DataFile>()) =>
  CalendarStore.open({
    dataDir: '/nonexistent/calendar-desk',
    initialSettings: settings,
    lock: false,
    adapter,
  });

/** The parts of an event the indexes look at. */
const eventFields = fc
  .record({
    // Few distinct days and hours, so equal starts (ordered by id) are common.
    startLocal: fc
      .tuple(fc.integer({ min: 1, max: 4 }), fc.constantFrom('09', '10', '18'))
      .map(([day, hour]) => `2030-01-0${day} ${hour}:00:00`),
    // Zero-length, short, multi-day and very long events.
    spanHours: fc.constantFrom(0, 2, 30, 24 * 40),
    status: fc.constantFrom('publish', 'draft', 'pending', 'private', 'trash' as const),
    hideFromListings: fc.boolean(),
    language: fc.constantFrom('en', 'it' as const),
    featured: fc.boolean(),
    ticketed: fc.boolean(),
    categoryIds: fc.uniqueArray(fc.integer({ min: 1, max: 4 }), { maxLength: 3 }),
    tagIds: fc.uniqueArray(fc.integer({ min: 5, max: 8 }), { maxLength: 3 }),
    venueId: fc.integer({ min: 0, max: 3 }),
    organizerIds: fc.uniqueArray(fc.integer({ min: 11, max: 13 }), { maxLength: 2 }),
    parentId: fc.integer({ min: 0, max: 2 }),
  })
  .map(({ spanHours, ...fields }) => ({
    ...fields,
    endLocal: wallClockText(wallClockSeconds(fields.startLocal)! + spanHours * 3600),
  }));
type EventFields = Omit<Partial<StoredEvent>, 'status'> & { status: StoredEvent['status'] };

function makeEvent(id: number, fields: EventFields): StoredEvent {
  const start = fields.startLocal ?? '2030-01-01 10:00:00';
  return eventRecord({
    id,
    authorId: 1,
    slug: `event-${id}`,
    language: 'en',
    dateUtc: '2029-12-01 00:00:00',
    title: `Event ${id}`,
    startLocal: start,
    endLocal: start,
    startUtc: start,
    endUtc: start,
    timezone: 'UTC',
    ...fields,
  });
}

const operation = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), fields: eventFields }),
  fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), fields: eventFields }),
  fc.record({ kind: fc.constant('trash' as const), pick: fc.nat() }),
  // An edit that keeps the event's place (a new title; perhaps other terms, venue or flags): in place.
  fc.record({
    kind: fc.constant('retitle' as const),
    pick: fc.nat(),
    title: fc.string({ maxLength: 8 }),
    links: fc.option(
      eventFields.map(({ categoryIds, tagIds, venueId, organizerIds, featured }) => ({
        categoryIds,
        tagIds,
        venueId,
        organizerIds,
        featured,
      })),
    ),
  }),
  // A change that stores an event and then fails: it must leave no trace.
  fc.record({ kind: fc.constant('failing' as const), pick: fc.nat(), fields: eventFields }),
);

/** A listing filter every event passes. */
const everything = { bounds: [], statuses: new Set<string>(POST_STATUSES), includeHidden: true };
/** Every event in listing order (start, then id). */
const allByStart = (store: CalendarStore) => store.eventIndex.listing.run(everything, 0, Infinity).items;

/** Every index of the store, recomputed by brute force from the events themselves. */
async function expectIndexMatchesScan(store: CalendarStore) {
  const events = [...store.events.values()];
  const sorted = [...events].sort((a, b) =>
    a.startLocal === b.startLocal ? a.id - b.id : a.startLocal < b.startLocal ? -1 : 1,
  );
  const index = store.eventIndex;
  const listed = allByStart(store);
  expect(listed.map((event) => event.id)).toEqual(sorted.map((event) => event.id));
  // The index holds the current version of every event, not a stale copy.
  for (const event of listed) expect(event).toBe(store.events.get(event.id));

  const reverse = (keysOf: (event: StoredEvent) => number[]) => {
    const map = new Map<number, Set<number>>();
    for (const event of events)
      for (const key of keysOf(event)) map.set(key, (map.get(key) ?? new Set()).add(event.id));
    return map;
  };
  expect(index.byTerm).toEqual(reverse((event) => [...event.categoryIds, ...event.tagIds]));
  expect(index.byVenue).toEqual(reverse((event) => (event.venueId ? [event.venueId] : [])));
  expect(index.byOrganizer).toEqual(reverse((event) => event.organizerIds));
  expect(index.byParent).toEqual(reverse((event) => (event.parentId ? [event.parentId] : [])));
  for (let term = 1; term <= 8; term++) {
    const published = events.filter(
      (event) =>
        event.status === 'publish' && (event.categoryIds.includes(term) || event.tagIds.includes(term)),
    ).length;
    expect(index.termCount(term)).toBe(published);
  }
  for (const probe of [
    '2030-01-01 00:00:00',
    '2030-01-02 10:00:00',
    '2030-01-03 18:00:00',
    '2031-01-01 00:00:00',
  ]) {
    for (const op of ['<', '<='] as const) {
      const { total } = index.listing.run(
        { ...everything, bounds: [{ field: 'start', op, value: probe }] },
        0,
        0,
      );
      const expected = sorted.filter((event) =>
        op === '<' ? event.startLocal < probe : event.startLocal <= probe,
      );
      expect(total).toBe(expected.length);
    }
  }
  for (const event of events) expect(store.eventBySlug(event.slug)).toBe(event);

  // The partitioned listings: every event once, sorted, with others of its status, hidden flag and language.
  const expectListing = (listing: PartitionedEvents, expected: StoredEvent[]) => {
    const listed: StoredEvent[] = [];
    for (const { maxSpan, events: partition } of listing.partitionContents()) {
      expect(partition.length).toBeGreaterThan(0);
      const [first] = partition;
      for (const [at, event] of partition.entries()) {
        expect(event).toBe(store.events.get(event.id));
        expect([event.status, event.hideFromListings, event.language]).toEqual([
          first.status,
          first.hideFromListings,
          first.language,
        ]);
        if (at > 0) expect(sorted.indexOf(partition[at - 1])).toBeLessThan(sorted.indexOf(event));
        const span = wallClockSeconds(event.endLocal)! - wallClockSeconds(event.startLocal)!;
        expect(maxSpan).toBeGreaterThanOrEqual(span);
      }
      listed.push(...partition);
    }
    expect(listed.map((event) => event.id).sort((a, b) => a - b)).toEqual(
      expected.map((event) => event.id).sort((a, b) => a - b),
    );
    expect(listing.size).toBe(expected.length);
  };
  expectListing(index.listing, events);
  for (const taxonomy of ['category', 'tag'] as const) {
    const idsOf = (event: StoredEvent) => (taxonomy === 'category' ? event.categoryIds : event.tagIds);
    expect(index.termListingIds(taxonomy).sort()).toEqual([...new Set(events.flatMap(idsOf))].sort());
    for (let term = 1; term <= 8; term++) {
      expectListing(
        index.termListing(taxonomy, term),
        events.filter((event) => idsOf(event).includes(term)),
      );
    }
  }
  expect([...index.featured].sort()).toEqual(
    events
      .filter((e) => e.featured)
      .map((e) => e.id)
      .sort(),
  );
  expect([...index.ticketed].sort()).toEqual(
    events
      .filter((e) => e.ticketed)
      .map((e) => e.id)
      .sort(),
  );

  // Archive queries answered from the indexes equal a brute-force filter and sort.
  for (const query of probeQueries) {
    const expected = events
      .filter((event) => matchesQuery(event, query, store))
      .sort((a, b) => (a.startLocal === b.startLocal ? a.id - b.id : a.startLocal < b.startLocal ? -1 : 1));
    const { total, items } = await runEventQuery(query, store, { offset: 1, limit: 3 });
    expect({ total, ids: items.map((event) => event.id) }).toEqual({
      total: expected.length,
      ids: expected.slice(1, 4).map((event) => event.id),
    });
  }
}

const probeQueries: EventQuery[] = [
  { bounds: [], statuses: new Set(['publish']), includeHidden: false },
  {
    bounds: [
      { field: 'start', op: '>=', value: '2030-01-02 00:00:00' },
      { field: 'end', op: '<=', value: '2030-01-03 18:00:00' },
    ],
    statuses: new Set(POST_STATUSES),
    includeHidden: true,
  },
  {
    bounds: [{ field: 'end', op: '>', value: '2030-01-03 10:00:00' }],
    statuses: new Set(['publish', 'draft']),
    includeHidden: false,
    language: 'it',
  },
  {
    bounds: [{ field: 'end', op: '<', value: '2030-01-02 11:00:00' }],
    statuses: new Set(['publish', 'private']),
    includeHidden: true,
    categoryIds: new Set([2]),
  },
  {
    bounds: [{ field: 'start', op: '<', value: '2030-01-04 00:00:00' }],
    statuses: new Set(['publish', 'pending']),
    includeHidden: false,
    venueIds: new Set([1, 2]),
    featured: true,
  },
];

type Operation = typeof operation extends fc.Arbitrary<infer T> ? T : never;

/** Applies one operation through `mutate()`, as the API would (a failing one must leave no trace). */
async function applyOperation(store: CalendarStore, op: Operation, writes: Promise<unknown>[]) {
  const ids = [...store.events.values()].map((event) => event.id);
  const target = op.kind === 'create' ? undefined : ids[op.pick % Math.max(ids.length, 1)];
  if (op.kind === 'create') {
    writes.push(store.mutate((tx) => tx.putEvent(makeEvent(tx.nextPostId(), op.fields))));
  } else if (target === undefined) {
    return;
  } else if (op.kind === 'update') {
    const current = store.events.get(target)!;
    writes.push(store.mutate((tx) => tx.putEvent({ ...current, ...op.fields, slug: current.slug })));
  } else if (op.kind === 'retitle') {
    const current = store.events.get(target)!;
    writes.push(store.mutate((tx) => tx.putEvent({ ...current, ...op.links, title: op.title })));
  } else if (op.kind === 'trash') {
    const current = store.events.get(target)!;
    writes.push(
      store.mutate((tx) => tx.putEvent({ ...current, status: 'trash', slug: `${current.slug}__trashed` })),
    );
  } else {
    const current = store.events.get(target)!;
    const before = store.snapshot();
    const failing = store.mutate((tx) => {
      tx.putEvent({ ...current, ...op.fields, slug: `${current.slug}-changed` });
      tx.putEvent(makeEvent(tx.nextPostId(), op.fields));
      tx.putTerm({
        id: tx.nextTermId(),
        uid: randomUUID(),
        taxonomy: 'category',
        name: 'never',
        slug: 'never',
        description: '',
        parent: 0,
        language: 'en',
        modifiedUtc: '2029-12-01 00:00:00',
        revision: 1,
      });
      throw new Error('rule broken half-way');
    });
    await expect(failing).rejects.toThrow('rule broken half-way');
    // Nothing of the failed change remains (a batch committed meanwhile only moves journalSeq on).
    expect({ ...store.snapshot(), journalSeq: 0 }).toEqual({ ...before, journalSeq: 0 });
  }
}

describe('EventIndex', () => {
  it('matches a brute-force scan after any sequence of creates, updates, trashes and failed changes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { maxLength: 40 }), async (operations) => {
        const adapter = new Memory<DataFile>();
        const store = await memoryStore(adapter);
        const writes: Promise<unknown>[] = [];
        for (const op of operations) {
          await applyOperation(store, op, writes);
          await expectIndexMatchesScan(store);
        }
        // Group-committed writes all settle, and a store reopened from what was written indexes the same.
        await Promise.all(writes);
        const reopened = await memoryStore(adapter);
        await expectIndexMatchesScan(reopened);
        expect(allByStart(reopened).map((event) => event.id)).toEqual(
          allByStart(store).map((event) => event.id),
        );
        expect(reopened.snapshot()).toEqual(store.snapshot());
      }),
      { numRuns: 150 },
    );
  });

  it('answers the same while its links are still being built after a start, and once they are', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(eventFields, { minLength: 1, maxLength: 30 }),
        fc.array(operation, { maxLength: 20 }),
        fc.integer({ min: 1, max: 4 }),
        async (initial, operations, slice) => {
          const adapter = new Memory<DataFile>();
          const seeding = await memoryStore(adapter);
          await seeding.mutate((tx) => {
            for (const fields of initial) tx.putEvent(makeEvent(tx.nextPostId(), fields));
          });
          // A start: only the listing of all events is built; the links follow in slices.
          const store = await memoryStore(adapter);
          expect(store.eventIndex.complete).toBe(false);
          const writes: Promise<unknown>[] = [];
          for (const op of operations) {
            await applyOperation(store, op, writes);
            // The default archive never waits for the links.
            expect(allByStart(store).map((event) => event.id)).toEqual(
              [...store.events.values()]
                .sort((a, b) =>
                  a.startLocal === b.startLocal ? a.id - b.id : a.startLocal < b.startLocal ? -1 : 1,
                )
                .map((event) => event.id),
            );
            store.eventIndex.buildSome(slice);
          }
          await Promise.all(writes);
          // Whatever is left is built when first asked for, with every change made meanwhile applied.
          await expectIndexMatchesScan(store);
          expect(store.eventIndex.complete).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('completes the indexes a start leaves out between turns of the event loop, changes meanwhile included', async () => {
    const adapter = new Memory<DataFile>();
    const seeding = await memoryStore(adapter);
    await seeding.mutate((tx) => {
      for (let n = 0; n < 5000; n++) {
        tx.putEvent(
          makeEvent(tx.nextPostId(), {
            status: n % 7 === 0 ? 'draft' : 'publish',
            startLocal: `2030-01-0${1 + (n % 4)} 1${n % 10}:00:00`,
            categoryIds: [1 + (n % 4)],
            tagIds: n % 3 === 0 ? [5] : [],
            venueId: n % 4,
            featured: n % 5 === 0,
          }),
        );
      }
    });
    const store = await memoryStore(adapter);
    const built = store.completeIndexesSoon();
    expect(store.eventIndex.complete).toBe(false);
    // A change while the build is under way (it takes several slices).
    const first = store.events.get(1)!;
    await store.mutate((tx) => tx.putEvent({ ...first, categoryIds: [4], venueId: 3, featured: false }));
    await built;
    expect(store.eventIndex.complete).toBe(true);
    await expectIndexMatchesScan(store);
  });
});
