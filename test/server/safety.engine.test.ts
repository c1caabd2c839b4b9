import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EngineError, startEngine, type Engine } from '../../src/main/engine';
import { FolderLockedError } from '../../src/main/store/lock';

/** CONTRACT §1 and §6: the engine binds to loopback only, on a free port, over a folder nobody else owns. */
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'calendar-desk-engine-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function start(options: Parameters<typeof startEngine>[0]): Promise<Engine> {
  const engine = await startEngine(options);
  cleanups.push(() => engine.close());
  return engine;
}

async function occupiedPort(): Promise<number> {
  const blocker: Server = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => blocker.close(resolve)));
  return (blocker.address() as { port: number }).port;
}

describe('loopback only', () => {
  it.each(['0.0.0.0', '::', '192.168.1.10', '10.0.0.1', 'example.com', '127.0.0.1.nip.io'])(
    'refuses to listen on %s (NOT_LOOPBACK), leaving the folder untouched',
    async (host) => {
      const dataDir = await tempDir();
      const attempt = startEngine({ dataDir, port: 0, host });
      await expect(attempt).rejects.toBeInstanceOf(EngineError);
      await expect(attempt).rejects.toMatchObject({ code: 'NOT_LOOPBACK' });
      await expect(attempt).rejects.toThrow(/loopback/);
      // Nothing was created or locked: the folder can be used at once.
      expect(await readdir(dataDir)).toEqual([]);
    },
  );

  it('binds to 127.0.0.1 by default and serves there', async () => {
    const engine = await start({ dataDir: await tempDir(), port: 0 });
    expect(engine.origin).toBe(`http://127.0.0.1:${engine.port}`);
    expect(engine.apiRoot).toBe(`http://127.0.0.1:${engine.port}/wp-json/`);
    const response = await fetch(`${engine.apiRoot}cal/events/v1/events`);
    expect(response.status).toBe(200);
  });

  it('answers to the loopback address it was started on (127.0.0.2)', async () => {
    const dataDir = await tempDir();
    const engine = await startEngine({ dataDir, port: 0, host: '127.0.0.2' }).catch((error: unknown) => {
      // Systems without the whole 127/8 on loopback cannot run this case.
      if (error instanceof EngineError && error.code === 'LISTEN_FAILED') return null;
      throw error;
    });
    if (!engine) return;
    cleanups.push(() => engine.close());
    expect(engine.origin).toBe(`http://127.0.0.2:${engine.port}`);
    const response = await fetch(`${engine.apiRoot}cal/events/v1/events`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { rest_url: string };
    expect(body.rest_url.startsWith(`http://127.0.0.2:${engine.port}/wp-json/`)).toBe(true);
  });
});

describe('port already in use', () => {
  it('rejects with PORT_IN_USE and a message naming the port, then releases the folder', async () => {
    const port = await occupiedPort();
    const dataDir = await tempDir();
    const attempt = startEngine({ dataDir, port });
    await expect(attempt).rejects.toBeInstanceOf(EngineError);
    await expect(attempt).rejects.toMatchObject({ code: 'PORT_IN_USE' });
    await expect(attempt).rejects.toThrow(new RegExp(`${port}.*in use`));
    // The failed start did not keep the data folder locked.
    const engine = await start({ dataDir, port: 0 });
    expect(engine.port).not.toBe(port);
  });
});

describe('data folder owned by another engine', () => {
  it('refuses a second engine on the same folder with FolderLockedError', async () => {
    const dataDir = await tempDir();
    const first = await start({ dataDir, port: 0 });
    const attempt = startEngine({ dataDir, port: 0 });
    await expect(attempt).rejects.toBeInstanceOf(FolderLockedError);
    const error = (await attempt.catch((caught: unknown) => caught)) as FolderLockedError;
    expect(error.code).toBe('DATA_FOLDER_IN_USE');
    expect(error.message).toContain(dataDir);
    expect(error.message).toContain(String(process.pid));
    // The owner is named with the API it serves, so the user knows where to go.
    expect(error.message).toContain(first.apiRoot);
    // The first engine is unaffected.
    expect((await fetch(`${first.apiRoot}cal/events/v1/events`)).status).toBe(200);
  });

  it('lets the folder be used again once its engine has closed', async () => {
    const dataDir = await tempDir();
    const first = await startEngine({ dataDir, port: 0 });
    const token = first.adminToken;
    await first.close();
    const second = await start({ dataDir, port: 0 });
    // Same folder, same admin token (the file is reused, not replaced).
    expect(second.adminToken).toBe(token);
  });
});
