import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { bigIcs } from '../helpers/bigImports';
import { freePort } from '../helpers/ports';
import {
  googleCalendar,
  SECRET,
  SECRET_PATH,
  startCalendarSite,
  type CalendarSite,
} from '../helpers/calendarSite';
import { DATA_FILE_NAME } from '../../src/main/store/persistence';
import { IMPORT_SOURCES_FILE } from '../../src/main/exchange/importSources';
import { importSourceViewSchema, sourceRefreshAnswerSchema } from '../../src/shared/schemas/importSources';

// Import from an address (issue 15 item 2): a Google Calendar secret address followed, refreshed as it changes.

/** The server's clock: series are made up to 24 months after it. */
const NOW = new Date('2026-09-01T10:00:00Z');
let server: TestServer;
let site: CalendarSite;
let logged: string[];

beforeEach(async () => {
  logged = [];
  // Everything the server could print: its log and the console.
  for (const method of ['log', 'error', 'warn', 'info'] as const)
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logged.push(args.join(' ')));
  site = await startCalendarSite();
  server = await startTestServer({
    clock: () => new Date(NOW),
    log: (message) => logged.push(message),
    importFetchLimits: { timeoutMs: 1_000, maxBytes: 64 * 1024 },
  });
});
afterEach(async () => {
  await server.close();
  await site.close();
  vi.restoreAllMocks();
});

/** Calls the admin namespace as the administrator (or `auth`). */
function admin(path: string, init: { method?: string; json?: unknown; auth?: Record<string, string> } = {}) {
  return server.api(`${server.engine.origin}/wp-json/calendar-desk/v1/${path}`, {
    method: init.method ?? 'GET',
    json: init.json,
    auth: init.auth ?? server.admin,
  });
}

const dataFile = () => readFile(join(server.dataDir, DATA_FILE_NAME));
const events = () => [...server.engine.store.events.values()];
const live = () => events().filter((event) => event.status !== 'trash');
const byTitle = (title: string) => events().find((event) => event.title === title);
type Row = { title: string; action: string };
const actionsOf = (answer: { rows: Row[] }) => answer.rows.map((row) => row.action);
const titlesOf = (answer: { rows: Row[] }, action: string) =>
  answer.rows.filter((row) => row.action === action).map((row) => row.title);
const secretAddress = () => `${site.origin}${SECRET_PATH}`;

/** Adds the secret address (served with an ETag) and returns the new source. */
async function follow(answer: Parameters<CalendarSite['serve']>[1] = {}) {
  site.serve(SECRET_PATH, { body: googleCalendar(), etag: true, ...answer });
  const added = await admin('import-sources', { method: 'POST', json: { url: secretAddress() } });
  expect(added.status).toBe(201);
  return added.body;
}

