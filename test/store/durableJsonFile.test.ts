import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  removeAbandonedCopies,
  temporaryCopyOf,
  temporaryNameOf,
  writeFileDurably,
} from '../../src/main/store/durableJsonFile';
import { queueFileWrite } from '../../src/main/store/fileWriteQueue';
import { deadPid } from '../helpers/processes';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'durable-file-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

const copies = async () => (await readdir(folder)).filter((name) => temporaryCopyOf(name) !== null);

describe('durable writes of one file at the same time', () => {
  it('each go through their own temporary copy: all succeed, the file is one of them whole, no copy is left', async () => {
    const file = join(folder, 'feeds.json');
    const contents = Array.from(
      { length: 32 },
      (_, index) => `${JSON.stringify({ writer: index, padding: 'x'.repeat(index * 100) })}\n`,
    );
    const results = await Promise.allSettled(contents.map((content) => writeFileDurably(file, content)));
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    expect(contents).toContain(await readFile(file, 'utf8'));
    expect(await copies()).toEqual([]);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('through the file queue, land in the order they were queued', async () => {
    const file = join(folder, 'import-sources.json');
    const landed: number[] = [];
    await Promise.all(
      Array.from({ length: 16 }, (_, index) =>
        queueFileWrite(file, async () => {
          await writeFileDurably(file, String(index));
          landed.push(index);
        }),
      ),
    );
    expect(landed).toEqual(Array.from({ length: 16 }, (_, index) => index));
    expect(await readFile(file, 'utf8')).toBe('15');
  });

  it('a failed write does not stop the ones queued after it', async () => {
    const file = join(folder, 'server.json');
    const failed = queueFileWrite(file, () => Promise.reject(new Error('disk said no')));
    const next = queueFileWrite(file, () => writeFileDurably(file, 'after'));
    await expect(failed).rejects.toThrow('disk said no');
    await next;
    expect(await readFile(file, 'utf8')).toBe('after');
  });
});

describe('the sweep of temporary copies', () => {
  it('names every copy uniquely with the pid in it, and reads the names earlier versions wrote', () => {
    const names = new Set(Array.from({ length: 1000 }, () => temporaryNameOf('calendar.json')));
    expect(names.size).toBe(1000);
    for (const name of names)
      expect(temporaryCopyOf(name)).toEqual({ of: 'calendar.json', pid: process.pid });
    expect(temporaryCopyOf('.calendar.json.4242.tmp')).toEqual({ of: 'calendar.json', pid: 4242 });
    expect(temporaryCopyOf('.a.5-b.77.tmp')).toEqual({ of: 'a.5-b', pid: 77 });
    expect(temporaryCopyOf('calendar.json')).toBeNull();
  });

  it('removes abandoned copies (of gone processes, and this one’s it is not writing), never one being written', async () => {
    const gone = await deadPid();
    const abandoned = [
      `.feeds.json.${gone}-1-0a0b0c0d.tmp`,
      `.feeds.json.${gone}.tmp`,
      `.feeds.json.${process.pid}-zz-ffffffff.tmp`,
    ];
    for (const name of abandoned) await writeFile(join(folder, name), '{"half":');
    const running = `.feeds.json.${process.ppid}-1-12345678.tmp`;
    await writeFile(join(folder, running), '{"half":');

    // Writes of this process run while the sweep runs again and again: a copy being written is never removed
    // (its rename would fail), and every abandoned one is.
    const file = join(folder, 'feeds.json');
    let writing = true;
    const writes = Promise.all(
      Array.from({ length: 16 }, (_, index) =>
        Array.from({ length: 10 }).reduce<Promise<void>>(
          (previous) => previous.then(() => writeFileDurably(file, 'y'.repeat(20_000 + index))),
          Promise.resolve(),
        ),
      ),
    ).finally(() => (writing = false));
    let sweeps = 0;
    while (writing) {
      await removeAbandonedCopies(folder, (name) => name === 'feeds.json');
      sweeps += 1;
    }
    await writes;
    expect(sweeps).toBeGreaterThan(1);
    expect((await readFile(file, 'utf8')).length).toBeGreaterThanOrEqual(20_000);
    expect(await copies()).toEqual([running]);
  });
});
