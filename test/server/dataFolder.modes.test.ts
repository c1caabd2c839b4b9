import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventBody, startTestServer } from '../helpers/server';
import { PNG } from '../helpers/fixtures';

let parent: string;
beforeEach(async () => {
  parent = await mkdtemp(join(tmpdir(), 'data-modes-'));
});
afterEach(async () => {
  await rm(parent, { recursive: true, force: true });
});

/** Every file and folder under `folder` with its permission bits. */
async function modes(folder: string, prefix = ''): Promise<Array<[string, string]>> {
  const found: Array<[string, string]> = [];
  for (const name of (await readdir(folder)).sort()) {
    const info = await stat(join(folder, name));
    found.push([`${prefix}${name}${info.isDirectory() ? '/' : ''}`, (info.mode & 0o777).toString(8)]);
    if (info.isDirectory()) found.push(...(await modes(join(folder, name), `${prefix}${name}/`)));
  }
  return found;
}

describe('the data folder is private', () => {
  it('tightens an existing folder others may enter to 0700 at start, and what the app writes there is 0600', async () => {
    const dataDir = join(parent, 'data');
    await mkdir(dataDir);
    await chmod(dataDir, 0o755);
    // A file a user or an older version left readable: the folder's mode is what keeps it private now.
    await writeFile(join(dataDir, 'notes.txt'), 'mine', { mode: 0o644 });
    const server = await startTestServer({ dataDir });
    try {
      expect(((await stat(dataDir)).mode & 0o777).toString(8)).toBe('700');
      const admin = (path: string, method: string, json?: unknown) =>
        server.api(`${server.engine.origin}/wp-json/calendar-desk/v1/${path}`, {
          method,
          json,
          auth: server.admin,
        });
      expect(
        (await server.api('events', { method: 'POST', json: eventBody('Mode check', 3), auth: server.admin }))
          .status,
      ).toBe(201);
      const picture = await fetch(`${server.engine.apiRoot}calendar-desk/v1/media`, {
        method: 'POST',
        headers: {
          ...server.admin,
          'Content-Type': 'image/png',
          'Content-Disposition': 'attachment; filename="a.png"',
        },
        body: PNG,
      });
      expect(picture.status).toBe(201);
      expect((await admin('feeds/regenerate', 'POST')).status).toBe(200);
      expect(
        (
          await admin('import', 'POST', {
            file_name: 'a.csv',
            content: 'Event Name,Event Start Date\nPicnic,2027-05-01',
          })
        ).status,
      ).toBe(200);
      const remotes = await admin('remotes', 'PUT', [
        {
          name: 'Site',
          root: 'https://example.org/wp-json/',
          auth_type: 'token',
          secret: 'not-a-real-token',
        },
      ]);
      expect(remotes.status).toBe(200);
    } finally {
      // A clean stop writes calendar.json (and its first backup) from the journal.
      await server.close();
    }
    const found = await modes(dataDir);
    const names = found.map(([name]) => name);
    for (const expected of [
      'admin-token',
      'calendar.json',
      'feeds.json',
      'import-history.json',
      'sync-secret.key',
      'server.json',
      'media/',
    ])
      expect(names).toContain(expected);
    expect(names.some((name) => name.startsWith('journal-'))).toBe(true);
    const wrong = found.filter(
      ([name, mode]) => name !== 'notes.txt' && mode !== (name.endsWith('/') ? '700' : '600'),
    );
    expect(wrong).toEqual([]);
  });

  it('creates a new folder as 0700', async () => {
    const dataDir = join(parent, 'new', 'data');
    const server = await startTestServer({ dataDir });
    await server.close();
    expect(((await stat(dataDir)).mode & 0o777).toString(8)).toBe('700');
  });
});
