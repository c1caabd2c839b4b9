import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, type TestServer } from '../helpers/server';
import {
  dayFromNow,
  pythonCaldav,
  reminder,
  startDavServer,
  vcalendar,
  veventLines,
  type DavUser,
} from '../helpers/davClients';

/** Debian's python3-caldav (a real CalDAV client) against the real server on a real port. */
let server: TestServer;
let editor: DavUser;
let contributor: DavUser;
let subscriber: DavUser;
let url: string;

const eventsTitled = async (title: string, status = 'publish,pending,draft,private,trash') => {
  const found = await server.api(`events?search=${encodeURIComponent(title)}&status=${status}&per_page=50`, {
    auth: server.admin,
  });
  return ((found.body?.events ?? []) as Array<{ title: string; status: string; id: number }>).filter(
    (event) => event.title === title,
  );
};

beforeAll(async () => {
  ({
    server,
    users: { ed: editor, connie: contributor, sub: subscriber },
  } = await startDavServer({ ed: 'editor', connie: 'contributor', sub: 'subscriber' }));
  url = `${server.engine.origin}/`;
  const create = async (body: Record<string, unknown>) => {
    const created = await server.api('events', { method: 'POST', json: body, auth: server.admin });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  };
  await create(eventBody('Choir rehearsal', 3, { status: 'publish' }));
  await create(
    eventBody('Weekly practice', 2, { status: 'publish', recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'] }),
  );
  await create(eventBody('Board meeting', 4, { status: 'private' }));
  await create(eventBody('Members only', 5, { status: 'publish', post_password: 'secret' }));
});

afterAll(async () => {
  await server?.close();
});

describe('python3-caldav discovers the calendar from the bare address', () => {
  it('finds the principal and the one calendar, with the events the user may see', async () => {
    const seen = await pythonCaldav(url, editor, 'discover');
    expect(seen.principal).toBe(`${server.engine.origin}/dav/principals/ed/`);
    expect(seen.calendar).toBe(`${server.engine.origin}/dav/calendars/ed/events/`);
    expect(seen.summaries).toEqual(['Board meeting', 'Choir rehearsal', 'Members only', 'Weekly practice']);
  });

  it('shows a subscriber neither private nor password-protected events', async () => {
    const seen = await pythonCaldav(url, subscriber, 'discover');
    expect(seen.summaries).toEqual(['Choir rehearsal', 'Weekly practice']);
  });

  it('finds a series by a time range that only its later occurrences meet', async () => {
    const iso = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 19);
    // The series starts in 2 days and repeats weekly: days 9 and 16. Day 15-17 holds only its third date.
    expect((await pythonCaldav(url, editor, 'range', iso(15), iso(17))).summaries).toEqual([
      'Weekly practice',
    ]);
    expect((await pythonCaldav(url, editor, 'range', iso(30), iso(40))).summaries).toEqual([]);
  });

  it('is refused with a wrong application password', async () => {
    const wrong = { ...editor, password: 'abcd efgh ijkl mnop qrst uvwx' };
    const seen = await pythonCaldav(url, wrong, 'discover');
    expect(seen.error).toBeDefined();
  });
});

describe('python3-caldav writes through the calendar rules', () => {
  it('creates an event, keeping its reminder and attendee for the user who added them only', async () => {
    const uid = randomUUID();
    const day = dayFromNow(10);
    const created = await pythonCaldav(
      url,
      editor,
      'create',
      vcalendar(
        veventLines(
          uid,
          'Concert in the park',
          day,
          [
            'LOCATION:Rose Garden',
            'ATTENDEE;CN=Anna:mailto:anna@example.org',
            'X-MOZ-LASTACK:20261101T000000Z',
            ...reminder('-PT30M'),
          ],
          '180000',
          '200000',
        ),
      ),
    );
    expect(created.url).toBe(`${server.engine.origin}/dav/calendars/ed/events/${uid}.ics`);
    const data = String(created.data);
    expect(data).toContain('BEGIN:VALARM');
    expect(data).toContain('TRIGGER:-PT30M');
    expect(data).toContain('X-MOZ-LASTACK:20261101T000000Z');
    expect(data).toContain('ATTENDEE;CN=Anna:mailto:anna@example.org');
    expect(data).toContain('Rose Garden');
    const [event] = await eventsTitled('Concert in the park');
    expect(event?.status).toBe('publish');
    const single = await server.api(`events/${event!.id}`, { auth: server.admin });
    expect(single.body.venue?.venue).toBe('Rose Garden');
    // Another user sees the event, not the editor's reminder.
    const other = await pythonCaldav(url, subscriber, 'get', uid);
    expect(String(other.data)).toContain('SUMMARY:Concert in the park');
    expect(String(other.data)).not.toContain('VALARM');
    expect(String(other.data)).not.toContain('X-MOZ-LASTACK');
  });

  it('edits an event, and the API shows the change', async () => {
    const uid = randomUUID();
    const day = dayFromNow(11);
    await pythonCaldav(url, editor, 'create', vcalendar(veventLines(uid, 'Old title', day)));
    const edited = await pythonCaldav(url, editor, 'edit', uid, 'New title');
    expect(String(edited.data)).toContain('SUMMARY:New title');
    expect(await eventsTitled('Old title')).toEqual([]);
    expect((await eventsTitled('New title')).map((event) => event.status)).toEqual(['publish']);
  });

  it('deletes an event to the trash', async () => {
    const uid = randomUUID();
    const day = dayFromNow(12);
    await pythonCaldav(url, editor, 'create', vcalendar(veventLines(uid, 'Soon gone', day)));
    expect((await pythonCaldav(url, editor, 'delete', uid)).deleted).toBe(true);
    expect((await eventsTitled('Soon gone')).map((event) => event.status)).toEqual(['trash']);
  });

  it('creates a series with a changed occurrence as one resource', async () => {
    const uid = randomUUID();
    const day = dayFromNow(20);
    const second = dayFromNow(27);
    const created = await pythonCaldav(
      url,
      editor,
      'create',
      vcalendar(
        veventLines(uid, 'Chess club', day, ['RRULE:FREQ=WEEKLY;COUNT=3'], '170000', '180000'),
        veventLines(uid, 'Chess club final', second, [`RECURRENCE-ID:${second}T170000Z`], '173000', '183000'),
      ),
    );
    expect(String(created.data)).toContain('RRULE:FREQ=WEEKLY;COUNT=3');
    expect(String(created.data)).toContain(`RECURRENCE-ID:${second}T170000Z`);
    expect(await eventsTitled('Chess club')).toHaveLength(2);
    expect(await eventsTitled('Chess club final')).toHaveLength(1);
  });

  it("makes a contributor's new event pending, and refuses a subscriber's", async () => {
    const day = dayFromNow(14);
    const made = await pythonCaldav(
      url,
      contributor,
      'create',
      vcalendar(veventLines(randomUUID(), 'Bake sale', day)),
    );
    expect(made.error).toBeUndefined();
    expect((await eventsTitled('Bake sale')).map((event) => event.status)).toEqual(['pending']);
    const refused = await pythonCaldav(
      url,
      subscriber,
      'create',
      vcalendar(veventLines(randomUUID(), 'Not allowed', day)),
    );
    // python3-caldav reports a 403 as AuthorizationError.
    expect(refused.error).toBe('AuthorizationError');
    expect(await eventsTitled('Not allowed')).toEqual([]);
  });
});

describe('python3-caldav follows sync tokens', () => {
  it('gets the changes and deletions since its token, made through CalDAV and the REST API', async () => {
    const start = await pythonCaldav(url, editor, 'sync-start');
    const token = String(start.token);
    const day = dayFromNow(15);
    const keep = randomUUID();
    const drop = randomUUID();
    for (const [uid, title] of [
      [keep, 'Sync keep'],
      [drop, 'Sync drop'],
    ])
      await pythonCaldav(url, editor, 'create', vcalendar(veventLines(uid, title, day)));
    const middle = String((await pythonCaldav(url, editor, 'sync-since', token)).token);
    expect((await pythonCaldav(url, editor, 'sync-since', token)).changed).toEqual({
      [`${keep}.ics`]: 'present',
      [`${drop}.ics`]: 'present',
    });
    await pythonCaldav(url, editor, 'delete', drop);
    const [choir] = await eventsTitled('Choir rehearsal');
    const renamed = await server.api(`events/${choir!.id}`, {
      method: 'POST',
      json: { title: 'Choir rehearsal (moved)' },
      auth: server.admin,
    });
    expect(renamed.status).toBe(200);
    const since = await pythonCaldav(url, editor, 'sync-since', middle);
    const changed = since.changed as Record<string, string>;
    expect(changed[`${drop}.ics`]).toBe('gone');
    expect(Object.values(changed).filter((state) => state === 'present')).toHaveLength(1);
    expect(Object.keys(changed)).toHaveLength(2);
    // Nothing changed since the newest token: nothing comes.
    expect((await pythonCaldav(url, editor, 'sync-since', String(since.token))).changed).toEqual({});
  });
});
