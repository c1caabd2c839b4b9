import { createHash } from 'node:crypto';
import { openSync, readFileSync, readSync, closeSync } from 'node:fs';
import { ChunkedJsonReader, feedLines } from './chunkedJson';
import { FileLines } from './fileLines';
import { EventKeyColumns } from './lazyEvents';
import { littleEndianBytes, littleEndianFloat64s, littleEndianUint32s } from './littleEndian';

/**
 * Where the lines of the data file's events array are (issue 32): written beside the data file after each
 * snapshot (`calendar.json.lines`), so that a start of a data file this process wrote reads everything but the
 * events' bytes (a few MB, where the events are 134 MB at 100,000 events) and leaves those to be read by
 * position when wanted (FileLines). It is used only when it names the very data file the fingerprint vouches
 * for and its own checksum holds; anything else (another file, an older layout, an edit) is ignored and the
 * file read in full.
 */
export interface LineLayout {
  /** The top-level array whose lines are recorded. */
  readonly key: string;
  /** Byte offset of each line of that array, then the offset of the `]` line after them. */
  readonly offsets: number[];
  /**
   * A top-level member (not an array) whose line is recorded too: where it starts and where its value ends
   * (before the comma, if another member follows). The events' keys: a start with the layout's own columns
   * need not read their bytes at all.
   */
  readonly member?: { readonly key: string; from?: number; to?: number };
}

/**
 * Version 3 is one line of JSON (what the layout is for, the names the key columns' codes stand for, the
 * checksum), then binary: the lines' lengths as 32-bit little-endian numbers and, when the events' keys can
 * be kept as numbers, their columns (EventKeyColumns). The checksum covers the line's fields and every byte
 * after it. Version 2 kept the lengths as one base64 text inside JSON, version 1 as a JSON array (~15 ms of
 * a start at 100,000 events); both are still read.
 */
const VERSION = 3;

const checksumOf = (version: number, fingerprint: string, first: number, lengths: string) =>
  createHash('sha256').update(`${version}|${fingerprint}|${first}|${lengths}`).digest('hex');

/** What the first line of a version 3 file says besides the checksum. */
interface LayoutHeader {
  version: 3;
  key: string;
  fingerprint: string;
  first: number;
  count: number;
  keys: {
    statusNames: readonly string[];
    languageNames: readonly string[];
    publishedPerTerm: ReadonlyArray<readonly [number, number]>;
    /** Where the data file's own keys line is (`LineLayout.member`), when recorded. */
    line?: readonly [number, number];
  } | null;
}

function binaryChecksumOf(header: LayoutHeader, body: readonly Uint8Array[]): string {
  const hash = createHash('sha256').update(JSON.stringify(header));
  for (const piece of body) hash.update(piece);
  return hash.digest('hex');
}

/** Bytes per event of the key columns: id (4), start and end seconds (8 each), status, hidden, language. */
const KEY_BYTES = 4 + 16 + 3;

/**
 * The layout file's bytes for the data file `fingerprint` identifies, with the events' key columns when
 * given for as many events as the array has lines (null when the array was empty). In pieces, to be written
 * one after the other: the columns' own bytes, not copied (a 2.7 MB copy into fresh memory held the event
 * loop ~15 ms on a slow machine, most of it page faults).
 */
export function layoutFileBytes(
  layout: LineLayout,
  fingerprint: string,
  keys: EventKeyColumns | null,
): Buffer[] | null {
  const { offsets } = layout;
  const count = offsets.length - 1;
  if (count < 1) return null;
  const withKeys = keys !== null && keys.count === count;
  const lengths = new Uint32Array(count);
  for (let at = 0; at < count; at++) lengths[at] = offsets[at + 1]! - offsets[at]!;
  // The typed arrays' bytes as they are: a write call per number held the event loop ~40 ms at 100,000 events.
  const columns = withKeys
    ? [lengths, keys.ids, keys.seconds, keys.statuses, keys.hidden, keys.languages]
    : [lengths];
  const body = columns.map(littleEndianBytes);
  const header: LayoutHeader = {
    version: VERSION,
    key: layout.key,
    fingerprint,
    first: offsets[0]!,
    count,
    keys: withKeys
      ? {
          statusNames: keys.statusNames,
          languageNames: keys.languageNames,
          publishedPerTerm: keys.publishedPerTerm,
          ...(layout.member?.from !== undefined && layout.member.to !== undefined
            ? { line: [layout.member.from, layout.member.to] as const }
            : {}),
        }
      : null,
  };
  const line = JSON.stringify({ ...header, checksum: binaryChecksumOf(header, body) });
  // Spaces after the JSON (still one JSON text) so that the columns start 8-byte aligned in the file: a
  // start then reads them in place, without copying.
  const padding = (8 - ((Buffer.byteLength(line) + 1) % 8)) % 8;
  return [Buffer.from(`${line}${' '.repeat(padding)}\n`), ...body];
}

