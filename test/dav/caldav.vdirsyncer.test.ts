import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, type TestServer } from '../helpers/server';
import { dayFromNow, startDavServer, vcalendar, veventLines, type DavUser } from '../helpers/davClients';

/** Debian's vdirsyncer syncing two-way with a folder of .ics files, and khal listing that folder. */
let server: TestServer;
let editor: DavUser;
let dir: string;
let local: string;

const run = (command: string, args: string[], input?: string) =>
  new Promise<{ code: number; out: string }>((resolve) => {
    const child = execFile(
      command,
      args,
      { env: { ...process.env, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8' } },
      (error, stdout, stderr) =>
        resolve({
          code: error ? Number((error as { code?: number }).code ?? 1) : 0,
          out: `${stdout}${stderr}`,
        }),
    );
    if (input !== undefined) child.stdin!.end(input);
  });

const vdirsyncer = (...args: string[]) =>
  run('/usr/bin/vdirsyncer', ['-c', join(dir, 'config'), ...args], 'y\ny\n');
const sync = async () => {
  const result = await vdirsyncer('sync');
  expect(result.code, result.out).toBe(0);
  return result.out;
};
const localFiles = async () => (await readdir(local)).filter((name) => name.endsWith('.ics')).sort();
const titled = async (title: string) => {
  const found = await server.api(
    `events?search=${encodeURIComponent(title)}&status=publish,trash&per_page=20`,
    { auth: server.admin },
  );
  return (found.body.events as Array<{ id: number; title: string; status: string }>).filter(
    (event) => event.title === title,
  );
};

beforeAll(async () => {
  ({
    server,
    users: { ed: editor },
  } = await startDavServer({ ed: 'editor' }));
  dir = await mkdtemp(join(tmpdir(), 'calendar-desk-vdirsyncer-'));
  local = join(dir, 'local');
  await mkdir(local);
  await mkdir(join(dir, 'status'));
  await writeFile(
    join(dir, 'config'),
    [
      '[general]',
      `status_path = "${join(dir, 'status')}/"`,
      '',
      '[pair sync_desk]',
      'a = "folder"',
      'b = "remote"',
      'collections = null',
      '',
      '[storage folder]',
      'type = "filesystem"',
      `path = "${local}/"`,
      'fileext = ".ics"',
      '',
      '[storage remote]',
      'type = "caldav"',
      `url = "${server.engine.origin}/dav/calendars/ed/events/"`,
      `username = "${editor.login}"`,
      `password = "${editor.password}"`,
      '',
    ].join('\n'),
  );
  const created = await server.api('events', {
    method: 'POST',
    json: eventBody('Choir rehearsal', 3, { status: 'publish' }),
    auth: server.admin,
  });
  expect(created.status).toBe(201);
  const discovered = await vdirsyncer('discover');
  expect(discovered.code, discovered.out).toBe(0);
});

afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('vdirsyncer two-way with a folder of .ics files', () => {
  it('brings the calendar into the folder, and khal lists it', async () => {
    await sync();
    const files = await localFiles();
    expect(files).toHaveLength(1);
    expect(await readFile(join(local, files[0]!), 'utf8')).toContain('SUMMARY:Choir rehearsal');
    await writeFile(
      join(dir, 'khal.conf'),
      [
        '[calendars]',
        '[[desk]]',
        `path = ${local}`,
        '',
        '[locale]',
        'timeformat = %H:%M',
        'dateformat = %Y-%m-%d',
        'longdateformat = %Y-%m-%d',
        'datetimeformat = %Y-%m-%d %H:%M',
        'longdatetimeformat = %Y-%m-%d %H:%M',
        '',
      ].join('\n'),
    );
    const listed = await run('/usr/bin/khal', ['-c', join(dir, 'khal.conf'), 'list', 'today', '30d']);
    expect(listed.code, listed.out).toBe(0);
    expect(listed.out).toContain('Choir rehearsal');
  });

  it('creates, edits and deletes from the folder; the API sees each', async () => {
    const uid = randomUUID();
    const day = dayFromNow(6);
    await writeFile(join(local, `${uid}.ics`), vcalendar(veventLines(uid, 'From the folder', day)));
    await sync();
    expect((await titled('From the folder')).map((event) => event.status)).toEqual(['publish']);
    const file = join(local, `${uid}.ics`);
    await writeFile(
      file,
      (await readFile(file, 'utf8')).replace('SUMMARY:From the folder', 'SUMMARY:Edited in the folder'),
    );
    await sync();
    expect((await titled('Edited in the folder')).map((event) => event.status)).toEqual(['publish']);
    await unlink(file);
    await sync();
    expect((await titled('Edited in the folder')).map((event) => event.status)).toEqual(['trash']);
    // Nothing left to do: a second sync changes nothing on either side (no sync loop).
    const before = await localFiles();
    await sync();
    expect(await localFiles()).toEqual(before);
  });

  it('brings changes and deletions made through the API into the folder', async () => {
    const created = await server.api('events', {
      method: 'POST',
      json: eventBody('From the API', 7, { status: 'publish' }),
      auth: server.admin,
    });
    await sync();
    const file = join(local, `${created.body.uid}.ics`);
    expect(await readFile(file, 'utf8')).toContain('SUMMARY:From the API');
    await server.api(`events/${created.body.id}`, {
      method: 'POST',
      json: { title: 'Changed in the API' },
      auth: server.admin,
    });
    await sync();
    expect(await readFile(file, 'utf8')).toContain('SUMMARY:Changed in the API');
    await server.api(`events/${created.body.id}`, { method: 'DELETE', auth: server.admin });
    await sync();
    expect(await localFiles()).not.toContain(`${created.body.uid}.ics`);
  });

  it('reports a conflict when both sides changed the same event, changing neither', async () => {
    const [choir] = await titled('Choir rehearsal');
    const file = join(
      local,
      (await localFiles()).find((name) => name !== '')!,
    );
    const text = await readFile(file, 'utf8');
    expect(text).toContain('Choir rehearsal');
    await writeFile(file, text.replace('SUMMARY:Choir rehearsal', 'SUMMARY:Choir (folder)'));
    await server.api(`events/${choir!.id}`, {
      method: 'POST',
      json: { title: 'Choir (API)' },
      auth: server.admin,
    });
    const result = await vdirsyncer('sync');
    expect(result.code).not.toBe(0);
    expect(result.out).toMatch(/conflict|both/i);
    expect(await titled('Choir (API)')).toHaveLength(1);
    expect(await readFile(file, 'utf8')).toContain('SUMMARY:Choir (folder)');
  });
});
