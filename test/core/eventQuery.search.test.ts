import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchesQuery, type EventQuery } from '../../src/main/core/eventQuery';
import type { StoredEvent } from '../../src/main/store/schema';
import type { CalendarStore } from '../../src/main/store/store';

// Searching lowers the title, excerpt and description joined by new lines and looks for every word in them
// (as it was written before searches stopped lowering every event they walk past): the answers must not move.
const reference = (event: Pick<StoredEvent, 'title' | 'excerpt' | 'description'>, words: string[]) => {
  const haystack = `${event.title}\n${event.excerpt}\n${event.description}`.toLowerCase();
  return words.every((word) => haystack.includes(word));
};

// Letters with every kind of case mapping: ASCII, Latin-1, 'İ' and the Kelvin sign (lowered to ASCII),
// 'ß', final sigma, Turkish dotless i, a regular-expression character, an emoji.
const alphabet = fc.constantFrom(
  ...'aAiIkKsSzZ éÉßẞΣσςİıK.*+?(|[\\🎷-\n'.split(''),
  'é',
  '日',
  '\u212a',
  '\u0130',
  '\u0307',
);
const text = fc.array(alphabet, { maxLength: 30 }).map((chars) => chars.join(''));
// Words as the route makes them (lowered, split at white space), and also raw ones: capitals, new lines.
const word = fc.oneof(
  fc
    .array(alphabet, { minLength: 1, maxLength: 4 })
    .map((chars) => chars.join('').toLowerCase().replace(/\s+/g, ''))
    .filter((value) => value !== ''),
  fc.array(alphabet, { minLength: 1, maxLength: 4 }).map((chars) => chars.join('')),
);

const query = (searchWords: string[]): EventQuery => ({
  bounds: [],
  statuses: new Set(['publish']),
  searchWords,
  includeHidden: true,
});
const store = {} as CalendarStore;

describe('event search', () => {
  it('finds exactly the events whose lowered title, excerpt and description hold every word', () => {
    fc.assert(
      fc.property(
        text,
        text,
        text,
        fc.array(word, { minLength: 1, maxLength: 3 }),
        (title, excerpt, description, words) => {
          const event = {
            title,
            excerpt,
            description,
            status: 'publish',
            hideFromListings: false,
          } as StoredEvent;
          expect(matchesQuery(event, query(words), store)).toBe(reference(event, words));
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('finds words in any case, across the three texts, and not across them', () => {
    const event = {
      title: 'KELVIN Club Night',
      excerpt: 'İstanbul',
      description: '<p>Jazz (live) at 9</p>',
      status: 'publish',
      hideFromListings: false,
    } as StoredEvent;
    const finds = (...words: string[]) => matchesQuery(event, query(words), store);
    expect(finds('club', 'jazz', '(live)')).toBe(true);
    expect(finds('i̇stanbul')).toBe(true);
    expect(finds('kelvin')).toBe(true);
    expect(finds('nightİstanbul'.toLowerCase())).toBe(false);
    expect(finds('club', 'blues')).toBe(false);
  });
});
