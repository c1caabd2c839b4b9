import { describe, expect, it } from 'vitest';
import { LazyRecords } from '../../src/main/store/lazyRecords';
import { RawLines } from '../../src/main/store/rawLines';

/** The lines of `texts`, kept as a start keeps a data file's lines (one buffer, each line a slice of it). */
function linesOf(texts: string[]): RawLines {
  const buffer = Buffer.from(texts.join('\n'));
  const lines = new RawLines();
  let from = 0;
  for (const text of texts) {
    const length = Buffer.byteLength(text);
    lines.add(buffer, from, from + length);
    from += length + 1;
  }
  return lines;
}

describe('a record line’s leading id (read without parsing the line)', () => {
  it('is the whole number the line starts with, as the store writes every record', () => {
    const lines = linesOf(['{"id":7,"slug":"a"}', '{"id":120345,"name":"Hall"}', '{"id":0,"x":1}']);
    expect([0, 1, 2].map((at) => lines.leadingId(at))).toEqual([7, 120345, 0]);
  });

  it('is none for a line that does not start with a plain id', () => {
    const lines = linesOf([
      '{"slug":"a","id":7}',
      '{"id":007,"x":1}',
      '{"id":7}',
      '{"id":-7,"x":1}',
      '{"id":7.5,"x":1}',
      '{"id":"7","x":1}',
      '{ "id":7,"x":1}',
      '{"id":99999999999999999,"x":1}',
      '{"id":',
    ]);
    expect(Array.from({ length: lines.length }, (_, at) => lines.leadingId(at))).toEqual(
      Array(lines.length).fill(undefined),
    );
  });
});

describe('records left unread at a start', () => {
  const venue = (id: number, name: string) => JSON.stringify({ id, slug: `venue-${id}`, name });

  it('stand in by their ids, and each is read from its line when asked for', () => {
    const lazy = LazyRecords.byLeadingIds<{ id: number; name: string }>(
      linesOf([venue(3, 'Hall'), venue(9, 'Studio')]),
      'venue',
    )!;
    expect(lazy.placeholders.map((placeholder) => placeholder.id)).toEqual([3, 9]);
    expect(lazy.size).toBe(2);
    const second = lazy.placeholders[1]!;
    expect(lazy.isPlaceholder(second)).toBe(true);
    const record = lazy.parse(second);
    expect(record).toEqual({ id: 9, slug: 'venue-9', name: 'Studio' });
    lazy.done(second);
    expect(lazy.isPlaceholder(second)).toBe(false);
    expect(lazy.nextPending()).toBe(lazy.placeholders[0]);
    expect(lazy.size).toBe(1);
  });

  it('are not left unread when a line has no leading id or two lines the same one', () => {
    expect(LazyRecords.byLeadingIds(linesOf([venue(3, 'Hall'), '{"name":"x","id":4}']), 'venue')).toBeNull();
    expect(LazyRecords.byLeadingIds(linesOf([venue(3, 'Hall'), venue(3, 'Again')]), 'venue')).toBeNull();
  });

  it('refuse a line whose record is not the one its placeholder stands for', () => {
    const lines = linesOf([venue(3, 'Hall')]);
    const lazy = LazyRecords.byLeadingIds<{ id: number }>(lines, 'venue')!;
    // The bytes changed after the start (as a damaged disk would): another id, then no JSON at all.
    lines.parse = () => ({ id: 4 });
    expect(() => lazy.parse(lazy.placeholders[0]!)).toThrow(
      "the data file's line for venue 3 does not match",
    );
    lines.parse = () => JSON.parse('{"id":3,');
    expect(() => lazy.parse(lazy.placeholders[0]!)).toThrow(SyntaxError);
  });
});
