import { mkdir, mkdtemp, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Adapter } from 'lowdb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestServer, eventBody, type TestServer } from '../helpers/server';
import { CalendarStore, DATA_FILE_NAME } from '../../src/main/store/store';
import { DurableJsonFile } from '../../src/main/store/durableJsonFile';
import type { DataFile } from '../../src/main/store/schema';

/** The real durable file, with a switch that makes writes fail and a gate that holds them. */
class FlakyFile implements Adapter<DataFile> {
  private readonly file: DurableJsonFile<DataFile>;
  failing = false;
  writes = 0;
  private gate: Promise<void> | null = null;
  private openGate: (() => void) | null = null;

  constructor(filename: string) {
    this.file = new DurableJsonFile<DataFile>(filename);
  }

  read() {
    return this.file.read();
  }

  async write(data: DataFile) {
    this.writes++;
    if (this.gate) await this.gate;
    if (this.failing) throw new Error('ENOSPC: no space left on device (simulated)');
    await this.file.write(data);
  }

  hold() {
    this.gate = new Promise((resolve) => (this.openGate = resolve));
  }

  release() {
    this.gate = null;
    this.openGate?.();
  }
}

let dataDir: string;
let server: TestServer | undefined;
const dataFile = () => join(dataDir, DATA_FILE_NAME);

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'calendar-desk-fail-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

const expectUnavailable = (result: { status: number; body: { code?: string } }) => {
  expect(result.status).toBe(503);
  expect(result.body.code).toBe('rest_storage_unavailable');
};

/** Runs `check` while the adapter holds writes, releasing them if it fails (else the server never closes). */
async function whileHeld(adapter: FlakyFile, check: () => Promise<unknown>) {
  try {
    await check();
  } catch (error) {
    adapter.release();
    throw error;
  }
}

