import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine } from '../../src/main/engine';
import { startTestServer, type TestServer } from '../helpers/server';
import { startCalendarSite } from '../helpers/calendarSite';

// Hostile .ics files through the admin import route of the real server: whatever the file holds, the answer is
// a 200 or a 400 naming the problem, never a 500, and what the answer says was imported is what the store keeps.

const ADMIN = 'wp-json/calendar-desk/v1';
const calendar = (...events: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//Test//EN', ...events, 'END:VCALENDAR'].join('\r\n');
const vevent = (uid: string, lines: string[]) =>
  [
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20260101T000000Z',
    `SUMMARY:Event ${uid}`,
    ...lines,
    'END:VEVENT',
  ].join('\r\n');

// The server's clock: daily series up to the two-year horizon hold about 700 events each.
const clock = () => new Date('2026-12-01T09:00:00Z');
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ clock });
});
afterAll(() => server?.close());

const importIcs = (content: string) =>
  server.api(`${server.engine.origin}/${ADMIN}/import`, {
    method: 'POST',
    auth: server.admin,
    json: { file_name: 'calendar.ics', content },
  });

describe('importing a hostile .ics file', () => {
  it('refuses a malformed RECURRENCE-ID with its line, importing nothing', async () => {
    const file = calendar(
      vevent('choir', ['DTSTART:20270105T100000Z', 'RRULE:FREQ=WEEKLY;COUNT=3']),
      vevent('choir', ['DTSTART:20270112T110000Z', 'RECURRENCE-ID:garbage']),
    );
    const result = await importIcs(file);
    expect(result.status, JSON.stringify(result.body)).toBe(400);
    expect(result.body.code).toBe('import_invalid');
    expect(result.body.data.problems).toEqual([
      {
        line: 16,
        message: 'RECURRENCE-ID: its value is not a date or date-time such as 20261215 or 20261215T193000.',
      },
    ]);
    const events = await server.api('events?per_page=50', { auth: server.admin });
    expect(events.body.events).toHaveLength(0);
  });

  it('stores every date of series just under the import budget in one import, and still holds them after a restart', async () => {
    // 71 daily series of 696 events: 49,416, under the 50,000 one import may create; one store change.
    const series = Array.from({ length: 71 }, (_, index) =>
      vevent(`daily-${index}`, ['DTSTART:20270105T100000Z', 'RRULE:FREQ=DAILY;COUNT=5000']),
    );
    const before = server.engine.store.events.size;
    const { result, maxStallMs } = await whileWatched(() => importIcs(calendar(...series)));
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body.events).toBe(71);
    const added = server.engine.store.events.size - before;
    expect(added).toBe(71 * 696); // each day from 5 January 2027 to the horizon, 1 December 2028 09:00 UTC
    console.info(`import of 49,416 events: longest event-loop stall ${maxStallMs.toFixed(0)} ms`);
    await server.engine.close();
    const reopened = await startEngine({ port: 0, dataDir: server.dataDir, clock });
    try {
      expect(reopened.store.events.size - before).toBe(added);
    } finally {
      await reopened.close();
    }
    server = await startTestServer({ dataDir: server.dataDir, clock });
  }, 120_000);
});

// 1,600 daily series of COUNT=5000 (about 200 KB): some 1.1 million events up to the horizon, which took the
// server down for minutes before imports were counted first (issue 26 item 3).
const HUGE_SERIES = 1_600;
const hugeFile = () =>
  calendar(
    ...Array.from({ length: HUGE_SERIES }, (_, index) =>
      vevent(`huge-${index}`, ['DTSTART:20270105T100000Z', 'RRULE:FREQ=DAILY;COUNT=5000']),
    ),
  );

/**
 * Runs `work` while the event loop's stalls are measured (the server runs in this process) and a read is sent
 * to the server as soon as the work has started: its longest stall, and how long the read took.
 */
async function whileWatched<T>(work: () => Promise<T>) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const running = work();
  const sent = performance.now();
  const read = await server.api('events?per_page=1');
  const readMs = performance.now() - sent;
  const result = await running;
  delay.disable();
  return { result, readMs, readStatus: read.status, maxStallMs: delay.max / 1e6 };
}

