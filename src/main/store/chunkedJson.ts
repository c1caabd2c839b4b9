import { open } from 'node:fs/promises';
import { RawLines } from './rawLines';

/**
 * Reads a JSON document in the layout `serializeInChunks` writes, one line at a time:
 *
 *     {
 *     "key":<value on one line>,
 *     "key":[
 *     <record>,
 *     <record>
 *     ],
 *     "key":[]
 *     }
 *
 * Each line is a small string parsed on its own, so a big calendar is never one giant string. Commas and
 * brackets are checked as strictly as JSON does: a result is only given when the lines form one valid JSON
 * document, and then it equals `JSON.parse` of the whole text. Any other layout (hand-edited, one-line, CRLF,
 * damaged) is refused, and the caller parses the whole text instead.
 *
 * The elements of the top-level arrays named in `rawParts` (when their lines are objects) are not parsed: each
 * such member is a RawLines of their bytes, for the caller to parse when it needs them. Another member named
 * there (one line, not an array) is not parsed either: it is a DeferredValue of its text.
 */
export class ChunkedJsonReader {
  private readonly document: Record<string, unknown> = {};
  private array: unknown[] | null = null;
  /** The array of one of `rawParts` while its lines are being read, and its name. */
  private raw: RawLines | null = null;
  private rawName = '';
  /** Whether the previous member / element ended with a comma (so another one must follow). */
  private comma = false;
  /** Whether a member (or element) was already read in the object (or array) being read. */
  private any = false;
  private opened = false;
  private closed = false;
  private refused = false;

  /** The start of the line of the member `skipped` (`"name":`), as bytes. */
  private readonly skippedPrefix: Buffer | null;

  /**
   * `skipped`: a top-level member whose value is not parsed (nor decoded): it is left out of the document,
   * for the caller has it in another form (the events' keys, kept in the layout file as numbers).
   */
  constructor(
    private readonly rawParts: readonly string[] = [],
    skipped?: string,
  ) {
    this.skippedPrefix = skipped === undefined ? null : Buffer.from(`${JSON.stringify(skipped)}:`);
  }

  /** Takes the next line as bytes, `buffer[from, to)` (kept, not copied, when it is a raw element). */
  bytes(buffer: Buffer, from: number, to: number): boolean {
    const prefix = this.skippedPrefix;
    if (prefix && !this.raw && !this.array && to - from > prefix.length + 1) {
      if (buffer.compare(prefix, 0, prefix.length, from, from + prefix.length) === 0)
        return this.skip(buffer[to - 1] === 0x2c);
    }
    if (this.raw && !this.refused) {
      const hasComma = buffer[to - 1] === 0x2c;
      const end = hasComma ? to - 1 : to;
      // An object on one line ('{' … '}'); anything else (the closing ']', a damaged line) is read as text.
      if (end - from >= 2 && buffer[from] === 0x7b && buffer[end - 1] === 0x7d) {
        if (this.any && !this.comma) return this.line('');
        this.raw.add(buffer, from, end);
        this.any = true;
        this.comma = hasComma;
        return true;
      }
    }
    return this.line(buffer.toString('utf8', from, to));
  }

  /** Takes the next line (without its newline); false once the text is not in this layout. */
  line(line: string): boolean {
    if (this.refused) return false;
    try {
      if (this.take(line)) return true;
    } catch {
      // A line that is not JSON: not this layout (or not JSON at all).
    }
    this.refused = true;
    return false;
  }

  /**
   * The elements of the raw array just opened are `lines`, read elsewhere (see lineLayout.ts): the next line
   * must close the array. False when no raw array was just opened or `lines` is empty.
   */
  rawElements(lines: { readonly length: number }): boolean {
    if (this.refused || !this.raw || this.any || lines.length === 0) return false;
    this.document[this.rawName] = lines;
    this.any = true;
    this.comma = false;
    return true;
  }

  /** The document, or undefined when the lines did not form one. */
  result(): { value: unknown } | undefined {
    return this.closed && !this.refused ? { value: this.document } : undefined;
  }

  /**
   * The skipped member's line, known to be there without being read (see lineLayout.ts): `start` is its first
   * bytes, which must name that member; `hasComma` whether another member follows.
   */
  skippedLine(start: Buffer, hasComma: boolean): boolean {
    const prefix = this.skippedPrefix;
    if (!prefix || this.raw || this.array || start.length <= prefix.length) return false;
    if (start.compare(prefix, 0, prefix.length, 0, prefix.length) !== 0) return false;
    return this.skip(hasComma);
  }

  /** The skipped member's line, in the place of a member (its comma, if any, at its end). */
  private skip(hasComma: boolean): boolean {
    if (this.refused || !this.opened || this.closed || (this.any && !this.comma)) {
      this.refused = true;
      return false;
    }
    this.any = true;
    this.comma = hasComma;
    return true;
  }

