import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import ICAL from 'ical.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import type { CalendarStore } from '../../src/main/store/store';
import type { StoredEvent } from '../../src/main/store/schema';
import { freshStores } from '../sync/freshStores';
import { exportIcs } from '../../src/main/exchange/ics';
import { exportDump } from '../../src/main/exchange/jsonDump';
import { importFile } from '../../src/main/exchange/importFile';
import { ImportError } from '../../src/main/exchange/errors';
import { folderOwner } from '../../src/main/core/users';
import { icsRecurrenceLines, type SeriesClock } from '../../src/main/exchange/icsSeries';
import { expandSeries } from '../../src/main/core/recurrence/expand';
import { toUtcSql } from '../../src/main/core/dates/sqlDates';

// Series in .ics files and dumps (issue 13 item 5, issue 15 item 3): one VEVENT with its rules plus one per
// changed date, read back by an independent RFC 5545 expander; re-imports match by UID and RECURRENCE-ID.

/** The tests' clock: series are created up to 24 months after it. */
const NOW = new Date('2026-09-01T10:00:00Z');
/** The default horizon from NOW (24 months): the independent expansion is compared up to it. */
const HORIZON = '2028-09-01';

const stores = freshStores();
let source: TestServer;

beforeEach(async () => {
  source = await startTestServer({ clock: () => new Date(NOW) });
});
afterEach(async () => {
  await source.close();
  await stores.closeAll();
});

const importInto = (store: CalendarStore, file: string, text: string) =>
  importFile(store, file, text, NOW, folderOwner(store));

/** Every live event of the calendar as a reader sees it: UTC start, title (sorted like the expander's rows). */
const occurrencesOf = (store: CalendarStore) =>
  [...store.events.values()]
    .filter((event) => event.status !== 'trash')
    .map((event) => `${event.allDay ? `${event.startLocal} all-day` : event.startUtc}|${event.title}`)
    .sort();

/** The independent expansion of an .ics text: 'START|SUMMARY|UID' rows, START in UTC. */
function independentRows(text: string, from = '2026-01-01', to = HORIZON): string[] {
  const script = fileURLToPath(new URL('../helpers/expandIcsFile.py', import.meta.url));
  const run = spawnSync('/usr/bin/python3', [script, from, to], { input: text, encoding: 'utf8' });
  if (run.error || run.status !== 0) {
    throw new Error(
      `The independent expander did not run (${run.error?.message ?? run.stderr.trim()}). ` +
        'Install it: apt-get install python3-icalendar python3-recurring-ical-events (used through /usr/bin/python3).',
    );
  }
  return run.stdout.split('\n').filter(Boolean);
}

const vevents = (text: string) => new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent');

/**
 * An export without what differs from one calendar to another: stamps, modification times, the calendar's
 * name.
 */
const comparable = (text: string) =>
  text
    .replace(/\r\n /g, '')
    .split('\r\n')
    .filter((line) => !/^(DTSTAMP|LAST-MODIFIED|NAME|X-WR-CALNAME)[:;]/.test(line));

/**
 * A choir's season through the API: weekly Tuesday rehearsals 19:30 Rome time across the October clock change,
 * one cancelled, one moved and renamed; and an all-day yearly festival with its second year changed.
 */
