/** A response body that is JSON already: dispatch sends these bytes as they are, without serializing. */
export class JsonBytes {
  constructor(readonly bytes: Buffer) {}
}

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
    this.at += bytes.copy(this.buffer, this.at, start, end);
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

  /** A copy of what was written. */
  finish(): JsonBytes {
    const answer = Buffer.allocUnsafe(this.at);
    this.buffer.copy(answer, 0, 0, this.at);
    this.at = 0;
    return new JsonBytes(answer);
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
