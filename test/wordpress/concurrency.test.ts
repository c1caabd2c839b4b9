import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeWithPeer,
  PEER_START_TIMEOUT_MS,
  startWordPressPeer,
  type WordPressPeer,
} from '../helpers/wordpressPeer';
import { eventBody, startTestServer, type TestServer } from '../helpers/server';
import { startProxy } from '../helpers/proxy';
import { runSync } from '../../src/main/sync/sync';
import { peerEvents } from './localCalendar';
import { folderOwner } from '../../src/main/core/users';

const EVENTS = 32;

describeWithPeer('sync with 4 requests in flight to the real site, answers dropped', () => {
  let peer: WordPressPeer;
  let local: TestServer;
  beforeAll(async () => {
    [peer, local] = await Promise.all([startWordPressPeer(), startTestServer()]);
    const post = async (collection: string, json: Record<string, unknown>) => {
      const answer = await local.api(collection, { method: 'POST', auth: local.admin, json });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body.id as number;
    };
    const music = await post('categories', { name: 'Music' });
    const jazz = await post('categories', { name: 'Jazz', parent: music });
    const talks = await post('categories', { name: 'Talks' });
    const organizers = [
      await post('organizers', { organizer: 'Alice' }),
      await post('organizers', { organizer: 'Bob' }),
    ];
    for (let index = 0; index < EVENTS; index++) {
      await post(
        'events',
        eventBody(`Evening ${index + 1}`, 2 + index, {
          excerpt: 'Short',
          categories: [index % 3 === 0 ? jazz : index % 3 === 1 ? music : talks],
          organizer: [organizers[index % 2]],
          status: index % 8 === 0 ? 'draft' : 'publish',
        }),
      );
    }
  }, PEER_START_TIMEOUT_MS);
  afterAll(async () => {
    await local?.close();
    await peer?.stop();
  });

  it('every create whose answer is lost (1 in 4) is found, not sent twice; never more than 4 at once', async () => {
    let creates = 0;
    let dropping = true;
    const proxy = await startProxy(peer.site, (seen) =>
      dropping && seen.method === 'POST' && /tribe\/events\/v1\/[a-z]+$/.test(seen.url) && ++creates % 4 === 0
        ? 'drop'
        : null,
    );
    const report = await runSync({
      store: local.engine.store,
      caller: folderOwner(local.engine.store),
      policy: 'ask',
      remote: { root: proxy.root, namespace: 'tribe/events/v1', auth: peer.admin, backoffMs: 50 },
    });
    dropping = false;
    expect(report.failures).toEqual([]);
    // Each record was sent once: the 9 whose answer was lost were found on the site, not sent again.
    expect(creates).toBe(EVENTS + 5);
    expect(report.summary.created + report.summary.adopted).toBe(EVENTS + 5);
    expect(proxy.maxInFlight()).toBeGreaterThan(1);
    expect(proxy.maxInFlight()).toBeLessThanOrEqual(4);

    const events = await peerEvents(peer);
    expect(events.map((event) => event.title).sort()).toEqual(
      Array.from({ length: EVENTS }, (_, index) => `Evening ${index + 1}`).sort(),
    );
    expect(events.filter((event) => event.status === 'draft')).toHaveLength(EVENTS / 8);
    const categories = await peer.api('tribe/events/v1/categories?hide_empty=false&per_page=50');
    expect(categories.body.categories.map((term: { name: string }) => term.name).sort()).toEqual([
      'Jazz',
      'Music',
      'Talks',
    ]);
    const jazz = categories.body.categories.find((term: { name: string }) => term.name === 'Jazz');
    const music = categories.body.categories.find((term: { name: string }) => term.name === 'Music');
    expect(jazz.parent).toBe(music.id);
    const organizers = await peer.api('tribe/events/v1/organizers?per_page=50');
    expect(
      organizers.body.organizers.map((organizer: { organizer: string }) => organizer.organizer).sort(),
    ).toEqual(['Alice', 'Bob']);

    const again = await runSync({
      store: local.engine.store,
      caller: folderOwner(local.engine.store),
      policy: 'ask',
      dryRun: true,
      remote: { root: proxy.root, namespace: 'tribe/events/v1', auth: peer.admin },
    });
    await proxy.close();
    expect(again.operations.filter((operation) => operation.type !== 'accept')).toEqual([]);
  }, 180_000);
});
