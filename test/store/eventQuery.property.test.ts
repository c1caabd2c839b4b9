import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchesQuery, runEventQuery, type DateBound, type EventQuery } from '../../src/main/core/eventQuery';
import { eventRecord } from '../../src/main/core/eventRecord';
import { TimeSlices } from '../../src/main/core/timeSlices';
import {
  EventIndex,
  wallClockSeconds,
  wallClockText,
  type PartitionedEvents,
} from '../../src/main/store/eventIndex';
import type { StoredEvent, StoredOrganizer, StoredVenue } from '../../src/main/store/schema';
import type { CalendarStore } from '../../src/main/store/store';
import { LANGUAGES, POST_STATUSES, type PostStatus } from '../../src/shared/enums';

/**
 * `runEventQuery` answers from the partitioned listings (binary searches, end-bound regions, k-way merges) or
 * from id sets; whatever plan it picks, its total and page must equal a brute-force filter and sort of every
 * event, after any sequence of changes, and on an index rebuilt from scratch.
 */

const MAX_DATE = '9999-12-31 23:59:59';
const MAX_SECONDS = wallClockSeconds(MAX_DATE)!;

// Few distinct days and times, so equal starts and bounds equal to starts and ends are common.
const canonicalStart = fc
  .oneof(
    {
      weight: 12,
      arbitrary: fc.tuple(
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom('00:00:00', '09:00:00', '10:30:00', '23:59:59'),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom('0000-01-01 00:00:00', '0099-02-28 12:00:00', '9999-12-31 23:00:00'),
    },
  )
  .map((value) => (typeof value === 'string' ? value : `2030-01-0${value[0]} ${value[1]}`));

/** Seconds an event lasts: zero, hours, a day, days, months, years, up to the end of year 9999. */
const span = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(0, 1, 1800, 3 * 3600, 86_399, 86_400) },
  { weight: 2, arbitrary: fc.constantFrom(2 * 86_400 + 3600, 5 * 86_400, 40 * 86_400) },
  { weight: 1, arbitrary: fc.constantFrom(400 * 86_400, 30 * 365 * 86_400, MAX_SECONDS) },
);

/** Start and end: mostly regular; sometimes the end is before the start or a date is not a real one. */
const schedule = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.tuple(canonicalStart, span).map(([startLocal, seconds]) => ({
      startLocal,
      endLocal: wallClockText(Math.min(wallClockSeconds(startLocal)! + seconds, MAX_SECONDS)),
    })),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(canonicalStart, fc.constantFrom(1, 3600, 3 * 86_400))
      .map(([startLocal, seconds]) => ({
        startLocal,
        endLocal: wallClockText(Math.max(wallClockSeconds(startLocal)! - seconds, 0)),
      })),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      startLocal: fc.constantFrom(
        '2030-01-02 24:00:00',
        '2030-02-30 10:00:00',
        '2030-01-03 10:00:00',
        '2030-00-00 00:00:00',
      ),
      endLocal: fc.constantFrom(
        '2030-01-03 10:60:00',
        '2030-02-31 00:00:00',
        '2030-01-02 10:00:00',
        '2030-13-01 00:00:00',
      ),
    }),
  },
);

const WORDS = ['jazz', 'night', 'yoga', 'park'];

const eventFields = fc.record({
  schedule,
  status: fc.oneof(fc.constant('publish' as const), fc.constantFrom(...POST_STATUSES)),
  hideFromListings: fc.boolean(),
  language: fc.constantFrom('en', 'it', 'pl' as const),
  featured: fc.boolean(),
  ticketed: fc.boolean(),
  // Ids may repeat, and a category id may sit among the tags: the filters look at each list on its own.
  categoryIds: fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 3 }),
  tagIds: fc.array(fc.integer({ min: 3, max: 6 }), { maxLength: 3 }),
  venueId: fc.integer({ min: 0, max: 4 }),
  organizerIds: fc.uniqueArray(fc.integer({ min: 11, max: 13 }), { maxLength: 2 }),
  parentId: fc.integer({ min: 0, max: 2 }),
  title: fc.subarray(WORDS).map((words) => words.join(' ')),
  dateUtc: fc.constantFrom('2029-12-01 00:00:00', '2029-12-02 00:00:00', '2029-12-03 00:00:00'),
});
type EventFields = typeof eventFields extends fc.Arbitrary<infer T> ? T : never;

function makeEvent(id: number, { schedule, ...fields }: EventFields): StoredEvent {
  return eventRecord({
    id,
    authorId: 1,
    slug: `event-${id}`,
    modifiedUtc: '2029-12-01 00:00:00',
    startUtc: schedule.startLocal,
    endUtc: schedule.endLocal,
    timezone: 'UTC',
    ...schedule,
    ...fields,
  });
}

