import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEngine, EngineError, type Engine } from '../../src/main/engine';
import { FolderLockedError, LOCK_NAME } from '../../src/main/store/lock';
import { CalendarStore } from '../../src/main/store/store';
import { ensureBuilt, isolatedEnv, ROOT, runCli, startServe, type ServeProcess } from '../cli/cliProcess';
import { isRunning, waitUntilGone } from '../../src/main/store/processes';
import { deadPid } from '../helpers/processes';

let dataDir: string;
const engines: Engine[] = [];
const serves: ServeProcess[] = [];

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'calendar-desk-lock-'));
});
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  for (const serve of serves.splice(0)) {
    if (serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGKILL');
    await serve.exited;
  }
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

const ownerRecord = async () => JSON.parse(await readFile(join(dataDir, 'owner.json'), 'utf8'));

describe('a crashed owner, and two owners at once (real processes)', () => {
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    await ensureBuilt();
    env = isolatedEnv(tmpdir());
  }, 120_000);

  async function serve() {
    const started = await startServe(['--port', '0', '--data', dataDir], env);
    serves.push(started);
    return started;
  }

  async function createEvent(apiRoot: string, title: string) {
    const token = (await readFile(join(dataDir, 'admin-token'), 'utf8')).trim();
    const response = await fetch(`${apiRoot}/events`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title, start_date: '2031-01-01 10:00:00', end_date: '2031-01-01 11:00:00' }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: number }).id;
  }

  it('takes over the folder of a SIGKILLed server at once, well before its lock would turn stale', async () => {
    const first = await serve();
    const id = await createEvent(first.apiRoot, 'Before the crash');
    first.child.kill('SIGKILL');
    await first.exited;
    // The crash left its lock and its owner record behind.
    expect(existsSync(join(dataDir, LOCK_NAME))).toBe(true);
    expect(await ownerRecord()).toMatchObject({ pid: first.child.pid, host: hostname() });
    const lastRefresh = (await stat(join(dataDir, LOCK_NAME))).mtimeMs;

    const second = await serve();
    // Taken over, not waited out: the crashed lock (refreshed every 2 s) is stale only after 10 s.
    expect(Date.now() - lastRefresh).toBeLessThan(9_000);
    expect(await ownerRecord()).toMatchObject({ pid: second.child.pid, apiRoot: `${second.webUi}wp-json/` });
    expect((await fetch(`${second.apiRoot}/events/${id}`)).status).toBe(200);

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(existsSync(join(dataDir, LOCK_NAME))).toBe(false);
    expect(existsSync(join(dataDir, 'owner.json'))).toBe(false);
  });

  it('refuses a second live server with one clear line naming the first, which keeps serving', async () => {
    const first = await serve();
    const owner = await ownerRecord();
    const second = await runCli(['serve', '--port', '0', '--data', dataDir], env);
    expect(second.code).toBe(1);
    expect(second.stderr.trim().split('\n')).toHaveLength(1);
    expect(second.stderr).toContain(`The data folder ${dataDir} is in use by process ${first.child.pid}`);
    expect(second.stderr).toContain(`(serving ${first.webUi}wp-json/)`);
    expect(second.stderr).toContain('Stop that instance first');
    expect(second.stderr).not.toMatch(/^\s+at /m);
    // The refused process changed nothing: same owner record, and the first server still writes.
    expect(await ownerRecord()).toEqual(owner);
    await createEvent(first.apiRoot, 'Still mine');
  });

  it('keeps refusing while the owner process exists, even when it is stopped (SIGSTOP) and refreshes nothing', async () => {
    const first = await serve();
    first.child.kill('SIGSTOP');
    try {
      const second = await runCli(['serve', '--port', '0', '--data', dataDir], env);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`in use by process ${first.child.pid}`);
    } finally {
      first.child.kill('SIGCONT');
    }
    await createEvent(first.apiRoot, 'Woke up and still the owner');
  });

  /** The state letter of a process in /proc (`Z` for a zombie), or null once it is gone. */
  async function processState(pid: number): Promise<string | null> {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
    return stat ? stat.slice(stat.lastIndexOf(')') + 1).trim()[0] : null;
  }

  it.runIf(process.platform === 'linux')(
    'takes over at once from a killed owner its parent has not collected (a zombie), removing its unfinished snapshots',
    async () => {
      // The owner's parent is `sleep`, which never collects its children: killed, the owner stays a zombie.
      const parent = spawn(
        'sh',
        [
          '-c',
          '"$1" "$2" serve --port 0 --data "$3" & exec sleep 600',
          'sh',
          process.execPath,
          join(ROOT, 'bin', 'calendar-desk.js'),
          dataDir,
        ],
        { env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      try {
        let output = '';
        await new Promise<void>((resolve, reject) => {
          parent.stdout.on('data', (chunk) => {
            output += chunk;
            if (output.includes('Press Ctrl+C')) resolve();
          });
          parent.on('close', () => reject(new Error(`the first server did not start: ${output}`)));
        });
        const owner = await ownerRecord();
        process.kill(owner.pid, 'SIGKILL');
        for (let tries = 0; tries < 100 && (await processState(owner.pid)) !== 'Z'; tries++)
          await new Promise((resolve) => setTimeout(resolve, 20));
        expect(await processState(owner.pid), 'the killed owner is a zombie').toBe('Z');
        const killedAt = Date.now();
        // A snapshot the kill interrupted, and copies of other writers: gone ones, and one that still runs.
        const left = {
          zombie: `.calendar.json.${owner.pid}-7-0a1b2c3d.tmp`,
          ended: `.calendar.json.${await deadPid()}-1-99aa88bb.tmp`,
          endedOwnerRecord: `.owner.json.${await deadPid()}-2-00ff00ff.tmp`,
          endedFeeds: `.feeds.json.${await deadPid()}-c-12345678.tmp`,
          // The name versions before unique copies gave.
          endedEarlierVersion: `.calendar.json.${await deadPid()}.tmp`,
          live: `.calendar.json.${parent.pid}-1-abcdef01.tmp`,
        };
        for (const name of Object.values(left)) await writeFile(join(dataDir, name), '{"half":');

        const second = await serve();
        expect(await processState(owner.pid), 'still a zombie while the second server starts').toBe('Z');
        expect(Date.now() - killedAt).toBeLessThan(9_000);
        expect(await ownerRecord()).toMatchObject({ pid: second.child.pid });
        const names = await readdir(dataDir);
        expect(names).not.toContain(left.zombie);
        expect(names).not.toContain(left.ended);
        expect(names).not.toContain(left.endedOwnerRecord);
        expect(names).not.toContain(left.endedFeeds);
        expect(names).not.toContain(left.endedEarlierVersion);
        expect(names, 'the copy of a process that still runs is left alone').toContain(left.live);
        await createEvent(second.apiRoot, 'After the crash');
      } finally {
        parent.kill('SIGKILL');
        await new Promise((resolve) =>
          parent.exitCode === null ? parent.on('close', resolve) : resolve(null),
        );
      }
    },
    30_000,
  );

  it('lets exactly one of several servers started at once take over a crashed folder', async () => {
    const crashed = await serve();
    crashed.child.kill('SIGKILL');
    await crashed.exited;
    const attempts = await Promise.allSettled(
      Array.from({ length: 4 }, () => startServe(['--port', '0', '--data', dataDir], env)),
    );
    const winners = attempts.flatMap((attempt) => (attempt.status === 'fulfilled' ? [attempt.value] : []));
    serves.push(...winners);
    expect(winners).toHaveLength(1);
    for (const attempt of attempts) {
      // A loser that looks between the winner's lock and its owner record cannot name it yet.
      if (attempt.status === 'rejected')
        expect(String(attempt.reason)).toMatch(/is in use by (process \d+|another process)/);
    }
    expect(await ownerRecord()).toMatchObject({ pid: winners[0].child.pid });
    expect(existsSync(join(dataDir, 'calendar-desk.takeover.lock'))).toBe(false);
    await createEvent(winners[0].apiRoot, 'The one owner');
  });
});

