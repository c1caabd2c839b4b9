import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * A response body that is JSON already: dispatch sends these bytes as they are, without serializing. When
 * they live in a pooled buffer (`release` given), they may be read only until `release()` is called, once the
 * answer has been sent; whoever keeps them longer keeps a copy.
 */
export class JsonBytes {
  constructor(
    readonly bytes: Buffer,
    readonly release?: () => void,
  ) {}
}

/**
 * Buffers for list answers, used again once an answer is sent. A fresh 200 KB Buffer per answer is memory
 * outside V8's heap, and every 64 MB of that makes V8 mark its whole heap (a 250 MB heap at 100,000 events:
 * about a quarter of a distinct list's CPU); pooled, the answers allocate nothing.
 */
class AnswerPool {
  /** Free buffers by capacity (powers of two from 64 KB). */
  private readonly free = new Map<number, Buffer[]>();
  private static readonly MIN = 1 << 16;
  /** Larger answers are rare: they get a buffer of their own. */
  private static readonly MAX = 1 << 23;
  /** Free buffers kept per capacity: about the answers in flight at once. */
  private static readonly KEEP = 32;

  take(length: number): { bytes: Buffer; release?: () => void } {
    if (length > AnswerPool.MAX) return { bytes: Buffer.allocUnsafe(length) };
    let capacity = AnswerPool.MIN;
    while (capacity < length) capacity *= 2;
    const base = this.free.get(capacity)?.pop() ?? Buffer.allocUnsafe(capacity);
    let released = false;
    return {
      bytes: base.subarray(0, length),
      release: () => {
        if (released) return;
        released = true;
        let free = this.free.get(capacity);
        if (!free) this.free.set(capacity, (free = []));
        if (free.length < AnswerPool.KEEP) free.push(base);
      },
    };
  }
}

const answers = new AnswerPool();

/**
 * Builds a JSON answer from kept bytes and text made for it, in one scratch buffer reused by every answer (an
 * answer is written in one synchronous go), then copied out once at its exact length.
 */
export class JsonWriter {
  private static scratch = Buffer.allocUnsafe(1 << 19);
  private buffer = JsonWriter.scratch;
  private at = 0;

  private room(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + bytes));
    this.buffer.copy(grown, 0, 0, this.at);
    this.buffer = grown;
    // Kept for the next answers only while modest: one huge page does not pin its size for ever.
    if (grown.length <= 1 << 23) JsonWriter.scratch = grown;
  }

  /** Appends `bytes` (from `start` to `end`). */
  bytes(bytes: Buffer, start = 0, end = bytes.length): void {
    this.room(end - start);
    // TypedArray#set: Buffer#copy's checks and view cost more than copying a part of a few hundred bytes.
    this.buffer.set(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end), this.at);
    this.at += end - start;
  }

  /** Appends `text` as UTF-8. */
  text(text: string): void {
    this.room(text.length * 3);
    this.at += this.buffer.write(text, this.at);
  }

  /** Forgets what was written (a warm-up writes and throws away). */
  reset(): void {
    this.at = 0;
  }

  /** A copy of what was written, in a pooled buffer (see JsonBytes). */
  finish(): JsonBytes {
    const answer = answers.take(this.at);
    this.buffer.copy(answer.bytes, 0, 0, this.at);
    this.at = 0;
    return new JsonBytes(answer.bytes, answer.release);
  }
}

/**
 * `body` serialized, with the array under `key` (which must be its first key) written by `writeItems`:
 * `{"key":[` + items + `],…the other keys}`.
 */
export function jsonWithArray(
  body: Record<string, unknown>,
  key: string,
  writeItems: (writer: JsonWriter) => void,
): JsonBytes {
  const rest = JSON.stringify({ ...body, [key]: [] });
  const open = `{${JSON.stringify(key)}:[`;
  if (!rest.startsWith(`${open}]`)) throw new Error(`jsonWithArray: "${key}" is not the first key`);
  const writer = new JsonWriter();
  writer.text(open);
  writeItems(writer);
  writer.text(rest.slice(open.length));
  return writer.finish();
}

/** Items of a long array serialized per turn of the event loop (see jsonBytesInSlices). */
const ITEMS_PER_SLICE = 2_000;

/**
 * `value` as JSON bytes (as `JSON.stringify` gives them), its long arrays at any depth serialized some
 * thousands of items per turn of the event loop: the answer of a 28,000-row import (some megabytes) held the
 * server ~40 ms in one piece (issue 26).
 */
export async function jsonBytesInSlices(value: unknown): Promise<JsonBytes> {
  const parts: string[] = [];
  let sinceYield = 0;
  const write = async (item: unknown): Promise<void> => {
    if (Array.isArray(item) && item.length > ITEMS_PER_SLICE) {
      parts.push('[');
      for (const [index, one] of item.entries()) {
        if (index > 0) parts.push(',');
        await write(one === undefined || typeof one === 'function' ? null : one);
      }
      parts.push(']');
      return;
    }
    if (item !== null && typeof item === 'object' && !Array.isArray(item) && !('toJSON' in item)) {
      const entries = Object.entries(item).filter(
        ([, one]) => one !== undefined && typeof one !== 'function',
      );
      if (entries.some(([, one]) => Array.isArray(one) && one.length > ITEMS_PER_SLICE)) {
        parts.push('{');
        for (const [index, [key, one]] of entries.entries()) {
          parts.push(`${index > 0 ? ',' : ''}${JSON.stringify(key)}:`);
          await write(one);
        }
        parts.push('}');
        return;
      }
    }
    parts.push(JSON.stringify(item));
    if (++sinceYield >= ITEMS_PER_SLICE) {
      sinceYield = 0;
      await nextTurn();
    }
  };
  await write(value);
  return new JsonBytes(Buffer.from(parts.join(''), 'utf8'));
}