// Venue 4 and organizer 13 are in the trash: their events keep the link but do not show it (filters too).
const VENUES = new Map<number, StoredVenue>(
  (
    [
      [1, 45.0, 9.0, 'publish'],
      [2, 45.1, 9.1, 'publish'],
      [3, null, null, 'publish'],
      [4, 45.0, 9.0, 'trash'],
    ] as const
  ).map(([id, geoLat, geoLng, status]) => [id, { id, geoLat, geoLng, status } as unknown as StoredVenue]),
);
const ORGANIZERS = new Map<number, StoredOrganizer>(
  [11, 12, 13].map((id) => [
    id,
    { id, status: id === 13 ? 'trash' : 'publish' } as unknown as StoredOrganizer,
  ]),
);

/** What `runEventQuery` reads of a store. */
const storeOf = (index: EventIndex, events: Map<number, StoredEvent>) =>
  ({
    eventIndex: index,
    events,
    venues: VENUES,
    organizers: ORGANIZERS,
    readAllEvents: () => undefined,
  }) as unknown as CalendarStore;

const boundValue = fc.oneof(
  { weight: 8, arbitrary: canonicalStart },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '2030-01-03 09:00:00',
      '2030-01-05 09:00:00',
      '2030-02-10 00:00:00',
      '2031-01-01 00:00:00',
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      '0000-01-01 00:00:00',
      MAX_DATE,
      '2030-01-02 24:00:00',
      '2030-02-30 00:00:00',
      'zzz',
    ),
  },
);
const bound: fc.Arbitrary<DateBound> = fc.record({
  field: fc.constantFrom('start', 'end' as const),
  op: fc.constantFrom('>=', '>', '<=', '<' as const),
  value: boundValue,
});
const idSet = (min: number, max: number) =>
  fc.uniqueArray(fc.integer({ min, max }), { maxLength: 2 }).map((ids) => new Set(ids));

/** Values of every filter; a query takes none, one or two of them (the listings answer many alone). */
const filterValues = fc.record({
  searchWords: fc.subarray(WORDS, { maxLength: 2 }),
  categoryIds: idSet(1, 5),
  tagIds: idSet(3, 7),
  venueIds: idSet(0, 4),
  organizerIds: idSet(11, 13),
  featured: fc.boolean(),
  ticketed: fc.boolean(),
  include: fc.uniqueArray(fc.integer({ min: 1, max: 30 }), { maxLength: 12 }).map((ids) => new Set(ids)),
  parentId: fc.integer({ min: 0, max: 2 }),
  geo: fc.oneof(
    fc.constant({ radiusKm: 25 }),
    fc.record({ lat: fc.constant(45.0), lng: fc.constant(9.0), radiusKm: fc.constantFrom(1, 25) }),
  ),
});
const FILTERS = [
  'searchWords',
  'categoryIds',
  'tagIds',
  'venueIds',
  'organizerIds',
  'featured',
  'ticketed',
  'include',
  'parentId',
  'geo',
] as const;
type FilterName = (typeof FILTERS)[number];
const chosenFilters = fc.oneof(
  { weight: 3, arbitrary: fc.constant([] as FilterName[]) },
  { weight: 4, arbitrary: fc.constantFrom(...FILTERS).map((name) => [name]) },
  { weight: 2, arbitrary: fc.uniqueArray(fc.constantFrom(...FILTERS), { minLength: 2, maxLength: 2 }) },
);

const query: fc.Arbitrary<EventQuery> = fc
  .tuple(
    fc.record({
      bounds: fc.oneof(
        { weight: 3, arbitrary: fc.array(bound, { maxLength: 2 }) },
        { weight: 1, arbitrary: fc.array(bound, { maxLength: 4 }) },
      ),
      statuses: fc
        .oneof(
          fc.constant([...POST_STATUSES]),
          fc.subarray([...POST_STATUSES]),
          fc.constant(['publish' as const]),
        )
        .map((statuses) => new Set<PostStatus>(statuses)),
      includeHidden: fc.boolean(),
      language: fc.option(fc.constantFrom(...LANGUAGES.filter((code) => ['en', 'it', 'de'].includes(code))), {
        nil: undefined,
        freq: 2,
      }),
    }),
    filterValues,
    chosenFilters,
  )
  .map(([base, values, names]) => ({
    ...base,
    ...Object.fromEntries(names.map((name) => [name, values[name]])),
  }));

const page = fc.record({
  offset: fc.oneof(
    { weight: 3, arbitrary: fc.constant(0) },
    fc.integer({ min: 1, max: 3 }),
    fc.integer({ min: 0, max: 25 }),
  ),
  limit: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 8 }) }, fc.constant(0), fc.constant(50)),
});

