import { openSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileLines } from '../../src/main/store/fileLines';

// The events' lines read by position (issue 32): a line wanted out of order (a first page's events, scattered
// over a 134 MB file) must not read a megabyte after it, while the background reading in order reads large
// blocks. Bytes read are the process's own, from /proc (each test file runs in a process of its own).
const LINES = 4000;
let folder: string;
let file: string;
let offsets: Float64Array;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'file-lines-'));
  file = join(folder, 'calendar.json');
  const head = '{\n"events":[\n';
  const lines = Array.from({ length: LINES }, (_, id) => JSON.stringify({ id, text: 'x'.repeat(1000) }));
  offsets = new Float64Array(LINES + 1);
  let at = Buffer.byteLength(head);
  lines.forEach((line, index) => {
    offsets[index] = at;
    at += Buffer.byteLength(line) + (index + 1 < LINES ? 2 : 1);
  });
  offsets[LINES] = at;
  await writeFile(file, `${head}${lines.join(',\n')}\n]\n}\n`);
});
afterEach(() => rm(folder, { recursive: true, force: true }));

async function bytesReadBy(work: () => void): Promise<number> {
  const readBytes = async () => Number(/^rchar: (\d+)$/m.exec(await readFile('/proc/self/io', 'utf8'))![1]);
  const before = await readBytes();
  work();
  // The read of /proc/self/io itself counts too: measured once alone, it is taken off.
  const between = await readBytes();
  const after = await readBytes();
  return between - before - (after - between);
}

describe('FileLines', () => {
  it('reads a line wanted out of order with a small block, and in order with a large one', async () => {
    const lines = new FileLines(openSync(file, 'r'), offsets);
    let record: unknown;
    const scattered = await bytesReadBy(() => (record = lines.parse(2500)));
    expect(record).toMatchObject({ id: 2500 });
    expect(scattered).toBeLessThan(64 * 1024);
    const inOrder = await bytesReadBy(() => (record = lines.parse(0)));
    expect(record).toMatchObject({ id: 0 });
    // From the first unread line: a megabyte's worth of lines in one read.
    expect(inOrder).toBeGreaterThan(512 * 1024);
    const elements = lines.parseAll();
    expect(elements.map((element) => (element as { id: number }).id)).toEqual(
      Array.from({ length: LINES }, (_, id) => id),
    );
  });
});
