import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import {
  cellsOfRecord,
  columnSlug,
  EVENT_COLUMNS,
  exportCsv,
  parseCsv,
  VENUE_COLUMNS,
} from '../../src/main/exchange/csv';
import { neutraliseCell, restoreCell } from '../../src/main/exchange/csvFormulas';
import { exportText } from '../../src/main/exchange/exportText';
import type { EventInput } from '../../src/main/core/eventRecord';

/** What a spreadsheet runs as a formula (OWASP): a cell beginning with one of these. */
const LIVE = /^[=+\-@\t\r]/;
/** Digits, spaces and + - ( ) . , / only: no function, no reference (a number, a phone number), left as it is. */
const NUMBER = /^[\d ().,/+-]*$/;

/** Texts that start with quotes and formula characters more often than chance would make them. */
const formulaLike = fc
  .tuple(
    fc.constantFrom('', "'", "''", "'''", ' ', "' "),
    fc.constantFrom('', '=', '+', '-', '@', '\t', '\r', '-12.5', '-1,5', '1', "'", '"'),
    fc.string({ unit: 'binary' }),
  )
  .map((parts) => parts.join(''));
const anyText = fc.oneof(formulaLike, fc.string({ unit: 'binary' }), fc.string());

describe('the neutralising rule of a cell', () => {
  it('a cell a spreadsheet would run gets a quote before it; plain negative numbers and other text stay', () => {
    expect(neutraliseCell('=HYPERLINK("http://x","y")')).toBe('\'=HYPERLINK("http://x","y")');
    expect(neutraliseCell('+SUM(1)')).toBe("'+SUM(1)");
    expect(neutraliseCell('-2+A3')).toBe("'-2+A3");
    expect(neutraliseCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(neutraliseCell('\t=1')).toBe("'\t=1");
    expect(neutraliseCell('\r=1')).toBe("'\r=1");
    // A quote already there before a trigger gets a second one, so the import's one unescape is exact.
    expect(neutraliseCell("'=1")).toBe("''=1");
    expect(neutraliseCell("''@x")).toBe("'''@x");
    for (const plain of ['-12.5', '-3', '-1,50', '12', "'quoted'", "'", 'Concert = fun', ''])
      expect(neutraliseCell(plain)).toBe(plain);
    // Phone numbers too: the original's importer would keep a quote before them.
    for (const phone of ['+1 217 555 0100', '+49 (30) 1234-5', '-5 - 10'])
      expect(neutraliseCell(phone)).toBe(phone);
    // Anything more (a letter, a reference, a tab, an operator besides + and -) is no longer a plain number.
    for (const formula of ['-12.5e3', '-1+A1', '+1\t2', '-2*3', '+1;2', '-', '+ ', '-(1)!A'])
      expect(neutraliseCell(formula)).toBe(`'${formula}`);
  });

  it('the import takes away only a quote the export would have added', () => {
    expect(restoreCell("'=1")).toBe('=1');
    expect(restoreCell("''=1")).toBe("'=1");
    expect(restoreCell("'-12.5")).toBe('-12.5');
    for (const kept of ["'quoted'", "'", "''", 'x', '-12.5', '=1']) expect(restoreCell(kept)).toBe(kept);
  });

  it('property: export then import of a cell is the identity, and no exported cell is a live formula', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const written = neutraliseCell(text);
        expect(restoreCell(written)).toBe(text);
        expect(LIVE.test(written) && !NUMBER.test(written)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('CSV export of hostile texts', () => {
  let server: TestServer;
  let eventId: number;
  beforeAll(async () => {
    server = await startTestServer();
    const post = async (path: string, json: Record<string, unknown>) => {
      const answer = await server.api(path, { method: 'POST', auth: server.admin, json });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body as { id: number };
    };
    await post('venues', { venue: '@Hall', city: '=1+1', phone: '+1 217 555 0100' });
    await post('organizers', { organizer: '-Board', phone: '-5' });
    eventId = (
      await post('events', {
        title: '=HYPERLINK("http://x","y")',
        description: '@SUM(1+1)',
        start_date: '2027-05-01 19:30:00',
        end_date: '2027-05-01 21:00:00',
        venue: { venue: '@Hall' },
        cost: '-12.5',
        categories: ['+Cat'],
      })
    ).id;
  });
  afterAll(() => server.close());

  const rowsOf = (csv: string) => parse(csv) as string[][];

  it('formula-like cells are written behind a quote, a negative cost stays a number, and the import reads the texts back', () => {
    const store = server.engine.store;
    const csv = exportCsv(store, 'events');
    const [headers, row] = rowsOf(csv) as [string[], string[]];
    const cell = (header: string) => row[headers.indexOf(header)];
    expect(cell('Event Name')).toBe('\'=HYPERLINK("http://x","y")');
    expect(cell('Event Description')).toBe("'@SUM(1+1)");
    expect(cell('Event Venue Name')).toBe("'@Hall");
    expect(cell('Event Category')).toBe("'+Cat");
    expect(cell('Event Cost')).toBe('-12.5');
    for (const value of row) expect(LIVE.test(value) && !NUMBER.test(value), value).toBe(false);

    const { inputs, problems } = parseCsv(csv);
    expect(problems).toEqual([]);
    expect(inputs[0]!.input).toMatchObject({
      title: '=HYPERLINK("http://x","y")',
      description: '@SUM(1+1)',
      venue: { venue: '@Hall' },
      cost: '-12.5',
      categories: ['+Cat'],
    } satisfies EventInput);

    const [venueHeaders, venueRow] = rowsOf(exportCsv(store, 'venues')) as [string[], string[]];
    expect(venueHeaders).toEqual(VENUE_COLUMNS);
    expect(venueRow.slice(0, 1)).toEqual(["'@Hall"]);
    expect(venueRow).toContain("'=1+1");
    expect(venueRow).toContain('+1 217 555 0100');
    expect(parseCsv(exportCsv(store, 'venues')).inputs[0]!.input).toMatchObject({
      venue: '@Hall',
      city: '=1+1',
      phone: '+1 217 555 0100',
    });
    const organizers = rowsOf(exportCsv(store, 'organizers'));
    expect(organizers[1]!.slice(0, 1)).toEqual(["'-Board"]);
    expect(organizers[1]).toContain('-5');
  });

  it('the export route (the CLI and the app download the same text) neutralises the cells too', async () => {
    const store = server.engine.store;
    const download = (kind: string) =>
      server.api(`${server.engine.origin}/wp-json/calendar-desk/v1/export?format=csv&kind=${kind}`, {
        auth: server.admin,
      });
    for (const kind of ['events', 'venues', 'organizers'] as const) {
      const answer = await download(kind);
      expect(answer.status).toBe(200);
      expect(answer.body).toBe(exportCsv(store, kind));
      expect(exportText(store, 'csv', kind, new Date())).toBe(exportCsv(store, kind));
    }
    expect((await download('events')).body).toContain('"\'=HYPERLINK(""http://x"",""y"")"');
  });

  it('property: every cell of an exported event reads back as it was, titles starting with quotes and triggers included', async () => {
    const store = server.engine.store;
    await fc.assert(
      fc.asyncProperty(anyText, async (text) => {
        const answer = await server.api(`events/${eventId}`, {
          method: 'POST',
          auth: server.admin,
          json: { title: text || 'x', excerpt: text },
        });
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        const event = store.events.get(eventId)!;
        // An empty title (nothing left once trimmed and stripped of tags) is no row the import takes, quotes or not.
        fc.pre(event.title !== '');
        const csv = exportCsv(store, 'events');
        const [headers, row] = rowsOf(csv) as [string[], string[]];
        expect(headers).toEqual(EVENT_COLUMNS);
        const cells = cellsOfRecord(store, event);
        // The raw cells of the file, quote taken away, are the record's cells, every column (by importer key).
        expect(row.map(restoreCell)).toEqual(EVENT_COLUMNS.map((header) => cells[columnSlug(header)]));
        for (const value of row) expect(LIVE.test(value) && !NUMBER.test(value), value).toBe(false);
        // Our import reads the stored title back (titles are stored trimmed: the import's trim changes none).
        const { inputs, problems } = parseCsv(csv);
        expect(problems).toEqual([]);
        expect((inputs[0]!.input as EventInput).title).toBe(event.title);
      }),
      { numRuns: 200 },
    );
  });
});