/** The reference answer: every event through `matchesQuery`, sorted, sliced. */
function bruteForce(events: Map<number, StoredEvent>, q: EventQuery, p: { offset: number; limit: number }) {
  const store = storeOf(new EventIndex(), events);
  const matching = [...events.values()].filter((event) => matchesQuery(event, q, store));
  matching.sort((a, b) => {
    const [left, right] = q.include ? [a.dateUtc, b.dateUtc] : [a.startLocal, b.startLocal];
    return left < right ? -1 : left > right ? 1 : a.id - b.id;
  });
  return {
    total: matching.length,
    ids: matching.slice(p.offset, p.offset + p.limit).map((event) => event.id),
  };
}

/**
 * The same index, except that walking a listing looks endlessly expensive: every query an id set can serve
 * takes that plan (on small calendars the walk usually wins, so this is how the id-set plans get tested).
 */
function preferringIdSets(index: EventIndex): EventIndex {
  const expensive = (listing: PartitionedEvents): PartitionedEvents =>
    Object.create(listing, { rangeSize: { value: () => Infinity } });
  return Object.create(index, {
    listing: { value: expensive(index.listing) },
    termListing: {
      value: (taxonomy: 'category' | 'tag', id: number) => expensive(index.termListing(taxonomy, id)),
    },
  });
}

async function expectSameAnswer(
  index: EventIndex,
  events: Map<number, StoredEvent>,
  q: EventQuery,
  p: { offset: number; limit: number },
) {
  const expected = bruteForce(events, q, p);
  for (const variant of [index, preferringIdSets(index)]) {
    const result = await runEventQuery(q, storeOf(variant, events), p);
    expect({ total: result.total, ids: result.items.map((event) => event.id) }).toEqual(expected);
  }
}

const operation = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('create' as const), fields: eventFields }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), fields: eventFields }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('trash' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
);

