/**
 * Parses a JSON document in the layout `serializeInChunks` writes, one line at a time:
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
 * brackets are checked as strictly as JSON does: `ok` is only true when the lines form one valid JSON
 * document, and then `value` equals `JSON.parse` of the whole text. Any other layout (hand-edited, one-line,
 * CRLF, damaged) gives `ok: false` and the caller parses the whole text instead.
 */
export function parseChunkedJson(content: Buffer): { ok: true; value: unknown } | { ok: false } {
  const NO = { ok: false } as const;
  const result: Record<string, unknown> = {};
  let array: unknown[] | null = null;
  /** Whether the previous member / element ended with a comma (so another one must follow). */
  let comma = false;
  /** Whether a member (or element) was already read in the object (or array) being read. */
  let any = false;
  let closed = false;
  let offset = 0;
  const nextLine = (): string | null => {
    if (offset >= content.length) return null;
    let end = content.indexOf(0x0a, offset);
    if (end < 0) end = content.length;
    const line = content.toString('utf8', offset, end);
    offset = end + 1;
    return line;
  };
  try {
    if (nextLine() !== '{') return NO;
    for (let line = nextLine(); line !== null; line = nextLine()) {
      if (closed) {
        // Only trailing whitespace (as JSON defines it) may follow the closing brace.
        if (!/^[ \t\r]*$/.test(line)) return NO;
        continue;
      }
      if (any && !comma && line !== ']' && line !== '],' && line !== '}') return NO;
      const hasComma = line.endsWith(',');
      const body = hasComma ? line.slice(0, -1) : line;
      if (array) {
        if (body === ']') {
          if (!any || comma) return NO;
          array = null;
          any = true;
          comma = hasComma;
          continue;
        }
        array.push(JSON.parse(body));
        any = true;
        comma = hasComma;
        continue;
      }
      if (line === '}') {
        if (comma) return NO;
        closed = true;
        continue;
      }
      if (body.endsWith(':[')) {
        const key: unknown = JSON.parse(body.slice(0, -2));
        if (typeof key !== 'string' || key === '__proto__' || hasComma) return NO;
        array = [];
        result[key] = array;
        any = false;
        comma = false;
        continue;
      }
      // `"key":value` is a one-member object once wrapped in braces.
      const member = JSON.parse(`{${body}}`) as Record<string, unknown>;
      const keys = Object.keys(member);
      // (`__proto__` would set the prototype here, where JSON.parse makes a plain property.)
      if (keys.length !== 1 || keys[0] === '__proto__') return NO;
      result[keys[0]] = member[keys[0]];
      any = true;
      comma = hasComma;
    }
  } catch {
    return NO;
  }
  return closed ? { ok: true, value: result } : NO;
}
