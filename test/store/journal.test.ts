import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Journal, journalEntry } from '../../src/main/store/journal';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'journal-'));
  path = join(dir, 'journal.log');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('Journal', () => {
  it('writes an entry whose ops were encoded as they came byte for byte as the same entry encoded whole', async () => {
    const ops = [
      { t: 'put', v: { id: 1, title: 'Caf\u00e9 "night"', tags: [1, 2] } },
      { t: 'counters', v: { post: 2 } },
    ];
    const { journal } = await Journal.open<unknown>(path);
    await journal.append([{ seq: 1, ops }]);
    await journal.append([journalEntry(2, ops, `[${ops.map((op) => JSON.stringify(op)).join(',')}]`)]);
    await journal.close();
    const [first, second] = (await readFile(path, 'utf8')).split('\n');
    expect(second.replace('"seq":2', '"seq":1').slice(9)).toBe(first.slice(9));
    expect((await Journal.open<unknown>(path)).entries).toEqual([
      { seq: 1, ops },
      { seq: 2, ops },
    ]);
  });

  it('reads back every appended batch in order after reopening', async () => {
    const { journal } = await Journal.open<string>(path);
    await journal.append([{ seq: 1, ops: ['a'] }]);
    await journal.append([
      { seq: 2, ops: ['b', 'c'] },
      { seq: 3, ops: ['d'] },
    ]);
    await journal.close();
    const reopened = await Journal.open<string>(path);
    expect(reopened.entries).toEqual([
      { seq: 1, ops: ['a'] },
      { seq: 2, ops: ['b', 'c'] },
      { seq: 3, ops: ['d'] },
    ]);
    expect(reopened.tornBytes).toBe(0);
    await reopened.journal.close();
  });

  it('ignores and cuts off a torn final line, keeping what came before', async () => {
    const { journal } = await Journal.open<string>(path);
    await journal.append([{ seq: 1, ops: ['kept'] }]);
    await journal.close();
    const intact = (await readFile(path)).length;
    await appendFile(path, '1234abcd {"seq":2,"ops":["half wri');
    const reopened = await Journal.open<string>(path);
    expect(reopened.entries).toEqual([{ seq: 1, ops: ['kept'] }]);
    expect(reopened.tornBytes).toBeGreaterThan(0);
    expect((await readFile(path)).length).toBe(intact);
    // New batches go after the intact part, not after the garbage.
    await reopened.journal.append([{ seq: 2, ops: ['next'] }]);
    await reopened.journal.close();
    expect((await Journal.open<string>(path)).entries.map((entry) => entry.seq)).toEqual([1, 2]);
  });

  it('skips a damaged line in the middle but keeps the intact batches after it', async () => {
    const { journal } = await Journal.open<string>(path);
    await journal.append([{ seq: 1, ops: ['x'] }]);
    await journal.append([{ seq: 2, ops: ['y'] }]);
    await journal.append([{ seq: 3, ops: ['z'] }]);
    await journal.close();
    const before = await readFile(path, 'utf8');
    await writeFile(path, before.replace('"y"', '"Y"'));
    const reopened = await Journal.open<string>(path);
    expect(reopened.entries).toEqual([
      { seq: 1, ops: ['x'] },
      { seq: 3, ops: ['z'] },
    ]);
    expect(reopened.damage).toEqual({ lines: 1, bytes: before.split('\n')[1].length + 1 });
    expect(reopened.tornBytes).toBe(0);
    // Nothing was cut off: the batch after the damage is still on disk, and new ones follow it.
    await reopened.journal.append([{ seq: 4, ops: ['w'] }]);
    await reopened.journal.close();
    expect((await Journal.open<string>(path)).entries.map((entry) => entry.seq)).toEqual([1, 3, 4]);
  });

  it('treats a bad last line as a torn tail (a crash mid-write), never replaying it', async () => {
    const { journal } = await Journal.open<string>(path);
    await journal.append([
      { seq: 1, ops: ['x'] },
      { seq: 2, ops: ['y'] },
    ]);
    await journal.close();
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.replace('"y"', '"z"'));
    const reopened = await Journal.open<string>(path);
    expect(reopened.entries).toEqual([{ seq: 1, ops: ['x'] }]);
    expect(reopened.damage).toBeNull();
    expect(reopened.tornBytes).toBeGreaterThan(0);
    await reopened.journal.close();
  });
});
