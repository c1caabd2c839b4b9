import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { at, createEvent, expectInvalidParams } from './events.helpers';

// Dates at the edge of the calendar (issue 26, item 9): the store keeps 'Y-m-d H:i:s' with a four-digit year,
// local and UTC alike, and the rule arithmetic of a series reads years 1000 to 9998. Whatever is past that is a
// 400 naming the field, through create, update and import, never a 500 and never a record stored half-readable.

describe('dates at the edge of the calendar', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const post = (json: Record<string, unknown>) =>
    server.api('events', { method: 'POST', auth: server.admin, json });
  const put = (id: number, json: Record<string, unknown>) =>
    server.api(`events/${id}`, { method: 'PUT', auth: server.admin, json });
  const admin = (path: string, json: unknown) =>
    server.api(`${server.engine.origin}/wp-json/calendar-desk/v1/${path}`, {
      method: 'POST',
      auth: server.admin,
      json,
    });
  const eventCount = () => server.engine.store.events.size;

  it('a weekly series starting 9999-12-25 is a 400 on start_date saying which years a series may start in', async () => {
    const before = eventCount();
    const result = await post(
      at('New year party', '9999-12-25 10:00:00', '9999-12-25 11:00:00', {
        recurrence: ['RRULE:FREQ=WEEKLY'],
      }),
    );
    expectInvalidParams(result, 'start_date');
    expect(result.body.data.params.start_date).toMatch(/between 1000-01-01 and 9998-12-31/);
    // Year 1 too, with an end: the rule arithmetic cannot read it either.
    const early = await post(
      at('Roman market', '0001-01-01 10:00:00', '0001-01-01 11:00:00', {
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
      }),
    );
    expectInvalidParams(early, 'start_date');
    expect(eventCount()).toBe(before);
  });

  it('a series ending (UNTIL) at 9999-12-31 is kept: only its first events up to the horizon are made', async () => {
    const head = await createEvent(
      server,
      at('Weekly', '2026-01-01 10:00:00', '2026-01-01 11:00:00', {
        recurrence: ['RRULE:FREQ=WEEKLY;UNTIL=99991231'],
      }),
    );
    expect(head.recurrence).toEqual(['RRULE:FREQ=WEEKLY;UNTIL=99991231']);
  });

  it('dates whose local or UTC value leaves years 0000–9999 are a 400 naming the field', async () => {
    const before = eventCount();
    // End after 9999, as typed, as a timestamp, as a relative form.
    expectInvalidParams(await post(at('a', '9999-12-31 10:00:00', '10000-01-01 11:00:00')), 'end_date');
    expectInvalidParams(await post(at('b', 253402300800, 253402300800)), 'start_date');
    expectInvalidParams(await post(at('c', '9999-12-31 +1 day', '9999-12-31 +2 days')), 'start_date');
    // 23:30 on 31 December 9999 in Los Angeles is 10000-01-01 07:30 in UTC.
    const west = await post(
      at('d', '9999-12-31 23:30:00', '9999-12-31 23:45:00', { timezone: 'America/Los_Angeles' }),
    );
    expectInvalidParams(west, 'start_date');
    expect(west.body.data.params.start_date).toMatch(/0000-01-01 and 9999-12-31 \(in UTC as well/);
    // Midnight of 1 January of year 0 in Rome is still year -1 in UTC.
    expectInvalidParams(
      await post(at('e', '0000-01-01 00:30:00', '0000-01-01 01:00:00', { timezone: 'Europe/Rome' })),
      'start_date',
    );
    // An all-day event without a venue ends at 23:59:59, past the year in UTC west of Greenwich.
    expectInvalidParams(
      await post({
        title: 'f',
        start_date: '9999-12-31',
        end_date: '9999-12-31',
        all_day: true,
        timezone: 'America/Los_Angeles',
      }),
      'end_date',
    );
    // The publication date too.
    expectInvalidParams(
      await post({ ...at('g', '2027-01-01 10:00:00', '2027-01-01 11:00:00'), date: '9999-12-31 +1 day' }),
      'date',
    );
    expect(eventCount()).toBe(before);
  });

  it('the last and first seconds the calendar holds are kept, and read back after a restart', async () => {
    const last = await createEvent(server, at('Last', 253402300799, 253402300799));
    expect(last).toMatchObject({ start_date: '9999-12-31 23:59:59', utc_end_date: '9999-12-31 23:59:59' });
    const first = await createEvent(server, at('First', '0000-01-01 00:00:00', '0000-01-01 01:00:00'));
    expect(first.utc_start_date).toBe('0000-01-01 00:00:00');
    const allDay = await createEvent(server, {
      title: 'Last day',
      start_date: '9999-12-31',
      end_date: '9999-12-31',
      all_day: true,
      timezone: 'UTC',
    });
    expect(allDay.end_date).toBe('9999-12-31 23:59:59');

    const dataDir = server.dataDir;
    await server.engine.close();
    server = await startTestServer({ dataDir });
    for (const { id, title } of [last, first, allDay]) {
      const read = await server.api(`events/${id}`, { auth: server.admin });
      expect(read.status).toBe(200);
      expect(read.body.title).toBe(title);
    }
  });

  it('an update past the edge is a 400 naming the field and changes nothing', async () => {
    const event = await createEvent(server, at('Edge', '9999-12-31 10:00:00', '9999-12-31 11:00:00'));
    expectInvalidParams(await put(event.id, { end_date: '+1 year' }), 'end_date');
    expectInvalidParams(
      await put(event.id, { timezone: 'America/Los_Angeles', start_date: '9999-12-31 23:00:00' }),
      'start_date',
    );
    // Making it a series where a series cannot start.
    const late = await createEvent(server, at('Late', '9999-12-25 10:00:00', '9999-12-25 11:00:00'));
    expectInvalidParams(await put(late.id, { recurrence: ['RRULE:FREQ=WEEKLY'] }), 'start_date');
    // Moving a whole series there.
    const series = await createEvent(
      server,
      at('Series', '2027-01-04 10:00:00', '2027-01-04 11:00:00', {
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
      }),
    );
    expectInvalidParams(
      await put(series.id, {
        start_date: '9999-12-27 10:00:00',
        end_date: '9999-12-27 11:00:00',
        scope: 'all',
      }),
      'start_date',
    );
    const read = await server.api(`events/${event.id}`, { auth: server.admin });
    expect(read.body).toMatchObject({ start_date: '9999-12-31 10:00:00', end_date: '9999-12-31 11:00:00' });
    const moved = await server.api(`events/${series.id}`, { auth: server.admin });
    expect(moved.body.start_date).toBe('2027-01-04 10:00:00');
  });

  it('.ics and CSV files with such dates are refused line by line, not with a 500', async () => {
    const ics = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Test//EN',
      'BEGIN:VEVENT',
      'DTSTART;TZID=America/Los_Angeles:99991231T233000',
      'DTEND;TZID=America/Los_Angeles:99991231T234500',
      'UID:edge@example.test',
      'SUMMARY:Past the edge',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'DTSTART:99991225T100000Z',
      'RRULE:FREQ=WEEKLY',
      'UID:edge-series@example.test',
      'SUMMARY:Series past the edge',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    const before = eventCount();
    const fromIcs = await admin('import', { file_name: 'edge.ics', content: ics });
    expect(fromIcs.status, JSON.stringify(fromIcs.body)).toBe(400);
    expect(fromIcs.body.code).toBe('import_invalid');
    expect(fromIcs.body.data.problems).toEqual([
      { line: 4, message: expect.stringMatching(/^start_date: This date is outside the years/) },
      { line: 10, message: expect.stringMatching(/^start_date: A repeating event must start between/) },
    ]);

    const csv = [
      'Event Name,Event Start Date,Event Start Time,Event End Date,Event End Time,Event Timezone',
      'Too late,9999-12-31,23:30,9999-12-31,23:45,America/Los_Angeles',
    ].join('\n');
    const fromCsv = await admin('import', { file_name: 'edge.csv', content: csv });
    expect(fromCsv.status, JSON.stringify(fromCsv.body)).toBe(400);
    expect(fromCsv.body.code).toBe('import_invalid');
    expect(fromCsv.body.data.problems).toEqual([
      { line: 2, message: expect.stringMatching(/outside the years the calendar holds/) },
    ]);
    expect(eventCount()).toBe(before);
  });
});