describe('whether a process runs', () => {
  it('counts a process that ended as gone, and waits for one that ends soon', async () => {
    expect(isRunning(process.pid)).toBe(true);
    expect(isRunning(await deadPid())).toBe(false);
    const sleeper = spawn('sleep', ['0.3']);
    const ended = new Promise((resolve) => sleeper.on('close', resolve));
    expect(await waitUntilGone(sleeper.pid!, 50)).toBe(false);
    expect(await waitUntilGone(sleeper.pid!, 5_000)).toBe(true);
    await ended;
  });
});

describe('taking over a lock safely', () => {
  it('does not take a held lock whose owner record names a gone process but another lock', async () => {
    const first = await start();
    const lock = await stat(join(dataDir, LOCK_NAME));
    // What a process that took the folder but has not yet written its own record leaves beside it.
    const stale = {
      pid: await deadPid(),
      startedAt: new Date().toISOString(),
      host: hostname(),
      lockId: '0:1',
    };
    await writeFile(join(dataDir, 'owner.json'), JSON.stringify(stale));

    const error = await startEngine({ dataDir, port: 0 }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(FolderLockedError);
    expect((await stat(join(dataDir, LOCK_NAME))).ino).toBe(lock.ino);
    expect(await ownerRecord()).toEqual(stale);
    expect((await fetch(`${first.apiRoot}cal/events/v1`)).status).toBe(200);
  });

  it('takes over a lock whose recorded owner is gone, naming nobody alive', async () => {
    // A crashed owner, simulated: its lock directory and its record naming a process that ended.
    const crashed = await start();
    const lock = await stat(join(dataDir, LOCK_NAME));
    const record = await ownerRecord();
    expect(record.lockId).toBe(`${lock.dev}:${lock.ino}`);
    await crashed.close();
    engines.splice(engines.indexOf(crashed), 1);
    await mkdir(join(dataDir, LOCK_NAME));
    const left = await stat(join(dataDir, LOCK_NAME));
    await writeFile(
      join(dataDir, 'owner.json'),
      JSON.stringify({ ...record, pid: await deadPid(), lockId: `${left.dev}:${left.ino}` }),
    );

    const second = await start();
    expect(await ownerRecord()).toMatchObject({ pid: process.pid, apiRoot: second.apiRoot });
    expect((await fetch(`${second.apiRoot}cal/events/v1`)).status).toBe(200);
  });
});
