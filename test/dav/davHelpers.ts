import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { addUser } from '../../src/main/core/users';
import type { Role } from '../../src/shared/enums';
import type { TestServer } from '../helpers/server';

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

const PYTHON_CLIENT = fileURLToPath(new URL('./clients/python_caldav.py', import.meta.url));

/** One step of Debian's python3-caldav against the server (see clients/python_caldav.py); its JSON answer. */
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
