import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, type TestServer } from '../helpers/server';
import { FREE_FAILURES } from '../../src/main/server/middleware/auth';
import {
  dayFromNow,
  reminder,
  singleEvent,
  startDavServer,
  vcalendar,
  veventLines,
  type DavUser,
} from '../helpers/davClients';

/** CalDAV over raw HTTP: the protocol's answers, its guards, and hostile input. */
let server: TestServer;
let editor: DavUser;
let subscriber: DavUser;
let calendar: string;

const dav = (path: string, init: RequestInit & { user?: DavUser } = {}) => {
  const { user = editor, headers, ...rest } = init;
  return fetch(`${server.engine.origin}${path}`, {
    redirect: 'manual',
    ...rest,
    headers: { ...user.headers, ...(headers as Record<string, string>) },
  });
};

const PROPFIND_ETAG =
  '<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>';

const put = (name: string, body: string, headers: Record<string, string> = {}, user = editor) =>
  dav(`/dav/calendars/${user.login}/events/${name}`, {
    method: 'PUT',
    body,
    user,
    headers: { 'Content-Type': 'text/calendar; charset=utf-8', ...headers },
  });

const eventCount = async () =>
  Number(
    (await server.api('events?status=publish,pending,draft,private,trash&per_page=1', { auth: server.admin }))
      .body.total,
  );

beforeAll(async () => {
  ({
    server,
    users: { ed: editor, sub: subscriber },
  } = await startDavServer({ ed: 'editor', sub: 'subscriber' }));
  calendar = '/dav/calendars/ed/events/';
  await server.api('events', {
    method: 'POST',
    json: eventBody('Choir rehearsal', 3, { status: 'publish' }),
    auth: server.admin,
  });
});

afterAll(async () => {
  await server?.close();
});

