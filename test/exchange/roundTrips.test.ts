import ICAL from 'ical.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import type { CalendarStore } from '../../src/main/store/store';
import { freshStores } from '../sync/freshStores';
import { exportDump } from '../../src/main/exchange/jsonDump';
import { exportIcs } from '../../src/main/exchange/ics';
import { exportCsv, EVENT_COLUMNS } from '../../src/main/exchange/csv';
import { importFile } from '../../src/main/exchange/importFile';
import { folderOwner } from '../../src/main/core/users';
import { ImportError } from '../../src/main/exchange/errors';
import { saveRemotes, savedRemotes } from '../../src/main/sync/remotes';
import { fileSecretBox } from '../../src/main/sync/secretBox';

let source: TestServer;

beforeEach(async () => {
  source = await startTestServer();
  const { api, admin } = source;
  const venue = await api('venues', {
    method: 'POST',
    auth: admin,
    json: { venue: 'Teatro, "Comunale"', city: 'Bologna' },
  });
  await api('events', {
    method: 'POST',
    auth: admin,
    json: {
      title: 'Opera; night, with "quotes"',
      description: 'Line one\nLine two, with a comma; and a semicolon',
      start_date: '2027-03-01 20:00:00',
      end_date: '2027-03-01 23:00:00',
      timezone: 'Europe/Rome',
      venue: venue.body.id,
      organizer: [{ organizer: 'Società Lirica', email: 'info@example.org' }],
      categories: ['Music', 'Opera'],
      tags: ['Evening'],
      cost: '25€',
    },
  });
  await api('events', {
    method: 'POST',
    auth: admin,
    json: {
      title: 'Jazz brunch',
      start_date: '2027-07-04 11:00:00',
      end_date: '2027-07-04 13:30:00',
      timezone: 'America/New_York',
      categories: ['Music'],
    },
  });
  await api('events', {
    method: 'POST',
    auth: admin,
    json: { title: 'Holiday', start_date: '2027-08-15', end_date: '2027-08-15', all_day: true },
  });
  await source.engine.store.mutate((tx) =>
    tx.setSyncState('link:https://example.org/wp-json/#cal/events/v1|event:1', { remoteId: 7 }),
  );
});
afterEach(async () => {
  await source.close();
  await stores.closeAll();
});

const stores = freshStores();
const freshStore = () => stores.open();

const eventsOf = (store: CalendarStore) =>
  [...store.events.values()].map((event) => ({
    title: event.title,
    start: event.startLocal,
    end: event.endLocal,
    timezone: event.timezone,
    allDay: event.allDay,
    venue: store.venues.get(event.venueId)?.name ?? null,
    categories: event.categoryIds.map((id) => store.terms.get(id)!.name).sort(),
  }));

