import { createHash } from 'node:crypto';
import { openSync, readFileSync, readSync, closeSync } from 'node:fs';
import { ChunkedJsonReader, feedLines } from './chunkedJson';
import { FileLines } from './fileLines';
import { littleEndianUint32s } from './littleEndian';

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
}

/**
 * Version 2 keeps the lines' lengths as one base64 text of 32-bit little-endian numbers, its checksum taken
 * over that text: version 1's JSON array of 100,000 numbers, checked one by one and joined again for the
 * checksum, took ~15 ms of a start. Files of version 1 are still read.
 */
const VERSION = 2;

const checksumOf = (version: number, fingerprint: string, first: number, lengths: string) =>
  createHash('sha256').update(`${version}|${fingerprint}|${first}|${lengths}`).digest('hex');

/** The layout file's text for the data file `fingerprint` identifies (null when the array was empty). */
export function layoutText(layout: LineLayout, fingerprint: string): string | null {
  const { offsets } = layout;
  if (offsets.length < 2) return null;
  const lengths = Buffer.alloc(4 * (offsets.length - 1));
  for (let at = 1; at < offsets.length; at++)
    lengths.writeUInt32LE(offsets[at]! - offsets[at - 1]!, 4 * (at - 1));
  const first = offsets[0]!;
  const encoded = lengths.toString('base64');
  const checksum = checksumOf(VERSION, fingerprint, first, encoded);
  return JSON.stringify({
    version: VERSION,
    key: layout.key,
    fingerprint,
    first,
    lengths: encoded,
    checksum,
  });
}

/** The lines' lengths a layout file of either version records, or null when they are not intact. */
function lengthsOf(
  version: unknown,
  fingerprint: string,
  first: number,
  lengths: unknown,
  checksum: unknown,
) {
  if (version === 1) {
    if (!Array.isArray(lengths) || lengths.length === 0) return null;
    if (
      !lengths.every(
        (length) =>
          Number.isSafeInteger(length) && (length as number) >= 3 && (length as number) <= 0xffffffff,
      )
    )
      return null;
    if (checksum !== checksumOf(1, fingerprint, first, lengths.join(','))) return null;
    return Uint32Array.from(lengths as number[]);
  }
  if (version !== VERSION || typeof lengths !== 'string') return null;
  if (checksum !== checksumOf(VERSION, fingerprint, first, lengths)) return null;
  const bytes = Buffer.from(lengths, 'base64');
  if (bytes.length === 0 || bytes.length % 4 !== 0) return null;
  return littleEndianUint32s(bytes);
}

/** The offsets the layout file `path` records, if it is intact, for `key`, and for the file `fingerprint` names. */
function trustedOffsets(path: string, key: string, fingerprint: string, size: number): Float64Array | null {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== 'object') return null;
  const { version, first, lengths: recorded, checksum } = parsed;
  if (parsed.key !== key || parsed.fingerprint !== fingerprint || !Number.isSafeInteger(first)) return null;
  const lengths = lengthsOf(version, fingerprint, first as number, recorded, checksum);
  if (!lengths) return null;
  const offsets = new Float64Array(lengths.length + 1);
  let offset = (offsets[0] = first as number);
  for (let at = 0; at < lengths.length; at++) {
    const length = lengths[at]!;
    if (length < 3) return null;
    offsets[at + 1] = offset += length;
  }
  return offsets[0] > 0 && offset < size ? offsets : null;
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
 * The document in `file` with the array `key` as FileLines, reading only the bytes around it, when the layout
 * file `layoutPath` is for the file `fingerprint` names (of `size` bytes); null otherwise (read it in full).
 * The caller still checks that the file did not change meanwhile (its stamp), as for a full read.
 */
export function readWithLayout(
  file: string,
  layoutPath: string,
  key: string,
  fingerprint: string,
  size: number,
): { value: Record<string, unknown>; lines: FileLines } | null {
  const offsets = trustedOffsets(layoutPath, key, fingerprint, size);
  if (!offsets) return null;
  const fd = openSync(file, 'r');
  let kept = false;
  try {
    const head = readAt(fd, 0, offsets[0]!);
    const tail = readAt(fd, offsets[offsets.length - 1]!, size);
    const reader = new ChunkedJsonReader(key);
    // The head ends with the array's opening line and its newline: the lines before it, then that one.
    if (head[head.length - 1] !== 0x0a || !feedLines(reader, head.subarray(0, head.length - 1))) return null;
    const lines = new FileLines(fd, offsets);
    if (!reader.rawElements(lines) || !feedLines(reader, tail)) return null;
    const result = reader.result();
    if (!result) return null;
    kept = true;
    return { value: result.value as Record<string, unknown>, lines };
  } catch {
    return null;
  } finally {
    if (!kept) closeSync(fd);
  }
}