async function choirSeason(server: TestServer) {
  const { api, admin } = server;
  /** A write through the API as the administrator, checked to answer `status`; its body. */
  const write = async (path: string, json: Record<string, unknown>, status: number) => {
    const result = await api(path, { method: 'POST', auth: admin, json });
    expect(result.status, JSON.stringify(result.body)).toBe(status);
    return result.body;
  };
  /** The occurrences of a series but its first, by original start. */
  const restOf = async (headId: number) => {
    const rest = await api(`events?post_parent=${headId}&per_page=50`, { auth: admin });
    return [...rest.body.events].sort((a, b) =>
      String(a.recurrence_id).localeCompare(String(b.recurrence_id)),
    );
  };
  const rehearsal = await write(
    'events',
    {
      title: 'Rehearsal',
      start_date: '2026-10-06 19:30:00',
      end_date: '2026-10-06 21:30:00',
      timezone: 'Europe/Rome',
      status: 'publish',
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=8;BYDAY=TU'],
    },
    201,
  );
  const byStart = await restOf(rehearsal.id);
  const removed = await api(`events/${byStart[1].id}?scope=this`, { method: 'DELETE', auth: admin });
  expect(removed.status, JSON.stringify(removed.body)).toBe(200);
  const movedTo = { start_date: '2026-11-03 20:00:00', end_date: '2026-11-03 23:00:00' };
  await write(
    `events/${byStart[3].id}`,
    { title: 'Rehearsal with the orchestra', ...movedTo, scope: 'this' },
    200,
  );
  const festival = await write(
    'events',
    {
      title: 'Summer festival',
      start_date: '2027-06-21',
      end_date: '2027-06-21',
      all_day: true,
      status: 'publish',
      recurrence: ['RRULE:FREQ=YEARLY;COUNT=3'],
    },
    201,
  );
  const [second] = await restOf(festival.id);
  await write(`events/${second.id}`, { title: 'Summer festival (tenth edition)', scope: 'this' }, 200);
  // A monthly board meeting whose first date moved on its own: the series' VEVENT keeps its original start.
  const board = await write(
    'events',
    {
      title: 'Board meeting',
      start_date: '2026-10-05 18:00:00',
      end_date: '2026-10-05 19:00:00',
      timezone: 'America/New_York',
      status: 'publish',
      recurrence: ['RRULE:FREQ=MONTHLY;BYDAY=1MO;COUNT=6'],
    },
    201,
  );
  const movedHead = { start_date: '2026-10-07 17:00:00', end_date: '2026-10-07 20:00:00' };
  await write(`events/${board.id}`, { title: 'Board meeting (annual)', ...movedHead, scope: 'this' }, 200);
  return { head: server.engine.store.events.get(rehearsal.id)! };
}

describe('.ics export of a series', () => {
  it('writes one VEVENT with its rules and one per changed date; an independent expander finds our events', async () => {
    const { head } = await choirSeason(source);
    const store = source.engine.store;
    const text = exportIcs(store, NOW);
    const components = vevents(text);
    // Three series: three VEVENTs with rules, three changed dates; no expanded copies.
    expect(components).toHaveLength(6);
    const rehearsals = components.filter((component) => component.getFirstPropertyValue('uid') === head.uid);
    expect(rehearsals).toHaveLength(2);
    const master = rehearsals.find((component) => !component.hasProperty('recurrence-id'))!;
    expect(String(master.getFirstPropertyValue('rrule'))).toBe('FREQ=WEEKLY;COUNT=8;BYDAY=TU');
    expect(master.getFirstProperty('exdate')!.getParameter('tzid')).toBe('Europe/Rome');
    expect(String(master.getFirstPropertyValue('exdate'))).toBe('2026-10-20T19:30:00');
    const override = rehearsals.find((component) => component.hasProperty('recurrence-id'))!;
    expect(override.getFirstProperty('recurrence-id')!.getParameter('tzid')).toBe('Europe/Rome');
    expect(String(override.getFirstPropertyValue('recurrence-id'))).toBe('2026-11-03T19:30:00');
    // An occurrence's own uid is ours alone: the file names it by the series' UID and RECURRENCE-ID.
    const occurrenceUids = [...store.events.values()].filter((e) => e.parentId === head.id).map((e) => e.uid);
    for (const uid of occurrenceUids) expect(text).not.toContain(uid);
    expect(text).toContain('RECURRENCE-ID;VALUE=DATE:20280621');

    const rows = independentRows(text);
    expect(rows.map((row) => row.split('|').slice(0, 2).join('|'))).toEqual(occurrencesOf(store));
    // 19:30 in Rome is 17:30 UTC before the October change and 18:30 after it.
    expect(rows).toContain(`2026-10-13 17:30:00|Rehearsal|${head.uid}`);
    expect(rows.filter((row) => row.startsWith('2026-10-20'))).toEqual([]);
    expect(rows).toContain(`2026-11-10 18:30:00|Rehearsal|${head.uid}`);
    expect(rows).toContain(`2026-11-03 19:00:00|Rehearsal with the orchestra|${head.uid}`);
    expect(rows.filter((row) => row.includes('|Board meeting')).map((row) => row.slice(0, 19))).toEqual([
      '2026-10-07 21:00:00',
      '2026-11-02 23:00:00',
      '2026-12-07 23:00:00',
      '2027-01-04 23:00:00',
      '2027-02-01 23:00:00',
      '2027-03-01 23:00:00',
    ]);
  });

  it('writes the series of any of its events when given a selection of events', async () => {
    const { head } = await choirSeason(source);
    const store = source.engine.store;
    const oneOccurrence = [...store.events.values()].filter((event) => event.parentId === head.id).slice(-1);
    const text = exportIcs(store, NOW, oneOccurrence);
    expect(vevents(text).map((component) => component.getFirstPropertyValue('uid'))).toEqual([
      head.uid,
      head.uid,
    ]);
  });
});

