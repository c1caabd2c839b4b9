import ICAL from 'ical.js';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import type { CalendarStore } from '../../src/main/store/store';
import { freshStores } from '../sync/freshStores';
import { exportDump } from '../../src/main/exchange/jsonDump';
import { exportIcs } from '../../src/main/exchange/ics';
import { exportCsv } from '../../src/main/exchange/csv';
import { importFile } from '../../src/main/exchange/importFile';
import { folderOwner } from '../../src/main/core/users';
import { ImportError } from '../../src/main/exchange/errors';

/** Exports carry the cost as typed and the currency it is shown in; imports bring both back. */
let source: TestServer;

beforeAll(async () => {
  source = await startTestServer();
  const { api, admin } = source;
  await api(`${source.engine.apiRoot}calendar-desk/v1/settings`, {
    method: 'PUT',
    auth: admin,
    json: { currency_symbol: '€', currency_position: 'postfix', currency_code: 'EUR' },
  });
  const create = (title: string, extra: Record<string, unknown>) =>
    api('events', {
      method: 'POST',
      auth: admin,
      json: { title, start_date: '2027-05-01 20:00:00', end_date: '2027-05-01 22:00:00', ...extra },
    });
  await create('Reduced', { cost: '20€ / 10€ reduced' });
  await create('Plain', { cost: '15' });
  await create('Pounds', {
    cost: '12',
    currency_symbol: '£',
    currency_position: 'prefix',
    currency_code: 'GBP',
  });
  await create('No cost', {});
});
afterAll(async () => {
  await source.close();
  await stores.closeAll();
});

const stores = freshStores();
const freshStore = () => stores.open();

const byTitle = (store: CalendarStore, title: string) =>
  [...store.events.values()].find((event) => event.title === title)!;

describe('currency in exports', () => {
  it("CSV: the importer's cost, symbol and position columns, with the site default where the event has none", () => {
    const rows: Record<string, string>[] = parse(exportCsv(source.engine.store, 'events'), { columns: true });
    const cells = Object.fromEntries(
      rows.map((row) => [
        row['Event Name'],
        [row['Event Cost'], row['Event Currency Symbol'], row['Event Currency Position']],
      ]),
    );
    expect(cells).toEqual({
      Reduced: ['20€ / 10€ reduced', '€', 'suffix'],
      Plain: ['15', '€', 'suffix'],
      Pounds: ['12', '£', 'prefix'],
      'No cost': ['', '', ''],
    });
  });

  it('CSV: import keeps the cost as typed and takes the currency columns as the event currency', async () => {
    const target = await freshStore();
    await importFile(
      target,
      'events.csv',
      exportCsv(source.engine.store, 'events'),
      new Date(),
      folderOwner(target),
    );
    expect(byTitle(target, 'Reduced')).toMatchObject({
      cost: ['20€ / 10€ reduced'],
      currencySymbol: '€',
      currencyPosition: 'postfix',
    });
    expect(byTitle(target, 'Plain')).toMatchObject({
      cost: ['15'],
      currencySymbol: '€',
      currencyPosition: 'postfix',
    });
    expect(byTitle(target, 'Pounds')).toMatchObject({
      cost: ['12'],
      currencySymbol: '£',
      currencyPosition: 'prefix',
    });
    // The original importer's aliases: "after" is after the amount, "before" before it.
    const aliases = [
      'Event Name,Event Start Date,Event Cost,Event Currency Symbol,Event Currency Position',
      'After,2027-01-01,8,kr,after',
      'Before,2027-01-02,9,CHF,Before',
    ].join('\n');
    await importFile(target, 'more.csv', aliases, new Date(), folderOwner(target));
    expect(byTitle(target, 'After')).toMatchObject({ currencySymbol: 'kr', currencyPosition: 'postfix' });
    expect(byTitle(target, 'Before')).toMatchObject({ currencySymbol: 'CHF', currencyPosition: 'prefix' });
  });

  it('CSV: a bad currency symbol or position names its line and imports nothing', async () => {
    const target = await freshStore();
    const csv = [
      'Event Name,Event Start Date,Event Cost,Event Currency Symbol,Event Currency Position',
      'Digits,2027-01-01,8,1€,prefix',
      'Sideways,2027-01-02,9,€,sideways',
    ].join('\n');
    const error = await importFile(target, 'bad.csv', csv, new Date(), folderOwner(target)).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).problems).toEqual([
      { line: 2, message: expect.stringMatching(/Event Currency Symbol: .*without digits/) },
      { line: 3, message: 'Event Currency Position: use prefix or suffix' },
    ]);
    expect(target.events.size).toBe(0);
  });

  it('.ics: the typed cost and its currency as X- properties, read back by import', async () => {
    const text = exportIcs(source.engine.store, new Date());
    const events = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent');
    const property = (title: string, name: string) =>
      events.find((event) => event.getFirstPropertyValue('summary') === title)!.getFirstPropertyValue(name);
    expect(property('Reduced', 'x-calendar-desk-cost')).toBe('20€ / 10€ reduced');
    expect(property('Plain', 'x-calendar-desk-currency-symbol')).toBe('€');
    expect(property('Plain', 'x-calendar-desk-currency-position')).toBe('postfix');
    expect(property('Plain', 'x-calendar-desk-currency-code')).toBe('EUR');
    expect(property('Pounds', 'x-calendar-desk-currency-code')).toBe('GBP');
    expect(property('No cost', 'x-calendar-desk-cost')).toBeNull();

    const target = await freshStore();
    await importFile(target, 'calendar.ics', text, new Date(), folderOwner(target));
    expect(byTitle(target, 'Reduced')).toMatchObject({ cost: ['20€ / 10€ reduced'], currencySymbol: '€' });
    expect(byTitle(target, 'Pounds')).toMatchObject({
      cost: ['12'],
      currencySymbol: '£',
      currencyPosition: 'prefix',
      currencyCode: 'GBP',
    });
    expect(byTitle(target, 'No cost').cost).toEqual([]);
  });

  it('.ics: a bad currency in the X- properties is reported, nothing imported', async () => {
    const text = exportIcs(source.engine.store, new Date()).replace(
      'X-CALENDAR-DESK-CURRENCY-POSITION:prefix',
      'X-CALENDAR-DESK-CURRENCY-POSITION:middle',
    );
    const target = await freshStore();
    const error = await importFile(target, 'bad.ics', text, new Date(), folderOwner(target)).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ImportError);
    expect((error as Error).message).toMatch(
      /X-CALENDAR-DESK-CURRENCY-POSITION: currency_position is not one of prefix, postfix/,
    );
    expect(target.events.size).toBe(0);
  });

  it('JSON dump: the event currencies and the site default come back exactly', async () => {
    const store = source.engine.store;
    const target = await freshStore();
    await importFile(
      target,
      'calendar.json',
      JSON.stringify(exportDump(store, new Date())),
      new Date(),
      folderOwner(target),
    );
    expect(target.settings).toMatchObject({
      currencySymbol: '€',
      currencyPosition: 'postfix',
      currencyCode: 'EUR',
    });
    expect(byTitle(target, 'Pounds')).toEqual(byTitle(store, 'Pounds'));
    expect(byTitle(target, 'Reduced')).toEqual(byTitle(store, 'Reduced'));
  });
});
