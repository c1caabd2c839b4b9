import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, eventBody, type TestServer } from '../helpers/server';
import { ROLES } from '../../src/shared/enums';
import { LOCK_NAME } from '../../src/main/store/lock';
import { CalendarStore } from '../../src/main/store/store';
import { ensureBuilt, isolatedEnv, lastLine, runCli, startServe, type ServeProcess } from './cliProcess';

let home: string;
let dataDir: string;
let env: NodeJS.ProcessEnv;
const serves: ServeProcess[] = [];
let server: TestServer | undefined;

beforeAll(async () => {
  await ensureBuilt();
  home = await mkdtemp(join(tmpdir(), 'calendar-desk-cli-'));
  env = isolatedEnv(home);
}, 120_000);
afterAll(() => rm(home, { recursive: true, force: true }));

let folders = 0;
const freshFolder = () => join(home, `data-${++folders}`);

afterEach(async () => {
  for (const serve of serves.splice(0)) {
    if (serve.child.exitCode === null) serve.child.kill('SIGKILL');
    await serve.exited;
  }
  await server?.close();
  server = undefined;
});

const noStack = (text: string) => expect(text).not.toMatch(/^\s+at /m);

/** A user-facing failure: non-zero exit, one line naming the problem, no stack trace. */
function expectCleanFailure(result: { code: number | null; stderr: string }, message: RegExp) {
  expect(result.code).not.toBe(0);
  expect(result.code).not.toBeNull();
  expect(result.stderr).toMatch(message);
  noStack(result.stderr);
}

const basic = (login: string, password: string) => ({
  Authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`,
});

/** Creates an event through a server on the folder, with these credentials; returns the status. */
async function createAs(auth: Record<string, string>) {
  return (await server!.api('events', { method: 'POST', auth, json: eventBody('From the CLI test', 2) }))
    .status;
}

describe('calendar-desk serve', () => {
  it('prints the API root, the UI address and the token file, answers HTTP and stops cleanly on SIGTERM', async () => {
    dataDir = freshFolder();
    const serve = await startServe(['--port', '0', '--data', dataDir], env);
    serves.push(serve);
    expect(serve.apiRoot).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/wp-json\/cal\/events\/v1$/);
    expect(serve.webUi).toBe(serve.apiRoot.replace(/wp-json\/cal\/events\/v1$/, ''));
    expect(serve.tokenFile).toBe(join(dataDir, 'admin-token'));

    const index = await fetch(serve.apiRoot);
    expect(index.status).toBe(200);
    expect(((await index.json()) as { namespace: string }).namespace).toBe('cal/events/v1');
    expect((await fetch(serve.webUi)).status).toBe(200);

    const token = (await readFile(serve.tokenFile, 'utf8')).trim();
    // The browser signs in from the link: a one-time code, never the permanent token, which nothing printed
    // carries (the output may go to a log file that others can read).
    expect(serve.signInLink).toMatch(new RegExp(`^${serve.webUi}#/signin\\?code=[A-Za-z0-9_-]{32}$`));
    expect(serve.stdout + serve.stderr()).not.toContain('cdt_');
    expect(serve.stdout).toContain('calendar-desk signin-link');
    const code = serve.signInLink.split('code=')[1];
    const exchange = () =>
      fetch(`${serve.webUi}wp-json/calendar-desk/v1/session`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ code }),
      });
    expect((await exchange()).status).toBe(201);
    expect((await exchange()).status).toBe(401);
    const created = await fetch(`${serve.apiRoot}/events`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(eventBody('Served', 2)),
    });
    expect(created.status).toBe(201);

    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    expect(existsSync(join(dataDir, 'owner.json'))).toBe(false);
    expect(existsSync(join(dataDir, LOCK_NAME))).toBe(false);
    const disk = JSON.parse(await readFile(join(dataDir, 'calendar.json'), 'utf8'));
    expect(disk.events.map((event: { title: string }) => event.title)).toEqual(['Served']);
    // The folder is free again.
    expect((await runCli(['users', 'list', '--data', dataDir], env)).code).toBe(0);
  });

  it('fails with one clear line when the port is in use, and leaves the folder free', async () => {
    dataDir = freshFolder();
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = await runCli(['serve', '--port', String(port), '--data', dataDir], env);
      expectCleanFailure(result, new RegExp(`Port ${port} .*already in use`));
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      blocker.close();
    }
    expect(existsSync(join(dataDir, LOCK_NAME))).toBe(false);
    expect((await runCli(['users', 'list', '--data', dataDir], env)).code).toBe(0);
  });

  it('refuses to listen beyond loopback', async () => {
    const result = await runCli(['serve', '--host', '0.0.0.0', '--port', '0', '--data', freshFolder()], env);
    expectCleanFailure(result, /0\.0\.0\.0.*loopback/);
  });

  it('documents port 8787 as the default', async () => {
    const result = await runCli(['serve', '--help'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/--port <port>[\s\S]*default: 8787/);
  });
});