describe('a failing write', () => {
  it('answers 503 and leaves the previous state intact in memory and on disk', async () => {
    const adapter = new FlakyFile(join(dataDir, DATA_FILE_NAME));
    server = await startTestServer({ dataDir, storeAdapter: adapter });
    const { api, admin } = server;
    const kept = await api('events', {
      method: 'POST',
      auth: admin,
      json: eventBody('Kept', 2, { categories: ['Kept category'] }),
    });
    expect(kept.status).toBe(201);
    const listBefore = await api('events');
    const categoriesBefore = await api('categories?hide_empty=false');
    const single = await api(`events/${kept.body.id}`);
    const bytesBefore = await readFile(dataFile(), 'utf8');

    adapter.failing = true;
    expectUnavailable(
      await api('events', {
        method: 'POST',
        auth: admin,
        json: eventBody('Lost', 2, { categories: ['Lost category'], venue: { venue: 'Lost venue' } }),
      }),
    );
    expectUnavailable(
      await api(`events/${kept.body.id}`, { method: 'PATCH', auth: admin, json: { title: 'Renamed' } }),
    );
    expectUnavailable(await api(`events/${kept.body.id}`, { method: 'DELETE', auth: admin }));
    expectUnavailable(await api('tags', { method: 'POST', auth: admin, json: { name: 'lost tag' } }));

    // Memory: reads answer exactly as before the failures.
    expect((await api('events')).body).toEqual(listBefore.body);
    expect((await api(`events/${kept.body.id}`)).body).toEqual(single.body);
    expect((await api('categories?hide_empty=false')).body).toEqual(categoriesBefore.body);
    expect((await api('venues')).body.venues ?? []).toEqual([]);
    // Disk: untouched, no temporary file left behind.
    expect(await readFile(dataFile(), 'utf8')).toBe(bytesBefore);
    expect((await readdir(dataDir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);

    // Once the disk recovers, writes work again and the failed ones stay undone.
    adapter.failing = false;
    const after = await api('events', { method: 'POST', auth: admin, json: eventBody('After', 3) });
    expect(after.status).toBe(201);
    const disk = JSON.parse(await readFile(dataFile(), 'utf8')) as DataFile;
    expect(disk.events.map((event) => event.title).sort()).toEqual(['After', 'Kept']);
    expect(disk.terms.map((term) => term.name)).toEqual(['Kept category']);
    expect(disk.venues).toEqual([]);
  });

  it('fails every change that was waiting for the failed write, not only the first', async () => {
    const adapter = new FlakyFile(join(dataDir, DATA_FILE_NAME));
    server = await startTestServer({ dataDir, storeAdapter: adapter });
    const { api, admin, engine } = server;
    const before = await api('events?per_page=50');
    const bytesBefore = await readFile(dataFile(), 'utf8');

    adapter.hold();
    adapter.failing = true;
    const writesBefore = adapter.writes;
    const pending = Array.from({ length: 5 }, (_, n) =>
      api('events', { method: 'POST', auth: admin, json: eventBody(`Batch ${n}`, 2) }),
    );
    // All five changes are applied in memory: one write is in progress, the others wait to be grouped.
    await vi.waitFor(() => {
      expect(engine.store.events.size).toBe(5);
      expect(adapter.writes).toBe(writesBefore + 1);
    });
    // Readers could see these unwritten events meanwhile, so their ids must never name anything else.
    const glimpsed = [...engine.store.events.values()].map((event) => event.id);
    adapter.release();
    for (const result of await Promise.all(pending)) expectUnavailable(result);

    expect(engine.store.events.size).toBe(0);
    expect((await api('events?per_page=50')).body).toEqual(before.body);
    expect(await readFile(dataFile(), 'utf8')).toBe(bytesBefore);

    adapter.failing = false;
    const after = await api('events', { method: 'POST', auth: admin, json: eventBody('After', 2) });
    expect(after.status).toBe(201);
    expect(after.body.id).toBeGreaterThan(Math.max(...glimpsed));
  });

  it('takes back two failed changes of the same event to what is on disk, newest first', async () => {
    const adapter = new FlakyFile(join(dataDir, DATA_FILE_NAME));
    server = await startTestServer({ dataDir, storeAdapter: adapter });
    const { api, admin } = server;
    const saved = await api('events', { method: 'POST', auth: admin, json: eventBody('Saved title', 2) });
    expect(saved.status).toBe(201);

    adapter.hold();
    adapter.failing = true;
    const first = api(`events/${saved.body.id}`, { method: 'PATCH', auth: admin, json: { title: 'First' } });
    // The second rename is made while the first one's write is held, so both fail together.
    await vi.waitFor(() => expect(server!.engine.store.events.get(saved.body.id)?.title).toBe('First'));
    const second = api(`events/${saved.body.id}`, {
      method: 'PATCH',
      auth: admin,
      json: { title: 'Second' },
    });
    await vi.waitFor(() => expect(server!.engine.store.events.get(saved.body.id)?.title).toBe('Second'));
    adapter.release();
    expectUnavailable(await first);
    expectUnavailable(await second);

    expect((await api(`events/${saved.body.id}`)).body.title).toBe('Saved title');
    adapter.failing = false;
    // The next write must not carry a title that never reached the disk.
    expect((await api('tags', { method: 'POST', auth: admin, json: { name: 'later' } })).status).toBe(201);
    const disk = JSON.parse(await readFile(dataFile(), 'utf8')) as DataFile;
    expect(disk.events.map((event) => event.title)).toEqual(['Saved title']);
  });

  it('never shows a reader a change that is not on disk yet, nor one whose write then failed', async () => {
    const adapter = new FlakyFile(join(dataDir, DATA_FILE_NAME));
    server = await startTestServer({ dataDir, storeAdapter: adapter });
    const { api, admin, engine } = server;
    const before = await api('events?per_page=50');

    adapter.hold();
    adapter.failing = true;
    const create = api('events', { method: 'POST', auth: admin, json: eventBody('Never saved', 2) });
    await vi.waitFor(() => expect(engine.store.events.size).toBe(1));
    const [id] = [...engine.store.events.values()].map((event) => event.id);
    // Read while the change is in memory only: the answers wait for its write, which then fails.
    const settled = vi.spyOn(engine.store, 'settled');
    let answered = false;
    const list = api('events?per_page=50').finally(() => (answered = true));
    const single = api(`events/${id}`).finally(() => (answered = true));
    const page = fetch(`${engine.origin}/event/never-saved/`).finally(() => (answered = true));
    await whileHeld(adapter, async () => {
      await vi.waitFor(() => expect(settled).toHaveBeenCalledTimes(3));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(answered).toBe(false);
    });
    adapter.release();
    expectUnavailable(await create);
    expect((await list).body).toEqual(before.body);
    expect((await single).status).toBe(404);
    expect((await page).status).toBe(404);

    // A write that succeeds is shown once it is on disk.
    adapter.failing = false;
    adapter.hold();
    const saved = api('events', { method: 'POST', auth: admin, json: eventBody('Saved', 2) });
    await vi.waitFor(() => expect(engine.store.events.size).toBe(1));
    settled.mockClear();
    const listed = api('events?per_page=50');
    await whileHeld(adapter, () => vi.waitFor(() => expect(settled).toHaveBeenCalled()));
    adapter.release();
    expect((await saved).status).toBe(201);
    expect((await listed).body.events.map((event: { title: string }) => event.title)).toEqual(['Saved']);
  });

  it('answers no reader, not even with an error or a 404, before the change it saw is on disk', async () => {
    const adapter = new FlakyFile(join(dataDir, DATA_FILE_NAME));
    server = await startTestServer({ dataDir, storeAdapter: adapter });
    const { api, admin, engine } = server;
    const kept = await api('events', { method: 'POST', auth: admin, json: eventBody('Kept', 2) });
    expect(kept.status).toBe(201);

    adapter.hold();
    adapter.failing = true;
    const trash = api(`events/${kept.body.id}`, { method: 'DELETE', auth: admin });
    await vi.waitFor(() => expect(engine.store.events.get(kept.body.id)!.status).toBe('trash'));
    // Seen from outside, the event is trashed in memory: an anonymous read would be refused (403), the
    // public page would be missing (404). Neither may be answered before the trashing is on disk.
    const settled = vi.spyOn(engine.store, 'settled');
    let answered = false;
    const single = api(`events/${kept.body.id}`).finally(() => (answered = true));
    const page = fetch(`${engine.origin}/event/${kept.body.slug}/`).finally(() => (answered = true));
    await whileHeld(adapter, async () => {
      await vi.waitFor(() => expect(settled).toHaveBeenCalledTimes(2));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(answered).toBe(false);
    });
    adapter.release();
    expectUnavailable(await trash);
    // The trashing failed: both answer the published event.
    expect((await single).status).toBe(200);
    expect((await page).status).toBe(200);
  });

  it('never lets a sync adopt an upload whose record is not on disk yet', async () => {
    const adapter = new FlakyFile(join(dataDir, DATA_FILE_NAME));
    server = await startTestServer({ dataDir, storeAdapter: adapter });
    const { engine, admin } = server;
    adapter.hold();
    adapter.failing = true;
    const uploading = fetch(`${engine.apiRoot}calendar-desk/v1/media`, {
      method: 'POST',
      headers: {
        ...admin,
        'Content-Type': 'image/png',
        'Content-Disposition': 'attachment; filename="poster.png"',
      },
      body: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
    });
    await vi.waitFor(() => expect(engine.store.media.size).toBe(1));
    const settled = vi.spyOn(engine.store, 'settled');
    const search = fetch(`${engine.apiRoot}calendar-desk/v1/media?search=poster`, { headers: admin });
    await whileHeld(adapter, () => vi.waitFor(() => expect(settled).toHaveBeenCalled()));
    adapter.release();
    expect((await uploading).status).toBe(503);
    expect(await (await search).json()).toEqual([]);
  });

  it('answers 503 on a torn journal write, and keeps the journal sound for the writes after it', async () => {
    server = await startTestServer({ dataDir });
    const { api, admin } = server;
    expect((await api('events', { method: 'POST', auth: admin, json: eventBody('Kept', 2) })).status).toBe(
      201,
    );

    // The disk fills up in the middle of a journal append: half the bytes land, then ENOSPC.
    const probe = await open(join(dataDir, 'probe'), 'w');
    const prototype = Object.getPrototypeOf(probe) as { write: (...args: unknown[]) => Promise<unknown> };
    await probe.close();
    const realWrite = prototype.write;
    const spy = vi.spyOn(prototype, 'write').mockImplementation(async function (
      this: unknown,
      ...args: unknown[]
    ) {
      const [buffer, offset, length, position] = args as [Buffer, number, number, number | null];
      if (Buffer.isBuffer(buffer) && buffer.toString('utf8').includes('"Lost"')) {
        await realWrite.call(this, buffer, offset, Math.floor(length / 2), position);
        throw Object.assign(new Error('ENOSPC: no space left on device (simulated)'), { code: 'ENOSPC' });
      }
      return realWrite.apply(this, args);
    });
    try {
      expectUnavailable(await api('events', { method: 'POST', auth: admin, json: eventBody('Lost', 2) }));
    } finally {
      spy.mockRestore();
    }
    const titles = async () =>
      (await server!.api('events')).body.events.map((event: { title: string }) => event.title);
    expect(await titles()).toEqual(['Kept']);
    expect((await api('events', { method: 'POST', auth: admin, json: eventBody('Saved', 2) })).status).toBe(
      201,
    );

    // What a restart after a crash would read (data file + journal, nothing folded): the torn half-line was
    // cut off, so the batch acknowledged after it is readable.
    const durable = await CalendarStore.inspect(dataDir, server.engine.store.settings);
    expect(durable.events.map((event) => event.title)).toEqual(['Kept', 'Saved']);
  });
});

describe('DurableJsonFile', () => {
  it('keeps the old file and removes its temporary file when the rename fails', async () => {
    const target = join(dataDir, 'data.json');
    // A non-empty folder cannot be replaced by a file.
    await mkdir(target);
    await writeFile(join(target, 'keep'), 'x');
    const file = new DurableJsonFile<{ a: number }>(target);
    await expect(file.write({ a: 1 })).rejects.toThrow();
    expect((await readdir(dataDir)).sort()).toEqual(['data.json']);
  });

  it('replaces the file whole and reads back what it wrote', async () => {
    const target = join(dataDir, 'data.json');
    const file = new DurableJsonFile<{ a: number[] }>(target);
    expect(await file.read()).toBeNull();
    await file.write({ a: [1, 2] });
    await file.write({ a: [3] });
    expect(await file.read()).toEqual({ a: [3] });
    expect(await readdir(dataDir)).toEqual(['data.json']);
  });
});
