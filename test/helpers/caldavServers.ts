import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Real, independent CalDAV servers from Debian, each on a free loopback port with its own folder: Radicale
 * (htpasswd users) and Xandikos (no authentication of its own: it ignores the credentials it is sent).
 */
export interface CaldavServer {
  kind: 'radicale' | 'xandikos';
  /** The server's address (`http://127.0.0.1:PORT/`). */
  url: string;
  /** Where it keeps its collections (files a test may break on purpose). */
  dir: string;
  /** The calendar collection's address, once `ensureCalendar` made one. */
  calendarUrl: string;
  login: string;
  password: string;
  stop(): Promise<void>;
}

export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

async function listening(url: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited with ${child.exitCode}`);
    try {
      await fetch(url, { method: 'OPTIONS' });
      return;
    } catch (error) {
      if (attempt > 300) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

const auth = (login: string, password: string) => ({
  Authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`,
});

/** Makes a calendar collection with MKCALENDAR (as a server's web page would). */
export async function makeCalendar(server: CaldavServer, path: string, name: string): Promise<string> {
  const url = new URL(path, server.url).toString();
  const response = await fetch(url, {
    method: 'MKCALENDAR',
    headers: { ...auth(server.login, server.password), 'Content-Type': 'application/xml' },
    body:
      '<?xml version="1.0" encoding="utf-8"?><c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">' +
      `<d:set><d:prop><d:displayname>${name}</d:displayname></d:prop></d:set></c:mkcalendar>`,
  });
  if (response.status !== 201)
    throw new Error(`MKCALENDAR ${url}: HTTP ${response.status} ${await response.text()}`);
  return url;
}

export async function startRadicale(login = 'team', password = 'team-secret-1'): Promise<CaldavServer> {
  const dir = await mkdtemp(join(tmpdir(), 'calendar-desk-radicale-'));
  await writeFile(join(dir, 'users'), `${login}:${password}\n`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const child = spawn(
    '/usr/bin/radicale',
    [
      '--server-hosts',
      `127.0.0.1:${port}`,
      '--storage-filesystem-folder',
      join(dir, 'collections'),
      '--auth-type',
      'htpasswd',
      '--auth-htpasswd-filename',
      join(dir, 'users'),
      '--auth-htpasswd-encryption',
      'plain',
      '--rights-type',
      'owner_only',
    ],
    { stdio: 'ignore' },
  );
  await listening(url, child);
  const server: CaldavServer = {
    kind: 'radicale',
    url,
    dir,
    calendarUrl: '',
    login,
    password,
    stop: async () => {
      child.kill('SIGTERM');
      await rm(dir, { recursive: true, force: true });
    },
  };
  server.calendarUrl = await makeCalendar(server, `/${login}/choir/`, 'Choir');
  return server;
}

export async function startXandikos(login = 'team', password = 'team-secret-1'): Promise<CaldavServer> {
  const dir = await mkdtemp(join(tmpdir(), 'calendar-desk-xandikos-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const child = spawn(
    '/usr/bin/xandikos',
    ['-d', dir, '--defaults', '-l', '127.0.0.1', '-p', String(port), '--current-user-principal', '/user/'],
    { stdio: 'ignore' },
  );
  await listening(url, child);
  return {
    kind: 'xandikos',
    url,
    dir,
    calendarUrl: `${url}user/calendars/calendar/`,
    login,
    password,
    stop: async () => {
      child.kill('SIGTERM');
      await rm(dir, { recursive: true, force: true });
    },
  };
}
