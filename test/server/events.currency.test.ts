import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, eventBody, type TestServer } from '../helpers/server';
import { DATA_FILE_NAME } from '../../src/main/store/store';
import { emptyDataFile } from '../../src/main/store/schema';
import { eventRecord } from '../../src/main/core/eventRecord';
import { expectEventRecord } from './events.helpers';

/**
 * Cost and currency (CONTRACT §2): the cost is kept as typed and returned formatted; `context=edit` gives an
 * editor the typed text back; per-event currency fields and the site defaults decide the symbol.
 */
let server: TestServer;
const settingsUrl = () => `${server.engine.apiRoot}calendar-desk/v1/settings`;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function create(extra: Record<string, unknown>) {
  const answer = await server.api('events', {
    method: 'POST',
    auth: server.admin,
    json: eventBody('Concert', 5, extra),
  });
  expect(answer.status).toBe(201);
  return expectEventRecord(answer.body);
}

const read = async (id: number, edit = false, auth = server.admin) =>
  (await server.api(`events/${id}${edit ? '?context=edit' : ''}`, { auth })).body;

describe('the cost as typed', () => {
  it('shows "20€ / 10€ reduced" formatted with its euro, and gives the editor the text back unchanged', async () => {
    const event = await create({ cost: '20€ / 10€ reduced' });
    expect(event.cost).toBe('10€ – 20€');
    expect(event.cost_details).toEqual({
      currency_symbol: '€',
      currency_code: '',
      currency_position: 'postfix',
      values: ['10', '20'],
    });
    const edited = await read(event.id, true);
    expect(edited.cost).toBe('20€ / 10€ reduced');
    // cost_details stays the reference's shape in both contexts.
    expect(edited.cost_details).toEqual(event.cost_details);
    expect((await read(event.id)).cost).toBe('10€ – 20€');
  });

  it('gives the typed text only to someone who may edit the event', async () => {
    const event = await create({ cost: '5 - 8 per person' });
    const anonymous = (await server.api(`events/${event.id}?context=edit`)).body;
    expect(anonymous.cost).toBe('$5 – $8');
    const subscriber = await server.userHeaders('sam', 'subscriber');
    expect((await read(event.id, true, subscriber)).cost).toBe('$5 – $8');
    expect((await read(event.id, true)).cost).toBe('5 - 8 per person');
  });
});

