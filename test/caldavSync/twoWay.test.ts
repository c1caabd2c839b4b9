import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, startTestServer, type TestServer } from '../helpers/server';
import { startRadicaleCalendar, startXandikosCalendar, type CaldavServer } from '../helpers/caldavServers';
import { vcalendar } from '../helpers/davClients';
import { DavCalendar } from '../../src/main/caldavSync/davCalendar';
import { davAuth, day, eventsOf, phone, phoneEvent, syncWith } from './helpers';

/**
 * Two laptops and a team's CalDAV calendar on two real, independent servers from Debian (Radicale, Xandikos):
 * what one laptop publishes reaches the other the same; what a phone changes on the server comes back; edits of
 * different fields merge, of one field are a conflict with its three values; a delete meets an edit.
 */
describe.each([
  ['Radicale', startRadicaleCalendar],
  ['Xandikos', startXandikosCalendar],
])('two-way sync with %s', (_name, start) => {
  let server: CaldavServer;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    server = await start();
    a = await startTestServer();
    b = await startTestServer();
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await server?.stop();
  });

  it('a calendar with a series and its exceptions reaches the other laptop the same; a second sync is a no-op', async () => {
    await a.api('events', {
      method: 'POST',
      auth: a.admin,
      json: eventBody('Concert', 20, {
        venue: { venue: 'Town Hall', address: '1 Main St', city: 'Springfield' },
      }),
    });
    const series = await a.api('events', {
      method: 'POST',
      auth: a.admin,
      json: eventBody('Rehearsal', 2, { recurrence: ['RRULE:FREQ=WEEKLY;COUNT=5'] }),
    });
    expect(series.status).toBe(201);
    const occurrences = (await eventsOf(a)).filter((event) => event.title === 'Rehearsal');
    expect(occurrences).toHaveLength(5);
    // The 2nd rehearsal moves an hour later; the 4th is cancelled.
    const moved = await a.api(`events/${occurrences[1]!.id}`, {
      method: 'POST',
      auth: a.admin,
      json: {
        start_date: `${occurrences[1]!.start_date.slice(0, 10)} 11:00:00`,
        end_date: `${occurrences[1]!.start_date.slice(0, 10)} 13:00:00`,
        scope: 'this',
      },
    });
    expect(moved.status).toBe(200);
    expect(
      (await a.api(`events/${occurrences[3]!.id}?scope=this`, { method: 'DELETE', auth: a.admin })).status,
    ).toBe(200);

    const pushed = await syncWith(a, server);
    expect(pushed.failures).toEqual([]);
    expect(pushed.summary).toMatchObject({ created: 2, failed: 0 });
    const seen = await phone(server, 'sync-start');
    expect(seen.summaries).toEqual(['Concert', 'Rehearsal']);

    const pulled = await syncWith(b, server);
    expect(pulled.failures).toEqual([]);
    expect(pulled.summary).toMatchObject({ imported: 2, failed: 0 });
    const shape = (events: Awaited<ReturnType<typeof eventsOf>>) =>
      events.map((event) => [event.title, event.start_date, event.end_date]);
    expect(shape(await eventsOf(b))).toEqual(shape(await eventsOf(a)));
    expect(shape(await eventsOf(b)).filter(([title]) => title === 'Rehearsal')).toHaveLength(4);
    const concert = (await eventsOf(b)).find((event) => event.title === 'Concert')!;
    expect(concert.venue).toMatchObject({ venue: 'Town Hall' });

    for (const laptop of [a, b]) expect((await syncWith(laptop, server)).operations).toEqual([]);
  });

  it("a phone's new event and edit come back; the reminder it set survives our next write", async () => {
    const uid = randomUUID();
    const text = vcalendar([
      `UID:${uid}`,
      'DTSTAMP:20261101T000000Z',
      `DTSTART:${day(5).replace(/-/g, '')}T180000Z`,
      `DTEND:${day(5).replace(/-/g, '')}T190000Z`,
      'SUMMARY:Sectional (sopranos)',
      'BEGIN:VALARM',
      'ACTION:DISPLAY',
      'DESCRIPTION:Reminder',
      'TRIGGER:-PT30M',
      'END:VALARM',
    ]);
    expect((await phone(server, 'create', text)).error).toBeUndefined();
    expect((await syncWith(a, server)).summary).toMatchObject({ imported: 1 });
    expect((await eventsOf(a)).map((event) => event.title)).toContain('Sectional (sopranos)');

    await phone(server, 'edit', uid, 'Sectional (all sopranos)');
    expect((await syncWith(a, server)).summary).toMatchObject({ pulled: 1 });
    const mine = (await eventsOf(a)).find((event) => event.title === 'Sectional (all sopranos)')!;
    expect(mine).toBeDefined();

    await a.api(`events/${mine.id}`, {
      method: 'POST',
      auth: a.admin,
      json: { description: 'Bring the Brahms' },
    });
    expect((await syncWith(a, server)).summary).toMatchObject({ updated: 1 });
    const there = String((await phone(server, 'get', uid)).data);
    expect(there).toContain('Bring the Brahms');
    expect(there).toContain('BEGIN:VALARM');
    expect(there).toContain('TRIGGER:-PT30M');
    expect((await syncWith(a, server)).operations).toEqual([]);
  });

  it('two laptops: different fields merge, one field is a conflict with three values, a delete meets an edit', async () => {
    const made = await a.api('events', {
      method: 'POST',
      auth: a.admin,
      json: eventBody('Open rehearsal', 12),
    });
    const other = await a.api('events', { method: 'POST', auth: a.admin, json: eventBody('Bake sale', 14) });
    await syncWith(a, server);
    await syncWith(b, server);
    const onB = async (title: string) => (await eventsOf(b)).find((event) => event.title === title)!;
    const bOpen = await onB('Open rehearsal');

    // Different fields: A renames, B describes.
    await a.api(`events/${made.body.id}`, {
      method: 'POST',
      auth: a.admin,
      json: { title: 'Open rehearsal (free)' },
    });
    await b.api(`events/${bOpen.id}`, { method: 'POST', auth: b.admin, json: { description: 'Doors at 6' } });
    await syncWith(a, server);
    const merged = await syncWith(b, server);
    expect(merged.conflicts).toEqual([]);
    await syncWith(a, server);
    for (const laptop of [a, b]) {
      const event = (await eventsOf(laptop)).find((one) => one.title === 'Open rehearsal (free)');
      expect(event?.description).toContain('Doors at 6');
    }

    // The same field on both: a conflict with base, local and remote values; remote-wins takes the server's.
    await a.api(`events/${made.body.id}`, { method: 'POST', auth: a.admin, json: { title: 'Open day' } });
    await b.api(`events/${bOpen.id}`, { method: 'POST', auth: b.admin, json: { title: 'Open evening' } });
    await syncWith(a, server);
    const asked = await syncWith(b, server);
    expect(asked.conflicts).toHaveLength(1);
    expect(asked.conflicts[0]).toMatchObject({ reason: 'both-changed', title: 'Open evening' });
    const titleDiff = asked.conflicts[0]!.diff.find((change) => change.field === 'title')!;
    expect(String(titleDiff.base)).toContain('Open rehearsal (free)');
    expect(String(titleDiff.local)).toContain('Open evening');
    expect(String(titleDiff.remote)).toContain('Open day');
    expect((await onB('Open evening')).title).toBe('Open evening');
    await syncWith(b, server, { policy: 'remote-wins' });
    expect((await eventsOf(b)).map((event) => event.title)).toContain('Open day');

    // A deletes what B edits: B is asked (remote-deleted); nothing is lost until B decides.
    const bSale = await onB('Bake sale');
    expect((await a.api(`events/${other.body.id}`, { method: 'DELETE', auth: a.admin })).status).toBe(200);
    await b.api(`events/${bSale.id}`, {
      method: 'POST',
      auth: b.admin,
      json: { title: 'Bake sale (cakes!)' },
    });
    expect((await syncWith(a, server)).summary).toMatchObject({ deleted: 1 });
    const deleteMeetsEdit = await syncWith(b, server);
    expect(deleteMeetsEdit.conflicts).toMatchObject([{ reason: 'remote-deleted' }]);
    expect((await eventsOf(b)).map((event) => event.title)).toContain('Bake sale (cakes!)');
    // Keeping the edit sends it back to the server.
    await syncWith(b, server, { policy: 'local-wins' });
    expect((await phone(server, 'sync-start')).summaries).toContain('Bake sale (cakes!)');
    // …and A, which deleted it, gets it back out of its trash (the same event, not a copy).
    const back = await syncWith(a, server);
    expect(back.failures).toEqual([]);
    const onA = await a.api(`events/${other.body.id}`, { auth: a.admin });
    expect(onA.body).toMatchObject({ title: 'Bake sale (cakes!)', status: 'publish' });
  });

  it('a series with a moved and a cancelled date made on the server arrives as our series, and goes back whole', async () => {
    const uid = randomUUID();
    const first = day(30).replace(/-/g, '');
    const week = (n: number) =>
      new Date(Date.parse(`${day(30)}T00:00:00Z`) + n * 7 * 86_400_000)
        .toISOString()
        .slice(0, 10)
        .replace(/-/g, '');
    const text = vcalendar(
      [
        `UID:${uid}`,
        'DTSTAMP:20261101T000000Z',
        `DTSTART:${first}T170000Z`,
        `DTEND:${first}T180000Z`,
        'SUMMARY:Weekly warm-up',
        'RRULE:FREQ=WEEKLY;COUNT=4',
        `EXDATE:${week(2)}T170000Z`,
      ],
      [
        `UID:${uid}`,
        'DTSTAMP:20261101T000000Z',
        `RECURRENCE-ID:${week(1)}T170000Z`,
        `DTSTART:${week(1)}T190000Z`,
        `DTEND:${week(1)}T200000Z`,
        'SUMMARY:Weekly warm-up (late)',
      ],
    );
    expect((await phone(server, 'create', text)).error).toBeUndefined();
    const report = await syncWith(a, server);
    expect(report.failures).toEqual([]);
    const warmups = (await eventsOf(a)).filter((event) => event.title.startsWith('Weekly warm-up'));
    expect(warmups.map((event) => [event.title, event.start_date.slice(11)])).toEqual([
      ['Weekly warm-up', expect.any(String)],
      ['Weekly warm-up (late)', expect.any(String)],
      ['Weekly warm-up', expect.any(String)],
    ]);
    expect(warmups.map((event) => event.start_date.slice(0, 10).replace(/-/g, ''))).toEqual([
      first,
      week(1),
      week(3),
    ]);
    expect(warmups[1]!.start_date.slice(11, 13)).not.toBe(warmups[0]!.start_date.slice(11, 13));

    // Renaming the whole series here sends one resource with its rule, its cancelled date and its moved one.
    await a.api(`events/${warmups[0]!.id}`, {
      method: 'POST',
      auth: a.admin,
      json: { title: 'Warm-up', scope: 'all' },
    });
    expect((await syncWith(a, server)).summary).toMatchObject({ updated: 1, failed: 0 });
    const there = String((await phone(server, 'get', uid)).data).replace(/\r\n[ \t]/g, '');
    expect(there).toMatch(/RRULE:FREQ=WEEKLY;COUNT=4/);
    expect(there).toMatch(/EXDATE[;:]/);
    expect(there).toMatch(/RECURRENCE-ID[;:]/);
    expect(there).toContain('SUMMARY:Warm-up');
    expect((await syncWith(a, server)).operations).toEqual([]);
  });
});

