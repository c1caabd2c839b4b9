import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, isolatedEnv, runCli, startServe, type ServeProcess } from './cliProcess';

let home: string;
let env: NodeJS.ProcessEnv;
let folders = 0;
const serves: ServeProcess[] = [];

beforeAll(async () => {
  await ensureBuilt();
  home = await mkdtemp(join(tmpdir(), 'calendar-desk-cli-imports-'));
  env = isolatedEnv(home);
}, 120_000);
afterAll(() => rm(home, { recursive: true, force: true }));
afterEach(async () => {
  for (const serve of serves.splice(0)) {
    if (serve.child.exitCode === null) serve.child.kill('SIGTERM');
    await serve.exited;
  }
});

const CSV = 'Event Name,Event Start Date,Event Start Time\nPicnic,2027-05-01,12:00\nChoir,2027-05-02,19:30\n';

/** The events of a folder: title and status, by title. */
async function events(dataDir: string): Promise<string[]> {
  const exported = await runCli(['export', '--format', 'json', '--data', dataDir], env);
  return JSON.parse(exported.stdout)
    .data.events.map((event: { title: string; status: string }) => `${event.title}:${event.status}`)
    .sort();
}

describe('calendar-desk import --dry-run, imports, imports undo', () => {
  it('previews, imports, lists and undoes, with the folder free or through its server', async () => {
    for (const throughServer of [false, true]) {
      const dataDir = join(home, `data-${++folders}`);
      const csv = join(home, `events-${folders}.csv`);
      await writeFile(csv, CSV);
      if (throughServer) {
        const serve = await startServe(['--port', '0', '--data', dataDir], env);
        serves.push(serve);
      }
      const preview = await runCli(['import', csv, '--dry-run', '--data', dataDir], env);
      expect(preview.code, preview.stderr).toBe(0);
      expect(preview.stdout).toMatch(
        /Preview of .*events-\d+\.csv \(nothing was written\): 2 to create, 0 to update/,
      );
      expect(preview.stdout).toMatch(/line 2: create event "Picnic"\n {2}line 3: create event "Choir"/);
      expect(await events(dataDir)).toEqual([]);

      const imported = await runCli(['import', csv, '--data', dataDir], env);
      expect(imported.code, imported.stderr).toBe(0);
      const id = /calendar-desk imports undo (\S+)/.exec(imported.stdout)?.[1];
      expect(id).toBeDefined();
      const listed = await runCli(['imports', '--data', dataDir], env);
      expect(listed.stdout).toMatch(
        new RegExp(`^${id} .* events-\\d+\\.csv: 2 created, 0 updated, 0 trashed$`, 'm'),
      );

      const undone = await runCli(['imports', 'undo', id!, '--data', dataDir], env);
      expect(undone.code, undone.stderr).toBe(0);
      expect(undone.stdout).toMatch(
        /0 record\(s\) put back as they were, 2 it had created moved to the trash/,
      );
      expect(await events(dataDir)).toEqual(['Choir:trash', 'Picnic:trash']);
      expect((await runCli(['imports', '--data', dataDir], env)).stdout).toMatch(/\(undone\)$/m);
      const twice = await runCli(['imports', 'undo', id!, '--data', dataDir], env);
      expect(twice.code).toBe(1);
      expect(twice.stderr).toMatch(/already undone/);
    }
  });
});
