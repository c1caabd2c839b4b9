import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDAVClient, type DAVCalendar } from 'tsdav';
import { eventBody, type TestServer } from '../helpers/server';
import { dayFromNow, startDavServer, vcalendar, veventLines, type DavUser } from '../helpers/davClients';

/** tsdav, the JavaScript CalDAV client, as the app's own test client against the real server. */
let server: TestServer;
let editor: DavUser;
let client: Awaited<ReturnType<typeof createDAVClient>>;
let calendar: DAVCalendar;

beforeAll(async () => {
  ({
    server,
    users: { ed: editor },
  } = await startDavServer({ ed: 'editor' }));
  await server.api('events', {
    method: 'POST',
    json: eventBody('Weekly practice', 2, { status: 'publish', recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'] }),
    auth: server.admin,
  });
  client = await createDAVClient({
    serverUrl: `${server.engine.origin}/`,
    credentials: { username: editor.login, password: editor.password },
    authMethod: 'Basic',
    defaultAccountType: 'caldav',
  });
  const calendars = await client.fetchCalendars();
  expect(calendars).toHaveLength(1);
  calendar = calendars[0]!;
});

afterAll(async () => {
  await server?.close();
});

describe('tsdav', () => {
  it('discovers the calendar with its name, components, ctag and sync token', () => {
    expect(calendar.url).toBe(`${server.engine.origin}/dav/calendars/ed/events/`);
    expect(calendar.components).toEqual(['VEVENT']);
    expect(calendar.ctag).toMatch(/^urn:calendar-desk:sync:/);
    expect(calendar.syncToken).toBe(calendar.ctag);
  });

  it('reads the series as one object and finds it by a time range on its later dates', async () => {
    const all = await client.fetchCalendarObjects({ calendar });
    expect(all).toHaveLength(1);
    expect(all[0]!.data).toContain('RRULE:FREQ=WEEKLY;COUNT=3');
    const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
    expect(
      await client.fetchCalendarObjects({ calendar, timeRange: { start: day(15), end: day(17) } }),
    ).toHaveLength(1);
    expect(
      await client.fetchCalendarObjects({ calendar, timeRange: { start: day(30), end: day(40) } }),
    ).toHaveLength(0);
  });

  it('creates, updates with its ETag, and deletes an event; the API sees each step', async () => {
    const uid = randomUUID();
    const day = dayFromNow(8);
    const lines = (title: string) => veventLines(uid, title, day);
    const created = await client.createCalendarObject({
      calendar,
      filename: `${uid}.ics`,
      iCalString: vcalendar(lines('Open day')),
    });
    expect(created.status).toBe(201);
    const [object] = await client.fetchCalendarObjects({
      calendar,
      objectUrls: [`${calendar.url}${uid}.ics`],
    });
    expect(object?.etag).toBeTruthy();
    const updated = await client.updateCalendarObject({
      calendarObject: { ...object!, data: vcalendar(lines('Open day, new time')) },
    });
    expect(updated.status).toBe(204);
    const search = await server.api('events?search=Open%20day&per_page=5', { auth: server.admin });
    expect(search.body.events.map((event: { title: string }) => event.title)).toEqual(['Open day, new time']);
    // The old ETag is stale now.
    const stale = await client.updateCalendarObject({
      calendarObject: { ...object!, data: vcalendar(lines('Lost update')) },
    });
    expect(stale.status).toBe(412);
    const [fresh] = await client.fetchCalendarObjects({
      calendar,
      objectUrls: [`${calendar.url}${uid}.ics`],
    });
    const deleted = await client.deleteCalendarObject({ calendarObject: fresh! });
    expect(deleted.status).toBe(204);
    const trashed = await server.api('events?search=Open%20day&status=trash&per_page=5', {
      auth: server.admin,
    });
    expect(trashed.body.events.map((event: { title: string }) => event.title)).toEqual([
      'Open day, new time',
    ]);
  });

  it('syncs changes and deletions by sync token (RFC 6578)', async () => {
    const [before] = await client.fetchCalendars();
    const uid = randomUUID();
    const day = dayFromNow(9);
    await client.createCalendarObject({
      calendar,
      filename: `${uid}.ics`,
      iCalString: vcalendar(veventLines(uid, 'Synced', day)),
    });
    const changes = await client.syncCollection({
      url: calendar.url,
      props: { 'd:getetag': {} },
      syncLevel: 1,
      syncToken: before!.syncToken as string,
    });
    expect(changes.filter((change) => change.href).map((change) => change.href)).toEqual([
      `/dav/calendars/ed/events/${uid}.ics`,
    ]);
    const expired = await client.davRequest({
      url: calendar.url,
      init: {
        method: 'REPORT',
        namespace: 'd',
        body: {
          'sync-collection': {
            _attributes: { 'xmlns:d': 'DAV:' },
            'sync-token': 'urn:calendar-desk:sync:editor:other-calendar:5:0',
            'sync-level': 1,
            prop: { getetag: {} },
          },
        },
      },
    });
    expect(expired[0]?.status).toBe(403);
    expect(String(expired[0]?.raw)).toContain('<d:valid-sync-token/>');
    expect(String(expired[0]?.raw)).toContain('Sync again from the start.');
    // A deletion comes as a 404 member.
    const [middle] = await client.fetchCalendars();
    const [object] = await client.fetchCalendarObjects({
      calendar,
      objectUrls: [`${calendar.url}${uid}.ics`],
    });
    expect((await client.deleteCalendarObject({ calendarObject: object! })).status).toBe(204);
    const deletions = await client.syncCollection({
      url: calendar.url,
      props: { 'd:getetag': {} },
      syncLevel: 1,
      syncToken: middle!.syncToken as string,
    });
    expect(deletions.filter((change) => change.href).map((change) => [change.href, change.status])).toEqual([
      [`/dav/calendars/ed/events/${uid}.ics`, 404],
    ]);
  });
});
