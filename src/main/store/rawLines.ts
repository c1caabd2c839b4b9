/** The unparsed lines of a data file's events (RawLines, or FileLines read by position when wanted). */
export interface Lines {
  readonly length: number;
  parse(at: number): unknown;
  parseAll(): unknown[];
  /** Lets go of the file the lines are read from, if any. */
  close?(): void;
}

const ID_PREFIX = Buffer.from('{"id":');

/**
 * The lines of one top-level array of a data file, kept as the bytes read from the disk instead of parsed:
 * a start reads the events' records when they are first used (see LazyEvents), not all 100,000 before the
 * first answer. Each line is one element's JSON (its trailing comma left out).
 */
export class RawLines implements Lines {
  private readonly buffers: Buffer[] = [];
  private readonly bufferOf: number[] = [];
  private readonly from: number[] = [];
  private readonly to: number[] = [];

  get length(): number {
    return this.from.length;
  }

  /** Keeps `buffer[from, to)` as the next line; `buffer` must never be written again. */
  add(buffer: Buffer, from: number, to: number): void {
    if (this.buffers[this.buffers.length - 1] !== buffer) this.buffers.push(buffer);
    this.bufferOf.push(this.buffers.length - 1);
    this.from.push(from);
    this.to.push(to);
  }

  /** The element on line `at`, parsed (a SyntaxError when the line is not JSON). */
  parse(at: number): unknown {
    return JSON.parse(this.buffers[this.bufferOf[at]!]!.toString('utf8', this.from[at], this.to[at]));
  }

  /**
   * The id a record's line starts with (`{"id":123,`, as the store writes every record), read from its bytes
   * without parsing the line; undefined when the line does not start so.
   */
  leadingId(at: number): number | undefined {
    const buffer = this.buffers[this.bufferOf[at]!]!;
    const to = this.to[at]!;
    let position = this.from[at]! + ID_PREFIX.length;
    if (position >= to || buffer.compare(ID_PREFIX, 0, ID_PREFIX.length, this.from[at], position) !== 0)
      return undefined;
    let id = 0;
    const first = position;
    for (; position < to && position - first < 16; position++) {
      const digit = buffer[position]! - 0x30;
      if (digit < 0 || digit > 9) break;
      id = id * 10 + digit;
    }
    // A whole number with no leading zero, followed by the next key.
    const digits = position - first;
    if (digits === 0 || (digits > 1 && buffer[first] === 0x30) || buffer[position] !== 0x2c) return undefined;
    return Number.isSafeInteger(id) ? id : undefined;
  }

  /** Every element, parsed. */
  parseAll(): unknown[] {
    const elements = new Array<unknown>(this.length);
    for (let at = 0; at < elements.length; at++) elements[at] = this.parse(at);
    return elements;
  }
}
