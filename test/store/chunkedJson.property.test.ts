import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeferredValue, parseChunkedJson } from '../../src/main/store/chunkedJson';
import { RawLines } from '../../src/main/store/rawLines';
import { readJsonFile, serializeInChunks } from '../../src/main/store/durableJsonFile';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const text = (data: unknown) => [...serializeInChunks(data)].join('');
/** JSON.parse of a file's bytes (as the store reads a file it cannot read line by line). */
function whole(content: Buffer): { value: unknown } | { error: true } {
  try {
    return { value: JSON.parse(content.toString('utf8')) as unknown };
  } catch {
    return { error: true };
  }
}
/** The document with its raw parts (arrays kept as lines, other values as text) parsed: what the store makes. */
function parsingRaw(read: { value: unknown } | undefined, rawParts: string[]) {
  if (!read) return read;
  const document = { ...(read.value as Record<string, unknown>) };
  for (const name of rawParts) {
    const part = document[name];
    if (part instanceof RawLines) document[name] = part.parseAll();
    if (part instanceof DeferredValue) document[name] = part.parse();
  }
  return { value: document };
}
/** What reading the file gives: the line-by-line result when it applies, JSON.parse of the whole otherwise. */
function read(content: Buffer): { value: unknown } | { error: true } {
  return parseChunkedJson(content) ?? whole(content);
}

const record = fc.record({
  id: fc.nat(),
  title: fc.string({ unit: 'grapheme' }),
  note: fc.oneof(fc.constant('€ ü 日本 \n "quoted", [x]:['), fc.string()),
  list: fc.array(fc.integer(), { maxLength: 3 }),
});
const dataFile = fc.record({
  schemaVersion: fc.nat(),
  settings: fc.record({ name: fc.string(), zone: fc.constant('Europe/Rome') }),
  events: fc.array(record, { maxLength: 1200 }),
  terms: fc.array(record, { maxLength: 3 }),
  syncLinks: fc.dictionary(fc.string(), fc.jsonValue()),
});

/** A file the store writes, edited as bytes as a damaged file would be (possibly in the middle of a character). */
const editedFile = (...inserts: string[]) =>
  fc
    .tuple(
      dataFile,
      fc.nat(),
      fc.nat({ max: 8 }),
      fc.constantFrom('', ',', '\n', ']', '}', '[', '{', '\r\n', ' ', ',\n', '\n}\n', ...inserts),
    )
    .map(([data, at, cut, insert]) => {
      const content = Buffer.from(text(data), 'utf8');
      const position = at % (content.length + 1);
      return Buffer.concat([
        content.subarray(0, position),
        Buffer.from(insert, 'utf8'),
        content.subarray(position + cut),
      ]);
    });

describe('reading a data file line by line', () => {
  it('gives exactly what JSON.parse gives for every file the store writes', () => {
    fc.assert(
      fc.property(dataFile, (data) => {
        const content = text(data);
        expect(parseChunkedJson(Buffer.from(content, 'utf8'))).toEqual({ value: JSON.parse(content) });
      }),
      { numRuns: 60 },
    );
  });

  it('never accepts what JSON.parse refuses, nor reads it differently, after any edit of the text', () => {
    fc.assert(
      fc.property(editedFile('"__proto__":{}'), (edited) => {
        expect(read(edited)).toEqual(whole(edited));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the raw parts unparsed (arrays as lines, a value as text), and parsing them gives what JSON.parse gives', () => {
    fc.assert(
      fc.property(dataFile, (data) => {
        const content = Buffer.from(text(data), 'utf8');
        const parts = ['events', 'terms', 'settings'];
        const read = parseChunkedJson(content, parts);
        const { events, terms, settings } = read?.value as Record<string, unknown>;
        for (const array of [events, terms])
          expect(array instanceof RawLines || (Array.isArray(array) && array.length === 0)).toBe(true);
        expect(settings).toBeInstanceOf(DeferredValue);
        expect(parsingRaw(read, parts)).toEqual({ value: JSON.parse(content.toString('utf8')) });
      }),
      { numRuns: 60 },
    );
  });

  it('with a raw array, never reads a damaged file differently from JSON.parse once its lines parse', () => {
    fc.assert(
      fc.property(editedFile('{}', '\n{"x":1}', '},{'), (edited) => {
        let parsed: { value: unknown } | undefined;
        try {
          parsed = parsingRaw(parseChunkedJson(edited, ['events', 'settings']), ['events', 'settings']);
        } catch {
          // A kept line that is not one JSON value (two records on a line, a damaged one): the store reads the
          // file again as a whole (persistence.ts), where JSON.parse decides.
          return;
        }
        expect(parsed ?? whole(edited)).toEqual(whole(edited));
      }),
      { numRuns: 300 },
    );
  });

  it('leaves other layouts to JSON.parse', () => {
    for (const content of [
      '{"a":[1,2]}',
      '{\r\n"a":1\r\n}\r\n',
      '\ufeff{\n"a":1\n}\n',
      '{\n"a":1\n}\n\u00a0',
    ]) {
      expect(parseChunkedJson(Buffer.from(content, 'utf8'))).toBeUndefined();
    }
    expect(parseChunkedJson(Buffer.from('{\n"a":[\n1,\n2\n],\n"b":{"c":null}\n}\n \n'))).toBeDefined();
  });

  it('reads a file of many megabytes piece by piece, lines split between pieces included', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'calendar-desk-chunked-'));
    try {
      const events = Array.from({ length: 30_000 }, (_, id) => ({
        id,
        title: `Concert ${id} — € ${'ü'.repeat(id % 7)} 日本`,
        description: 'x'.repeat(200 + (id % 97)),
      }));
      // One record longer than a whole piece, too.
      events[20_000].description = 'é'.repeat(5_000_000);
      const data = { schemaVersion: 2, events, terms: [], syncLinks: { a: 1 } };
      const file = join(folder, 'calendar.json');
      await writeFile(file, [...serializeInChunks(data)].join(''));
      expect(await readJsonFile(file)).toEqual(data);
      // Kept as lines, on pieces that are never reused: every line reads back as written.
      const kept = (await readJsonFile(file, ['events'])) as { events: RawLines };
      expect(kept.events).toBeInstanceOf(RawLines);
      expect(kept.events.parseAll()).toEqual(events);
      // The same document on one line is read as a whole, with the same result.
      await writeFile(file, JSON.stringify(data));
      expect(await readJsonFile(file)).toEqual(data);
      await writeFile(file, [...serializeInChunks(data)].join('').slice(0, -1000));
      await expect(readJsonFile(file)).rejects.toThrow(SyntaxError);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
