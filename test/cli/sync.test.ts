import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventBody, startTestServer, type TestServer } from '../helpers/server';
import { ensureBuilt, isolatedEnv, runCli } from './cliProcess';

let home: string;
let env: NodeJS.ProcessEnv;
let remote: TestServer;
let dataDir: string;
let folders = 0;

beforeAll(async () => {
  await ensureBuilt();
  home = await mkdtemp(join(tmpdir(), 'calendar-desk-cli-sync-'));
  env = isolatedEnv(home);
}, 120_000);
afterAll(() => rm(home, { recursive: true, force: true }));

beforeEach(async () => {
  remote = await startTestServer();
  // A local calendar with two events, written by a server that is then stopped (the folder is free).
  dataDir = join(home, `data-${++folders}`);
  const local = await startTestServer({ dataDir });
  for (const title of ['Market', 'Parade']) {
    await local.api('events', {
      method: 'POST',
      auth: local.admin,
      json: eventBody(title, 2, { venue: { venue: 'Square' } }),
    });
  }
  await local.close();
});
afterEach(() => remote.close());

const sync = (...args: string[]) =>
  runCli(['sync', '--data', dataDir, '--remote', remote.engine.apiRoot, ...args], env);

describe('calendar-desk sync', () => {
  it('goes both ways by default; --push-only takes nothing, --pull-only sends nothing', async () => {
    const made = await remote.api('events', {
      method: 'POST',
      auth: remote.admin,
      json: eventBody('Made on the site', 4),
    });
    expect(made.status).toBe(201);
    const titles = async () =>
      (
        await remote.api('events?start_date=2000-01-01&end_date=2100-01-01', { auth: remote.admin })
      ).body.events.map((event: { title: string }) => event.title);

    const pulled = await sync('--token', remote.engine.adminToken, '--pull-only', '--json');
    expect(pulled.code).toBe(0);
    expect(JSON.parse(pulled.stdout).summary).toMatchObject({ imported: 1, created: 0 });
    expect(await titles()).toEqual(['Made on the site']);

    await remote.api(`events/${made.body.id}`, {
      method: 'POST',
      auth: remote.admin,
      json: { title: 'Renamed on the site' },
    });
    const pushed = await sync('--token', remote.engine.adminToken, '--push-only', '--json');
    expect(JSON.parse(pushed.stdout).summary).toMatchObject({ created: 3, pulled: 0, imported: 0 });

    const both = await sync('--token', remote.engine.adminToken);
    expect(both.code).toBe(0);
    expect(both.stdout).toMatch(/^Taken from the remote: 0 new, 1 changed, 0 moved to the trash/m);
    const local = await startTestServer({ dataDir });
    try {
      const events = await local.api('events?start_date=2000-01-01&end_date=2100-01-01', {
        auth: local.admin,
      });
      expect(events.body.events.map((event: { title: string }) => event.title).sort()).toEqual([
        'Market',
        'Parade',
        'Renamed on the site',
      ]);
    } finally {
      await local.close();
    }
    expect((await sync('--token', remote.engine.adminToken, '--push-only', '--pull-only')).stderr).toMatch(
      /--push-only or --pull-only, not both/,
    );
  });

  it('pushes with --json: one JSON report on stdout, progress as JSON lines on stderr, exit 0', async () => {
    const result = await sync('--token', remote.engine.adminToken, '--json');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.summary).toEqual({
      created: 3,
      updated: 0,
      deleted: 0,
      adopted: 0,
      pulled: 0,
      imported: 0,
      trashed: 0,
      uploaded: 0,
      conflicts: 0,
      failed: 0,
    });
    expect(report.exit_status).toBe(0);
    const progress = result.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(progress[0]).toEqual({ type: 'start', total: 3 });
    expect(progress.filter((event) => event.type === 'operation')).toHaveLength(3);
    const events = await remote.api('events', { auth: remote.admin });
    expect(events.body.events.map((event: { title: string }) => event.title).sort()).toEqual([
      'Market',
      'Parade',
    ]);
  });

  it('--dry-run prints the plan and changes nothing; a password may come from a file or the environment', async () => {
    const headers = await remote.userHeaders('ed', 'editor');
    const password = Buffer.from(headers.Authorization!.slice(6), 'base64').toString().split(':')[1]!;
    const file = join(home, 'password.txt');
    await writeFile(file, `${password}\n`);
    const dry = await sync('--user', 'ed', '--password-file', file, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/Dry run: nothing was changed\. 3 operation\(s\) planned:/);
    expect(dry.stdout).toMatch(/create\s+event \d+ "Market"/);
    expect((await remote.api('events', { auth: remote.admin })).body.events).toEqual([]);

    const real = await runCli(
      ['sync', '--data', dataDir, '--remote', remote.engine.apiRoot, '--user', 'ed'],
      {
        ...env,
        CALENDAR_DESK_REMOTE_PASSWORD: password,
      },
    );
    expect(real.code).toBe(0);
    expect(real.stdout).toMatch(
      /Summary: created 3, updated 0, deleted 0, adopted 0, pulled 0, pictures uploaded 0, conflicts 0, failed 0/,
    );
  });

  it('a token may come from a file or $CALENDAR_DESK_REMOTE_TOKEN, and --help warns that flags are visible to others', async () => {
    const file = join(home, 'token.txt');
    await writeFile(file, `${remote.engine.adminToken}\n`, { mode: 0o600 });
    const dry = await sync('--token-file', file, '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/Dry run: nothing was changed\. 3 operation\(s\) planned:/);

    const fromEnv = await runCli(['sync', '--data', dataDir, '--remote', remote.engine.apiRoot], {
      ...env,
      CALENDAR_DESK_REMOTE_TOKEN: remote.engine.adminToken,
    });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(fromEnv.stdout).toMatch(/Summary: created 3,/);

    const empty = join(home, 'empty-token.txt');
    await writeFile(empty, '\n');
    const refused = await sync('--token-file', empty);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`The token file ${empty} is empty.`);
    const missing = await sync('--token-file', join(home, 'no-such-file'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/Cannot read the token file .*no-such-file: ENOENT/);
    const both = await sync('--token-file', file, '--user', 'ed');
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('Give either a token (--token, --token-file) or --user, not both.');

    const help = await runCli(['sync', '--help'], env);
    expect(help.stdout).toContain('--token-file <file>');
    expect(help.stdout).toContain('$CALENDAR_DESK_REMOTE_TOKEN');
    const flat = help.stdout.replace(/\s+/g, ' ');
    expect(flat).toMatch(/--token <token> the bearer token itself: visible to other users of this computer/);
    expect(flat).toMatch(/--password <password> the application password itself: visible to other users/);
    expect(flat).toContain(
      'Secrets given as flags (--token, --password) are visible to other users of this computer',
    );
  });

  it('a conflict under --policy ask exits 2 with the field-level diff', async () => {
    await sync('--token', remote.engine.adminToken);
    const [market] = (await remote.api('events?search=Market', { auth: remote.admin })).body.events;
    await remote.api(`events/${market.id}`, {
      method: 'POST',
      auth: remote.admin,
      json: { title: 'Remote market' },
    });
    const local = await startTestServer({ dataDir });
    const [mine] = (await local.api('events?search=Market', { auth: local.admin })).body.events;
    await local.api(`events/${mine.id}`, {
      method: 'POST',
      auth: local.admin,
      json: { title: 'Local market' },
    });
    await local.close();

    const asked = await sync('--token', remote.engine.adminToken);
    expect(asked.code).toBe(2);
    expect(asked.stdout).toMatch(/event \d+ "Local market": changed here and on the remote/);
    expect(asked.stdout).toMatch(/title: here "Local market" \| remote "Remote market"/);
    const won = await sync('--token', remote.engine.adminToken, '--policy', 'local-wins');
    expect(won.code).toBe(0);
    expect((await remote.api(`events/${market.id}`)).body.title).toBe('Local market');
  });

  it('finds the API from the address of the site alone (no REST root, no --namespace)', async () => {
    const site = remote.engine.apiRoot.replace(/wp-json\/$/, '');
    expect(site).not.toBe(remote.engine.apiRoot);
    const result = await runCli(
      ['sync', '--data', dataDir, '--remote', site, '--token', remote.engine.adminToken, '--push-only'],
      env,
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const titles = (await remote.api('events?per_page=50')).body.events.map(
      (e: { title: string }) => e.title,
    );
    expect(titles.sort()).toEqual(['Market', 'Parade']);
  });

  it('explains wrong credentials, a missing password and a remote that is not this API (exit 1, no stack)', async () => {
    const wrong = await sync('--user', 'admin', '--password', 'abcd efgh ijkl mnop qrst uvwx');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/refused the credentials/);
    expect(wrong.stderr).not.toMatch(/^\s+at /m);

    const noPassword = await sync('--user', 'admin', '--json');
    expect(noPassword.code).toBe(1);
    expect(noPassword.stderr).toMatch(/--user needs a password/);
    // Tools reading --json get a wrong flag as JSON too.
    expect(JSON.parse(noPassword.stdout)).toMatchObject({ error: { code: 'SYNC_USAGE' }, exit_status: 1 });

    const otherApi = await sync(
      '--token',
      remote.engine.adminToken,
      '--namespace',
      'tribe/events/v1',
      '--json',
    );
    expect(otherApi.code).toBe(1);
    expect(otherApi.stderr).toMatch(/does not serve the tribe\/events\/v1 namespace/);
    expect(JSON.parse(otherApi.stdout)).toMatchObject({
      error: { code: 'REMOTE_NOT_THIS_API' },
      exit_status: 1,
    });
  });
});
