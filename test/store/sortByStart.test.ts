import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../src/main/store/schema';
import { sortByStart, wallClockSeconds, wallClockText } from '../../src/main/store/eventIndex';
import { compareStart } from '../../src/main/store/sortedEvents';

/** Only the fields the order looks at. */
const event = (id: number, startLocal: string) => ({ id, startLocal }) as StoredEvent;

const MIDDLE = wallClockSeconds('2030-01-01 10:00:00')!;

/**
 * Canonical starts within `spread` seconds of one another (numbers hold spreads below 2^32), crowded on a few
 * values so that equal starts (ordered by id) are common.
 */
const canonicalStart = (spread: number) =>
  fc.oneof(
    fc.constantFrom('2030-01-01 10:00:00', '2030-01-01 10:00:01', '2029-12-31 23:59:59'),
    fc.integer({ min: 0, max: spread }).map((offset) => wallClockText(MIDDLE - spread / 2 + offset)),
  );
/** What a hand-edited file may hold: compareStart orders these by their text. */
const oddStart = fc.constantFrom('', '2030-1-1 10:00', '2030-02-30 10:00:00', '2030-01-01T10:00:00', 'soon');

/** Ids as the data file lists them (ascending), or in any order, repeated ones included. */
const ids = (count: number, ascending: boolean) =>
  ascending
    ? fc
        .array(fc.integer({ min: 1, max: 5 }), { minLength: count, maxLength: count })
        .map((gaps) => gaps.map((_, at) => gaps.slice(0, at + 1).reduce((sum, gap) => sum + gap, 0)))
    : fc.array(fc.integer({ min: 1, max: 50 }), { minLength: count, maxLength: count });

describe('sortByStart (the order a start indexes the calendar in)', () => {
  it('gives exactly the order compareStart gives, for any starts and ids', () => {
    fc.assert(
      fc.property(
        fc
          .record({
            spread: fc.constantFrom(86_400 * 800, 2 ** 32 - 2, 2 ** 32 + 2),
            odd: fc.boolean(),
            ascending: fc.boolean(),
            count: fc.integer({ min: 0, max: 200 }),
          })
          .chain(({ spread, odd, ascending, count }) =>
            fc.tuple(
              ids(count, ascending),
              fc.array(
                odd
                  ? fc.oneof(
                      { weight: 20, arbitrary: canonicalStart(spread) },
                      { weight: 1, arbitrary: oddStart },
                    )
                  : canonicalStart(spread),
                { minLength: count, maxLength: count },
              ),
            ),
          ),
        ([eventIds, starts]) => {
          const events = eventIds.map((id, at) => event(id, starts[at]));
          const expected = [...events].sort(compareStart);
          const sorted = sortByStart(events);
          expect(sorted.length).toBe(expected.length);
          // The very same records, in the same order (records with equal start and id included).
          sorted.forEach((record, at) => expect(record).toBe(expected[at]));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('sorts a calendar as the data file lists it (ids ascending, close dates) by numbers, correctly', () => {
    const events = Array.from({ length: 20_000 }, (_, at) =>
      event(at + 1, wallClockText(MIDDLE + ((at * 7919) % 5000) * 900)),
    );
    expect(sortByStart(events)).toEqual([...events].sort(compareStart));
  });
});
