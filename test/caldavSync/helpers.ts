import { runAnySync } from '../../src/main/caldavSync/anyRemote';
import { folderOwner } from '../../src/main/core/users';
import type { ConflictPolicy, Decisions, SyncDirection } from '../../src/main/sync/model';
import type { SyncReport } from '../../src/main/sync/sync';
import { randomUUID } from 'node:crypto';
import { pythonCaldav, vcalendar, type DavUser } from '../helpers/davClients';
import type { CaldavServer } from '../helpers/caldavServers';
import type { TestServer } from '../helpers/server';

/** The CalDAV server's account as the python client signs in with it. */
export const teamUser = (server: CaldavServer): DavUser => ({
  login: server.login,
  password: server.password,
  headers: {},
});

/** The CalDAV server's account as Calendar Desk's sync signs in with it. */
export const davAuth = (server: CaldavServer) => ({ user: server.login, password: server.password });

/** A laptop's sync with the CalDAV calendar, as the CLI and the app run it (the folder owner's). */
export function syncWith(
  laptop: TestServer,
  server: CaldavServer,
  options: {
    policy?: ConflictPolicy;
    decisions?: Decisions;
    dryRun?: boolean;
    root?: string;
    timeoutMs?: number;
    attempts?: number;
    direction?: SyncDirection;
  } = {},
): Promise<SyncReport> {
  return runAnySync({
    store: laptop.engine.store,
    caller: folderOwner(laptop.engine.store),
    remote: {
      root: options.root ?? server.calendarUrl,
      namespace: 'caldav',
      auth: { user: server.login, password: server.password },
      backoffMs: 5,
      timeoutMs: options.timeoutMs,
      attempts: options.attempts,
    },
    policy: options.policy ?? 'ask',
    decisions: options.decisions,
    dryRun: options.dryRun,
    direction: options.direction,
  });
}

/** Another calendar app on the server (python3-caldav, as a phone would be): one step, its JSON answer. */
export const phone = (server: CaldavServer, step: string, ...args: string[]) =>
  pythonCaldav(server.url, teamUser(server), step, ...args);

export interface ListedEvent {
  id: number;
  title: string;
  description: string;
  start_date: string;
  end_date: string;
  venue?: { venue?: string } | [];
}

/** Every event of a laptop (occurrences of series each on their own), sorted by start. */
export async function eventsOf(laptop: TestServer): Promise<ListedEvent[]> {
  const answer = await laptop.api('events?start_date=2000-01-01&end_date=2100-01-01&per_page=200', {
    auth: laptop.admin,
  });
  return (answer.body.events as ListedEvent[]).sort((a, b) => a.start_date.localeCompare(b.start_date));
}

/** A day `days` from now as `YYYY-MM-DD`. */
export const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A phone's new event on the server: a plain VEVENT `days` from now at 10:00 UTC, with `extra` lines. */
export function phoneEvent(server: CaldavServer, title: string, days: number, extra: string[] = []) {
  return phone(
    server,
    'create',
    vcalendar([
      `UID:${randomUUID()}`,
      'DTSTAMP:20261101T000000Z',
      `DTSTART:${day(days).replace(/-/g, '')}T100000Z`,
      `SUMMARY:${title}`,
      ...extra,
    ]),
  );
}
