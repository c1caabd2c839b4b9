import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventBody, startTestServer } from '../helpers/server';
import { PNG } from '../helpers/fixtures';
import { mountSmallDisk, whySmallDisksCannotBeMounted, type SmallDisk } from '../helpers/tmpfs';
import { ensureBuilt, isolatedEnv, lastLine, runCli, startServe, type ServeProcess } from './cliProcess';

/**
 * A calendar on a disk that refuses writes (full, or mounted read-only) can still be read: `serve` starts
 * read-only and says why, `token` and `export` work, and every change is refused with the reason. The disks
 * are real: a small tmpfs filled to the last byte, or remounted read-only.
 */
const cannotMount = await whySmallDisksCannotBeMounted();

let home: string;
let env: NodeJS.ProcessEnv;
let disk: SmallDisk;
let dataDir: string;
let token: string;
const serves: ServeProcess[] = [];

beforeAll(async () => {
  await ensureBuilt();
  home = await mkdtemp(join(tmpdir(), 'calendar-desk-cli-readonly-'));
  env = isolatedEnv(home);
}, 120_000);
afterAll(() => rm(home, { recursive: true, force: true }));

describe.skipIf(cannotMount !== null)(
  cannotMount
    ? `SKIPPED (${cannotMount}): reading a calendar whose disk refuses writes`
    : 'reading a calendar whose disk refuses writes',
  () => {
    beforeEach(async () => {
      disk = await mountSmallDisk();
      dataDir = join(disk.dir, 'data');
      const server = await startTestServer({ dataDir });
      token = server.engine.adminToken;
      const created = await server.api('events', {
        method: 'POST',
        auth: server.admin,
        json: eventBody('Harvest fair', 5),
      });
      expect(created.status).toBe(201);
      await server.close();
    });
    afterEach(async () => {
      for (const serve of serves.splice(0)) {
        if (serve.child.exitCode === null) serve.child.kill('SIGKILL');
        await serve.exited;
      }
      await disk.unmount();
    });

    /** Everything in the data folder, names and contents, to show that nothing was changed. */
    async function folderContent(): Promise<Record<string, string>> {
      const content: Record<string, string> = {};
      for (const entry of await readdir(dataDir, { recursive: true, withFileTypes: true })) {
        if (entry.isFile()) {
          const path = join(entry.parentPath, entry.name);
          content[path] = await readFile(path, 'base64');
        }
      }
      return content;
    }

    async function serve() {
      const started = await startServe(['--port', '0', '--data', dataDir], env);
      serves.push(started);
      return started;
    }

    /** `serve` starts, says it is read-only and why, answers reads and refuses a change with that reason. */
    async function expectReadOnlyServer(reason: string) {
      const server = await serve();
      expect(server.stdout).toContain('Calendar Desk is running read-only');
      expect(server.stderr()).toContain(`Read-only: ${reason}`);
      const events = await fetch(`${server.apiRoot}/events`);
      expect(events.status).toBe(200);
      expect(((await events.json()) as { events: { title: string }[] }).events.map((e) => e.title)).toEqual([
        'Harvest fair',
      ]);
      const refused = await fetch(`${server.apiRoot}/events`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(eventBody('Never saved', 6)),
      });
      expect(refused.status).toBe(503);
      const body = (await refused.json()) as { code: string; message: string };
      expect(body.code).toBe('rest_storage_unavailable');
      expect(body.message).toContain(`read-only because ${reason}`);
      // A picture too, before any of it is written.
      const picture = await fetch(`${server.apiRoot.replace('cal/events/v1', 'calendar-desk/v1')}/media`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'image/png' },
        body: PNG,
      });
      expect(picture.status).toBe(503);
      expect(((await picture.json()) as { message: string }).message).toContain(
        `read-only because ${reason}`,
      );
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }

    it('on a full disk: token and export work, serve starts read-only, and changes are refused saying the disk is full', async () => {
      await disk.fill();
      const before = await folderContent();
      const full = `the disk that holds the data folder ${dataDir} is full`;

      const printed = await runCli(['token', '--data', dataDir], env);
      expect(printed.code, printed.stderr).toBe(0);
      expect(lastLine(printed.stdout)).toBe(token);
      expect(printed.stderr).toContain(`Read-only: ${full}`);
      expect(printed.stderr).toContain('free some space on that disk, then restart Calendar Desk');

      const exported = await runCli(['export', '--format', 'json', '--data', dataDir], env);
      expect(exported.code, exported.stderr).toBe(0);
      expect(JSON.parse(exported.stdout).data.events.map((e: { title: string }) => e.title)).toEqual([
        'Harvest fair',
      ]);

      await expectReadOnlyServer(full);

      const added = await runCli(['users', 'add', 'bob', '--role', 'editor', '--data', dataDir], env);
      expect(added.code).toBe(1);
      expect(added.stderr).toContain(`the calendar is open read-only because ${full}`);
      expect(added.stderr).not.toMatch(/^\s+at /m);
      expect(await folderContent()).toEqual(before);
    });

    it('on a read-only disk: export, token and serve work, and changes are refused saying the disk is read-only', async () => {
      await disk.remountReadOnly();
      const readOnly = `the data folder ${dataDir} is on a disk that is mounted read-only`;

      const exported = await runCli(['export', '--format', 'ics', '--data', dataDir], env);
      expect(exported.code, exported.stderr).toBe(0);
      expect(exported.stdout).toContain('SUMMARY:Harvest fair');

      const printed = await runCli(['token', '--data', dataDir], env);
      expect(printed.code, printed.stderr).toBe(0);
      expect(lastLine(printed.stdout)).toBe(token);

      await expectReadOnlyServer(readOnly);
    });
  },
);