describe('calendar-desk token', () => {
  it('initialises a fresh folder and prints a working admin token alone on the last line', async () => {
    dataDir = freshFolder();
    const result = await runCli(['token', '--data', dataDir], env);
    expect(result.code).toBe(0);
    const token = lastLine(result.stdout);
    expect(token).toMatch(/^cdt_\S+$/);
    expect((await readFile(join(dataDir, 'admin-token'), 'utf8')).trim()).toBe(token);

    // Asking again gives the same token, and the server accepts it as Bearer.
    expect(lastLine((await runCli(['token', '--data', dataDir], env)).stdout)).toBe(token);
    server = await startTestServer({ dataDir });
    expect(await createAs({ Authorization: `Bearer ${token}` })).toBe(201);
    // While the server owns the folder, the token is still printed.
    const whileServing = await runCli(['token', '--data', dataDir], env);
    expect(whileServing.code).toBe(0);
    expect(lastLine(whileServing.stdout)).toBe(token);
  });
});

describe('calendar-desk signin-link', () => {
  it('asks the running server for a fresh one-time link: each works once; without a server it says to start one', async () => {
    dataDir = freshFolder();
    const alone = await runCli(['signin-link', '--data', dataDir], env);
    expect(alone.code).toBe(1);
    expect(alone.stderr).toContain('calendar-desk serve');
    noStack(alone.stderr);

    const serve = await startServe(['--port', '0', '--data', dataDir], env);
    serves.push(serve);
    const links = [];
    for (let index = 0; index < 2; index += 1) {
      const result = await runCli(['signin-link', '--data', dataDir], env);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).not.toContain('cdt_');
      links.push(lastLine(result.stdout));
    }
    expect(links[0]).toMatch(new RegExp(`^${serve.webUi}#/signin\\?code=[A-Za-z0-9_-]{32}$`));
    expect(links[1]).not.toBe(links[0]);
    const exchange = (link: string) =>
      fetch(`${serve.webUi}wp-json/calendar-desk/v1/session`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ code: link.split('code=')[1] }),
      });
    for (const link of links) {
      const signedIn = await exchange(link);
      expect(signedIn.status).toBe(201);
      expect(signedIn.headers.get('Set-Cookie')).toContain('HttpOnly');
      expect((await exchange(link)).status).toBe(401);
    }
  });
});

