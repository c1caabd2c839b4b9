import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addUser } from '../../src/main/core/users';
import type { Role } from '../../src/shared/enums';
import { onFreePort } from './ports';
import { startTestServer, type TestServer } from './server';

/*
 * What the CalDAV tests (test/dav/) share: Calendar Desk with users signed in by application password, Debian's
 * python3-caldav as a client of it, Debian's Radicale as the reference server, and the iCalendar they send.
 */

/** A user with an application password, as a CalDAV client signs in with them. */
export interface DavUser {
  login: string;
  password: string;
  headers: Record<string, string>;
}

export async function davUser(server: TestServer, login: string, role: Role): Promise<DavUser> {
  const { password } = await addUser(server.engine.store, login, role, () => new Date());
  return {
    login,
    password,
    headers: { Authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` },
  };
}

/** Calendar Desk on a free port over a fresh data folder, with a CalDAV user of each login and role given. */
export async function startDavServer<Login extends string>(
  roles: Record<Login, Role>,
): Promise<{ server: TestServer; users: Record<Login, DavUser> }> {
  const server = await startTestServer();
  const users = {} as Record<Login, DavUser>;
  for (const [login, role] of Object.entries(roles) as Array<[Login, Role]>)
    users[login] = await davUser(server, login, role);
  return { server, users };
}

const PYTHON_CLIENT = fileURLToPath(new URL('../dav/clients/python_caldav.py', import.meta.url));

/** One step of Debian's python3-caldav against a server (see dav/clients/python_caldav.py); its JSON answer. */
export function pythonCaldav(
  url: string,
  user: DavUser,
  step: string,
  ...args: string[]
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    execFile(
      '/usr/bin/python3',
      [PYTHON_CLIENT, url, user.login, user.password, step, ...args],
      { maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`python3-caldav ${step} failed: ${stderr || error.message}`));
        resolve(JSON.parse(stdout) as Record<string, unknown>);
      },
    );
  });
}

/** Debian's Radicale on a free port, signing the users in with their passwords, each owning their calendars. */
export interface Radicale {
  url: string;
  stop(): Promise<void>;
}

/**
 * A server process on a free loopback port, started again on another port (three attempts) when it exits before
 * it answers or when what answers is not it (`isIt`, from the answer to OPTIONS /): another test's server may take
 * the port between `freePort` closing its probe and the process binding it.
 */
export function spawnOnFreePort(
  name: string,
  spawnAt: (port: number) => ChildProcess,
  isIt: (answer: Response) => boolean,
): Promise<{ url: string; child: ChildProcess }> {
  return onFreePort(
    async (port) => {
      const url = `http://127.0.0.1:${port}/`;
      const child = spawnAt(port);
      for (let poll = 0; poll < 300 && child.exitCode === null; poll++) {
        const answer = await fetch(url, { method: 'OPTIONS' }).catch(() => null);
        if (answer && child.exitCode === null && isIt(answer)) return { url, child };
        // Another process has the port.
        if (answer) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      child.kill('SIGKILL');
      throw new PortNotServed(`${name} did not start on a free loopback port (3 attempts).`);
    },
    (error) => error instanceof PortNotServed,
  );
}

/** The process exited before it answered, or what answered on its port was not it. */
class PortNotServed extends Error {}

/** Radicale answers from Python's WSGI server, with the CalDAV methods (`DAV: …calendar-access`). */
const isRadicale = (answer: Response) =>
  /WSGIServer/.test(answer.headers.get('server') ?? '') &&
  /calendar-access/.test(answer.headers.get('dav') ?? '');

export async function startRadicale(users: DavUser[]): Promise<Radicale> {
  const dir = await mkdtemp(join(tmpdir(), 'calendar-desk-radicale-'));
  await writeFile(join(dir, 'users'), users.map((user) => `${user.login}:${user.password}\n`).join(''));
  try {
    const { url, child } = await spawnOnFreePort(
      'Radicale',
      (port) =>
        spawn(
          '/usr/bin/radicale',
          [
            ...['--server-hosts', `127.0.0.1:${port}`],
            ...['--storage-filesystem-folder', join(dir, 'collections')],
            ...['--auth-type', 'htpasswd', '--auth-htpasswd-filename', join(dir, 'users')],
            ...['--auth-htpasswd-encryption', 'plain', '--rights-type', 'owner_only'],
          ],
          { stdio: 'ignore' },
        ),
      isRadicale,
    );
    const stop = async () => {
      child.kill('SIGTERM');
      await rm(dir, { recursive: true, force: true });
    };
    return { url, stop };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** `YYYYMMDD` of a day `days` from now (UTC). */
export const dayFromNow = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');

/** A VCALENDAR with the given VEVENT lines (CRLF, as clients send). */
export const vcalendar = (...vevents: string[][]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Calendar Desk tests//EN',
    ...vevents.flatMap((lines) => ['BEGIN:VEVENT', ...lines, 'END:VEVENT']),
    'END:VCALENDAR',
    '',
  ].join('\r\n');

/**
 * A VEVENT's lines: `title` on `day` (YYYYMMDD) from `from` to `to` UTC (HHMMSS), then `extra` lines (with a
 * RECURRENCE-ID, a changed date of a series).
 */
export const veventLines = (
  uid: string,
  title: string,
  day: string,
  extra: string[] = [],
  from = '180000',
  to = '190000',
) => [
  `UID:${uid}`,
  `DTSTAMP:${day}T080000Z`,
  `DTSTART:${day}T${from}Z`,
  `DTEND:${day}T${to}Z`,
  `SUMMARY:${title}`,
  ...extra,
];

/** A VCALENDAR of one event, `title` from 18:00 to 19:00 UTC `days` from now. */
export const singleEvent = (uid: string, title: string, days = 10, extra: string[] = []) =>
  vcalendar(veventLines(uid, title, dayFromNow(days), extra));

/** A display reminder, as calendar apps add them: a user's own, never shown to others. */
export const reminder = (trigger: string, text = 'Reminder') => [
  'BEGIN:VALARM',
  'ACTION:DISPLAY',
  `DESCRIPTION:${text}`,
  `TRIGGER:${trigger}`,
  'END:VALARM',
];
