import { open } from 'node:fs/promises';

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
 */
export class ChunkedJsonReader {
  private readonly document: Record<string, unknown> = {};
  private array: unknown[] | null = null;
  /** Whether the previous member / element ended with a comma (so another one must follow). */
  private comma = false;
  /** Whether a member (or element) was already read in the object (or array) being read. */
  private any = false;
  private opened = false;
  private closed = false;
  private refused = false;

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

  /** The document, or undefined when the lines did not form one. */
  result(): { value: unknown } | undefined {
    return this.closed && !this.refused ? { value: this.document } : undefined;
  }

  private take(line: string): boolean {
    if (!this.opened) return (this.opened = line === '{');
    // Only trailing whitespace (as JSON defines it) may follow the closing brace.
    if (this.closed) return /^[ \t\r]*$/.test(line);
    if (this.any && !this.comma && line !== ']' && line !== '],' && line !== '}') return false;
    const hasComma = line.endsWith(',');
    const body = hasComma ? line.slice(0, -1) : line;
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
      this.document[key] = this.array = [];
      this.any = false;
      this.comma = false;
      return true;
    }
    // `"key":value` is a one-member object once wrapped in braces.
    const member = JSON.parse(`{${body}}`) as Record<string, unknown>;
    const keys = Object.keys(member);
    // (`__proto__` would set the prototype here, where JSON.parse makes a plain property.)
    if (keys.length !== 1 || keys[0] === '__proto__') return false;
    this.document[keys[0]] = member[keys[0]];
    this.any = true;
    this.comma = hasComma;
    return true;
  }
}

/** `content` read by a ChunkedJsonReader: the document, or undefined when it is not in that layout. */
export function parseChunkedJson(content: Buffer): { value: unknown } | undefined {
  const reader = new ChunkedJsonReader();
  let offset = 0;
  while (offset < content.length) {
    let end = content.indexOf(0x0a, offset);
    if (end < 0) end = content.length;
    if (!reader.line(content.toString('utf8', offset, end))) return undefined;
    offset = end + 1;
  }
  return reader.result();
}

const READ_CHUNK = 4 * 1024 * 1024;

/**
 * Reads `filename` through a ChunkedJsonReader a few megabytes at a time, so that neither the file's bytes nor
 * its text are ever held whole; undefined when it is not in that layout.
 */
export async function readChunkedJsonFile(filename: string): Promise<{ value: unknown } | undefined> {
  const handle = await open(filename, 'r');
  // Two pieces in turn: the next is read from the disk while this one is parsed.
  const chunks = [Buffer.allocUnsafe(READ_CHUNK), Buffer.allocUnsafe(READ_CHUNK)];
  let position = 0;
  let reading = handle.read(chunks[0], 0, READ_CHUNK, position);
  try {
    const reader = new ChunkedJsonReader();
    let rest: Buffer = Buffer.alloc(0);
    for (let turn = 0; ; turn ^= 1) {
      const { bytesRead } = await reading;
      if (bytesRead === 0) break;
      position += bytesRead;
      reading = handle.read(chunks[turn ^ 1], 0, READ_CHUNK, position);
      const data = chunks[turn].subarray(0, bytesRead);
      let offset = 0;
      let end = data.indexOf(0x0a);
      if (end >= 0 && rest.length > 0) {
        // The line the previous piece ended in.
        if (!reader.line(Buffer.concat([rest, data.subarray(0, end)]).toString('utf8'))) return undefined;
        offset = end + 1;
        end = data.indexOf(0x0a, offset);
        rest = Buffer.alloc(0);
      }
      for (; end >= 0; end = data.indexOf(0x0a, offset)) {
        if (!reader.line(data.toString('utf8', offset, end))) return undefined;
        offset = end + 1;
      }
      // The unfinished last line waits for the next piece (copied: the buffer is read into again).
      rest = Buffer.concat([rest, data.subarray(offset)]);
    }
    if (rest.length > 0 && !reader.line(rest.toString('utf8'))) return undefined;
    return reader.result();
  } finally {
    // A read may still be under way (the text was refused early, or a read failed): done before closing.
    await reading.catch(() => undefined);
    await handle.close();
  }
}
