import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server';
import {
  dayFromNow,
  pythonCaldav,
  reminder,
  startDavServer,
  startRadicale,
  vcalendar,
  veventLines,
  type DavUser,
  type Radicale,
} from '../helpers/davClients';

/**
 * The differential test: the same python3-caldav script against Debian's Radicale and against Calendar Desk,
 * expecting the same observable outcomes (what the client reads back after each step).
 */
let server: TestServer;
let editor: DavUser;
let radicale: Radicale;

beforeAll(async () => {
  ({
    server,
    users: { ed: editor },
  } = await startDavServer({ ed: 'editor' }));
  radicale = await startRadicale([editor]);
  expect((await pythonCaldav(radicale.url, editor, 'ensure')).calendars).toBe(1);
  expect((await pythonCaldav(`${server.engine.origin}/`, editor, 'ensure')).calendars).toBe(1);
}, 60_000);

afterAll(async () => {
  await radicale?.stop();
  await server?.close();
});

/** What the client reads back of a resource: the fields a user sees in their calendar app. */
function seen(data: unknown) {
  const text = String(data).replace(/\r\n[ \t]/g, '');
  const master =
    text
      .split('BEGIN:VEVENT')
      .slice(1)
      .find((vevent) => !vevent.includes('RECURRENCE-ID')) ?? '';
  const field = (name: string) => new RegExp(`^${name}[;:][^\\r\\n]*`, 'm').exec(master)?.[0] ?? null;
  return {
    summary: field('SUMMARY'),
    start: field('DTSTART'),
    rrule: field('RRULE'),
    overrides: text.split('RECURRENCE-ID').length - 1,
    alarm: field('TRIGGER'),
    attendee: field('ATTENDEE'),
    moz: field('X-MOZ-LASTACK'),
  };
}

/** The scenario, run against one server; its outcomes. */
async function scenario(url: string) {
  const outcomes: Record<string, unknown> = {};
  const uid = randomUUID();
  const second = randomUUID();
  const day = dayFromNow(10);
  const next = dayFromNow(17);
  const start = await pythonCaldav(url, editor, 'sync-start');
  outcomes.initial = start.summaries;
  const created = await pythonCaldav(
    url,
    editor,
    'create',
    vcalendar(
      veventLines(uid, 'Rehearsal', day, [
        'RRULE:FREQ=WEEKLY;COUNT=3',
        'ATTENDEE;CN=Anna:mailto:anna@example.org',
        'X-MOZ-LASTACK:20261101T000000Z',
        ...reminder('-PT30M'),
      ]),
      veventLines(uid, 'Rehearsal (late)', next, [`RECURRENCE-ID:${next}T180000Z`], '183000', '193000'),
    ),
  );
  outcomes.created = seen(created.data);
  outcomes.edited = seen((await pythonCaldav(url, editor, 'edit', uid, 'Dress rehearsal')).data);
  await pythonCaldav(
    url,
    editor,
    'create',
    vcalendar(veventLines(second, 'Coffee', day, [], '100000', '110000')),
  );
  const middle = await pythonCaldav(url, editor, 'sync-since', String(start.token));
  outcomes.changedSinceStart = middle.changed;
  await pythonCaldav(url, editor, 'delete', second);
  outcomes.changedAfterDelete = (await pythonCaldav(url, editor, 'sync-since', String(middle.token))).changed;
  const iso = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 19);
  outcomes.thirdWeek = (await pythonCaldav(url, editor, 'range', iso(23), iso(25))).summaries;
  outcomes.farAway = (await pythonCaldav(url, editor, 'range', iso(60), iso(70))).summaries;
  outcomes.final = (await pythonCaldav(url, editor, 'discover')).summaries;
  // Names are the client's own (uid.ics) on both: compare them as roles.
  return JSON.parse(
    JSON.stringify(outcomes).replaceAll(uid, 'SERIES').replaceAll(second, 'SINGLE'),
  ) as Record<string, unknown>;
}

describe('python3-caldav against Radicale and Calendar Desk', () => {
  it('sees the same outcomes on both servers', async () => {
    const reference = await scenario(radicale.url);
    const ours = await scenario(`${server.engine.origin}/`);
    // What the reference shows, so a failure says which step differs.
    expect(reference.created).toMatchObject({
      summary: 'SUMMARY:Rehearsal',
      alarm: 'TRIGGER:-PT30M',
      overrides: 1,
    });
    expect(ours).toEqual(reference);
  }, 180_000);
});
