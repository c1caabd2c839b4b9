import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
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
});