describe('discovery and properties', () => {
  it('answers OPTIONS with the DAV classes and redirects /.well-known/caldav', async () => {
    const options = await dav('/dav/', { method: 'OPTIONS', user: { login: '', password: '', headers: {} } });
    expect(options.status).toBe(200);
    expect(options.headers.get('DAV')).toBe('1, 3, calendar-access');
    expect(options.headers.get('Allow')).toContain('REPORT');
    const wellKnown = await dav('/.well-known/caldav', { method: 'PROPFIND' });
    expect(wellKnown.status).toBe(301);
    expect(wellKnown.headers.get('Location')).toBe('/dav/');
  });

  it('asks for HTTP Basic without credentials, and leaves the bare address GET to the app', async () => {
    const anonymous = await dav(calendar, {
      method: 'PROPFIND',
      user: { login: '', password: '', headers: {} },
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('WWW-Authenticate')).toMatch(/^Basic realm="Calendar Desk"/);
    const page = await fetch(`${server.engine.origin}/`);
    expect(page.headers.get('DAV')).toBeNull();
  });

  it("refuses another user's calendar", async () => {
    const other = await dav('/dav/calendars/sub/events/', { method: 'PROPFIND', headers: { Depth: '0' } });
    expect(other.status).toBe(403);
    expect(await other.text()).toContain('/dav/calendars/ed/events/');
  });

  it('gives the calendar properties, 404 for unknown ones, and a new ctag after a change', async () => {
    const body = `<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/" xmlns:x="urn:example"><d:prop><d:displayname/><cs:getctag/><d:sync-token/><c:supported-calendar-component-set/><d:current-user-privilege-set/><x:unknown/></d:prop></d:propfind>`;
    const first = await dav(calendar, { method: 'PROPFIND', body, headers: { Depth: '0' } });
    expect(first.status).toBe(207);
    const text = await first.text();
    expect(text).toContain('<c:comp name="VEVENT"/>');
    expect(text).toContain('<d:privilege><d:write/></d:privilege>');
    expect(text).toMatch(/<x:unknown xmlns:x="urn:example"\/><\/d:prop><d:status>HTTP\/1.1 404 Not Found/);
    const ctag = /<cs:getctag>([^<]+)</.exec(text)![1];
    const asSubscriber = await (
      await dav('/dav/calendars/sub/events/', {
        method: 'PROPFIND',
        body,
        user: subscriber,
        headers: { Depth: '0' },
      })
    ).text();
    expect(asSubscriber).not.toContain('<d:write/>');
    await server.api('events', {
      method: 'POST',
      json: eventBody('Another', 4, { status: 'publish' }),
      auth: server.admin,
    });
    const second = await (await dav(calendar, { method: 'PROPFIND', body, headers: { Depth: '0' } })).text();
    expect(/<cs:getctag>([^<]+)</.exec(second)![1]).not.toBe(ctag);
  });

  it('answers a multiget, with 404 for a name that is nothing', async () => {
    const uid = randomUUID();
    expect((await put(`${uid}.ics`, singleEvent(uid, 'Multiget me'))).status).toBe(201);
    const body = `<c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop><d:href>${calendar}${uid}.ics</d:href><d:href>${calendar}${randomUUID()}.ics</d:href></c:calendar-multiget>`;
    const answer = await dav(calendar, { method: 'REPORT', body, headers: { Depth: '1' } });
    expect(answer.status).toBe(207);
    const text = await answer.text();
    expect(text).toContain('SUMMARY:Multiget me');
    expect(text).toContain('HTTP/1.1 404 Not Found');
  });
});

describe('writes', () => {
  it('honours If-None-Match: * and If-Match, 412 on a stale ETag', async () => {
    const uid = randomUUID();
    const created = await put(`${uid}.ics`, singleEvent(uid, 'Versioned'), { 'If-None-Match': '*' });
    expect(created.status).toBe(201);
    const etag = created.headers.get('ETag')!;
    expect((await put(`${uid}.ics`, singleEvent(uid, 'Again'), { 'If-None-Match': '*' })).status).toBe(412);
    const changed = await put(`${uid}.ics`, singleEvent(uid, 'Versioned v2'), { 'If-Match': etag });
    expect(changed.status).toBe(204);
    const stale = await put(`${uid}.ics`, singleEvent(uid, 'Versioned v3'), { 'If-Match': etag });
    expect(stale.status).toBe(412);
    expect(await stale.text()).toContain('changed since your calendar app read it');
    const got = await dav(`${calendar}${uid}.ics`);
    expect(got.headers.get('ETag')).toBe(changed.headers.get('ETag'));
    expect(await got.text()).toContain('SUMMARY:Versioned v2');
    expect(
      (await dav(`${calendar}${uid}.ics`, { method: 'DELETE', headers: { 'If-Match': etag } })).status,
    ).toBe(412);
  });

  it('refuses what the API would refuse with a CalDAV precondition and a message, writing nothing', async () => {
    const before = await eventCount();
    const uid = randomUUID();
    const day = dayFromNow(10);
    const broken = await put(`${uid}.ics`, 'BEGIN:VCALENDAR\r\nthis is not icalendar');
    expect(broken.status).toBe(403);
    expect(await broken.text()).toContain('<c:valid-calendar-data/>');
    const todo = await put(
      `${uid}.ics`,
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VTODO\r\nUID:x\r\nSUMMARY:t\r\nEND:VTODO\r\nEND:VCALENDAR\r\n',
    );
    expect(todo.status).toBe(403);
    expect(await todo.text()).toContain('supported-calendar-component');
    const badZone = await put(
      `${uid}.ics`,
      vcalendar([
        `UID:${uid}`,
        `DTSTAMP:${day}T080000Z`,
        `DTSTART;TZID=Mars/Olympus:${day}T180000`,
        `DTEND;TZID=Mars/Olympus:${day}T190000`,
        'SUMMARY:On Mars',
      ]),
    );
    expect(badZone.status).toBe(403);
    expect(await badZone.text()).toContain('Mars/Olympus');
    const twoUids = await put(
      `${uid}.ics`,
      vcalendar(
        [`UID:${uid}`, `DTSTART:${day}T180000Z`, 'SUMMARY:a'],
        [`UID:${randomUUID()}`, `DTSTART:${day}T180000Z`, 'SUMMARY:b'],
      ),
    );
    expect(twoUids.status).toBe(403);
    expect(await twoUids.text()).toContain('valid-calendar-object-resource');
    const backwards = await put(
      `${uid}.ics`,
      vcalendar([
        `UID:${uid}`,
        `DTSTAMP:${day}T080000Z`,
        `DTSTART:${day}T180000Z`,
        `DTEND:${day}T170000Z`,
        'SUMMARY:Backwards',
      ]),
    );
    expect(backwards.status).toBe(403);
    expect(await backwards.text()).toContain('valid-calendar-object-resource');
    const readOnly = await put(`${uid}.ics`, singleEvent(uid, 'Subscriber try'), {}, subscriber);
    expect(readOnly.status).toBe(403);
    expect(await readOnly.text()).toContain('need-privileges');
    expect(await eventCount()).toBe(before);
  });

  it("keeps an event at the name its app chose, whatever the name (Evolution's UID@host, an upper-case UUID)", async () => {
    for (const name of [
      '20261128T120000Z-4242-1000-1000-3@laptop.example.ics',
      `${randomUUID().toUpperCase()}.ics`,
    ]) {
      const uid = `${randomUUID()}@laptop.example`;
      const created = await put(encodeURIComponent(name), singleEvent(uid, `Named ${name}`));
      expect(created.status).toBe(201);
      const got = await dav(`${calendar}${encodeURIComponent(name)}`);
      expect(got.status).toBe(200);
      expect(await got.text()).toContain(`UID:${uid}`);
      const listing = await (
        await dav(calendar, { method: 'PROPFIND', body: PROPFIND_ETAG, headers: { Depth: '1' } })
      ).text();
      expect(listing).toContain(`<d:href>${calendar}${encodeURIComponent(name)}</d:href>`);
      const changed = await put(encodeURIComponent(name), singleEvent(uid, `Renamed ${name}`), {
        'If-Match': got.headers.get('ETag')!,
      });
      expect(changed.status).toBe(204);
      expect((await dav(`${calendar}${encodeURIComponent(name)}`, { method: 'DELETE' })).status).toBe(204);
      expect((await dav(`${calendar}${encodeURIComponent(name)}`)).status).toBe(404);
    }
  });

  it("keeps a user's reminders on a series and its changed date through edits made in the REST API", async () => {
    const uid = randomUUID();
    const day = dayFromNow(40);
    const second = dayFromNow(47);
    const alarm = reminder('-PT1H', 'Leave now');
    const created = await put(
      `${uid}.ics`,
      vcalendar(
        veventLines(
          uid,
          'Quiz night',
          day,
          ['RRULE:FREQ=WEEKLY;COUNT=3', 'X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC', ...alarm],
          '170000',
          '180000',
        ),
        veventLines(
          uid,
          'Quiz final',
          second,
          [`RECURRENCE-ID:${second}T170000Z`, 'TRANSP:TRANSPARENT'],
          '190000',
          '200000',
        ),
      ),
    );
    expect(created.status).toBe(201);
    const found = await server.api('events?search=Quiz%20night&per_page=5', { auth: server.admin });
    const head = found.body.events.find(
      (event: { recurrence_id: string | null; title: string }) => event.title === 'Quiz night',
    )!;
    const renamed = await server.api(`events/${head.id}`, {
      method: 'POST',
      json: { title: 'Quiz evening', scope: 'all' },
      auth: server.admin,
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const text = await (await dav(`${calendar}${uid}.ics`)).text();
    const vevents = text.split('BEGIN:VEVENT').slice(1);
    const master = vevents.find((vevent) => !vevent.includes('RECURRENCE-ID'))!;
    const changed = vevents.find((vevent) => vevent.includes('RECURRENCE-ID'))!;
    expect(master).toContain('SUMMARY:Quiz evening');
    expect(master).toContain('TRIGGER:-PT1H');
    expect(master).toContain('X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC');
    expect(changed).toContain('SUMMARY:Quiz final');
    expect(changed).toContain('TRANSP:TRANSPARENT');
    expect(changed).not.toContain('TRIGGER');
  });

  it('gives an event a new ETag and LOCATION when its venue is renamed in the REST API', async () => {
    const uid = randomUUID();
    const created = await put(`${uid}.ics`, singleEvent(uid, 'At the hall', 12, ['LOCATION:Old Town Hall']));
    expect(created.status).toBe(201);
    const before = await dav(`${calendar}${uid}.ics`);
    expect(await before.text()).toContain('LOCATION:Old Town Hall');
    const venues = await server.api('venues?search=Old%20Town%20Hall', { auth: server.admin });
    const venue = venues.body.venues.find((one) => one.venue === 'Old Town Hall')!;
    expect(
      (
        await server.api(`venues/${venue.id}`, {
          method: 'POST',
          json: { venue: 'New Town Hall' },
          auth: server.admin,
        })
      ).status,
    ).toBe(200);
    const after = await dav(`${calendar}${uid}.ics`);
    expect(await after.text()).toContain('LOCATION:New Town Hall');
    expect(after.headers.get('ETag')).not.toBe(before.headers.get('ETag'));
    expect(created.headers.get('ETag')).toBe(before.headers.get('ETag'));
  });

  it('keeps every mapped field when an app puts back what it got, and takes a STATUS or flag it changed', async () => {
    const venue = await server.api('venues', {
      method: 'POST',
      json: { venue: 'Sala Mapped', geo_lat: 45.07, geo_lng: 7.69 },
      auth: server.admin,
    });
    const made = await server.api('events', {
      method: 'POST',
      json: eventBody('Mapped fields', 14, {
        status: 'draft',
        description: '<p>With <em>HTML</em>, commas; and more</p>',
        venue: venue.body.id,
        organizer: [{ organizer: 'First, no mail' }, { organizer: 'Second', email: 'second@example.org' }],
        featured: true,
        sticky: true,
        hide_from_listings: true,
        show_map: false,
        show_map_link: false,
        cost: '12',
      }),
      auth: server.admin,
    });
    expect(made.status).toBe(201);
    const stored = () => {
      const event = server.engine.store.events.get(made.body.id)!;
      const { description, status, featured, sticky, hideFromListings, showMap, showMapLink, cost } = event;
      const organizers = event.organizerIds.map((id) => server.engine.store.organizers.get(id)!.name);
      return {
        description,
        status,
        featured,
        sticky,
        hideFromListings,
        showMap,
        showMapLink,
        cost,
        organizers,
      };
    };
    const before = stored();
    const path = `${calendar}${server.engine.store.events.get(made.body.id)!.uid}.ics`;
    const got = await dav(path);
    const text = await got.text();
    expect(text).toContain('X-ALT-DESC;FMTTYPE=text/html:');
    expect(text).toContain('GEO:45.07;7.69');
    expect(text).toContain('ORGANIZER;CN="Second":mailto:second@example.org');
    expect(text).toContain('STATUS:TENTATIVE');
    const name = path.split('/').at(-1)!;
    const same = await put(name, text, { 'If-Match': got.headers.get('ETag')! });
    expect(same.status).toBe(204);
    expect(stored()).toEqual(before);
    expect(server.engine.store.organizers.size).toBe(
      new Set([...server.engine.store.organizers.values()].map((one) => one.name)).size,
    );

    const changed = await put(
      name,
      text
        .replace('STATUS:TENTATIVE', 'STATUS:CONFIRMED')
        .replace('X-CALENDAR-DESK-STICKY:TRUE', 'X-CALENDAR-DESK-STICKY:FALSE'),
    );
    expect(changed.status).toBe(204);
    expect(stored()).toEqual({ ...before, status: 'publish', sticky: false });
  });

  it('refuses a UID that another resource already has', async () => {
    const uid = randomUUID();
    expect((await put(`${uid}.ics`, singleEvent(uid, 'First'))).status).toBe(201);
    const clash = await put(`${randomUUID()}.ics`, singleEvent(uid, 'Second'));
    expect(clash.status).toBe(403);
    expect(await clash.text()).toContain('no-uid-conflict');
  });
});

describe('hostile input', () => {
  it('refuses XML entity expansion and keeps answering', async () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><d:propfind xmlns:d="DAV:"><d:prop><d:displayname>&lol3;</d:displayname></d:prop></d:propfind>`;
    const answer = await dav(calendar, { method: 'PROPFIND', body: bomb, headers: { Depth: '0' } });
    expect(answer.status).toBe(403);
    expect(await answer.text()).toContain('DOCTYPE');
    expect(
      (await dav(calendar, { method: 'PROPFIND', body: PROPFIND_ETAG, headers: { Depth: '0' } })).status,
    ).toBe(207);
  });

  it('refuses malformed XML, an undeclared prefix, Depth: infinity and a huge body', async () => {
    const malformed = await dav(calendar, {
      method: 'PROPFIND',
      body: '<d:propfind xmlns:d="DAV:"><d:prop>',
      headers: { Depth: '0' },
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.text()).toContain('not well-formed XML');
    const undeclared = await dav(calendar, { method: 'REPORT', body: '<q:sync-collection/>' });
    expect(undeclared.status).toBe(400);
    const infinite = await dav(calendar, {
      method: 'PROPFIND',
      body: PROPFIND_ETAG,
      headers: { Depth: 'infinity' },
    });
    expect(infinite.status).toBe(403);
    expect(await infinite.text()).toContain('propfind-finite-depth');
    const huge = await dav(calendar, {
      method: 'REPORT',
      body: `<d:x xmlns:d="DAV:">${'a'.repeat(2 * 1024 * 1024)}</d:x>`,
    });
    expect(huge.status).toBe(413);
  });

  it('refuses a foreign Host and a foreign Origin, as the REST API', async () => {
    const answer = await new Promise<number>((resolve, reject) => {
      const { port } = new URL(server.engine.origin);
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: calendar,
          method: 'PROPFIND',
          headers: { Host: 'evil.example', Depth: '0', ...editor.headers },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(answer).toBe(403);
    const origin = await dav(calendar, {
      method: 'PROPFIND',
      body: PROPFIND_ETAG,
      headers: { Depth: '0', Origin: 'http://evil.example' },
    });
    expect(origin.status).toBe(403);
  });

  it('throttles wrong application passwords as sign-ins are', async () => {
    const wrong = {
      login: 'ed',
      password: 'x',
      headers: { Authorization: `Basic ${Buffer.from('ed:wrong-password').toString('base64')}` },
    };
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= FREE_FAILURES; attempt++)
      statuses.push(
        (await dav(calendar, { method: 'PROPFIND', user: wrong, headers: { Depth: '0' } })).status,
      );
    expect(statuses.slice(0, FREE_FAILURES)).toEqual(Array(FREE_FAILURES).fill(401));
    const blocked = await dav(calendar, { method: 'PROPFIND', user: wrong, headers: { Depth: '0' } });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('Retry-After'))).toBeGreaterThan(0);
    // The right password still gets in.
    expect(
      (await dav(calendar, { method: 'PROPFIND', body: PROPFIND_ETAG, headers: { Depth: '0' } })).status,
    ).toBe(207);
  });
});
