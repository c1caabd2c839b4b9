import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import {
  describeWithPeer,
  PEER_START_TIMEOUT_MS,
  startWordPressPeer,
  type WordPressPeer,
} from '../helpers/wordpressPeer';
import { startTestServer, type TestServer } from '../helpers/server';
import { startProxy, type Proxy } from '../helpers/proxy';
import { runSync } from '../../src/main/sync/sync';
import { folderOwner } from '../../src/main/core/users';
import { IMPORT_PAGE } from '../../src/main/sync/executor';
import { pngBytes } from './wordpressSync';

const FOREIGN = 60;
const PUSHED = 20;

/**
 * What a sync costs the real site and the local store, counted (never timed): the requests per event pushed,
 * and the store writes and requests per page of events imported from the site.
 */
describeWithPeer('requests and store writes of a sync with the real WordPress site', () => {
  let peer: WordPressPeer;
  let local: TestServer;
  let proxy: Proxy;
  /** A picture on the web (another port: WordPress downloads nothing from its own host). */
  let pictures: Server;
  let picturesOrigin: string;
  beforeAll(async () => {
    [peer, local] = await Promise.all([startWordPressPeer(), startTestServer()]);
    proxy = await startProxy(peer.site);
    const png = pngBytes(40, 30);
    pictures = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': png.length });
      response.end(png);
    });
    await new Promise<void>((resolve) => pictures.listen(0, '127.0.0.1', resolve));
    picturesOrigin = `http://127.0.0.1:${(pictures.address() as AddressInfo).port}`;
  }, PEER_START_TIMEOUT_MS);
  afterAll(async () => {
    pictures?.close();
    await Promise.all([proxy?.close(), peer?.stop(), local?.close()]);
  });

  const sync = (direction: 'push' | 'both') =>
    runSync({
      store: local.engine.store,
      caller: folderOwner(local.engine.store),
      policy: 'ask',
      direction,
      remote: { root: proxy.root, namespace: 'tribe/events/v1', auth: peer.admin, backoffMs: 1 },
    });
  /** The requests the proxy saw from `from` on, by method and route (ids as N, no query). */
  const routesSince = (from: number) => {
    const counts: Record<string, number> = {};
    for (const seen of proxy.seen.slice(from)) {
      const route = `${seen.method} ${seen.url
        .replace(/\?.*/, '')
        .replace(/^\/wp-json\//, '')
        .replace(/\/\d+(?=\/|$)/g, '/N')}`;
      counts[route] = (counts[route] ?? 0) + 1;
    }
    return counts;
  };

  it('pushes each event in one request, with its venue, organizer, terms and picture by address', async () => {
    const venue = await local.api('venues', { method: 'POST', auth: local.admin, json: { venue: 'Hall' } });
    const organizer = await local.api('organizers', {
      method: 'POST',
      auth: local.admin,
      json: { organizer: 'Anna' },
    });
    for (let index = 0; index < PUSHED; index++) {
      const created = await local.api('events', {
        method: 'POST',
        auth: local.admin,
        json: {
          title: `Pushed ${index}`,
          start_date: `2031-03-${String(index + 1).padStart(2, '0')} 20:00:00`,
          end_date: `2031-03-${String(index + 1).padStart(2, '0')} 22:00:00`,
          venue: venue.body.id,
          organizer: [organizer.body.id],
          categories: ['Concerts'],
          tags: ['jazz'],
          cost: '10',
          image: `${picturesOrigin}/poster.png`,
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
    const from = proxy.seen.length;
    const report = await sync('push');
    expect(report.failures).toEqual([]);
    expect(report.summary.created).toBe(PUSHED + 4);
    const routes = routesSince(from);
    // One create each, and nothing else per event (no look-up, no second write).
    expect(routes['POST tribe/events/v1/events']).toBe(PUSHED);
    const perEvent = Object.entries(routes).filter(
      ([route, count]) => route !== 'POST tribe/events/v1/events' && count >= PUSHED,
    );
    expect(perEvent).toEqual([]);
    expect((await sync('both')).operations).toEqual([]);
  }, 240_000);

  it('imports the events new on the site a page at a time: one store write and one read of texts each', async () => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < FOREIGN) {
          const index = next++;
          const answer = await peer.api('tribe/events/v1/events', {
            method: 'POST',
            json: {
              title: `Foreign ${index}`,
              description: `<p>Made on the site, number ${index}.</p>`,
              start_date: '2031-05-01 10:00:00',
              end_date: '2031-05-01 11:00:00',
            },
          });
          expect(answer.status).toBe(201);
        }
      }),
    );
    const store = local.engine.store;
    const writes = vi.spyOn(store, 'mutate');
    const from = proxy.seen.length;
    const report = await sync('both');
    const writeCount = writes.mock.calls.length;
    writes.mockRestore();
    expect(report.failures).toEqual([]);
    expect(report.summary.imported).toBe(FOREIGN);
    const pages = Math.ceil(FOREIGN / IMPORT_PAGE);
    // A store write per page of imports, and the one that records the sync.
    expect(writeCount).toBe(pages + 1);
    const routes = routesSince(from);
    expect(routes['GET wp/v2/tribe_events']).toBe(pages);
    expect(routes['GET wp/v2/tribe_events/N']).toBeUndefined();
    const imported = [...store.events.values()].filter((event) => event.title.startsWith('Foreign '));
    expect(imported).toHaveLength(FOREIGN);
    expect(imported.find((event) => event.title === 'Foreign 7')?.description).toBe(
      '<p>Made on the site, number 7.</p>',
    );
    expect((await sync('both')).operations).toEqual([]);
  }, 240_000);
});
