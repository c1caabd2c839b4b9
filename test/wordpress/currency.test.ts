import { execFile } from 'node:child_process';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeWithPeer,
  PEER_START_TIMEOUT_MS,
  startWordPressPeer,
  type WordPressPeer,
} from '../helpers/wordpressPeer';
import { startTestServer, type TestServer } from '../helpers/server';
import { runSync } from '../../src/main/sync/sync';
import { exportCsv } from '../../src/main/exchange/csv';
import { folderOwner } from '../../src/main/core/users';

const run = promisify(execFile);
const IMPORT_CSV = new URL('../../../shared/peer/import-csv.sh', import.meta.url).pathname;

/**
 * The currency reaches the real site: published by sync, and by the plugin's own CSV importer. The site keeps
 * the original's default currency ($, before the amount); this calendar prices in euros after the amount.
 */
describeWithPeer('cost and currency on the real WordPress + The Events Calendar site', () => {
  let peer: WordPressPeer;
  let local: TestServer;
  beforeAll(async () => {
    [peer, local] = await Promise.all([startWordPressPeer(), startTestServer()]);
    await local.api(`${local.engine.apiRoot}calendar-desk/v1/settings`, {
      method: 'PUT',
      auth: local.admin,
      json: { currency_symbol: '€', currency_position: 'postfix', currency_code: 'EUR' },
    });
    const create = (title: string, extra: Record<string, unknown>) =>
      local.api('events', {
        method: 'POST',
        auth: local.admin,
        json: { title, start_date: '2027-05-01 20:00:00', end_date: '2027-05-01 22:00:00', ...extra },
      });
    await create('Plain euro', { cost: '15' });
    await create('Pounds', { cost: '12', currency_symbol: '£', currency_position: 'prefix' });
    await create('Reduced', { cost: '20€ / 10€ reduced' });
  }, PEER_START_TIMEOUT_MS);
  afterAll(async () => {
    await Promise.all([peer?.stop(), local?.close()]);
  });

  const siteEvents = async () => {
    const answer = await peer.api(
      'tribe/events/v1/events?start_date=2027-01-01&end_date=2027-12-31&per_page=50',
    );
    expect(answer.status).toBe(200);
    return answer.body.events as { title: string; cost: string; cost_details: Record<string, unknown> }[];
  };

  it('sync publishes each price with the currency shown here, not the site default', async () => {
    const report = await runSync({
      store: local.engine.store,
      caller: folderOwner(local.engine.store),
      policy: 'ask',
      remote: {
        root: peer.root,
        namespace: 'tribe/events/v1',
        auth: { user: peer.admin.user, password: peer.admin.password },
        backoffMs: 1,
      },
    });
    expect(report.summary.failed).toBe(0);
    const costs = Object.fromEntries((await siteEvents()).map((event) => [event.title, event.cost]));
    const here = Object.fromEntries(
      (
        (await local.api('events?start_date=2027-01-01&end_date=2027-12-31')).body.events as {
          title: string;
          cost: string;
        }[]
      ).map((event) => [event.title, event.cost]),
    );
    expect(here).toEqual({ 'Plain euro': '15€', Pounds: '£12', Reduced: '10€ – 20€' });
    expect(costs['Plain euro']).toBe('15€');
    expect(costs.Pounds).toBe('£12');
    // A text with words arrives as typed. (tribe/events/v1 reads no currency from it, only from a bare
    // "15€"-like text: the sync writes the event's into its meta, see below.)
    const reduced = (await siteEvents()).find((event) => event.title === 'Reduced') as unknown as {
      id: number;
    };
    const stored = await peer.api(`wp/v2/tribe_events/${reduced.id}?context=edit`);
    expect(stored.status).toBe(200);
    expect(stored.body.meta._EventCost).toBe('20€ / 10€ reduced');
  });

  it("shows a cost with words in the event's own currency there, and remote-wins brings that currency back", async () => {
    const created = await local.api('events', {
      method: 'POST',
      auth: local.admin,
      json: {
        title: 'Pounds with words',
        start_date: '2027-06-01 20:00:00',
        end_date: '2027-06-01 22:00:00',
        cost: '£20 / £10 reduced',
        currency_symbol: '£',
        currency_position: 'prefix',
        currency_code: 'GBP',
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const sync = (policy: 'ask' | 'remote-wins') =>
      runSync({
        store: local.engine.store,
        caller: folderOwner(local.engine.store),
        policy,
        remote: {
          root: peer.root,
          namespace: 'tribe/events/v1',
          auth: { user: peer.admin.user, password: peer.admin.password },
          backoffMs: 1,
        },
      });
    expect((await sync('ask')).summary.failed).toBe(0);
    const onSite = (await siteEvents()).find((event) => event.title === 'Pounds with words') as unknown as {
      id: number;
      cost_details: { currency_symbol: string; currency_position: string; currency_code: string };
    };
    expect(onSite.cost_details).toMatchObject({
      currency_symbol: '£',
      currency_position: 'prefix',
      currency_code: 'GBP',
    });
    const stored = await peer.api(`wp/v2/tribe_events/${onSite.id}?context=edit`);
    expect(stored.body.meta._EventCost).toBe('£20 / £10 reduced');
    // A second sync finds nothing to do (the currency written there is no change of the site's).
    expect((await sync('ask')).operations).toEqual([]);

    // Here the price becomes a bare 25 in the calendar's euros; there (as its editor saves, through WordPress'
    // own route) a new price with words: the site's version wins, in its currency.
    await local.api(`events/${created.body.id}`, {
      method: 'POST',
      auth: local.admin,
      json: { cost: '25', currency_symbol: '', currency_position: '', currency_code: '' },
    });
    const repriced = await peer.api(`wp/v2/tribe_events/${onSite.id}`, {
      method: 'POST',
      json: { meta: { _EventCost: '£30 / £15 reduced' } },
    });
    expect(repriced.status).toBe(200);
    const report = await sync('remote-wins');
    expect(report.summary.failed).toBe(0);
    const back = await local.api(`events/${created.body.id}`, { auth: local.admin });
    expect(back.body.cost).toBe('£15 – £30');
    expect(local.engine.store.events.get(created.body.id)?.cost).toEqual(['£30 / £15 reduced']);
    expect(back.body.cost_details).toMatchObject({
      currency_symbol: '£',
      currency_position: 'prefix',
      currency_code: 'GBP',
    });
    expect((await sync('ask')).operations).toEqual([]);
  }, 240_000);

  it("the plugin's CSV importer reads our currency columns", async () => {
    const file = join(peer.dir, 'events.csv');
    const csv = exportCsv(local.engine.store, 'events').replace(
      /Plain euro|Pounds|Reduced/g,
      (title) => `CSV ${title}`,
    );
    await writeFile(file, csv);
    await chmod(file, 0o644);
    const { stdout } = await run('bash', [IMPORT_CSV, 'events', file, 'manual'], {
      env: { ...process.env, PEER_DIR: peer.dir, PEER_PORT: String(peer.port) },
    });
    expect(stdout).toMatch(/DONE/);
    const costs = Object.fromEntries(
      (await siteEvents())
        .filter((event) => event.title.startsWith('CSV '))
        .map((event) => [event.title, event]),
    );
    expect(costs['CSV Plain euro']?.cost).toBe('15€');
    expect(costs['CSV Pounds']?.cost).toBe('£12');
    // Through the importer's columns even a text with words gets its currency.
    expect(costs['CSV Reduced']?.cost).toBe('10€ – 20€');
  });
});