describe('.ics lines of a series', () => {
  /** A one-VEVENT calendar of a series with the lines as the export writes them. */
  const seriesFile = (clock: SeriesClock, lines: string[]) => {
    const compact = clock.startLocal.replace(/[- :]/g, '').replace(/^(\d{8})/, '$1T');
    return [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Calendar Desk//tests//EN',
      'BEGIN:VEVENT',
      'UID:lines@calendar-desk.test',
      'DTSTAMP:20260101T000000Z',
      clock.allDay
        ? `DTSTART;VALUE=DATE:${compact.slice(0, 8)}`
        : `DTSTART;TZID=${clock.timezone}:${compact}`,
      'SUMMARY:Series',
      ...icsRecurrenceLines(lines, clock),
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
  };
  const cases: Array<[string, SeriesClock, string[]]> = [
    [
      'dates on a timed series (an EXDATE date removes that day), UTC and other-zone values',
      { timezone: 'Europe/Rome', allDay: false, startLocal: '2027-03-24 19:30:00', zoned: true },
      [
        'RRULE:FREQ=DAILY;COUNT=10',
        'EXDATE;VALUE=DATE:20270326',
        'EXDATE:20270329T173000Z',
        'EXDATE;TZID=America/New_York:20270330T133000',
        'RDATE;VALUE=DATE:20270410',
      ],
    ],
    [
      'UNTIL as a date, across the March change',
      { timezone: 'Europe/Rome', allDay: false, startLocal: '2027-03-02 19:30:00', zoned: true },
      ['RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20270330'],
    ],
    [
      // The last date itself (inclusive); the expander misreads a UTC UNTIL after a clock change, so before it.
      'UNTIL as a wall clock',
      { timezone: 'Europe/Rome', allDay: false, startLocal: '2027-01-01 19:30:00', zoned: true },
      ['RRULE:FREQ=WEEKLY;BYDAY=FR;UNTIL=20270305T193000'],
    ],
    [
      'an all-day series with removed and added dates',
      { timezone: 'UTC', allDay: true, startLocal: '2027-01-31 00:00:00', zoned: true },
      ['RRULE:FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=6', 'EXDATE;VALUE=DATE:20270430', 'RDATE;VALUE=DATE:20270515'],
    ],
  ];
  it.each(cases)('%s: the independent expander finds our dates', (_name, clock, lines) => {
    const ours = expandSeries({ ...clock, lines }, { untilLocal: '2028-12-31 23:59:59' }).map((local) =>
      clock.allDay ? `${local} all-day` : toUtcSql(local, clock.timezone),
    );
    const theirs = independentRows(seriesFile(clock, lines), '2027-01-01', '2029-01-01');
    expect(theirs.map((row) => row.split('|')[0])).toEqual(ours);
    expect(ours.length).toBeGreaterThan(3);
  });
});

describe('.ics import of a series', () => {
  it('export → import → export is the same file; importing it again changes nothing', async () => {
    await choirSeason(source);
    const text = exportIcs(source.engine.store, NOW);
    const target = await stores.open();
    const first = await importInto(target, 'season.ics', text);
    expect(first).toMatchObject({ format: 'ics', events: 3, matchedByUid: 0, unchangedByUid: 0 });
    expect(occurrencesOf(target)).toEqual(occurrencesOf(source.engine.store));
    expect(comparable(exportIcs(target, NOW))).toEqual(comparable(text));

    const version = target.version;
    const snapshot = target.snapshot();
    const again = await importInto(target, 'season.ics', text);
    expect(again).toMatchObject({ events: 3, matchedByUid: 3, unchangedByUid: 3 });
    expect(target.version).toBe(version);
    expect(target.snapshot()).toEqual(snapshot);
  });

  it('imports a Google Calendar file: weekly rule with EXDATEs and a changed date, as one series', async () => {
    const google = [
      'BEGIN:VCALENDAR',
      'PRODID:-//Google Inc//Google Calendar 70.9054//EN',
      'VERSION:2.0',
      'CALSCALE:GREGORIAN',
      'X-WR-TIMEZONE:Europe/Rome',
      'BEGIN:VEVENT',
      'DTSTART;TZID=Europe/Rome:20270105T193000',
      'DTEND;TZID=Europe/Rome:20270105T213000',
      'RRULE:FREQ=WEEKLY;WKST=MO;UNTIL=20270302T183000Z;BYDAY=TU',
      'EXDATE;TZID=Europe/Rome:20270119T193000',
      'EXDATE;TZID=Europe/Rome:20270209T193000',
      'DTSTAMP:20261120T090000Z',
      'UID:7kq2s9d0vq3mhq2p8b1v6u6f0c@google.com',
      'CREATED:20261101T100000Z',
      'LAST-MODIFIED:20261110T100000Z',
      'SEQUENCE:1',
      'STATUS:CONFIRMED',
      'SUMMARY:Choir rehearsal',
      'TRANSP:OPAQUE',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'DTSTART;TZID=Europe/Rome:20270126T200000',
      'DTEND;TZID=Europe/Rome:20270126T223000',
      'DTSTAMP:20261120T090000Z',
      'UID:7kq2s9d0vq3mhq2p8b1v6u6f0c@google.com',
      'RECURRENCE-ID;TZID=Europe/Rome:20270126T193000',
      'SEQUENCE:2',
      'STATUS:CONFIRMED',
      'SUMMARY:Choir rehearsal (dress rehearsal)',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    const target = await stores.open();
    const result = await importInto(target, 'google.ics', google);
    expect(result).toMatchObject({ events: 1, matchedByUid: 0 });
    const events = [...target.events.values()];
    const head = events.find((event) => event.parentId === 0)!;
    expect(head.icsUid).toBe('7kq2s9d0vq3mhq2p8b1v6u6f0c@google.com');
    expect(events.every((event) => event.id === head.id || event.parentId === head.id)).toBe(true);
    expect(events.map((event) => [event.startLocal, event.title, event.override ?? false]).sort()).toEqual([
      ['2027-01-05 19:30:00', 'Choir rehearsal', false],
      ['2027-01-12 19:30:00', 'Choir rehearsal', false],
      ['2027-01-26 20:00:00', 'Choir rehearsal (dress rehearsal)', true],
      ['2027-02-02 19:30:00', 'Choir rehearsal', false],
      ['2027-02-16 19:30:00', 'Choir rehearsal', false],
      ['2027-02-23 19:30:00', 'Choir rehearsal', false],
      ['2027-03-02 19:30:00', 'Choir rehearsal', false],
    ]);
    // Re-imported: matched by UID and RECURRENCE-ID, nothing written.
    const version = target.version;
    expect(await importInto(target, 'google.ics', google)).toMatchObject({
      matchedByUid: 1,
      unchangedByUid: 1,
    });
    expect(target.version).toBe(version);
    // Google's next export, the changed date renamed again: only that occurrence changes.
    const before = new Map(events.map((event) => [event.id, event.revision]));
    const renamed = google.replace('(dress rehearsal)', '(general rehearsal)');
    expect(await importInto(target, 'google.ics', renamed)).toMatchObject({
      matchedByUid: 1,
      unchangedByUid: 0,
    });
    const changed = [...target.events.values()].filter((event) => event.revision !== before.get(event.id));
    expect(changed.map((event) => event.title)).toEqual(['Choir rehearsal (general rehearsal)']);
    // The series renamed in Google: every date follows but the one changed on its own.
    const retitled = renamed.replace('SUMMARY:Choir rehearsal\r\n', 'SUMMARY:Chamber choir rehearsal\r\n');
    expect(await importInto(target, 'google.ics', retitled)).toMatchObject({
      matchedByUid: 1,
      unchangedByUid: 0,
    });
    expect(new Set([...target.events.values()].map((event) => event.title))).toEqual(
      new Set(['Chamber choir rehearsal', 'Choir rehearsal (general rehearsal)']),
    );
    expect(target.events.size).toBe(7);
    // Back out, the series keeps Google's UID on both VEVENTs, and an independent reader agrees.
    const exported = exportIcs(target, NOW);
    const beforeOwn = target.snapshot().events;
    expect(await importInto(target, 'ours.ics', exported)).toMatchObject({
      matchedByUid: 1,
      unchangedByUid: 1,
    });
    expect(target.snapshot().events).toEqual(beforeOwn);
    expect(vevents(exported).map((component) => component.getFirstPropertyValue('uid'))).toEqual([
      '7kq2s9d0vq3mhq2p8b1v6u6f0c@google.com',
      '7kq2s9d0vq3mhq2p8b1v6u6f0c@google.com',
    ]);
    expect(independentRows(exported).map((row) => row.split('|').slice(0, 2).join('|'))).toEqual(
      occurrencesOf(target),
    );
  });

  const rehearsalFile = (...extra: string[][]) =>
    [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Example//Other calendar//EN',
      'BEGIN:VEVENT',
      'UID:weekly@example.org',
      'DTSTAMP:20261120T090000Z',
      'DTSTART;TZID=Europe/Rome:20270105T193000',
      'DTEND;TZID=Europe/Rome:20270105T213000',
      'RRULE:FREQ=WEEKLY;COUNT=4',
      'SUMMARY:Rehearsal',
      'END:VEVENT',
      ...extra.flatMap((vevent) => ['BEGIN:VEVENT', 'DTSTAMP:20261120T090000Z', ...vevent, 'END:VEVENT']),
      'END:VCALENDAR',
      '',
    ].join('\r\n');

  it('a changed date the rule does not give becomes an added date (RDATE) of the series, changed', async () => {
    const target = await stores.open();
    const text = rehearsalFile([
      'UID:weekly@example.org',
      'RECURRENCE-ID;TZID=Europe/Rome:20270108T193000',
      'DTSTART;TZID=Europe/Rome:20270108T180000',
      'DTEND;TZID=Europe/Rome:20270108T200000',
      'SUMMARY:Extra rehearsal',
    ]);
    await importInto(target, 'extra.ics', text);
    const head = [...target.events.values()].find((event) => event.parentId === 0)!;
    expect(head.recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=4', 'RDATE;TZID=Europe/Rome:20270108T193000']);
    const extra = [...target.events.values()].find((event) => event.recurrenceId === '2027-01-08 19:30:00')!;
    expect([extra.startLocal, extra.title, extra.override]).toEqual([
      '2027-01-08 18:00:00',
      'Extra rehearsal',
      true,
    ]);
    expect(target.events.size).toBe(5);
  });

  it('an event imported before as a single one (its rules then dropped) becomes the series, and back', async () => {
    const target = await stores.open();
    const single = rehearsalFile().replace('RRULE:FREQ=WEEKLY;COUNT=4\r\n', '');
    await importInto(target, 'weekly.ics', single);
    const [first] = [...target.events.values()];
    expect(await importInto(target, 'weekly.ics', rehearsalFile())).toMatchObject({
      matchedByUid: 1,
      unchangedByUid: 0,
    });
    expect(target.events.get(first!.id)!.recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=4']);
    expect([...target.events.values()].filter((event) => event.parentId === first!.id)).toHaveLength(3);
    // The file's event no longer repeats: the series here becomes a single event again.
    await importInto(target, 'weekly.ics', single);
    const live = [...target.events.values()].filter((event) => event.status !== 'trash');
    expect(live.map((event) => [event.id, event.recurrence ?? []])).toEqual([[first!.id, []]]);
  });

  it('refuses, with the line, what a series cannot hold, and imports nothing of the file', async () => {
    const target = await stores.open();
    const refused = async (text: string) => {
      const error = await importInto(target, 'other.ics', text).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ImportError);
      expect(target.events.size).toBe(0);
      return (error as ImportError).problems;
    };
    expect(
      await refused(rehearsalFile().replace('RRULE:FREQ=WEEKLY;COUNT=4', 'RRULE:FREQ=HOURLY;COUNT=4')),
    ).toEqual([{ line: 9, message: expect.stringMatching(/^RRULE: FREQ=HOURLY repeats within a day/) }]);
    expect(
      await refused(
        rehearsalFile().replace(
          'RRULE:FREQ=WEEKLY;COUNT=4',
          'RRULE:FREQ=WEEKLY;COUNT=4\r\nEXRULE:FREQ=MONTHLY',
        ),
      ),
    ).toEqual([{ line: 10, message: expect.stringMatching(/^EXRULE: EXRULE is not supported/) }]);
    expect(
      await refused(rehearsalFile().replaceAll('TZID=Europe/Rome', 'TZID=W. Europe Standard Time')),
    ).toEqual([{ line: 7, message: expect.stringMatching(/time zone W\. Europe Standard Time is not one/) }]);
    const lone = rehearsalFile([
      'UID:someone-else@example.org',
      'RECURRENCE-ID;TZID=Europe/Rome:20270112T193000',
      'DTSTART;TZID=Europe/Rome:20270112T200000',
      'SUMMARY:Moved',
    ]);
    expect(await refused(lone)).toEqual([
      { line: 15, message: expect.stringMatching(/^RECURRENCE-ID changes one date of a repeating event/) },
    ]);
    const beyondHorizon = rehearsalFile([
      'UID:weekly@example.org',
      'RECURRENCE-ID;TZID=Europe/Rome:20300108T193000',
      'DTSTART;TZID=Europe/Rome:20300108T200000',
      'SUMMARY:Far away',
    ]).replace('RRULE:FREQ=WEEKLY;COUNT=4', 'RRULE:FREQ=WEEKLY');
    expect(await refused(beyondHorizon)).toEqual([
      { line: 15, message: expect.stringMatching(/^the date 2030-01-08 19:30:00 .* not among the events/) },
    ]);
    const removedAndChanged = rehearsalFile([
      'UID:weekly@example.org',
      'RECURRENCE-ID;TZID=Europe/Rome:20270112T193000',
      'DTSTART;TZID=Europe/Rome:20270112T200000',
      'SUMMARY:Moved',
    ]).replace(
      'RRULE:FREQ=WEEKLY;COUNT=4',
      'RRULE:FREQ=WEEKLY;COUNT=4\r\nEXDATE;TZID=Europe/Rome:20270112T193000',
    );
    expect(await refused(removedAndChanged)).toEqual([
      { line: 16, message: expect.stringMatching(/removed from its series by an EXDATE and changed/) },
    ]);
  });
});

describe('JSON dump of a series', () => {
  it('restores every event of a series exactly: head, lines, occurrences, overrides, uids', async () => {
    await choirSeason(source);
    const store = source.engine.store;
    const target = await stores.open();
    await importInto(target, 'calendar.json', JSON.stringify(exportDump(store, NOW)));
    const series = (of: CalendarStore) =>
      [...of.events.values()].filter((event: StoredEvent) => event.recurrenceId !== undefined);
    expect(series(store).length).toBeGreaterThan(8);
    expect(series(target)).toEqual(series(store));
    expect(exportIcs(target, NOW)).toEqual(exportIcs(store, NOW));

    // A dump edited by hand with lines no series can hold, or lines on an occurrence: refused, nothing restored.
    const edited = exportDump(store, NOW);
    const head = edited.data.events.find((event) => event.recurrence?.[0]?.includes('WEEKLY'))!;
    head.recurrence = ['RRULE:FREQ=HOURLY;COUNT=3'];
    const occurrence = edited.data.events.find((event) => event.parentId === head.id)!;
    occurrence.recurrence = ['RRULE:FREQ=DAILY'];
    const refused = await stores.open();
    const error = await importInto(refused, 'edited.json', JSON.stringify(edited, null, 2)).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).problems.map((problem) => problem.message)).toEqual([
      expect.stringMatching(
        new RegExp(`^events id ${head.id}: recurrence: Line 1: FREQ=HOURLY repeats within a day`),
      ),
      `events id ${occurrence.id}: recurrence is kept on the first event of a series only (parentId 0, with its recurrenceId).`,
    ]);
    expect((error as ImportError).problems.every((problem) => problem.line > 0)).toBe(true);
    expect(refused.events.size).toBe(0);
  });
});
