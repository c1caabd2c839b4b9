import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnOnFreePort, startRadicale } from './davClients';

/**
 * Real, independent CalDAV servers from Debian, each on a free loopback port with its own folder: Radicale
 * (htpasswd users) and Xandikos (no authentication of its own: it ignores the credentials it is sent).
 */
export interface CaldavServer {
  kind: 'radicale' | 'xandikos';
  /** The server's address (`http://127.0.0.1:PORT/`). */
  url: string;
  /** The calendar collection's address, once `ensureCalendar` made one. */
  calendarUrl: string;
  login: string;
  password: string;
  stop(): Promise<void>;
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

/** Radicale with one user and a calendar of theirs, "Choir". */
export async function startRadicaleCalendar(
  login = 'team',
  password = 'team-secret-1',
): Promise<CaldavServer> {
  const radicale = await startRadicale([{ login, password, headers: {} }]);
  const server: CaldavServer = { kind: 'radicale', ...radicale, calendarUrl: '', login, password };
  server.calendarUrl = await makeCalendar(server, `/${login}/choir/`, 'Choir');
  return server;
}

/** Xandikos with its default calendar (it takes any credentials: it has no authentication of its own). */
export async function startXandikosCalendar(
  login = 'team',
  password = 'team-secret-1',
): Promise<CaldavServer> {
  const dir = await mkdtemp(join(tmpdir(), 'calendar-desk-xandikos-'));
  const { url, child } = await spawnOnFreePort(
    'Xandikos',
    (port) =>
      spawn(
        '/usr/bin/xandikos',
        [
          '-d',
          dir,
          '--defaults',
          '-l',
          '127.0.0.1',
          '-p',
          String(port),
          '--current-user-principal',
          '/user/',
        ],
        { stdio: 'ignore' },
      ),
    // Xandikos answers from aiohttp, with the CalDAV methods.
    (answer) =>
      /aiohttp/.test(answer.headers.get('server') ?? '') &&
      /calendar-access/.test(answer.headers.get('dav') ?? ''),
  ).catch(async (error: unknown) => {
    await rm(dir, { recursive: true, force: true });
    throw error;
  });
  return {
    kind: 'xandikos',
    url,
    calendarUrl: `${url}user/calendars/calendar/`,
    login,
    password,
    stop: async () => {
      child.kill('SIGTERM');
      await rm(dir, { recursive: true, force: true });
    },
  };
}