describe('runEventQuery', () => {
  it('equals a brute-force filter and sort, after any changes and on a rebuilt index', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(eventFields, { maxLength: 60, size: 'max' }),
        fc.array(operation, { maxLength: 25, size: 'max' }),
        fc.array(fc.tuple(query, page), { minLength: 1, maxLength: 8 }),
        async (initial, operations, queries) => {
          const events = new Map<number, StoredEvent>();
          initial.forEach((fields, at) => events.set(at + 1, makeEvent(at + 1, fields)));
          const index = new EventIndex();
          index.reset(events.values());
          let nextId = events.size + 1;
          for (const op of operations) {
            const ids = [...events.keys()];
            const target = ids[(op.kind === 'create' ? 0 : op.pick) % Math.max(ids.length, 1)];
            const previous = op.kind === 'create' || target === undefined ? undefined : events.get(target)!;
            let next: StoredEvent | undefined;
            if (op.kind === 'create') next = makeEvent(nextId++, op.fields);
            else if (!previous) continue;
            else if (op.kind === 'update')
              next = { ...makeEvent(previous.id, op.fields), slug: previous.slug };
            else if (op.kind === 'trash') next = { ...previous, status: 'trash' };
            if (next) events.set(next.id, next);
            else events.delete(previous!.id);
            index.update(previous, next);
          }
          const rebuilt = new EventIndex();
          rebuilt.reset(events.values());
          for (const [q, p] of queries) {
            await expectSameAnswer(index, events, q, p);
            await expectSameAnswer(rebuilt, events, q, p);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('answers every kind of bound on an empty calendar', async () => {
    await fc.assert(
      fc.asyncProperty(query, page, async (q, p) => {
        const events = new Map<number, StoredEvent>();
        expect(await runEventQuery(q, storeOf(new EventIndex(), events), p)).toEqual({ total: 0, items: [] });
      }),
    );
  });

  it('counts bounds equal to starts and ends exactly, for zero-length and long events', async () => {
    const base = fc.sample(eventFields, { numRuns: 1, seed: 1 })[0];
    const at = (startLocal: string, endLocal: string, id: number) =>
      makeEvent(id, {
        ...base,
        schedule: { startLocal, endLocal },
        status: 'publish',
        hideFromListings: false,
      });
    const events = new Map(
      [
        at('2030-01-02 10:00:00', '2030-01-02 10:00:00', 1),
        at('2030-01-02 10:00:00', '2030-01-02 12:00:00', 2),
        at('2030-01-01 10:00:00', '2030-01-02 10:00:00', 3),
        at('2029-01-01 00:00:00', '2031-01-01 00:00:00', 4),
        at('2030-01-02 10:00:00', '2030-01-02 10:00:00', 5),
      ].map((event) => [event.id, event]),
    );
    const index = new EventIndex();
    index.reset(events.values());
    for (const field of ['start', 'end'] as const) {
      for (const op of ['>=', '>', '<=', '<'] as const) {
        for (const value of [
          '2030-01-02 10:00:00',
          '2030-01-02 12:00:00',
          '2031-01-01 00:00:00',
          '2029-01-01 00:00:00',
        ]) {
          for (const offset of [0, 1, 4]) {
            const q: EventQuery = {
              bounds: [{ field, op, value }],
              statuses: new Set(['publish']),
              includeHidden: false,
            };
            await expectSameAnswer(index, events, q, { offset, limit: 2 });
          }
        }
      }
    }
  });

  it('stays exact on a larger calendar with many partitions', async () => {
    const [initial] = fc.sample(fc.array(eventFields, { minLength: 1500, maxLength: 1500 }), {
      numRuns: 1,
      seed: 7,
    });
    const events = new Map(initial.map((fields, at) => [at + 1, makeEvent(at + 1, fields)] as const));
    const index = new EventIndex();
    index.reset(events.values());
    for (const [q, p] of fc.sample(fc.tuple(query, page), { numRuns: 300, seed: 11 })) {
      await expectSameAnswer(index, events, q, { offset: p.offset * 20, limit: p.limit });
    }
  });
});

describe('a query that looks at every candidate (issue 32: no stall)', () => {
  const [sampled] = fc.sample(fc.array(eventFields, { minLength: 2000, maxLength: 2000 }), {
    numRuns: 1,
    seed: 3,
  });
  const published = (fields: EventFields, day: number): EventFields => ({
    ...fields,
    status: 'publish',
    hideFromListings: false,
    language: 'en',
    schedule: {
      startLocal: `2030-01-${String(day).padStart(2, '0')} 10:00:00`,
      endLocal: `2030-01-${String(day).padStart(2, '0')} 12:00:00`,
    },
  });
  const query: EventQuery = {
    bounds: [{ field: 'start', op: '>=', value: '2030-01-01 00:00:00' }],
    statuses: new Set(['publish']),
    includeHidden: false,
    searchWords: [WORDS[0]!.toLowerCase()],
  };

  for (const plan of ['a walk of the listing', 'an id set of an index'] as const) {
    it(`lets other work run between its slices, and answers the calendar as it was when it began (${plan})`, async () => {
      const events = new Map(
        sampled.map((fields, at) => [at + 1, makeEvent(at + 1, published(fields, 1 + (at % 28)))] as const),
      );
      const index = new EventIndex();
      index.reset(events.values());
      const q: EventQuery =
        plan === 'a walk of the listing' ? query : { ...query, categoryIds: new Set([1, 2, 3, 4]) };
      const p = { offset: 3, limit: 20 };
      const expected = bruteForce(new Map(events), q, p);
      expect(expected.total).toBeGreaterThan(p.offset + p.limit);
      const variant = plan === 'a walk of the listing' ? index : preferringIdSets(index);

      let turns = 0;
      let running = true;
      const countTurns = () => {
        turns++;
        if (running) setImmediate(countTurns);
      };
      setImmediate(countTurns);
      const answer = runEventQuery(q, storeOf(variant, events), p, new TimeSlices(0));
      // Written while it runs: a matching event before all others, and the first match trashed.
      const early = makeEvent(9999, { ...published(sampled[0]!, 1), title: WORDS[0]! });
      events.set(early.id, early);
      index.update(undefined, early);
      const first = events.get(expected.ids[0]!)!;
      const trashed: StoredEvent = { ...first, status: 'trash' };
      events.set(first.id, trashed);
      index.update(first, trashed);
      const result = await answer;
      running = false;

      expect({ total: result.total, ids: result.items.map((event) => event.id) }).toEqual(expected);
      // 2,000 candidates, a pause every 64: the event loop turned between the slices.
      expect(turns).toBeGreaterThanOrEqual(10);
    });
  }
});

describe('wall-clock seconds', () => {
  it('round-trip and keep the order of canonical dates', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MAX_SECONDS }),
        fc.integer({ min: 0, max: MAX_SECONDS }),
        (a, b) => {
          const [left, right] = [wallClockText(a), wallClockText(b)];
          expect(wallClockSeconds(left)).toBe(a);
          expect(Math.sign(a - b)).toBe(left < right ? -1 : left > right ? 1 : 0);
        },
      ),
    );
    expect(wallClockText(0)).toBe('0000-01-01 00:00:00');
    expect(wallClockSeconds('0000-02-29 00:00:00')).toBe(59 * 86_400);
    for (const invalid of [
      '1900-02-29 00:00:00',
      '2030-01-01 24:00:00',
      '2030-04-31 00:00:00',
      '2030-1-01 00:00:00',
      '',
    ])
      expect(wallClockSeconds(invalid)).toBeNull();
  });
});
