import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEngine, EngineError, type Engine } from '../../src/main/engine';
import { FolderLockedError, LOCK_NAME } from '../../src/main/store/lock';
import { CalendarStore } from '../../src/main/store/store';

let dataDir: string;
const engines: Engine[] = [];

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'calendar-desk-lock-'));
});
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function start() {
  const engine = await startEngine({ dataDir, port: 0 });
  engines.push(engine);
  return engine;
}

const settings = { siteName: 'T', siteDescription: '', timezone: 'UTC', postsPerPage: 10 };

describe('one owner per data folder', () => {
  it('refuses a second server, naming the owner pid and its API root', async () => {
    const first = await start();
    const owner = JSON.parse(await readFile(join(dataDir, 'owner.json'), 'utf8'));
    expect(owner).toMatchObject({ pid: process.pid, apiRoot: first.apiRoot });

    const error = await startEngine({ dataDir, port: 0 }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(FolderLockedError);
    expect((error as FolderLockedError).owner).toMatchObject({ pid: process.pid, apiRoot: first.apiRoot });
    expect((error as Error).message).toContain(`process ${process.pid}`);
    expect((error as Error).message).toContain(first.apiRoot);
    expect((error as Error).message).toContain(dataDir);

    // The refused attempt did not disturb the owner: it still serves and still owns the folder.
    expect((await fetch(`${first.apiRoot}cal/events/v1`)).status).toBe(200);
    await expect(CalendarStore.open({ dataDir, initialSettings: settings })).rejects.toBeInstanceOf(
      FolderLockedError,
    );
  });

  it('can be opened again once the owner closes, and closing removes the lock and owner record', async () => {
    const first = await start();
    await first.close();
    engines.splice(engines.indexOf(first), 1);
    expect(existsSync(join(dataDir, 'owner.json'))).toBe(false);
    expect(existsSync(join(dataDir, LOCK_NAME))).toBe(false);

    const second = await start();
    expect((await fetch(`${second.apiRoot}cal/events/v1`)).status).toBe(200);
    // Same folder, same admin.
    expect(second.adminToken).toBe(first.adminToken);
  });

  it('releases the folder when the server cannot start (port in use)', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const error = await startEngine({ dataDir, port }).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(EngineError);
      expect((error as EngineError).code).toBe('PORT_IN_USE');
      expect((error as Error).message).toContain(String(port));
    } finally {
      blocker.close();
    }
    const store = await CalendarStore.open({ dataDir, initialSettings: settings });
    await store.close();
  });

  it('refuses a non-loopback host before touching the folder', async () => {
    const error = await startEngine({ dataDir, port: 0, host: '0.0.0.0' }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('NOT_LOOPBACK');
    expect(existsSync(join(dataDir, 'calendar.json'))).toBe(false);
  });
});
