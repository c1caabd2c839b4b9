import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, startTestServer } from '../helpers/server';
import { makeCalendar, startRadicaleCalendar, type CaldavServer } from '../helpers/caldavServers';
import { DavCalendar } from '../../src/main/caldavSync/davCalendar';
import { ensureBuilt, isolatedEnv, runCli } from './cliProcess';

/** `calendar-desk sync --remote` with a CalDAV server's address: found as such, one calendar picked by name. */
let home: string;
let env: NodeJS.ProcessEnv;
let server: CaldavServer;
let dataDir: string;
let passwordFile: string;

beforeAll(async () => {
  await ensureBuilt();
  home = await mkdtemp(join(tmpdir(), 'calendar-desk-cli-caldav-'));
  env = isolatedEnv(home);
  server = await startRadicaleCalendar();
  await makeCalendar(server, `/${server.login}/board/`, 'Board');
  passwordFile = join(home, 'password.txt');
  await writeFile(passwordFile, `${server.password}\n`, { mode: 0o600 });
  dataDir = join(home, 'data');
  const local = await startTestServer({ dataDir });
  for (const title of ['Spring concert', 'Summer fete'])
    await local.api('events', { method: 'POST', auth: local.admin, json: eventBody(title, 3) });
  await local.close();
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await rm(home, { recursive: true, force: true });
});

const sync = (...args: string[]) =>
  runCli(
    [
      'sync',
      '--data',
      dataDir,
      '--remote',
      server.url,
      '--user',
      server.login,
      '--password-file',
      passwordFile,
      ...args,
    ],
    env,
  );

describe('calendar-desk sync with a CalDAV server', () => {
  it('finds the calendars from the server address, asks which one, and syncs the one named', async () => {
    const asked = await sync('--dry-run');
    expect(asked.code).toBe(1);
    expect(asked.stderr).toMatch(/has 2 calendars .*"Board", "Choir".*--calendar NAME/s);

    const planned = await sync('--calendar', 'Choir', '--dry-run', '--json');
    expect(planned.code).toBe(0);
    const plan = JSON.parse(planned.stdout);
    expect(plan).toMatchObject({ namespace: 'caldav', dryRun: true, summary: { created: 2 } });
    expect(plan.remote).toBe(server.calendarUrl);
    const choir = new DavCalendar(server.calendarUrl, {
      auth: { user: server.login, password: server.password },
    });
    expect((await choir.etags()).size).toBe(0);

    const done = await sync('--calendar', 'Choir', '--json');
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout).summary).toMatchObject({ created: 2, failed: 0 });
    // Progress went to stderr as JSON lines, one per operation.
    const progress = done.stderr
      .trim()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    expect(progress.filter((event) => event.type === 'operation')).toHaveLength(2);
    expect((await choir.etags()).size).toBe(2);

    const again = await sync('--calendar', 'choir');
    expect(again.code).toBe(0);
    expect(JSON.parse((await sync('--calendar', 'Choir', '--json')).stdout).operations).toEqual([]);
  });

  it('a wrong password is said as such, and nothing is sent', async () => {
    const wrong = join(home, 'wrong.txt');
    await writeFile(wrong, 'not-the-password\n');
    const refused = await runCli(
      [
        'sync',
        '--data',
        dataDir,
        '--remote',
        server.calendarUrl,
        '--user',
        server.login,
        '--password-file',
        wrong,
      ],
      env,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/refused the (user name or password|credentials)/);
  });
});
