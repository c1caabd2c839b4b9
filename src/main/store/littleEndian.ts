import { endianness } from 'node:os';

/**
 * `bytes` as the 32-bit little-endian numbers they hold (the store's files keep ids and line lengths so).
 * One copy into a typed array, not `readUInt32LE` per number: at a start this code is still cold, and
 * 100,000 calls took ~40 ms on a slow machine.
 */
export function littleEndianUint32s(bytes: Buffer): Uint32Array {
  const numbers = new Uint32Array(bytes.length >>> 2);
  if (endianness() === 'LE') new Uint8Array(numbers.buffer).set(bytes.subarray(0, 4 * numbers.length));
  else for (let at = 0; at < numbers.length; at++) numbers[at] = bytes.readUInt32LE(4 * at);
  return numbers;
}

/** `bytes` as the 64-bit little-endian floating-point numbers they hold. */
export function littleEndianFloat64s(bytes: Buffer): Float64Array {
  const numbers = new Float64Array(bytes.length >>> 3);
  if (endianness() === 'LE') new Uint8Array(numbers.buffer).set(bytes.subarray(0, 8 * numbers.length));
  else for (let at = 0; at < numbers.length; at++) numbers[at] = bytes.readDoubleLE(8 * at);
  return numbers;
}

/** The bytes of `numbers` in little-endian order (a view where the machine is little-endian, else a copy). */
export function littleEndianBytes(numbers: Uint8Array | Uint32Array | Float64Array): Buffer {
  const view = Buffer.from(numbers.buffer, numbers.byteOffset, numbers.byteLength);
  if (endianness() === 'LE' || numbers instanceof Uint8Array) return view;
  const bytes = Buffer.alloc(numbers.byteLength);
  for (let at = 0; at < numbers.length; at++) {
    if (numbers instanceof Float64Array) bytes.writeDoubleLE(numbers[at]!, 8 * at);
    else bytes.writeUInt32LE(numbers[at]!, 4 * at);
  }
  return bytes;
}
