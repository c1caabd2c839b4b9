import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, type TestServer } from '../helpers/server';
import { RemoteClient } from '../../src/main/sync/remoteClient';
import { exportByUid, idOf, startHubAndLaptops, syncWith, write, type HubAndLaptops } from './hubAndLaptops';

/**
 * Issue 28 item 1: a cost and its currency go from one Calendar Desk to another as the user typed them, so a
 * laptop, the hub and the other laptop store the same record, and each shows it in its own site currency.
 */
let servers: HubAndLaptops;
let hub: TestServer;
let laptopA: TestServer;
let laptopB: TestServer;
beforeAll(async () => {
  servers = await startHubAndLaptops();
  ({ hub, laptopA, laptopB } = servers);
});
afterAll(async () => {
  await servers?.close();
});

const eventsOf = (server: TestServer) => exportByUid(server.engine.store).events;
const planned = (report: { operations: { type: string }[] }) =>
  report.operations.filter((operation) => operation.type !== 'accept');
const setCurrency = (server: TestServer, symbol: string, position: string, code: string) =>
  server.api(`${server.engine.apiRoot}calendar-desk/v1/settings`, {
    method: 'PUT',
    auth: server.admin,
    json: { currency_symbol: symbol, currency_position: position, currency_code: code },
  });

describe('sync between Calendar Desks: cost and currency', () => {
  it('keeps the typed cost and the currency fields byte for byte: laptop → hub → laptop, then nothing to do', async () => {
    const costs: [string, Record<string, unknown>][] = [
      ['Plain', { cost: '10' }],
      ['Euros', { cost: '15€' }],
      ['Reduced', { cost: '20€ / 10€ reduced' }],
      ['Pounds', { cost: '12', currency_symbol: '£', currency_position: 'prefix', currency_code: 'GBP' }],
    ];
    for (const [index, [title, cost]] of costs.entries())
      await write(laptopA, 'events', eventBody(title, 3 + index, cost));
    expect((await syncWith(hub, laptopA)).summary).toMatchObject({ created: 4, failed: 0 });
    expect((await syncWith(hub, laptopB)).summary).toMatchObject({ imported: 4, failed: 0 });

    const a = eventsOf(laptopA);
    expect(eventsOf(hub)).toEqual(a);
    expect(eventsOf(laptopB)).toEqual(a);
    const plain = Object.values(a).find((event) => 'title' in event && event.title === 'Plain')!;
    // The bare number stays bare, with no currency of its own: each calendar shows it in its site's currency.
    expect(plain).toMatchObject({ cost: ['10'], currencySymbol: '', currencyPosition: '', currencyCode: '' });
    const pounds = Object.values(a).find((event) => 'title' in event && event.title === 'Pounds')!;
    expect(pounds).toMatchObject({
      cost: ['12'],
      currencySymbol: '£',
      currencyPosition: 'prefix',
      currencyCode: 'GBP',
    });

    // Each sync again: nothing to send, nothing to take.
    for (const laptop of [laptopA, laptopB]) expect(planned(await syncWith(hub, laptop))).toEqual([]);

    // The organisation prices in euros from now on: B shows the plain event in euros, as A does.
    for (const server of [laptopA, laptopB])
      expect((await setCurrency(server, '€', 'postfix', 'EUR')).status).toBe(200);
    const uid = Object.keys(a).find((key) => a[key] === plain)!;
    for (const server of [laptopA, laptopB]) {
      const shown = await server.api(`events/${idOf(server, uid)}`);
      expect(shown.body).toMatchObject({ cost: '10€' });
    }
  });

  it('takes a change of cost or currency made on the hub as typed, from the feed, the list and a read by id', async () => {
    const event = await write(laptopA, 'events', eventBody('Changed on the hub', 9, { cost: '8' }));
    expect((await syncWith(hub, laptopA)).summary).toMatchObject({ created: 1, failed: 0 });
    expect((await syncWith(hub, laptopB)).summary).toMatchObject({ imported: 1, failed: 0 });
    await write(hub, `events/${idOf(hub, event.uid)}`, {
      cost: '9',
      currency_symbol: 'CHF',
      currency_position: 'postfix',
      currency_code: 'CHF',
    });
    for (const laptop of [laptopA, laptopB]) {
      expect((await syncWith(hub, laptop)).summary).toMatchObject({ updated: 0, failed: 0 });
      expect(laptop.engine.store.events.get(idOf(laptop, event.uid))).toMatchObject({
        cost: ['9'],
        currencySymbol: 'CHF',
        currencyPosition: 'postfix',
        currencyCode: 'CHF',
      });
    }
    expect(eventsOf(laptopA)).toEqual(eventsOf(hub));
    expect(eventsOf(laptopB)).toEqual(eventsOf(hub));
    for (const laptop of [laptopA, laptopB]) expect(planned(await syncWith(hub, laptop))).toEqual([]);

    // A sync that cannot use the change feed reads the list and single records: those give the same texts.
    const client = new RemoteClient({
      root: hub.engine.apiRoot,
      namespace: 'cal/events/v1',
      auth: { token: hub.engine.adminToken },
    });
    const typed = {
      cost: '9',
      currency: { symbol: 'CHF', position: 'postfix', code: 'CHF' },
    };
    const listed = (await client.list('event')).find((record) => record.uid === event.uid);
    expect(listed?.texts).toMatchObject(typed);
    expect((await client.get('event', idOf(hub, event.uid)))?.texts).toMatchObject(typed);
  });
});
