import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedEventSchema } from '../../src/main/store/schema';
import { EVENT_COLUMN_LIST } from '../../src/main/exchange/csvColumns';
import { EVENT_FLAG_FIELDS, EVENT_TEXT_FIELDS } from '../../src/shared/fields/event';
import { eventBody, startTestServer, type TestServer } from '../helpers/server';

// The event's yes/no fields come from one table (issue 29): a new stored flag without a row fails here, and each
// row reaches every writer (a new event's value, the answer, CSV and iCalendar exports).
const FLAGS_WITH_RULES_OF_THEIR_OWN = ['allDay', 'ticketed', 'override'];
// The same for its free texts: those below are not written as typed text (a slug is made unique, a zone and a
// currency are checked, the website falls back to the permalink, the password is never exported…).
const TEXTS_WITH_RULES_OF_THEIR_OWN = [
  'slug',
  'password',
  'timezone',
  'currencySymbol',
  'currencyCode',
  'website',
  'icsUid',
];

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** The events exported in a format, as an administrator downloads them. */
const exported = (format: 'csv' | 'ics') =>
  fetch(`${server.engine.origin}/wp-json/calendar-desk/v1/export?format=${format}&kind=events`, {
    headers: server.admin,
  }).then((response) => response.text());

/** The CSV export's row of the event with this title (read with csv-parse), its cells by importer key. */
async function exportedCsvRow(title: string): Promise<(key: string) => string | undefined> {
  const [headers, ...rows] = parse(await exported('csv'), { bom: true }) as string[][];
  const header = (key: string) => EVENT_COLUMN_LIST.find((column) => column.key === key)!.header;
  const row = rows.find((cells) => cells[headers!.indexOf(header('event_name'))] === title);
  expect(row, title).toBeDefined();
  return (key) => row![headers!.indexOf(header(key))];
}

describe('event flag table (issue 29)', () => {
  it('has a row for every stored yes/no field of an event but those with rules of their own', () => {
    const booleans = Object.entries(storedEventSchema.shape)
      .filter(([, schema]) => schema.safeParse(true).success && !schema.safeParse('text').success)
      .map(([key]) => key);
    expect(booleans.filter((key) => !FLAGS_WITH_RULES_OF_THEIR_OWN.includes(key)).sort()).toEqual(
      EVENT_FLAG_FIELDS.map((row) => row.stored).sort(),
    );
    const columns = EVENT_COLUMN_LIST.map((column) => column.key as string);
    for (const row of EVENT_FLAG_FIELDS) expect(columns).toContain(row.csv);
  });

  it('gives a new event each default, answers each flag by its wire key, and exports each in CSV and .ics', async () => {
    const made = await server.api('events', {
      method: 'POST',
      json: eventBody('Flags', 2),
      auth: server.admin,
    });
    expect(made.status).toBe(201);
    for (const row of EVENT_FLAG_FIELDS) expect(made.body[row.wire], row.wire).toBe(row.default);
    // Every flag turned the other way, then read back from the answer and from both exports.
    const flipped = Object.fromEntries(EVENT_FLAG_FIELDS.map((row) => [row.wire, !row.default]));
    const changed = await server.api(`events/${made.body.id}`, {
      method: 'POST',
      json: flipped,
      auth: server.admin,
    });
    for (const row of EVENT_FLAG_FIELDS) expect(changed.body[row.wire], row.wire).toBe(!row.default);
    const ics = await exported('ics');
    for (const row of EVENT_FLAG_FIELDS) {
      expect(ics).toContain(`X-CALENDAR-DESK-${row.ics}:${row.default ? 'FALSE' : 'TRUE'}`);
    }
    const cells = await exportedCsvRow(changed.body.title);
    for (const row of EVENT_FLAG_FIELDS) expect(cells(row.csv), row.csv).toBe(row.default ? 'FALSE' : 'TRUE');
  });
});

describe('event text table (issue 29)', () => {
  it('has a row for every stored free text of an event but those with rules of their own', () => {
    const texts = Object.entries(storedEventSchema.shape)
      .filter(([, schema]) => schema.safeParse('any words').success)
      .map(([key]) => key);
    expect(texts.filter((key) => !TEXTS_WITH_RULES_OF_THEIR_OWN.includes(key)).sort()).toEqual(
      EVENT_TEXT_FIELDS.map((row) => row.stored).sort(),
    );
    const columns = EVENT_COLUMN_LIST.map((column) => column.key as string);
    for (const row of EVENT_TEXT_FIELDS) expect(columns).toContain(row.csv);
  });

  it('writes each text by its kind, answers it by its wire key and exports it in its CSV column', async () => {
    const sent = {
      text: 'Spring <b>concert</b>',
      html: '<p>Choir &amp; <em>strings</em><script>alert(1)</script></p>',
    };
    const written = { text: 'Spring concert', html: '<p>Choir &amp; <em>strings</em></p>' };
    const made = await server.api('events', {
      method: 'POST',
      json: {
        ...eventBody('Texts', 3),
        ...Object.fromEntries(EVENT_TEXT_FIELDS.map((row) => [row.wire, sent[row.type]])),
      },
      auth: server.admin,
    });
    expect(made.status).toBe(201);
    for (const row of EVENT_TEXT_FIELDS) expect(made.body[row.wire], row.wire).toBe(written[row.type]);

    // A write that leaves a text out keeps it; one that sends it changes only it.
    const [first, ...others] = EVENT_TEXT_FIELDS;
    const changed = await server.api(`events/${made.body.id}`, {
      method: 'POST',
      json: { [first.wire]: 'Summer concert' },
      auth: server.admin,
    });
    expect(changed.body[first.wire]).toBe('Summer concert');
    for (const row of others) expect(changed.body[row.wire], row.wire).toBe(written[row.type]);

    const cells = await exportedCsvRow('Summer concert');
    for (const row of EVENT_TEXT_FIELDS) expect(cells(row.csv), row.csv).toBe(changed.body[row.wire]);
  });
});