/** The lines' lengths a layout file of version 1 or 2 records, or null when they are not intact. */
function lengthsOf(
  version: unknown,
  fingerprint: string,
  first: number,
  lengths: unknown,
  checksum: unknown,
) {
  if (version === 1) {
    if (!Array.isArray(lengths) || lengths.length === 0) return null;
    const valid = (length: unknown) =>
      Number.isSafeInteger(length) && (length as number) >= 3 && (length as number) <= 0xffffffff;
    if (!lengths.every(valid)) return null;
    if (checksum !== checksumOf(1, fingerprint, first, lengths.join(','))) return null;
    return Uint32Array.from(lengths as number[]);
  }
  if (version !== 2 || typeof lengths !== 'string') return null;
  if (checksum !== checksumOf(2, fingerprint, first, lengths)) return null;
  const bytes = Buffer.from(lengths, 'base64');
  if (bytes.length === 0 || bytes.length % 4 !== 0) return null;
  return littleEndianUint32s(bytes);
}

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/** The lengths and key columns of a version 3 file's `body`, when its header and checksum hold. */
function binaryLayoutOf(
  parsed: Record<string, unknown>,
  body: Buffer,
): { lengths: Uint32Array; keys: EventKeyColumns | null; keysLine: [number, number] | null } | null {
  const { version, key, fingerprint, first, count, keys, checksum } = parsed;
  if (version !== VERSION || typeof key !== 'string' || typeof fingerprint !== 'string') return null;
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(count) || (count as number) < 1) return null;
  const names = keys as Partial<Record<string, unknown>> | null;
  if (names !== null && (typeof names !== 'object' || !isStrings(names.statusNames))) return null;
  if (names !== null && !isStrings(names.languageNames)) return null;
  const perTerm = names?.publishedPerTerm;
  if (names !== null && !(Array.isArray(perTerm) && perTerm.every(isPairOfNumbers))) return null;
  const line = names?.line;
  const isOffset = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;
  if (line !== undefined && !(Array.isArray(line) && line.length === 2 && line.every(isOffset))) return null;
  const events = count as number;
  if (body.length !== 4 * events + (names ? KEY_BYTES * events : 0)) return null;
  const header = { version, key, fingerprint, first, count, keys } as LayoutHeader;
  if (checksum !== binaryChecksumOf(header, [body])) return null;
  const lengths = littleEndianUint32s(body.subarray(0, 4 * events));
  if (!names) return { lengths, keys: null, keysLine: null };
  let at = 4 * events;
  const ids = littleEndianUint32s(body.subarray(at, (at += 4 * events)));
  const seconds = littleEndianFloat64s(body.subarray(at, (at += 16 * events)));
  const column = () => body.subarray(at, (at += events));
  return {
    lengths,
    keysLine: (line as [number, number] | undefined) ?? null,
    keys: new EventKeyColumns(
      ids,
      seconds,
      column(),
      names.statusNames as string[],
      column(),
      column(),
      names.languageNames as string[],
      perTerm as Array<[number, number]>,
    ),
  };
}

const isPairOfNumbers = (value: unknown) =>
  Array.isArray(value) && value.length === 2 && value.every((item) => typeof item === 'number');

/**
 * The offsets (and key columns, when it has them) the layout file `path` records, if it is intact, for
 * `key`, and for the file `fingerprint` names.
 */
function trustedLayout(
  path: string,
  key: string,
  fingerprint: string,
  size: number,
): { offsets: Float64Array; keys: EventKeyColumns | null; keysLine: [number, number] | null } | null {
  let layout: ReturnType<typeof layoutOf>;
  try {
    layout = layoutOf(readFileSync(path));
  } catch {
    return null;
  }
  if (!layout || layout.key !== key || layout.fingerprint !== fingerprint) return null;
  const { lengths, first } = layout;
  const offsets = new Float64Array(lengths.length + 1);
  let offset = (offsets[0] = first);
  for (let at = 0; at < lengths.length; at++) {
    const length = lengths[at]!;
    if (length < 3) return null;
    offsets[at + 1] = offset += length;
  }
  if (!(offsets[0] > 0 && offset < size)) return null;
  // The keys' line lies in the tail, after the events' array, or is not used.
  const line = layout.keysLine;
  const keysLine = line && line[0] > offset && line[1] > line[0] && line[1] < size ? line : null;
  return { offsets, keys: layout.keys, keysLine };
}