describe('import from an address', () => {
  it('follows a Google Calendar secret address: everything comes in, named after the calendar', async () => {
    const source = await follow();
    expect(source).toMatchObject({
      name: 'St Cecilia Choir',
      url: `${site.origin}/…`,
      day_first: false,
      last_refresh: NOW.toISOString(),
      last_error: null,
      result: { format: 'ics', events: 4, matchedByUid: 0, import_id: expect.any(String) },
    });
    expect(source.result.rows).toEqual([
      { line: expect.any(Number), kind: 'events', title: 'Choir rehearsal', action: 'create' },
      {
        line: expect.any(Number),
        kind: 'events',
        title: 'Choir rehearsal (dress rehearsal)',
        action: 'create',
      },
      { line: expect.any(Number), kind: 'events', title: 'Spring festival, two days', action: 'create' },
      { line: expect.any(Number), kind: 'events', title: 'Lent concert', action: 'create' },
      { line: expect.any(Number), kind: 'events', title: 'Bake sale', action: 'create' },
    ]);
    // The series with its EXDATEs and its changed date, the all-day festival with its escaped text.
    const rehearsals = live()
      .filter((event) => event.title.startsWith('Choir rehearsal'))
      .map((event) => `${event.startLocal} ${event.title}`)
      .sort();
    expect(rehearsals).toEqual([
      '2027-01-05 19:30:00 Choir rehearsal',
      '2027-01-12 19:30:00 Choir rehearsal',
      '2027-01-26 20:00:00 Choir rehearsal (dress rehearsal)',
      '2027-02-02 19:30:00 Choir rehearsal',
      '2027-02-16 19:30:00 Choir rehearsal',
      '2027-02-23 19:30:00 Choir rehearsal',
      '2027-03-02 19:30:00 Choir rehearsal',
    ]);
    const festival = byTitle('Spring festival, two days')!;
    expect(festival).toMatchObject({ allDay: true, startLocal: '2027-04-10 00:00:00' });
    expect(festival.endLocal.slice(0, 10)).toBe('2027-04-11');
    expect(festival.description).toContain('Bring music stands; chairs are provided.');
    expect(festival.description).toContain('Doors open at 9, concert at 11.');
    expect(byTitle('Lent concert')).toMatchObject({ status: 'publish', timezone: 'Europe/Rome' });
    // Listed, masked; the whole address only in the answer about that one source.
    const list = await admin('import-sources');
    // Every answer has the shape the Import screen relies on (the shared schemas).
    importSourceViewSchema.array().parse(list.body);
    importSourceViewSchema.parse(source);
    sourceRefreshAnswerSchema.parse(source.result);
    expect(list.body).toEqual([
      expect.objectContaining({ id: source.id, url: `${site.origin}/…`, name: 'St Cecilia Choir' }),
    ]);
    expect(JSON.stringify(list.body)).not.toContain(SECRET);
    expect((await admin(`import-sources/${source.id}`)).body).toMatchObject({ address: secretAddress() });
  });

  it('a refresh of an unchanged calendar writes nothing: 304 with the ETag, or the same text again', async () => {
    const source = await follow();
    const before = await dataFile();
    const refreshed = await admin(`import-sources/${source.id}/refresh`, { method: 'POST' });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toMatchObject({ source_id: source.id, not_modified: true, events: 0 });
    sourceRefreshAnswerSchema.parse(refreshed.body);
    // The site was asked conditionally and said "not modified".
    expect(site.requests.at(-1)).toMatchObject({ status: 304 });
    expect(site.requests.at(-1)!.headers['if-none-match']).toMatch(/^".+"$/);
    expect(site.requests.at(-1)!.headers['accept-encoding']).toContain('gzip');
    expect((await dataFile()).equals(before)).toBe(true);
    // A site without validators sends the same calendar again (gzipped): matched by UID, nothing written.
    site.serve(SECRET_PATH, { body: googleCalendar(), gzip: true });
    const again = await admin(`import-sources/${source.id}/refresh`, { method: 'POST' });
    expect(again.body).toMatchObject({ matchedByUid: 4, unchangedByUid: 4 });
    expect(again.body.import_id).toBeUndefined();
    expect(actionsOf(again.body)).toEqual(Array(5).fill('unchanged'));
    expect(site.requests.at(-1)).toMatchObject({ status: 200 });
    expect((await dataFile()).equals(before)).toBe(true);
    // Last-Modified is sent back as If-Modified-Since.
    const modified = 'Wed, 25 Nov 2026 08:00:00 GMT';
    site.serve(SECRET_PATH, { body: googleCalendar(), lastModified: modified });
    await admin(`import-sources/${source.id}/refresh`, { method: 'POST' });
    await admin(`import-sources/${source.id}/refresh`, { method: 'POST' });
    expect(site.requests.at(-1)).toMatchObject({ status: 304 });
    expect(site.requests.at(-1)!.headers['if-modified-since']).toBe(modified);
    expect((await dataFile()).equals(before)).toBe(true);
  });

  it('a refresh updates what changed and moves to the trash what left the address, restorably', async () => {
    const source = await follow();
    const revisions = new Map(events().map((event) => [event.id, event.revision]));
    const concert = byTitle('Lent concert')!;
    const feb16 = live().find((event) => event.startLocal === '2027-02-16 19:30:00')!;
    // At the address: the bake sale renamed, the concert gone, one more rehearsal cancelled (EXDATE).
    site.serve(SECRET_PATH, {
      etag: true,
      body: googleCalendar({
        bakeTitle: 'Bake sale and raffle',
        withConcert: false,
        removedRehearsal: '20270216T193000',
      }),
    });
    const refreshed = await admin(`import-sources/${source.id}/refresh`, { method: 'POST' });
    expect(refreshed.status).toBe(200);
    expect(
      refreshed.body.rows.map((row: { title: string; action: string }) => `${row.action} ${row.title}`),
    ).toEqual([
      'update Choir rehearsal',
      'unchanged Choir rehearsal (dress rehearsal)',
      'unchanged Spring festival, two days',
      'update Bake sale and raffle',
      'trash Lent concert',
    ]);
    expect(refreshed.body.rows.at(-1)).toMatchObject({
      line: 0,
      kind: 'events',
      reason: expect.stringMatching(/^no longer at the address/),
    });
    expect(refreshed.body).toMatchObject({ source_id: source.id, import_id: expect.any(String) });
    expect(server.engine.store.events.get(concert.id)!.status).toBe('trash');
    expect(server.engine.store.events.get(feb16.id)!.status).toBe('trash');
    expect(byTitle('Bake sale and raffle')!.status).toBe('publish');
    // Untouched events were not written at all.
    const changed = events().filter((event) => event.revision !== revisions.get(event.id));
    const unchangedRehearsals = live().filter(
      (event) => event.title === 'Choir rehearsal' && event.parentId !== 0,
    );
    expect(unchangedRehearsals.every((event) => !changed.includes(event))).toBe(true);
    expect(byTitle('Spring festival, two days')!.revision).toBe(
      revisions.get(byTitle('Spring festival, two days')!.id),
    );
    // The trashed concert is restorable as any trashed event.
    const restored = await server.api(`events/${concert.id}`, {
      method: 'POST',
      auth: server.admin,
      json: { status: 'publish' },
    });
    expect(restored.status).toBe(200);
    // The source remembers how it went.
    const [listed] = (await admin('import-sources')).body;
    expect(listed.last_result).toMatchObject({
      source_id: source.id,
      row_counts: { create: 0, update: 2, unchanged: 2, skip: 0, trash: 1 },
    });
    expect(listed.last_result.rows).toBeUndefined();
  });

  it('a refresh is an import like any other: in the history by its source, undone whole', async () => {
    const source = await follow();
    const concert = byTitle('Lent concert')!;
    site.serve(SECRET_PATH, {
      etag: true,
      body: googleCalendar({ withConcert: false, bakeTitle: 'Bake sale and raffle' }),
    });
    const refreshed = await admin(`import-sources/${source.id}/refresh`, { method: 'POST' });
    const history = await admin('imports');
    expect(history.body[0]).toMatchObject({
      id: refreshed.body.import_id,
      source_id: source.id,
      file_name: `St Cecilia Choir (${new URL(site.origin).host})`,
      updated: 1,
      trashed: 1,
      undone: false,
    });
    // The first refresh made the 7 dates of the series and 3 single events.
    expect(history.body[1]).toMatchObject({ id: source.result.import_id, source_id: source.id, created: 10 });
    const undone = await admin(`imports/${refreshed.body.import_id}/undo`, { method: 'POST' });
    expect(undone.status).toBe(200);
    expect(server.engine.store.events.get(concert.id)!.status).toBe('publish');
    expect(byTitle('Bake sale')!.status).toBe('publish');
    expect(byTitle('Bake sale and raffle')).toBeUndefined();
    // The undo stands: the next refresh updates the bake sale again, but leaves the concert it was told back.
    site.serve(SECRET_PATH, {
      etag: true,
      body: googleCalendar({ withConcert: false, bakeTitle: 'Bake sale and raffle!' }),
    });
    const next = await admin(`import-sources/${source.id}/refresh`, { method: 'POST' });
    expect(titlesOf(next.body, 'trash')).toEqual([]);
    expect(server.engine.store.events.get(concert.id)!.status).toBe('publish');
    expect(byTitle('Bake sale and raffle!')!.status).toBe('publish');
    // The history names the source, never its secret address.
    const historyFile = await readFile(join(server.dataDir, 'import-history.json'), 'utf8');
    expect(historyFile).not.toContain(SECRET);
  });

  it('an event trashed here stays in the trash; one that left and comes back leaves the trash', async () => {
    const source = await follow();
    const festival = byTitle('Spring festival, two days')!;
    const concert = byTitle('Lent concert')!;
    expect((await server.api(`events/${festival.id}`, { method: 'DELETE', auth: server.admin })).status).toBe(
      200,
    );
    // The concert leaves the address, then comes back; the festival is still at the address all along.
    site.serve(SECRET_PATH, { etag: true, body: googleCalendar({ withConcert: false }) });
    await admin(`import-sources/${source.id}/refresh`, { method: 'POST' });
    expect(server.engine.store.events.get(concert.id)!.status).toBe('trash');
    site.serve(SECRET_PATH, { etag: true, body: googleCalendar({ bakeTitle: 'Bake sale!' }) });
    const back = await admin(`import-sources/${source.id}/refresh`, { method: 'POST' });
    expect(back.body.rows.filter((row: { action: string }) => row.action === 'skip')).toEqual([
      {
        line: expect.any(Number),
        kind: 'events',
        title: 'Spring festival, two days',
        action: 'skip',
        reason: 'it is in the trash here: restore it to follow this address again',
      },
    ]);
    expect(server.engine.store.events.get(festival.id)!.status).toBe('trash');
    expect(server.engine.store.events.get(concert.id)!.status).toBe('publish');
    expect(events().filter((event) => event.title === 'Lent concert')).toHaveLength(1);
    // Deleted for good here (the API only trashes; the store's own deletion, as a purge of the trash would do):
    // not made again by the next refresh.
    const bake = byTitle('Bake sale!')!;
    await server.engine.store.mutate((tx) => tx.deletePost('event', bake.id, '2026-09-01 10:00:00'));
    site.serve(SECRET_PATH, { etag: true, body: googleCalendar({ bakeTitle: 'Bake sale!!' }) });
    const after = await admin(`import-sources/${source.id}/refresh`, { method: 'POST' });
    expect(titlesOf(after.body, 'skip')).toEqual(['Spring festival, two days', 'Bake sale!!']);
    expect(events().filter((event) => event.title.startsWith('Bake sale'))).toEqual([]);
  });

  it('a series that left the address goes to the trash with all its dates', async () => {
    const source = await follow();
    const withoutSeries = googleCalendar().replace(
      /BEGIN:VEVENT\r\nDTSTART;TZID=Europe\/Rome:20270105T193000[\s\S]*?END:VEVENT\r\nBEGIN:VEVENT\r\nDTSTART;TZID=Europe\/Rome:20270126T200000[\s\S]*?END:VEVENT\r\n/,
      '',
    );
    expect(withoutSeries).not.toContain('Choir rehearsal');
    site.serve(SECRET_PATH, { etag: true, body: withoutSeries });
    const refreshed = await admin(`import-sources/${source.id}/refresh`, { method: 'POST' });
    expect(titlesOf(refreshed.body, 'trash')).toEqual(['Choir rehearsal']);
    expect(events().filter((event) => event.title.startsWith('Choir rehearsal'))).toHaveLength(7);
    expect(live().filter((event) => event.title.startsWith('Choir rehearsal'))).toEqual([]);
  });

  it('many events that left a large address go to the trash in slices, undone exactly as one import', async () => {
    // Five daily series up to the horizon (~600 dates each); four leave: more events than one store change takes.
    site.serve(SECRET_PATH, { etag: true, body: bigIcs(5, 'big') });
    const added = await admin('import-sources', { method: 'POST', json: { url: secretAddress() } });
    expect(added.status).toBe(201);
    const brought = live();
    expect(brought.length).toBeGreaterThan(5 * 590);
    const shown = (list: typeof brought) =>
      list.map((event) => `${event.id} ${event.status} ${event.startLocal} ${event.title}`).sort();
    const before = shown(events());
    site.serve(SECRET_PATH, { etag: true, body: bigIcs(1, 'big') });
    const refreshed = await admin(`import-sources/${added.body.id}/refresh`, { method: 'POST' });
    expect(refreshed.status, JSON.stringify(refreshed.body).slice(0, 300)).toBe(200);
    expect(titlesOf(refreshed.body, 'trash').sort()).toEqual([
      'Event big-1',
      'Event big-2',
      'Event big-3',
      'Event big-4',
    ]);
    const stays = brought.filter((event) => event.title === 'Event big-0').length;
    expect(live()).toHaveLength(stays);
    expect(events()).toHaveLength(brought.length);
    const history = await admin('imports');
    expect(history.body).toHaveLength(2);
    expect(history.body[0]).toMatchObject({
      id: refreshed.body.import_id,
      source_id: added.body.id,
      trashed: brought.length - stays,
      undone: false,
    });
    const undone = await admin(`imports/${refreshed.body.import_id}/undo`, { method: 'POST' });
    expect(undone.status).toBe(200);
    expect(undone.body).toMatchObject({ trashed: 0, restored: brought.length - stays, kept: [] });
    expect(shown(events())).toEqual(before);
  });

  it('an address whose events came in from its file before follows them from then on', async () => {
    site.serve(SECRET_PATH, { body: googleCalendar(), etag: true });
    const imported = await admin('import', {
      method: 'POST',
      json: { file_name: 'basic.ics', content: googleCalendar() },
    });
    expect(imported.status).toBe(200);
    const count = events().length;
    const source = await follow();
    expect(source.result).toMatchObject({ matchedByUid: 4, unchangedByUid: 4 });
    expect(events()).toHaveLength(count);
    // The address now knows it brought them: one that leaves it goes to the trash.
    site.serve(SECRET_PATH, { etag: true, body: googleCalendar({ withConcert: false }) });
    const refreshed = await admin(`import-sources/${source.id}/refresh`, { method: 'POST' });
    expect(titlesOf(refreshed.body, 'trash')).toEqual(['Lent concert']);
  });

  it('removing an address keeps its events and forgets the address', async () => {
    const source = await follow();
    const count = live().length;
    const removed = await admin(`import-sources/${source.id}`, { method: 'DELETE' });
    expect(removed.body).toMatchObject({ deleted: true, previous: { id: source.id } });
    expect((await admin('import-sources')).body).toEqual([]);
    expect(live()).toHaveLength(count);
    expect(server.engine.store.syncState(`import-source:${source.id}`)).toBeUndefined();
    expect((await admin(`import-sources/${source.id}/refresh`, { method: 'POST' })).body.code).toBe(
      'import_source_not_found',
    );
  });

  it('follows redirects (a few), and says what went wrong when the address gives no calendar', async () => {
    site.serve('/moved', { redirectTo: '/moved-again' });
    site.serve('/moved-again', { redirectTo: SECRET_PATH });
    site.serve(SECRET_PATH, { body: googleCalendar() });
    const moved = await admin('import-sources', { method: 'POST', json: { url: `${site.origin}/moved` } });
    expect(moved.status).toBe(201);
    expect(live().length).toBeGreaterThan(0);
    await admin(`import-sources/${moved.body.id}`, { method: 'DELETE' });

    const before = await dataFile();
    for (let hop = 0; hop < 7; hop++) site.serve(`/loop${hop}`, { redirectTo: `/loop${hop + 1}` });
    site.serve('/page.ics', {
      body: '<!doctype html><html><body>Sign in</body></html>',
      contentType: 'text/calendar',
    });
    site.serve('/huge.ics', {
      body: googleCalendar().replace('END:VCALENDAR', `X-PAD:${'x'.repeat(70_000)}\r\nEND:VCALENDAR`),
    });
    // A few KiB on the wire, 4 MiB once decompressed: the limit is on what it decodes to.
    site.serve('/bomb.ics', {
      body: googleCalendar().replace(
        'END:VCALENDAR',
        `X-PAD:${'x'.repeat(4 * 1024 * 1024)}\r\nEND:VCALENDAR`,
      ),
      gzip: true,
    });
    site.serve('/to-user', { redirectTo: 'http://volunteer:pw-in-url@127.0.0.1:1/cal.ics' });
    site.serve('/to-data', { redirectTo: 'data:text/calendar,BEGIN:VCALENDAR' });
    site.serve('/slow.ics', { body: googleCalendar(), delayMs: 3_000 });
    site.serve('/private.ics', { status: 403, body: 'Forbidden', contentType: 'text/plain' });
    site.serve('/broken.ics', { status: 500, body: 'oops', contentType: 'text/plain' });
    const cases: Array<[string, string, RegExp]> = [
      ['/gone.ics', 'source_missing', /answered "not found" \(HTTP 404\)/],
      ['/loop0', 'source_too_many_redirects', /more than 5 times/],
      ['/page.ics', 'source_not_calendar', /answered with a web page instead of a calendar/],
      ['/huge.ics', 'source_too_large', /larger than the 64 KiB Calendar Desk reads from an address/],
      ['/bomb.ics', 'source_too_large', /larger than the 64 KiB Calendar Desk reads from an address/],
      ['/to-user', 'source_http_error', /on to an address with a user name or password in it/],
      ['/to-data', 'source_http_error', /on to a data:\/\/ address instead of the calendar/],
      ['/slow.ics', 'source_timeout', /did not send the calendar within 1 seconds/],
      ['/private.ics', 'source_refused', /refused to give the calendar \(HTTP 403\)/],
      ['/broken.ics', 'source_http_error', /has a problem of its own \(HTTP 500\)/],
    ];
    for (const [path, code, message] of cases) {
      const answer = await admin('import-sources', {
        method: 'POST',
        json: { url: `${site.origin}${path}` },
      });
      expect({ path, status: answer.status, code: answer.body.code }).toEqual({ path, status: 502, code });
      expect(answer.body.data.field).toBe('url');
      expect(answer.body.message).toMatch(message);
      expect(answer.body.message).not.toContain('pw-in-url');
    }
    // A port nobody listens on (any more).
    const closed = await admin('import-sources', {
      method: 'POST',
      json: { url: `http://127.0.0.1:${await freePort()}/cal.ics` },
    });
    expect(closed.body).toMatchObject({
      code: 'source_unreachable',
      data: { status: 502, field: 'url', network: 'ECONNREFUSED' },
    });
    expect(closed.body.message).toMatch(/nothing answers at that address/);
    expect((await dataFile()).equals(before)).toBe(true);
    expect((await admin('import-sources')).body).toEqual([]);
  });

  it('a refresh that fails changes no event and is kept as the last error', async () => {
    const source = await follow();
    const before = await dataFile();
    site.serve(SECRET_PATH, { body: '<html>Sign in to Google</html>', contentType: 'text/html' });
    const failed = await admin(`import-sources/${source.id}/refresh`, { method: 'POST' });
    expect(failed).toMatchObject({ status: 502, body: { code: 'source_not_calendar' } });
    expect(failed.body.message).not.toContain(SECRET);
    expect((await dataFile()).equals(before)).toBe(true);
    const [listed] = (await admin('import-sources')).body;
    expect(listed.last_error).toMatch(/instead of a calendar/);
    // A calendar the import cannot read: its problems, nothing imported.
    site.serve(SECRET_PATH, {
      body: googleCalendar().replace(
        'DTSTART;VALUE=DATE:20270410',
        'DTSTART;TZID=Mars/Olympus:20270410T100000',
      ),
    });
    const invalid = await admin(`import-sources/${source.id}/refresh`, { method: 'POST' });
    expect(invalid).toMatchObject({ status: 502, body: { code: 'import_invalid' } });
    expect(invalid.body.data.problems[0].message).toMatch(/Mars\/Olympus/);
    expect((await dataFile()).equals(before)).toBe(true);
  });

  it('refuses addresses it cannot follow, and the same address twice', async () => {
    for (const url of ['ftp://example.org/cal.ics', 'not an address', `http://me:pw@127.0.0.1:9/x.ics`]) {
      const answer = await admin('import-sources', { method: 'POST', json: { url } });
      expect(answer).toMatchObject({ status: 400, body: { code: 'rest_invalid_param' } });
      expect(answer.body.data.params.url).toMatch(
        /http:\/\/, https:\/\/ or webcal|not a web address|user name or password/,
      );
    }
    const source = await follow();
    const twice = await admin('import-sources', { method: 'POST', json: { url: ` ${secretAddress()}` } });
    expect(twice).toMatchObject({
      status: 409,
      body: { code: 'import_source_exists', data: { id: source.id } },
    });
  });

  it('keeps the addresses readable by their owner only, and never prints the secret', async () => {
    const source = await follow();
    site.serve(SECRET_PATH, { status: 404, body: 'gone' });
    await admin(`import-sources/${source.id}/refresh`, { method: 'POST' });
    const file = join(server.dataDir, IMPORT_SOURCES_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).toContain(SECRET);
    // Not in the calendar's data file (dumps and sync read that), not in anything printed.
    expect((await dataFile()).toString('utf8')).not.toContain(SECRET);
    expect(logged.join('\n')).not.toContain(SECRET);
  });

  it('is for administrators only', async () => {
    const source = await follow();
    const editor = await server.userHeaders('eddie', 'editor');
    const calls: Array<[string, string]> = [
      ['GET', 'import-sources'],
      ['POST', 'import-sources'],
      ['GET', `import-sources/${source.id}`],
      ['POST', `import-sources/${source.id}/refresh`],
      ['DELETE', `import-sources/${source.id}`],
    ];
    for (const [method, path] of calls) {
      const json = method === 'POST' ? { url: secretAddress() } : undefined;
      expect((await admin(path, { method, json, auth: editor })).status, `${method} ${path}`).toBe(403);
      expect((await admin(path, { method, json, auth: {} })).status, `${method} ${path}`).toBe(401);
    }
    expect((await admin('import-sources')).body).toHaveLength(1);
  });
});
