import { describe, expect, it } from 'vitest';
import { EventIndex, wallClockSeconds } from '../../src/main/store/eventIndex';
import { EventKeyColumns, eventKeysOf, LazyEvents, placeholdersFrom } from '../../src/main/store/lazyEvents';
import { RawLines } from '../../src/main/store/rawLines';
import type { StoredEvent } from '../../src/main/store/schema';

/** An event with what the keys and the term counts read (the listing reads nothing else). */
const event = (id: number, startLocal: string, endLocal: string, status = 'publish'): StoredEvent =>
  ({
    id,
    status,
    startLocal,
    endLocal,
    hideFromListings: id % 5 === 0,
    language: 'en',
    categoryIds: [1],
    tagIds: [],
  }) as unknown as StoredEvent;

const regular = Array.from({ length: 40 }, (_, at) =>
  event(at + 1, `2030-01-${String((at % 9) + 1).padStart(2, '0')} 10:00:00`, '2030-01-12 18:00:00'),
);
// 19 characters each, but not real dates, or an end before the start: kept in the keys, placed as irregular.
const odd = [
  event(41, '2030-01-03 09:00:00', '2030-02-30 10:00:00'),
  event(42, '2030-01-04 09:00:00', '2030-01-01 10:00:00', 'draft'),
];

const contents = (index: EventIndex) =>
  [...index.listing.partitionContents()].map(({ key, maxSpan, events }) => ({
    key,
    maxSpan,
    ids: events.map((stored) => stored.id),
  }));

