import { describe, it, expect } from 'vitest';
import { slugify, uniqueSlug, uniqueSlugFrom } from '../../src/main/core/slugs';

describe('slugify', () => {
  it.each([
    ['Food &amp; Drink', 'food-drink'],
    ['Food & Drink', 'food-drink'],
    ['Sample created event', 'sample-created-event'],
    ['Summer Workshop mwr7d6bz-224', 'summer-workshop-mwr7d6bz-224'],
    ['Café Müller', 'cafe-muller'],
    ['Über Straße', 'uber-strasse'],
    ['Æsir Œuvre', 'aesir-oeuvre'],
    ["Jane's Café", 'janes-cafe'],
    ['Rock ’n’ Roll', 'rock-n-roll'],
    ['Q&A', 'qa'],
    ['AC/DC', 'acdc'],
    ['C++ & C#', 'c-c'],
    ['fooBar', 'foobar'],
    ['Version 2.0', 'version-2-0'],
    ['  --Spaced   out--  ', 'spaced-out'],
    ['Long — dash – here', 'long-dash-here'],
    ['Hello <b>World</b>', 'hello-world'],
    ['5 × 5', '5-x-5'],
    ['Привет мир', 'privet-mir'],
    ['event-01', 'event-01'],
    ['my_event', 'my_event'],
  ])('%j → %j', (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });

  it('returns "" when nothing usable is left', () => {
    expect(slugify('')).toBe('');
    expect(slugify('!!!')).toBe('');
    expect(slugify('&amp;')).toBe('');
    expect(slugify('東京')).toBe('');
  });

  it('is stable on its own output and caps the length at 200', () => {
    expect(slugify(slugify('Café Müller & Friends'))).toBe('cafe-muller-friends');
    const long = slugify('word '.repeat(100));
    expect(long.length).toBeLessThanOrEqual(200);
    expect(long).not.toMatch(/^-|-$/);
  });
});

describe('slugify of plain ASCII text', () => {
  // ASCII text takes a shorter path; '…' (deleted outright) sends the same text through the general one.
  const printable = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
  it.each([
    printable,
    `Jazz ${printable} Night`,
    "Don't Stop: Rock'n'Roll @ 8PM (Q&A) -- 50% off!",
    'a_b__c  d-e\\f`g^h~i|j{k}l[m]n',
    '__Leading and trailing__',
    'Benchmark Concert 1234',
  ])('gives what the general path gives for %j', (text) => {
    expect(slugify(text)).toBe(slugify(`${text}…`));
  });
});

describe('uniqueSlug', () => {
  const takenOf =
    (...slugs: string[]) =>
    (s: string) =>
      slugs.includes(s);

  it('keeps a free slug', () => {
    expect(uniqueSlug('event', takenOf(), '42')).toBe('event');
  });

  it('appends -2, -3, … until free', () => {
    expect(uniqueSlug('event', takenOf('event'), '42')).toBe('event-2');
    expect(uniqueSlug('event', takenOf('event', 'event-2', 'event-3'), '42')).toBe('event-4');
    expect(uniqueSlug('event-2', takenOf('event-2'), '42')).toBe('event-2-2');
  });

  it('uses the fallback when the base is empty (and makes it unique too)', () => {
    expect(uniqueSlug('', takenOf(), '42')).toBe('42');
    expect(uniqueSlug('', takenOf('42'), '42')).toBe('42-2');
    expect(() => uniqueSlug('', takenOf(), '')).toThrow();
  });

  it('stays within 200 characters when suffixing', () => {
    const base = 'a'.repeat(200);
    const slug = uniqueSlug(base, takenOf(base), '1');
    expect(slug).toBe(`${'a'.repeat(198)}-2`);
  });
});

describe('uniqueSlugFrom', () => {
  it('probes from the given suffix on and reports the suffix used', () => {
    const taken = new Set(['yoga', 'yoga-2', 'yoga-3']);
    const probes: string[] = [];
    const isTaken = (slug: string) => {
      probes.push(slug);
      return taken.has(slug);
    };
    expect(uniqueSlugFrom('yoga', isTaken, 'x', 2)).toEqual({ slug: 'yoga-4', suffix: 4 });
    probes.length = 0;
    taken.add('yoga-4');
    // Starting where the last probe ended costs two look-ups, not one per existing suffix.
    expect(uniqueSlugFrom('yoga', isTaken, 'x', 5)).toEqual({ slug: 'yoga-5', suffix: 5 });
    expect(probes).toEqual(['yoga', 'yoga-5']);
    expect(uniqueSlugFrom('pilates', isTaken, 'x', 9)).toEqual({ slug: 'pilates', suffix: 0 });
  });
});