describe('per-event currency fields', () => {
  it('formats "15" with the chosen symbol and position, and names the currency in json_ld', async () => {
    const event = await create({
      cost: '15',
      currency_symbol: '€',
      currency_position: 'postfix',
      currency_code: 'eur',
    });
    expect(event.cost).toBe('15€');
    expect(event.cost_details).toEqual({
      currency_symbol: '€',
      currency_code: 'EUR',
      currency_position: 'postfix',
      values: ['15'],
    });
    const single = await read(event.id);
    expect(single.json_ld.offers).toMatchObject({ price: '15', priceCurrency: 'EUR' });
    expect((await read(event.id, true)).cost).toBe('15');
  });

  it('changes only the currency when only the currency is sent, and keeps it when sent with a new cost', async () => {
    const event = await create({ cost: '15' });
    expect(event.cost).toBe('$15');
    const patched = await server.api(`events/${event.id}`, {
      method: 'PATCH',
      auth: server.admin,
      json: { currency_symbol: 'CHF', currency_position: 'prefix', currency_code: 'CHF' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.cost).toBe('CHF15');
    const retyped = await server.api(`events/${event.id}`, {
      method: 'PATCH',
      auth: server.admin,
      json: { cost: '18', currency_symbol: 'CHF', currency_position: 'prefix' },
    });
    expect(retyped.body.cost).toBe('CHF18');
    expect(retyped.body.cost_details.currency_code).toBe('CHF');
  });

  it('reads the currency from a new cost text sent alone, as the original (sample 41)', async () => {
    const event = await create({ cost: '15', currency_symbol: '£', currency_position: 'prefix' });
    const answer = await server.api(`events/${event.id}`, {
      method: 'PATCH',
      auth: server.admin,
      json: { cost: '30 kr' },
    });
    expect(answer.body.cost).toBe('30kr');
    expect(answer.body.cost_details).toMatchObject({ currency_symbol: 'kr', currency_position: 'postfix' });
  });

  it('clearing the symbol with null or "" falls back to the cost text, else the site default', async () => {
    const typed = await create({ cost: '20€', currency_symbol: '$', currency_position: 'prefix' });
    expect(typed.cost).toBe('$20');
    const cleared = await server.api(`events/${typed.id}`, {
      method: 'PATCH',
      auth: server.admin,
      json: { currency_symbol: null, currency_position: '' },
    });
    expect(cleared.body.cost).toBe('20€');
    const bare = await create({ cost: '20', currency_symbol: '€', currency_position: 'postfix' });
    const reset = await server.api(`events/${bare.id}`, {
      method: 'PATCH',
      auth: server.admin,
      json: { currency_symbol: '', currency_position: null, currency_code: null },
    });
    expect(reset.body.cost).toBe('$20');
    expect(reset.body.cost_details).toMatchObject({
      currency_symbol: '',
      currency_position: '',
      currency_code: '',
    });
  });

  it.each([
    ['currency_position', 'middle', /not one of prefix, postfix/],
    ['currency_position', 5, /not one of prefix, postfix/],
    ['currency_code', 'EURO', /three-letter currency code/],
    ['currency_symbol', '1€', /must not contain digits/],
    ['currency_symbol', '<b>€</b>', /must not contain digits or < >/],
    ['currency_symbol', 'EUROPEAN€', /longer than 8 characters/],
    ['currency_symbol', ['€'], /not of type string/],
  ])('refuses %s = %j with a 400 naming the field, on create and update', async (field, value, message) => {
    const refused = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: eventBody('Refused', 5, { cost: '10', [field]: value }),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('rest_invalid_param');
    expect(refused.body.data.params[field]).toMatch(message);

    const event = await create({ cost: '10', currency_symbol: '€', currency_position: 'postfix' });
    const update = await server.api(`events/${event.id}`, {
      method: 'PATCH',
      auth: server.admin,
      json: { [field]: value },
    });
    expect(update.status).toBe(400);
    expect(update.body.data.params[field]).toMatch(message);
    expect((await read(event.id)).cost).toBe('10€');
  });
});

describe('the site default currency', () => {
  it('applies to events without their own, in cost, cost_details and json_ld', async () => {
    const plain = await create({ cost: '15' });
    const own = await create({ cost: '12', currency_symbol: '£', currency_position: 'prefix' });
    const changed = await server.api(settingsUrl(), {
      method: 'PUT',
      auth: server.admin,
      json: { currency_symbol: '€', currency_position: 'postfix', currency_code: 'EUR' },
    });
    expect(changed.status).toBe(200);
    const single = await read(plain.id);
    expect(single.cost).toBe('15€');
    // cost_details shows the event's own currency, as the reference (none here).
    expect(single.cost_details).toMatchObject({ currency_symbol: '', currency_position: '' });
    expect(single.json_ld.offers.priceCurrency).toBe('EUR');
    // An event with a currency of its own keeps it; its symbol names its currency for json_ld.
    const pounds = await read(own.id);
    expect(pounds.cost).toBe('£12');
    expect(pounds.json_ld.offers.priceCurrency).toBe('GBP');
    await server.api(settingsUrl(), {
      method: 'PUT',
      auth: server.admin,
      json: { currency_symbol: '$', currency_position: 'prefix', currency_code: 'USD' },
    });
    expect((await read(plain.id)).cost).toBe('$15');
  });
});

describe('a data file from before currencies', () => {
  it('opens without an upgrade: the original defaults apply and the event takes a currency', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'calendar-desk-old-'));
    // As the previous version wrote it: no currency in the settings, no currency code on events.
    const { currencyCode: _code, ...event } = eventRecord({
      id: 1,
      authorId: 1,
      status: 'publish',
      language: 'en',
      dateUtc: '2027-01-01 00:00:00',
      timezone: 'UTC',
      title: 'Old concert',
      slug: 'old-concert',
      startLocal: '2027-02-01 20:00:00',
      endLocal: '2027-02-01 22:00:00',
      startUtc: '2027-02-01 20:00:00',
      endUtc: '2027-02-01 22:00:00',
      cost: ['15'],
    });
    const file = {
      ...emptyDataFile({ siteName: 'Old', siteDescription: '', timezone: 'UTC', postsPerPage: 10 }),
      counters: { post: 1, term: 0, user: 0 },
      events: [event],
    };
    await writeFile(join(dataDir, DATA_FILE_NAME), JSON.stringify(file));
    const old = await startTestServer({ dataDir });
    try {
      const read = await old.api('events/1');
      expect(read.status).toBe(200);
      expect(read.body.cost).toBe('$15');
      expect(read.body.cost_details).toMatchObject({ currency_symbol: '', currency_code: '' });
      const settings = await old.api(`${old.engine.apiRoot}calendar-desk/v1/settings`, { auth: old.admin });
      expect(settings.body).toMatchObject({
        currency_symbol: '$',
        currency_position: 'prefix',
        currency_code: 'USD',
      });
      const patched = await old.api('events/1', {
        method: 'PATCH',
        auth: old.admin,
        json: { currency_symbol: '€', currency_position: 'postfix', currency_code: 'EUR' },
      });
      expect(patched.body.cost).toBe('15€');
    } finally {
      await old.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