describe('export and import', () => {
  it('JSON: a dump restores exactly (ids, links, settings), without secrets', async () => {
    const store = source.engine.store;
    await saveRemotes(store, fileSecretBox(source.dataDir), [
      {
        name: 'Site',
        root: 'https://example.org/wp-json/',
        namespace: 'cal/events/v1',
        auth_type: 'token',
        user: '',
        secret: 's3cret',
      },
    ]);
    const dump = JSON.stringify(exportDump(store, new Date()));
    expect(dump).not.toMatch(/"hash"/);
    expect(dump).not.toContain(savedRemotes(store)[0]!.secret!);
    const target = await freshStore();
    await importFile(target, 'calendar.json', dump, new Date(), folderOwner(target));
    const before = store.snapshot();
    const after = target.snapshot();
    for (const key of ['events', 'venues', 'organizers', 'terms', 'media', 'settings', 'counters'] as const) {
      expect(after[key]).toEqual(before[key]);
    }
    // Sync links as they were; saved remotes without their secret (entered again on this machine).
    expect({ ...after.syncLinks, remotes: undefined }).toEqual({ ...before.syncLinks, remotes: undefined });
    expect(savedRemotes(target)).toEqual([{ ...savedRemotes(store)[0], secret: null, secretOrigin: null }]);
    expect(after.users.map((user) => [user.id, user.login, user.role])).toEqual(
      before.users.map((user) => [user.id, user.login, user.role]),
    );
    // New records after the restore never reuse an id.
    await expect(importFile(target, 'calendar.json', dump, new Date(), folderOwner(target))).rejects.toThrow(
      /already holds/,
    );
  });

  it('iCalendar: VTIMEZONEs and escaped text, read back by an independent parser and by import', async () => {
    const text = exportIcs(source.engine.store, new Date());
    const calendar = new ICAL.Component(ICAL.parse(text));
    const zones = calendar.getAllSubcomponents('vtimezone').map((zone) => zone.getFirstPropertyValue('tzid'));
    expect(zones.sort()).toEqual(['America/New_York', 'Europe/Rome']);
    const events = calendar.getAllSubcomponents('vevent').map((component) => new ICAL.Event(component));
    const opera = events.find((event) => event.summary.startsWith('Opera'))!;
    expect(opera.summary).toBe('Opera; night, with "quotes"');
    expect(opera.description).toBe('Line one\nLine two, with a comma; and a semicolon');
    expect(opera.location).toBe('Teatro, "Comunale", Bologna');
    expect(opera.startDate.zone.tzid).toBe('Europe/Rome');
    expect(opera.startDate.toString()).toBe('2027-03-01T20:00:00');
    expect(opera.startDate.toJSDate().toISOString()).toBe('2027-03-01T19:00:00.000Z');
    const holiday = events.find((event) => event.summary === 'Holiday')!;
    expect(holiday.startDate.isDate).toBe(true);

    const target = await freshStore();
    const result = await importFile(target, 'calendar.ics', text, new Date(), folderOwner(target));
    expect(result).toMatchObject({ format: 'ics', events: 3 });
    const imported = eventsOf(target);
    for (const event of eventsOf(source.engine.store)) {
      expect(imported).toContainEqual({ ...event, venue: event.venue === null ? null : 'Teatro' });
    }
  });

  it('iCalendar: text without HTML entities or tags, links with their address (ical.js reads it)', async () => {
    const { api, admin } = source;
    const venue = await api('venues', {
      method: 'POST',
      auth: admin,
      json: { venue: 'Caf&eacute; &amp; Bar' },
    });
    await api('events', {
      method: 'POST',
      auth: admin,
      json: {
        // As a WordPress site sends titles (the_title escapes them), e.g. after a pull.
        title: 'Rock &#038; Roll &amp; Blues',
        description:
          '<p>Tickets &amp; info on <a href="https://example.org/tickets">our site</a>.</p><p>Doors &lt;7pm&gt;<br>Bring a friend</p>',
        start_date: '2027-04-01 20:00:00',
        end_date: '2027-04-01 23:00:00',
        venue: venue.body.id,
        categories: ['Rock &amp; Pop'],
      },
    });
    const calendar = new ICAL.Component(ICAL.parse(exportIcs(source.engine.store, new Date())));
    const rock = calendar
      .getAllSubcomponents('vevent')
      .map((component) => new ICAL.Event(component))
      .find((event) => event.summary.startsWith('Rock'))!;
    expect(rock.summary).toBe('Rock & Roll & Blues');
    expect(rock.description).toBe(
      'Tickets & info on our site (https://example.org/tickets).\n\nDoors <7pm>\nBring a friend',
    );
    expect(rock.location).toBe('Café & Bar');
    expect(rock.component.getFirstProperty('categories')!.getValues()).toEqual(['Rock & Pop']);
  });

  it('CSV: the original importer columns, quoted cells, and a round trip through import', async () => {
    const text = exportCsv(source.engine.store, 'events');
    expect(text.split('\n')[0]).toBe(EVENT_COLUMNS.join(','));
    expect(text).toContain('"Opera; night, with ""quotes"""');
    const target = await freshStore();
    await importFile(
      target,
      'venues.csv',
      exportCsv(source.engine.store, 'venues'),
      new Date(),
      folderOwner(target),
    );
    const result = await importFile(target, 'events.csv', text, new Date(), folderOwner(target));
    expect(result).toMatchObject({ format: 'csv', events: 3 });
    expect(eventsOf(target).sort((a, b) => a.title.localeCompare(b.title))).toEqual(
      eventsOf(source.engine.store).sort((a, b) => a.title.localeCompare(b.title)),
    );
    // The venue row and the event's venue name are one venue, not two.
    expect(target.venues.size).toBe(1);
    const opera = [...target.events.values()].find((event) => event.title.startsWith('Opera'))!;
    const original = [...source.engine.store.events.values()].find((event) =>
      event.title.startsWith('Opera'),
    )!;
    expect(opera.description).toBe(original.description);
    expect(target.organizers.get(opera.organizerIds[0]!)?.name).toBe('Società Lirica');
  });

  it('a file with errors changes nothing and names every bad line', async () => {
    const target = await freshStore();
    const version = target.version;
    const csv = [
      'Event Name,Event Start Date,Event Start Time,Event End Date,Event End Time,All Day Event',
      'Good one,2027-01-01,10:00,2027-01-01,11:00,FALSE',
      'Bad date,31/31/2027,10:00,,,FALSE',
      ',2027-01-03,10:00,,,maybe',
      'Ends before it starts,2027-01-04,10:00,2027-01-03,10:00,FALSE',
    ].join('\n');
    const error = await importFile(target, 'events.csv', csv, new Date(), folderOwner(target)).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ImportError);
    const lines = (error as ImportError).problems.map((problem) => problem.line);
    expect(lines).toEqual([3, 4, 4]);
    expect((error as Error).message).toMatch(/line 3: Event Start Date: "31\/31\/2027" is not a date/);
    expect(target.events.size).toBe(0);

    // Rule errors found while applying (end before start) also take the whole file back.
    const ruleError = await importFile(
      target,
      'events.csv',
      [csv.split('\n')[0], csv.split('\n')[1], csv.split('\n')[4]].join('\n'),
      new Date(),
      folderOwner(target),
    ).catch((caught: unknown) => caught);
    expect((ruleError as ImportError).problems.map((problem) => problem.line)).toEqual([3]);
    expect(target.events.size).toBe(0);
    expect(target.terms.size).toBe(0);
    expect(target.version).toBeGreaterThanOrEqual(version);
  });
});