describe("a start from the data file's keys", () => {
  for (const [name, events] of [
    ['canonical dates', regular],
    ['some dates not canonical or ending before they start', [...regular, ...odd]],
    [
      'a start that is not a real date (sorted by comparing)',
      [...regular, event(43, '2030-13-01 10:00:00', '2030-13-01 11:00:00')],
    ],
  ] as const) {
    it(`lists its placeholders exactly as their records would be listed: ${name}`, () => {
      const keys = eventKeysOf(events, [[1, 2]])!;
      const start = placeholdersFrom(JSON.parse(JSON.stringify(keys)), events.length)!;
      // The seconds read in place from the keys' dates are those of the placeholders' own dates.
      start.events.forEach((placeholder, at) => {
        expect(start.seconds[2 * at]).toEqual(wallClockSeconds(placeholder.startLocal) ?? NaN);
        expect(start.seconds[2 * at + 1]).toEqual(wallClockSeconds(placeholder.endLocal) ?? NaN);
      });
      const fromKeys = new EventIndex();
      fromKeys.reset(start.events, start.publishedPerTerm, start.seconds);
      const fromRecords = new EventIndex();
      fromRecords.reset(events, start.publishedPerTerm);
      expect(contents(fromKeys)).toEqual(contents(fromRecords));
      // And each record takes its placeholder's place (the listing found it where the keys put it).
      for (let at = 0; at < events.length; at++) fromKeys.replacePlaceholder(start.events[at], events[at]);
      expect(contents(fromKeys)).toEqual(contents(fromRecords));
    });
  }

  it("starts from keys written by earlier versions (a column per field, as arrays) as from today's", () => {
    const events = [...regular, ...odd, event(44, '2030-01-05 09:00:00', '2030-01-05 10:00:00', 'pending')];
    const keys = JSON.parse(JSON.stringify(eventKeysOf(events, [[1, 2]]))) as Record<string, unknown>;
    const earlier = {
      ids: events.map((stored) => stored.id),
      statuses: events.map((stored) => stored.status),
      dates: keys.dates,
      hidden: events.map((stored) => (stored.hideFromListings ? 1 : 0)),
      languages: events.map((stored) => stored.language),
      publishedPerTerm: keys.publishedPerTerm,
    };
    const today = placeholdersFrom(keys, events.length)!;
    const before = placeholdersFrom(earlier, events.length)!;
    expect(before.events).toEqual(today.events);
    expect(today.events.map(({ status, hideFromListings }) => [status, hideFromListings])).toEqual(
      events.map(({ status, hideFromListings }) => [status, hideFromListings]),
    );
    // Ids beyond 32 bits are kept as numbers.
    const large = events.map((stored, at) => ({ ...stored, id: 2 ** 40 + at }));
    const largeKeys = JSON.parse(JSON.stringify(eventKeysOf(large, []))) as Record<string, unknown>;
    expect(placeholdersFrom(largeKeys, large.length)!.events.map(({ id }) => id)).toEqual(
      large.map(({ id }) => id),
    );
    // More languages than one character can name (the schema allows seven): no keys, every record is read.
    const babel = Array.from({ length: 0xd800 }, (_, at) => ({
      ...events[0]!,
      id: at + 1,
      language: `x-${at}`,
    }));
    expect(eventKeysOf(babel as unknown as StoredEvent[], [])).toBeUndefined();
    // A code with no name, or a column of the wrong length: not the keys of these events.
    expect(
      placeholdersFrom({ ...keys, statuses: `${(keys.statuses as string).slice(1)}~` }, events.length),
    ).toBeNull();
    expect(placeholdersFrom({ ...keys, hidden: '01' }, events.length)).toBeNull();
    expect(placeholdersFrom({ ...keys, ids: (keys.ids as string).slice(8) }, events.length)).toBeNull();
  });

  it("starts from the layout file's columns (numbers) exactly as from the data file's keys (text)", async () => {
    const events = [...regular, event(44, '2030-01-05 09:00:00', '2030-01-05 10:00:00', 'pending')];
    const keys = eventKeysOf(events, [[1, 2]])!;
    const columns = (await EventKeyColumns.of(keys))!;
    const fromText = placeholdersFrom(keys, events.length)!;
    const fromColumns = placeholdersFrom(columns, events.length)!;
    const seen = (placeholders: StoredEvent[]) =>
      placeholders.map(({ id, status, hideFromListings, language, startLocal, endLocal }) => ({
        id,
        status,
        hideFromListings,
        language,
        startLocal,
        endLocal,
      }));
    expect(seen(fromColumns.events)).toEqual(seen(fromText.events));
    expect(seen(fromColumns.events).map(({ startLocal }) => startLocal)).toEqual(
      events.map((e) => e.startLocal),
    );
    expect(fromColumns.seconds).toEqual(fromText.seconds);
    expect(fromColumns.publishedPerTerm).toEqual(fromText.publishedPerTerm);
    // A date that is not a real one could not be written back from seconds: no columns (the text keys serve).
    expect(await EventKeyColumns.of(eventKeysOf([...events, ...odd], [])!)).toBeNull();
    // Columns for another number of events, or a code with no name: not the keys of these events.
    expect(placeholdersFrom(columns, events.length - 1)).toBeNull();
    const statuses = Uint8Array.from(columns.statuses);
    statuses[3] = columns.statusNames.length;
    const { ids, seconds, statusNames, hidden, languages, languageNames, publishedPerTerm } = columns;
    const unnamed = new EventKeyColumns(
      ids,
      seconds,
      statuses,
      statusNames,
      hidden,
      languages,
      languageNames,
      publishedPerTerm,
    );
    expect(placeholdersFrom(unnamed, events.length)).toBeNull();
  });

  it('reads each record from its own line, and refuses a line that does not match its keys', () => {
    const events = [...regular.slice(0, 3), ...odd];
    const start = placeholdersFrom(eventKeysOf(events, [])!, events.length)!;
    const lines = new RawLines();
    const text = Buffer.from(events.map((stored) => JSON.stringify(stored)).join('\n'));
    let from = 0;
    for (const line of text.toString().split('\n')) {
      lines.add(text, from, from + Buffer.byteLength(line));
      from += Buffer.byteLength(line) + 1;
    }
    const lazy = new LazyEvents(lines, start.events);
    expect(lazy.size).toBe(events.length);
    expect(lazy.isPlaceholder(start.events[1])).toBe(true);
    expect(lazy.isPlaceholder(events[1])).toBe(false);
    expect(lazy.parse(start.events[4])).toEqual(events[4]);
    lazy.done(start.events[0]);
    expect(lazy.isPlaceholder(start.events[0])).toBe(false);
    expect(lazy.nextPending()).toBe(start.events[1]);
    // Keys that say another start than the line: refused.
    const other = placeholdersFrom(
      eventKeysOf([event(1, '2031-01-01 10:00:00', '2031-01-01 11:00:00')], [])!,
      1,
    )!;
    expect(() => new LazyEvents(lines, other.events).parse(other.events[0])).toThrow(
      /does not match its keys/,
    );
  });
});