describe('an import over the budget of events', () => {
  it('is refused at once with its numbers, previewed or not, storing nothing, the server answering meanwhile', async () => {
    const file = hugeFile();
    expect(file.length).toBeGreaterThan(150_000);
    const before = server.engine.store.events.size;
    const history = await server.api(`${server.engine.origin}/${ADMIN}/imports`, { auth: server.admin });
    for (const dry_run of [true, false]) {
      const { result, readMs, readStatus, maxStallMs } = await whileWatched(() =>
        server.api(`${server.engine.origin}/${ADMIN}/import`, {
          method: 'POST',
          auth: server.admin,
          json: { file_name: 'huge.ics', content: file, dry_run },
        }),
      );
      expect(result.status, JSON.stringify(result.body).slice(0, 500)).toBe(400);
      expect(result.body.code).toBe('import_too_large');
      expect(result.body.message).toMatch(
        /^Nothing was imported from huge\.ics: This file's repeating events would create up to 1,1\d\d,\d{3} events; an import may create at most 50,000\. Split the file or shorten its repeats/,
      );
      expect(result.body.data).toMatchObject({ status: 400, budget: 50_000 });
      // Each series makes 696 events up to the horizon; the count is a bound from the rules, never below.
      expect(result.body.data.occurrences).toBeGreaterThanOrEqual(HUGE_SERIES * 696);
      expect(result.body.data.occurrences).toBeLessThanOrEqual(HUGE_SERIES * 698);
      expect(readStatus).toBe(200);
      expect(readMs).toBeLessThan(1_000);
      expect(maxStallMs).toBeLessThan(1_000);
      console.info(
        `refused ${dry_run ? 'preview' : 'import'} of ${HUGE_SERIES} series: read answered in ${readMs.toFixed(0)} ms, longest stall ${maxStallMs.toFixed(0)} ms`,
      );
    }
    expect(server.engine.store.events.size).toBe(before);
    const after = await server.api(`${server.engine.origin}/${ADMIN}/imports`, { auth: server.admin });
    expect(after.body).toEqual(history.body);
  }, 60_000);
});

describe('an import address whose calendar is over the budget', () => {
  const admin = (path: string, method = 'GET') =>
    server.api(`${server.engine.origin}/${ADMIN}/${path}`, { method, auth: server.admin });
  const follow = (url: string) =>
    server.api(`${server.engine.origin}/${ADMIN}/import-sources`, {
      method: 'POST',
      auth: server.admin,
      json: { url },
    });

  it('is not followed: refused at once with its numbers, nothing kept, the server answering meanwhile', async () => {
    const site = await startCalendarSite();
    try {
      site.serve('/huge.ics', { body: hugeFile() });
      const before = server.engine.store.events.size;
      const { result, readMs, maxStallMs } = await whileWatched(() => follow(`${site.origin}/huge.ics`));
      expect(result.status, JSON.stringify(result.body).slice(0, 500)).toBe(502);
      expect(result.body.code).toBe('import_too_large');
      expect(result.body.message).toMatch(
        /would create up to 1,1\d\d,\d{3} events; an import may create at most 50,000/,
      );
      expect(result.body.data).toMatchObject({ budget: 50_000 });
      expect(readMs).toBeLessThan(1_000);
      expect(maxStallMs).toBeLessThan(1_000);
      console.info(
        `refused address: read answered in ${readMs.toFixed(0)} ms, longest stall ${maxStallMs.toFixed(0)} ms`,
      );
      expect(server.engine.store.events.size).toBe(before);
      expect((await admin('import-sources')).body).toEqual([]);
    } finally {
      await site.close();
    }
  }, 60_000);

  it('a followed address that grows over it: its refresh is refused, and it is kept with that error', async () => {
    const site = await startCalendarSite();
    try {
      site.serve('/choir.ics', {
        body: calendar(vevent('rehearsal', ['DTSTART:20270105T100000Z', 'RRULE:FREQ=WEEKLY;COUNT=3'])),
      });
      const followed = await follow(`${site.origin}/choir.ics`);
      expect(followed.status, JSON.stringify(followed.body)).toBe(201);
      const before = server.engine.store.events.size;
      site.serve('/choir.ics', { body: hugeFile() });
      const refreshed = await admin(`import-sources/${followed.body.id}/refresh`, 'POST');
      expect(refreshed.status).toBe(502);
      expect(refreshed.body.code).toBe('import_too_large');
      expect(server.engine.store.events.size).toBe(before);
      const listed = (await admin('import-sources')).body;
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({ id: followed.body.id, last_error_code: 'import_too_large' });
      expect(listed[0].last_error).toMatch(/an import may create at most 50,000/);
      // Smaller again, refreshed by hand: it imports, and the mark is gone.
      site.serve('/choir.ics', {
        body: calendar(vevent('rehearsal', ['DTSTART:20270105T100000Z', 'RRULE:FREQ=WEEKLY;COUNT=4'])),
      });
      expect((await admin(`import-sources/${followed.body.id}/refresh`, 'POST')).status).toBe(200);
      expect((await admin('import-sources')).body[0]).toMatchObject({
        last_error: null,
        last_error_code: null,
      });
    } finally {
      await site.close();
    }
  }, 60_000);
});
