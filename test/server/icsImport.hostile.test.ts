import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine } from '../../src/main/engine';
import { startTestServer, type TestServer } from '../helpers/server';

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

  it('stores every date of many long series in one import, and still holds them after a restart', async () => {
    // 200 daily series: one store change of some 140,000 events, more than a spread push(...ops) takes.
    const series = Array.from({ length: 200 }, (_, index) =>
      vevent(`daily-${index}`, ['DTSTART:20270105T100000Z', 'RRULE:FREQ=DAILY;COUNT=5000']),
    );
    const before = server.engine.store.events.size;
    const result = await importIcs(calendar(...series));
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body.events).toBe(200);
    const added = server.engine.store.events.size - before;
    expect(added).toBe(200 * 696); // each day from 5 January 2027 to the horizon, 1 December 2028 09:00 UTC
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