describe('what the server adds and what it names', () => {
  let server: CaldavServer;
  let a: TestServer;
  beforeAll(async () => {
    server = await startRadicaleCalendar();
    a = await startTestServer();
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await server?.stop();
  });

  it("an app's reminder added on the server is no change: nothing is written either side", async () => {
    await a.api('events', { method: 'POST', auth: a.admin, json: eventBody('Quiet evening', 6) });
    await syncWith(a, server);
    const [href] = [...(await new DavCalendar(server.calendarUrl, { auth: davAuth(server) }).etags()).keys()];
    const url = new URL(href!, server.url).toString();
    const headers = {
      Authorization: `Basic ${Buffer.from(`${server.login}:${server.password}`).toString('base64')}`,
    };
    const before = await (await fetch(url, { headers })).text();
    const withAlarm = before.replace(
      'END:VEVENT',
      'X-MOZ-LASTACK:20261101T000000Z\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Soon\r\nTRIGGER:-PT15M\r\nEND:VALARM\r\nEND:VEVENT',
    );
    const put = await fetch(url, {
      method: 'PUT',
      headers: { ...headers, 'Content-Type': 'text/calendar' },
      body: withAlarm,
    });
    expect(put.status).toBeLessThan(300);
    const etag = put.headers.get('etag');
    const report = await syncWith(a, server);
    expect(report.operations.filter((one) => one.type !== 'accept')).toEqual([]);
    const after = await fetch(url, { headers });
    expect(after.headers.get('etag')).toBe(etag);
    expect(await after.text()).toContain('TRIGGER:-PT15M');
    expect((await syncWith(a, server)).operations).toEqual([]);
  });

  it("a pull-only sync takes the server's changes and keeps ours to send with the next sync", async () => {
    const made = await a.api('events', {
      method: 'POST',
      auth: a.admin,
      json: eventBody('Pull-only gig', 9),
    });
    await syncWith(a, server);
    const uid = made.body.uid as string;
    await a.api(`events/${made.body.id}`, {
      method: 'POST',
      auth: a.admin,
      json: { description: 'Our notes' },
    });
    await phone(server, 'edit', uid, 'Pull-only gig (moved)');
    const pulled = await syncWith(a, server, { direction: 'pull' });
    expect(pulled.conflicts).toEqual([]);
    const here = (await a.api(`events/${made.body.id}`, { auth: a.admin })).body;
    expect(here.title).toBe('Pull-only gig (moved)');
    expect(here.description).toContain('Our notes');
    expect(String((await phone(server, 'get', uid)).data)).not.toContain('Our notes');
    // The next two-way sync sends what was kept here.
    expect((await syncWith(a, server)).summary).toMatchObject({ updated: 1 });
    expect(String((await phone(server, 'get', uid)).data)).toContain('Our notes');
    expect((await syncWith(a, server)).operations).toEqual([]);
  });

  it('a LOCATION naming one of our venues is that venue; a new one makes a venue', async () => {
    const made = await a.api('events', {
      method: 'POST',
      auth: a.admin,
      json: eventBody('At the hall', 8, {
        venue: { venue: 'Town Hall', address: '1 Main St', city: 'Springfield' },
      }),
    });
    await syncWith(a, server);
    const venueId = made.body.venue.id as number;
    for (const [title, where] of [
      // A phone names the place as people do: by the venue's name alone.
      ['Phone at the hall', 'Town Hall'],
      ['Phone at the barn', 'Old Barn'],
    ])
      await phoneEvent(server, title, 11, [`LOCATION:${where}`]);
    expect((await syncWith(a, server)).summary).toMatchObject({ imported: 2, failed: 0 });
    const events = await eventsOf(a);
    const hall = events.find((event) => event.title === 'Phone at the hall')!;
    const barn = events.find((event) => event.title === 'Phone at the barn')!;
    expect((hall.venue as { id: number }).id).toBe(venueId);
    expect(barn.venue).toMatchObject({ venue: 'Old Barn' });
    expect((barn.venue as { id: number }).id).not.toBe(venueId);
  });
});
