import { closeSync, readSync } from 'node:fs';
import type { Lines } from './rawLines';

/**
 * How much a read of lines not read yet takes at once: the lines from the wanted one up to about this. Reading
 * in the file's order (the store's background reading) takes large blocks; a line wanted out of order (a
 * page's events, scattered over the file) takes a small one, since the lines after it are rarely wanted next:
 * a megabyte per line of a first page read 50 MB before the first answer at 100,000 events.
 */
const BLOCK_BYTES = 1024 * 1024;
const SCATTERED_BLOCK_BYTES = 16 * 1024;

/**
 * The lines of the events array of a data file, read by position when first wanted instead of all before the
 * start answers (see lineLayout.ts): the file stays open until every line is read (a data file written since
 * is renamed over it, so the open file keeps the bytes it had). Each line is one element's JSON; the bytes
 * between lines (`,\n`) are checked as each block is read, so a file that is not as its layout says is found
 * out (a SyntaxError, as for a line that is not JSON: the file is not as written).
 */
export class FileLines implements Lines {
  private readonly blocks: Array<Buffer | undefined>;
  /** Index of the block holding each line, and the line's offset in it; -1 while not read. */
  private readonly blockOf: Int32Array;
  private unread: number;
  /** The first line not read yet (every line before it is): where reading in order goes on. */
  private firstUnread = 0;

  constructor(
    private fd: number | null,
    /** Byte offset of each line in the file, then the offset just after the last line. */
    private readonly offsets: Float64Array,
  ) {
    this.unread = offsets.length - 1;
    this.blockOf = new Int32Array(this.unread).fill(-1);
    this.blocks = [];
    if (this.unread === 0) this.close();
  }

  get length(): number {
    return this.offsets.length - 1;
  }

  /** The element on line `at`, parsed (a SyntaxError when the line is not JSON). */
  parse(at: number): unknown {
    if (this.blockOf[at]! < 0) this.readFrom(at);
    const block = this.blocks[this.blockOf[at]!]!;
    const from = this.offsets[at]! - this.offsets[this.firstOf(at)]!;
    const text = block.toString('utf8', from, from + this.bytesOf(at));
    return JSON.parse(text);
  }

  parseAll(): unknown[] {
    const elements = new Array<unknown>(this.length);
    for (let at = 0; at < elements.length; at++) elements[at] = this.parse(at);
    return elements;
  }

  /** Closes the file (once every line is read, or when the store closes first). */
  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  /** The first line of the block line `at` is in. */
  private readonly firsts: number[] = [];

  private firstOf(at: number): number {
    return this.firsts[this.blockOf[at]!]!;
  }

  /** Bytes of line `at` (without the `,\n` after it). */
  private bytesOf(at: number): number {
    return this.offsets[at + 1]! - this.offsets[at]! - (at + 1 < this.length ? 2 : 1);
  }

  /** Reads line `at` and the unread lines after it, up to BLOCK_BYTES, checking what lies between them. */
  private readFrom(at: number): void {
    if (this.fd === null) throw new Error('the data file was closed before its records were read');
    const blockBytes = at === this.firstUnread ? BLOCK_BYTES : SCATTERED_BLOCK_BYTES;
    let last = at;
    while (
      last + 1 < this.length &&
      this.blockOf[last + 1]! < 0 &&
      this.offsets[last + 2]! - this.offsets[at]! <= blockBytes
    )
      last++;
    const length = this.offsets[last + 1]! - this.offsets[at]!;
    const block = Buffer.allocUnsafe(length);
    let read = 0;
    while (read < length) {
      const bytes = readSync(this.fd, block, read, length - read, this.offsets[at]! + read);
      if (bytes === 0) throw new SyntaxError('the data file ends before its records do');
      read += bytes;
    }
    for (let line = at; line <= last; line++) {
      const end = this.offsets[line + 1]! - this.offsets[at]!;
      const separated =
        line + 1 < this.length ? block[end - 2] === 0x2c && block[end - 1] === 0x0a : block[end - 1] === 0x0a;
      const start = this.offsets[line]! - this.offsets[at]!;
      const object = block[start] === 0x7b && block[start + this.bytesOf(line) - 1] === 0x7d;
      if (!separated || !object)
        throw new SyntaxError(`line ${line + 1} of the events is not where its layout says`);
    }
    this.blocks.push(block);
    this.firsts.push(at);
    for (let line = at; line <= last; line++) this.blockOf[line] = this.blocks.length - 1;
    while (this.firstUnread < this.length && this.blockOf[this.firstUnread]! >= 0) this.firstUnread++;
    this.unread -= last - at + 1;
    if (this.unread === 0) this.close();
  }
}