describe('calendar-desk users', () => {
  it('adds, lists and revokes users whose passwords work as Basic auth', async () => {
    dataDir = freshFolder();
    const added = await runCli(['users', 'add', 'bob', '--role', 'editor', '--data', dataDir], env);
    expect(added.code).toBe(0);
    const password = lastLine(added.stdout);
    expect(password).toMatch(/^[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}$/);

    const list = await runCli(['users', 'list', '--data', dataDir], env);
    expect(list.code).toBe(0);
    // A fresh folder was initialised: the admin exists beside bob.
    expect(list.stdout).toMatch(/^admin\s+administrator\b/m);
    expect(list.stdout).toMatch(/^bob\s+editor\b/m);

    server = await startTestServer({ dataDir });
    expect(await createAs(basic('bob', password))).toBe(201);
    await server.close();
    server = undefined;

    const revoked = await runCli(['users', 'revoke', 'bob', '--data', dataDir], env);
    expect(revoked.code).toBe(0);
    server = await startTestServer({ dataDir });
    expect(await createAs(basic('bob', password))).toBe(401);
  });

  it('refuses an unknown role, listing the roles, and creates nobody', async () => {
    dataDir = freshFolder();
    const result = await runCli(['users', 'add', 'carol', '--role', 'wizard', '--data', dataDir], env);
    expectCleanFailure(result, /wizard/);
    for (const role of ROLES) expect(result.stderr).toContain(role);
    const list = await runCli(['users', 'list', '--data', dataDir], env);
    expect(list.stdout).not.toMatch(/carol/);
  });

  it('refuses a login that exists, and an unknown login to revoke', async () => {
    dataDir = freshFolder();
    expect((await runCli(['users', 'add', 'dave', '--role', 'author', '--data', dataDir], env)).code).toBe(0);
    const duplicate = await runCli(['users', 'add', 'DAVE', '--role', 'editor', '--data', dataDir], env);
    expectCleanFailure(duplicate, /already exists/);
    expect(duplicate.stderr.trim().split('\n')).toHaveLength(1);
    expectCleanFailure(
      await runCli(['users', 'revoke', 'nobody', '--data', dataDir], env),
      /no user named "nobody"/,
    );
  });

  it('refuses a folder another process holds that is not a server, naming it and saying what to do', async () => {
    dataDir = freshFolder();
    const store = await CalendarStore.open({
      dataDir,
      initialSettings: { siteName: 'T', siteDescription: '', timezone: 'UTC', postsPerPage: 10 },
    });
    try {
      const result = await runCli(['users', 'add', 'erin', '--role', 'author', '--data', dataDir], env);
      expectCleanFailure(result, /in use by process \d+\. Stop that instance first/);
      expect(result.stderr).toContain(`process ${process.pid}`);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(store.users.getByKey('erin')).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});

describe('calendar-desk users while a server owns the folder', () => {
  /** Creates an event through a spawned server with these credentials; returns the status. */
  async function createThrough(serve: ServeProcess, auth: Record<string, string>) {
    const response = await fetch(`${serve.apiRoot}/events`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify(eventBody('Through the running server', 2)),
    });
    return response.status;
  }

  it('adds, lists and revokes through that server: the password works at once, the revoke too', async () => {
    dataDir = freshFolder();
    const serve = await startServe(['--port', '0', '--data', dataDir], env);
    serves.push(serve);
    const apiRoot = `${serve.webUi}wp-json/`;

    const added = await runCli(['users', 'add', 'bob', '--role', 'editor', '--data', dataDir], env);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain(`Created editor "bob" through the server at ${apiRoot}.`);
    const password = lastLine(added.stdout);
    expect(password).toMatch(/^[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}$/);
    expect(await createThrough(serve, basic('bob', password))).toBe(201);

    const list = await runCli(['users', 'list', '--data', dataDir], env);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^admin\s+administrator\s+1 credential\(s\)\s+created \d{4}-\d\d-\d\d /m);
    expect(list.stdout).toMatch(/^bob\s+editor\s+1 credential\(s\)/m);

    // The server's verdicts come back as the same one-line errors as without a server.
    const duplicate = await runCli(['users', 'add', 'BOB', '--role', 'author', '--data', dataDir], env);
    expectCleanFailure(duplicate, /A user named "BOB" already exists/);
    expect(duplicate.stderr.trim().split('\n')).toHaveLength(1);
    expectCleanFailure(
      await runCli(['users', 'revoke', 'nobody', '--data', dataDir], env),
      /no user named "nobody"/,
    );
    expectCleanFailure(
      await runCli(['users', 'add', 'no body', '--role', 'author', '--data', dataDir], env),
      /"no body" is not a valid login/,
    );

    const revoked = await runCli(['users', 'revoke', 'bob', '--data', dataDir], env);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(`Revoked every credential of "bob" through the server at ${apiRoot}.`);
    expect(await createThrough(serve, basic('bob', password))).toBe(401);
    expect((await runCli(['users', 'list', '--data', dataDir], env)).stdout).toMatch(
      /^bob\s+editor\s+0 credential\(s\)/m,
    );

    // The server wrote it all to the folder: after it stops, the folder says the same without it.
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    const after = await runCli(['users', 'list', '--data', dataDir], env);
    expect(after.stdout).toMatch(/^bob\s+editor\s+0 credential\(s\)/m);
  });

  it('goes through an in-process server too (the desktop app), which sees the user at once', async () => {
    server = await startTestServer({ dataDir: freshFolder() });
    const result = await runCli(['users', 'add', 'erin', '--role', 'author', '--data', server.dataDir], env);
    expect(result.code, result.stderr).toBe(0);
    expect(server.engine.store.users.getByKey('erin')?.role).toBe('author');
    expect(await createAs(basic('erin', lastLine(result.stdout)))).toBe(201);
  });

  it('says what to do when the server cannot be used (its admin token file is gone), changing nothing', async () => {
    dataDir = freshFolder();
    const serve = await startServe(['--port', '0', '--data', dataDir], env);
    serves.push(serve);
    await rm(join(dataDir, 'admin-token'));
    for (const args of [
      ['users', 'add', 'fred', '--role', 'author'],
      ['users', 'list'],
      ['users', 'revoke', 'admin'],
    ]) {
      const result = await runCli([...args, '--data', dataDir], env);
      expectCleanFailure(result, /in use by the server at http:\/\/127\.0\.0\.1:\d+\/wp-json\//);
      expect(result.stderr).toContain(`process ${serve.child.pid}`);
      expect(result.stderr).toContain('admin token file');
      expect(result.stderr).toContain('Stop that server');
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    expect((await runCli(['users', 'list', '--data', dataDir], env)).stdout).not.toMatch(/fred/);
  });
});

describe('the data folder', () => {
  it('honours CALENDAR_DESK_DATA when --data is not given', async () => {
    dataDir = freshFolder();
    const withEnv = isolatedEnv(home, { CALENDAR_DESK_DATA: dataDir });
    expect((await runCli(['users', 'add', 'fay', '--role', 'author'], withEnv)).code).toBe(0);
    const token = lastLine((await runCli(['token'], withEnv)).stdout);
    expect((await readFile(join(dataDir, 'admin-token'), 'utf8')).trim()).toBe(token);
    const disk = JSON.parse(await readFile(join(dataDir, 'calendar.json'), 'utf8'));
    expect(disk.users.map((user: { login: string }) => user.login)).toEqual(['admin', 'fay']);
    // --data wins over the variable.
    const other = freshFolder();
    expect((await runCli(['token', '--data', other], withEnv)).code).toBe(0);
    expect(existsSync(join(other, 'calendar.json'))).toBe(true);
  });

  it('refuses a regular file as data folder with a clear message and no stack', async () => {
    const file = join(home, 'not-a-folder');
    await writeFile(file, 'precious');
    for (const args of [
      ['users', 'list', '--data', file],
      ['token', '--data', file],
      ['users', 'add', 'gil', '--role', 'author', '--data', file],
      ['serve', '--port', '0', '--data', file],
      ['users', 'list', '--data', join(file, 'inside')],
    ]) {
      const result = await runCli(args, env);
      expectCleanFailure(result, /data folder .*not-a-folder.* (is a file|inside a file)/);
    }
    expect(await readFile(file, 'utf8')).toBe('precious');
  });

  it('restores the newest backup when the data file is damaged, keeps the damaged file and says so', async () => {
    dataDir = freshFolder();
    expect((await runCli(['users', 'add', 'keeper', '--role', 'editor', '--data', dataDir], env)).code).toBe(
      0,
    );
    await writeFile(join(dataDir, 'calendar.json'), '{"schemaVersion": 1, "events": [');
    const result = await runCli(['users', 'list', '--data', dataDir], env);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/data file was damaged.*backup/s);
    expect(result.stdout).toContain('keeper');
    const aside = (await readdir(dataDir)).find((name) => name.startsWith('calendar.json.damaged-'));
    expect(aside).toBeDefined();
    expect(await readFile(join(dataDir, aside!), 'utf8')).toBe('{"schemaVersion": 1, "events": [');
  });

  it('reports a damaged data file clearly and leaves it alone when there is no backup', async () => {
    dataDir = freshFolder();
    expect((await runCli(['token', '--data', dataDir], env)).code).toBe(0);
    await rm(join(dataDir, 'backups'), { recursive: true, force: true });
    await writeFile(join(dataDir, 'calendar.json'), '{"schemaVersion": 1, "events": [');
    const result = await runCli(['users', 'list', '--data', dataDir], env);
    expectCleanFailure(result, /calendar\.json is not a valid Calendar Desk file/);
    expect(await readFile(join(dataDir, 'calendar.json'), 'utf8')).toBe('{"schemaVersion": 1, "events": [');
  });
});

describe('--help', () => {
  it.each([
    [[], 'calendar-desk'],
    [['serve'], 'calendar-desk serve'],
    [['token'], 'calendar-desk token'],
    [['users'], 'calendar-desk users'],
    [['users', 'add'], 'calendar-desk users add'],
    [['users', 'list'], 'calendar-desk users list'],
    [['users', 'revoke'], 'calendar-desk users revoke'],
  ])('%j --help exits 0 with its usage', async (command, usage) => {
    const result = await runCli([...command, '--help'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Usage: ${usage} `);
  });

  it('answers an unknown command with an error and the usage', async () => {
    const result = await runCli(['frobnicate'], env);
    expectCleanFailure(result, /unknown command 'frobnicate'/);
  });
});
