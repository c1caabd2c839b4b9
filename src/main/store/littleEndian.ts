import { endianness } from 'node:os';

/** A typed array of numbers wider than a byte, and how to make one. */
interface NumberArrayType<T extends Uint32Array | Float64Array> {
  new (length: number): T;
  new (buffer: ArrayBufferLike, byteOffset: number, length: number): T;
  readonly BYTES_PER_ELEMENT: number;
}

/**
 * `bytes` as the little-endian numbers of `Type` they hold: a view of them where they are aligned, else one
 * copy; not a read call per number (at a start this code is still cold: 100,000 calls took ~40 ms on a slow
 * machine, and a copy into fresh memory costs page faults there). A view shares the bytes: they must not change.
 */
function littleEndianNumbers<T extends Uint32Array | Float64Array>(
  bytes: Buffer,
  Type: NumberArrayType<T>,
  readOne: (offset: number) => number,
): T {
  const size = Type.BYTES_PER_ELEMENT;
  const count = Math.floor(bytes.length / size);
  const littleEndian = endianness() === 'LE';
  if (littleEndian && bytes.byteOffset % size === 0) return new Type(bytes.buffer, bytes.byteOffset, count);
  const numbers = new Type(count);
  if (littleEndian) new Uint8Array(numbers.buffer).set(bytes.subarray(0, size * count));
  else for (let at = 0; at < count; at++) numbers[at] = readOne(size * at);
  return numbers;
}

/** `bytes` as the 32-bit little-endian numbers they hold (the store's files keep ids and line lengths so). */
export const littleEndianUint32s = (bytes: Buffer): Uint32Array =>
  littleEndianNumbers(bytes, Uint32Array, (offset) => bytes.readUInt32LE(offset));

/** `bytes` as the 64-bit little-endian floating-point numbers they hold. */
export const littleEndianFloat64s = (bytes: Buffer): Float64Array =>
  littleEndianNumbers(bytes, Float64Array, (offset) => bytes.readDoubleLE(offset));

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