describe('record uids in exchange files (CONTRACT §2)', () => {
  const icsEvents = (text: string) =>
    new ICAL.Component(ICAL.parse(text))
      .getAllSubcomponents('vevent')
      .map((component) => new ICAL.Event(component));

  it('JSON: a dump keeps every uid; a dump written before uids gets them once, at the restore', async () => {
    const store = source.engine.store;
    const dump = exportDump(store, new Date());
    const target = await freshStore();
    await importFile(target, 'calendar.json', JSON.stringify(dump), new Date(), folderOwner(target));
    const uids = (of: CalendarStore) =>
      [...of.events.values(), ...of.venues.values(), ...of.organizers.values(), ...of.terms.values()].map(
        (record) => [record.id, record.uid],
      );
    expect(uids(target)).toEqual(uids(store));
    expect(new Set(uids(store).map(([, uid]) => uid)).size).toBe(uids(store).length);

    const old = structuredClone(dump) as unknown as { data: Record<string, Array<Record<string, unknown>>> };
    for (const kind of ['events', 'venues', 'organizers', 'terms']) {
      for (const record of old.data[kind]!) delete record.uid;
    }
    const restored = await freshStore();
    await importFile(restored, 'old.json', JSON.stringify(old), new Date(), folderOwner(restored));
    const given = uids(restored);
    expect(given.map(([id]) => id)).toEqual(uids(store).map(([id]) => id));
    for (const [, uid] of given) expect(uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(given.map(([, uid]) => uid)).size).toBe(given.length);

    // Two records with one uid (a dump edited by hand): refused, naming both, and nothing restored.
    const twice = structuredClone(dump);
    twice.data.venues[0]!.uid = twice.data.events[0]!.uid;
    const refused = await freshStore();
    const error = await importFile(
      refused,
      'twice.json',
      JSON.stringify(twice, null, 2),
      new Date(),
      folderOwner(refused),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ImportError);
    expect(String((error as Error).message)).toMatch(
      new RegExp(
        `venues id ${twice.data.venues[0]!.id}: uid ${twice.data.events[0]!.uid} is already the uid of events id ${twice.data.events[0]!.id}`,
      ),
    );
    expect(refused.events.size + refused.venues.size).toBe(0);
  });

  it('iCalendar: the UID is the event uid, the same on every export, and kept by an import elsewhere', async () => {
    const store = source.engine.store;
    const first = icsEvents(exportIcs(store, new Date()));
    const second = icsEvents(exportIcs(store, new Date(Date.now() + 60_000)));
    const byTitle = new Map([...store.events.values()].map((event) => [event.title, event.uid]));
    expect(first.map((event) => [event.summary, event.uid])).toEqual(
      first.map((event) => [event.summary, byTitle.get(event.summary)]),
    );
    expect(second.map((event) => event.uid)).toEqual(first.map((event) => event.uid));

    const target = await freshStore();
    await importFile(target, 'calendar.ics', exportIcs(store, new Date()), new Date(), folderOwner(target));
    expect(new Map([...target.events.values()].map((event) => [event.title, event.uid]))).toEqual(byTitle);
  });

  it('iCalendar: importing the same file again updates its events instead of adding them twice', async () => {
    const foreign = (summary: string) =>
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//Example//Other calendar//EN',
        'BEGIN:VEVENT',
        'UID:7kq2s9d0vq@google.com',
        'DTSTAMP:20270101T000000Z',
        'DTSTART:20270510T180000Z',
        'DTEND:20270510T200000Z',
        `SUMMARY:${summary}`,
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n');
    const target = await freshStore();
    await importFile(target, 'other.ics', foreign('Board meeting'), new Date(), folderOwner(target));
    const [imported] = [...target.events.values()];
    expect(imported!.uid).toMatch(/^[0-9a-f-]{36}$/);
    await importFile(
      target,
      'other.ics',
      foreign('Board meeting (moved room)'),
      new Date(),
      folderOwner(target),
    );
    expect([...target.events.values()].map((event) => [event.id, event.uid, event.title])).toEqual([
      [imported!.id, imported!.uid, 'Board meeting (moved room)'],
    ]);
    // Exported back, the event keeps the other calendar's UID, so that calendar recognises it too.
    expect(icsEvents(exportIcs(target, new Date())).map((event) => event.uid)).toEqual([
      '7kq2s9d0vq@google.com',
    ]);

    // A UUID in capitals (another program's) becomes the uid in our form; the file's own spelling goes back out.
    const shouting = foreign('Shouted').replace(
      '7kq2s9d0vq@google.com',
      '0F8FAD5B-D9CB-469F-A165-70867728950E',
    );
    await importFile(target, 'caps.ics', shouting, new Date(), folderOwner(target));
    await importFile(target, 'caps.ics', shouting, new Date(), folderOwner(target));
    const shouted = [...target.events.values()].filter((event) => event.title === 'Shouted');
    expect(shouted.map((event) => event.uid)).toEqual(['0f8fad5b-d9cb-469f-a165-70867728950e']);
    expect(icsEvents(exportIcs(target, new Date())).map((event) => event.uid)).toContain(
      '0F8FAD5B-D9CB-469F-A165-70867728950E',
    );

    // Our own export imported twice into the same folder: still one event per UID.
    const ours = exportIcs(source.engine.store, new Date());
    const again = await freshStore();
    await importFile(again, 'calendar.ics', ours, new Date(), folderOwner(again));
    await importFile(again, 'calendar.ics', ours, new Date(), folderOwner(again));
    expect(again.events.size).toBe(source.engine.store.events.size);
  });
});