/** A layout file's contents, of any version, when intact (not yet compared with the data file). */
function layoutOf(bytes: Buffer) {
  const newline = bytes.indexOf(0x0a);
  // Versions 1 and 2 are JSON alone; version 3 a line of JSON, then binary.
  const parsed: unknown = JSON.parse(bytes.toString('utf8', 0, newline < 0 ? bytes.length : newline));
  if (parsed === null || typeof parsed !== 'object') return null;
  const fields = parsed as Record<string, unknown>;
  const { version, first, lengths: recorded, checksum } = fields;
  if (typeof fields.key !== 'string' || typeof fields.fingerprint !== 'string') return null;
  if (!Number.isSafeInteger(first)) return null;
  const common = { key: fields.key, fingerprint: fields.fingerprint, first: first as number };
  if (newline >= 0) {
    const binary = binaryLayoutOf(fields, bytes.subarray(newline + 1));
    return binary && { ...common, ...binary };
  }
  const lengths = lengthsOf(version, fields.fingerprint, first as number, recorded, checksum);
  return lengths && { ...common, lengths, keys: null, keysLine: null };
}

function readAt(fd: number, from: number, to: number): Buffer {
  const buffer = Buffer.allocUnsafe(to - from);
  let read = 0;
  while (read < buffer.length) {
    const bytes = readSync(fd, buffer, read, buffer.length - read, from + read);
    if (bytes === 0) throw new Error('the data file is shorter than its layout says');
    read += bytes;
  }
  return buffer;
}

/**
 * Feeds the lines of `file[from, size)` to `reader`. With `skipped` (the keys' line, which the layout's columns
 * stand in for), the bytes of that line are not read: only its first bytes, to see it is where it was written.
 */
function readTail(
  fd: number,
  reader: ChunkedJsonReader,
  from: number,
  size: number,
  skipped: readonly [number, number] | null,
): boolean {
  if (!skipped) return feedLines(reader, readAt(fd, from, size));
  const [lineFrom, lineTo] = skipped;
  const before = readAt(fd, from, lineFrom);
  if (before[before.length - 1] !== 0x0a || !feedLines(reader, before.subarray(0, before.length - 1)))
    return false;
  // After the line's value: its comma when another member follows, then the newline ending it.
  const after = readAt(fd, lineTo, size);
  const hasComma = after[0] === 0x2c;
  if (!reader.skippedLine(readAt(fd, lineFrom, Math.min(lineTo, lineFrom + 64)), hasComma)) return false;
  const rest = after.subarray(hasComma ? 1 : 0);
  return rest[0] === 0x0a && feedLines(reader, rest.subarray(1));
}

/**
 * The document in `file` with the array `key` as FileLines, reading only the bytes around it, when the layout
 * file `layoutPath` is for the file `fingerprint` names (of `size` bytes); null otherwise (read it in full).
 * When the layout has the events' key columns, the member `keysMember` is not parsed: the columns stand in
 * its place. The arrays named in `rawParts` are kept as RawLines (read, not parsed). The caller still checks that the file did not change meanwhile (its stamp), as for a full read.
 */
export function readWithLayout(
  file: string,
  layoutPath: string,
  key: string,
  rawParts: readonly string[],
  keysMember: string,
  fingerprint: string,
  size: number,
): { value: Record<string, unknown>; lines: FileLines } | null {
  const layout = trustedLayout(layoutPath, key, fingerprint, size);
  if (!layout) return null;
  const { offsets, keys, keysLine } = layout;
  const fd = openSync(file, 'r');
  let kept = false;
  try {
    const head = readAt(fd, 0, offsets[0]!);
    const reader = new ChunkedJsonReader([key, ...rawParts], keys ? keysMember : undefined);
    // The head ends with the array's opening line and its newline: the lines before it, then that one.
    if (head[head.length - 1] !== 0x0a || !feedLines(reader, head.subarray(0, head.length - 1))) return null;
    const lines = new FileLines(fd, offsets);
    if (
      !reader.rawElements(lines) ||
      !readTail(fd, reader, offsets[offsets.length - 1]!, size, keys && keysLine)
    )
      return null;
    const result = reader.result();
    if (!result) return null;
    const value = result.value as Record<string, unknown>;
    if (keys) value[keysMember] = keys;
    kept = true;
    return { value, lines };
  } catch {
    return null;
  } finally {
    if (!kept) closeSync(fd);
  }
}
