/** A response body that is JSON already: dispatch sends these bytes as they are, without serializing. */
export class JsonBytes {
  constructor(readonly bytes: Buffer) {}
}

/**
 * `body` serialized, with the array under `key` (which must be its first key) given as ready JSON parts:
 * `{"key":[` + parts + `],…the other keys}`. The parts are copied once into the answer.
 */
export function jsonWithArray(body: Record<string, unknown>, key: string, parts: Buffer[]): JsonBytes {
  const rest = JSON.stringify({ ...body, [key]: [] });
  const open = `{${JSON.stringify(key)}:[`;
  if (!rest.startsWith(`${open}]`)) throw new Error(`jsonWithArray: "${key}" is not the first key`);
  return new JsonBytes(
    Buffer.concat([Buffer.from(open, 'utf8'), ...parts, Buffer.from(rest.slice(open.length), 'utf8')]),
  );
}