  /**
   * `"key":value` of a member named in `rawParts` (its key a plain name) whose value is not an array (those
   * are RawLines, or parsed when on one line), as a DeferredValue.
   */
  private deferredMember(body: string): { key: string; value: DeferredValue } | null {
    const match = /^"([A-Za-z][A-Za-z0-9]*)":(?!\[)./.exec(body);
    if (!match || !this.rawParts.includes(match[1]!)) return null;
    const valueFrom = match[0].length - 1;
    return { key: match[1]!, value: new DeferredValue(body.slice(valueFrom)) };
  }

  private take(line: string): boolean {
    if (!this.opened) return (this.opened = line === '{');
    // Only trailing whitespace (as JSON defines it) may follow the closing brace.
    if (this.closed) return /^[ \t\r]*$/.test(line);
    if (this.any && !this.comma && line !== ']' && line !== '],' && line !== '}') return false;
    const hasComma = line.endsWith(',');
    const body = hasComma ? line.slice(0, -1) : line;
    if (this.raw) {
      if (body !== ']' || !this.any || this.comma) return false;
      this.raw = null;
      this.any = true;
      this.comma = hasComma;
      return true;
    }
    if (this.array) {
      if (body === ']') {
        if (!this.any || this.comma) return false;
        this.array = null;
      } else this.array.push(JSON.parse(body));
      this.any = true;
      this.comma = hasComma;
      return true;
    }
    if (line === '}') {
      this.closed = true;
      return !this.comma;
    }
    if (body.endsWith(':[')) {
      const key: unknown = JSON.parse(body.slice(0, -2));
      if (typeof key !== 'string' || key === '__proto__' || hasComma) return false;
      if (this.rawParts.includes(key)) {
        this.document[key] = this.raw = new RawLines();
        this.rawName = key;
        this.any = false;
        this.comma = false;
        return true;
      }
      this.document[key] = this.array = [];
      this.any = false;
      this.comma = false;
      return true;
    }
    const deferred = this.deferredMember(body);
    if (deferred) {
      this.document[deferred.key] = deferred.value;
      this.any = true;
      this.comma = hasComma;
      return true;
    }
    // `"key":value` is a one-member object once wrapped in braces.
    const member = JSON.parse(`{${body}}`) as Record<string, unknown>;
    const keys = Object.keys(member);
    // (`__proto__` would set the prototype here, where JSON.parse makes a plain property.)
    if (keys.length !== 1 || keys[0] === '__proto__') return false;
    this.document[keys[0]!] = member[keys[0]!];
    this.any = true;
    this.comma = hasComma;
    return true;
  }
}

/**
 * A member's value kept as its text (see ChunkedJsonReader's `rawParts`), parsed when the caller needs it: a
 * SyntaxError then when it is not one JSON value.
 */
export class DeferredValue {
  constructor(private readonly text: string) {}

  parse(): unknown {
    return JSON.parse(this.text);
  }
}

/** Feeds the lines of `buffer` to `reader`; false when it refuses one. */
export function feedLines(reader: ChunkedJsonReader, buffer: Buffer): boolean {
  let offset = 0;
  while (offset < buffer.length) {
    let end = buffer.indexOf(0x0a, offset);
    if (end < 0) end = buffer.length;
    if (!reader.bytes(buffer, offset, end)) return false;
    offset = end + 1;
  }
  return true;
}

/** `content` read by a ChunkedJsonReader: the document, or undefined when it is not in that layout. */
export function parseChunkedJson(
  content: Buffer,
  rawParts?: readonly string[],
): { value: unknown } | undefined {
  const reader = new ChunkedJsonReader(rawParts);
  return feedLines(reader, content) ? reader.result() : undefined;
}

const READ_CHUNK = 4 * 1024 * 1024;

/**
 * Reads `filename` through a ChunkedJsonReader a few megabytes at a time, so that neither the file's bytes nor
 * its text are ever held whole (except the raw lines of `rawParts`, kept as read); undefined when it is not in
 * that layout.
 */
export async function readChunkedJsonFile(
  filename: string,
  rawParts: readonly string[] = [],
): Promise<{ value: unknown } | undefined> {
  const handle = await open(filename, 'r');
  // Two pieces in turn: the next is read from the disk while this one is parsed. Raw lines keep the pieces
  // they are in, so then every piece is a new one.
  const chunks = [Buffer.allocUnsafe(READ_CHUNK), Buffer.allocUnsafe(READ_CHUNK)];
  const next = (turn: number) =>
    rawParts.length > 0 ? (chunks[turn] = Buffer.allocUnsafe(READ_CHUNK)) : chunks[turn];
  let position = 0;
  let reading = handle.read(chunks[0]!, 0, READ_CHUNK, position);
  try {
    const reader = new ChunkedJsonReader(rawParts);
    let rest: Buffer = Buffer.alloc(0);
    for (let turn = 0; ; turn ^= 1) {
      const { bytesRead } = await reading;
      if (bytesRead === 0) break;
      position += bytesRead;
      reading = handle.read(next(turn ^ 1)!, 0, READ_CHUNK, position);
      const data = chunks[turn]!.subarray(0, bytesRead);
      let offset = 0;
      let end = data.indexOf(0x0a);
      if (end >= 0 && rest.length > 0) {
        // The line the previous piece ended in.
        const line = Buffer.concat([rest, data.subarray(0, end)]);
        if (!reader.bytes(line, 0, line.length)) return undefined;
        offset = end + 1;
        end = data.indexOf(0x0a, offset);
        rest = Buffer.alloc(0);
      }
      for (; end >= 0; end = data.indexOf(0x0a, offset)) {
        if (!reader.bytes(data, offset, end)) return undefined;
        offset = end + 1;
      }
      // The unfinished last line waits for the next piece (copied: the buffer is read into again).
      rest = Buffer.concat([rest, data.subarray(offset)]);
    }
    if (rest.length > 0 && !reader.bytes(rest, 0, rest.length)) return undefined;
    return reader.result();
  } finally {
    // A read may still be under way (the text was refused early, or a read failed): done before closing.
    await reading.catch(() => undefined);
    await handle.close();
  }
}
