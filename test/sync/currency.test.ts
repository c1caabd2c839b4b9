import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventBody } from '../helpers/server';
import { allOf, startSyncPair, type SyncPair } from './syncHelpers';

/** The currency travels with the cost: a remote shows the price as it is shown here. */
let pair: SyncPair;
beforeEach(async () => {
  pair = await startSyncPair();
});
afterEach(async () => {
  await pair.close();
});

const remoteEvent = async (title: string) =>
  (await allOf(pair.remote, 'events')).find((event) => event.title === title) as Record<string, unknown>;

describe('sync: cost and currency', () => {
  it('pushes the typed cost and the currency, and a change of currency alone', async () => {
    const { local } = pair;
    // The local site prices in euros after the amount; the remote keeps the original's default ($ before).
    await local.api(`${local.engine.apiRoot}calendar-desk/v1/settings`, {
      method: 'PUT',
      auth: local.admin,
      json: { currency_symbol: '€', currency_position: 'postfix', currency_code: 'EUR' },
    });
    const reduced = await local.api('events', {
      method: 'POST',
      auth: local.admin,
      json: eventBody('Reduced', 3, { cost: '20€ / 10€ reduced' }),
    });
    const plain = await local.api('events', {
      method: 'POST',
      auth: local.admin,
      json: eventBody('Plain', 4, { cost: '15' }),
    });
    const pounds = await local.api('events', {
      method: 'POST',
      auth: local.admin,
      json: eventBody('Pounds', 5, {
        cost: '12',
        currency_symbol: '£',
        currency_position: 'prefix',
        currency_code: 'GBP',
      }),
    });
    expect(plain.body.cost).toBe('15€');
    expect((await pair.sync()).summary.created).toBe(3);

    expect(await remoteEvent('Reduced')).toMatchObject({ cost: reduced.body.cost });
    // A bare number goes as typed with no currency of its own (issue 28): another Calendar Desk stores the same
    // record and shows it in its own site's currency (the original plugin gets `15€`: test/wordpress/currency).
    expect(await remoteEvent('Plain')).toMatchObject({
      cost: '$15',
      cost_details: expect.objectContaining({ currency_symbol: '', currency_position: '' }),
    });
    expect(await remoteEvent('Pounds')).toMatchObject({
      cost: '£12',
      cost_details: expect.objectContaining({ currency_symbol: '£', currency_code: 'GBP' }),
    });

    const changed = await local.api(`events/${pounds.body.id}`, {
      method: 'PATCH',
      auth: local.admin,
      json: { currency_symbol: 'CHF', currency_code: 'CHF' },
    });
    expect(changed.body.cost).toBe('CHF12');
    expect((await pair.sync()).summary.updated).toBe(1);
    expect(await remoteEvent('Pounds')).toMatchObject({
      cost: 'CHF12',
      cost_details: expect.objectContaining({ currency_symbol: 'CHF', currency_code: 'CHF' }),
    });
    // Nothing left to do: the currency sent does not make the records look different.
    const again = await pair.sync();
    expect(again.operations.filter((operation) => operation.type !== 'accept')).toEqual([]);
  });

  it('pushes a cost whose text names a currency the API would not take as a symbol (too long, a <)', async () => {
    const { local } = pair;
    // The currency read from these texts is recorded as the events' own ("Schweizerfranken" after, "<"
    // before), but a symbol sent as such must be short and without < >: it goes in the cost text alone.
    for (const [title, cost] of [
      ['Francs', '10 Schweizerfranken'],
      ['Under', '<10'],
    ]) {
      const created = await local.api('events', {
        method: 'POST',
        auth: local.admin,
        json: eventBody(title, 3, { cost }),
      });
      expect(created.status).toBe(201);
    }
    const first = await pair.sync();
    expect(first.summary.failed ?? 0, JSON.stringify(first.operations)).toBe(0);
    expect(first.summary.created).toBe(2);
    expect(await remoteEvent('Francs')).toMatchObject({
      cost_details: expect.objectContaining({
        currency_symbol: 'Schweizerfranken',
        currency_position: 'postfix',
      }),
    });
    expect(await remoteEvent('Under')).toMatchObject({ cost: '<10' });
  });
});
