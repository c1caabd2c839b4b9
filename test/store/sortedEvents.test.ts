import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventRecord } from '../../src/main/core/eventRecord';
import type { StoredEvent } from '../../src/main/store/schema';
import { compareStart, SortedEvents } from '../../src/main/store/sortedEvents';

const event = (id: number, day: number): StoredEvent =>
  eventRecord({
    id,
    authorId: 1,
    status: 'publish',
    language: 'en',
    dateUtc: '2029-12-01 00:00:00',
    timezone: 'UTC',
    startLocal: `2030-01-${String(day).padStart(2, '0')} 10:00:00`,
  });

describe('SortedEvents', () => {
  it('keeps thousands of events in order through inserts and removals (blocks split and empty)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 28 }), fc.nat()), {
          minLength: 3000,
          maxLength: 6000,
        }),
        fc.integer({ min: 0, max: 2500 }),
        (operations, loaded) => {
          const sorted = new SortedEvents();
          let expected: StoredEvent[] = [];
          // Bulk-loaded in order first, as at a start.
          for (let id = 1; id <= loaded; id++) expected.push(event(id, 1 + (id % 28)));
          expected.sort(compareStart);
          for (const item of expected) sorted.push(item);
          let nextId = loaded + 1;
          for (const [add, day, pick] of operations) {
            if (add || expected.length === 0) {
              const added = event(nextId++, day);
              sorted.insert(added);
              expected.push(added);
              expected.sort(compareStart);
            } else {
              const removed = expected[pick % expected.length];
              expect(sorted.remove(removed)).toBe(true);
              expected = expected.filter((item) => item !== removed);
            }
          }
          expect(sorted.length).toBe(expected.length);
          expect(sorted.toArray()).toEqual(expected);
          for (let at = 0; at < expected.length; at += 97) expect(sorted.at(at)).toBe(expected[at]);
          // Ranges starting and ending inside blocks, on their edges, spanning several, empty or reversed.
          for (const [from, to] of [
            [0, expected.length],
            [37, 1500],
            [511, 513],
            [1023, 2049],
            [expected.length - 3, expected.length],
            [5, 5],
            [9, 4],
          ]) {
            const visited: StoredEvent[] = [];
            sorted.forEachBetween(from, Math.min(to, expected.length), (item) => visited.push(item));
            expect(visited).toEqual(expected.slice(Math.max(0, from), Math.min(to, expected.length)));
          }
          for (let day = 0; day <= 29; day++) {
            const probe = `2030-01-${String(day).padStart(2, '0')} 10:00:00`;
            expect(sorted.lowerBound(probe)).toBe(expected.filter((item) => item.startLocal < probe).length);
            expect(sorted.upperBound(probe)).toBe(expected.filter((item) => item.startLocal <= probe).length);
          }
          expect(sorted.remove(event(nextId, 3))).toBe(false);
        },
      ),
      { numRuns: 5 },
    );
  });
});
