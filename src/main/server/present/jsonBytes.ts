/** A response body that is JSON already: dispatch sends these bytes as they are, without serializing. */
export class JsonBytes {
  constructor(readonly bytes: Buffer) {}
}

/** A piece of ready JSON: kept bytes, or text made for this answer (written straight into it). */
export type JsonPart = Buffer | string;

/**
 * `body` serialized, with the array under `key` (which must be its first key) given as ready JSON parts:
 * `{"key":[` + parts + `],…the other keys}`. The parts are copied once into the answer.
 */
export function jsonWithArray(body: Record<string, unknown>, key: string, parts: JsonPart[]): JsonBytes {
  const rest = JSON.stringify({ ...body, [key]: [] });
  const open = `{${JSON.stringify(key)}:[`;
  if (!rest.startsWith(`${open}]`)) throw new Error(`jsonWithArray: "${key}" is not the first key`);
  const close = rest.slice(open.length);
  let length = Buffer.byteLength(open) + Buffer.byteLength(close);
  for (const part of parts) length += typeof part === 'string' ? Buffer.byteLength(part) : part.length;
  const answer = Buffer.allocUnsafe(length);
  let at = answer.write(open);
  for (const part of parts) at += typeof part === 'string' ? answer.write(part, at) : part.copy(answer, at);
  answer.write(close, at);
  return new JsonBytes(answer);
}
