import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, type TestServer } from '../helpers/server';
import { startHubAndLaptops, syncWith, write, type HubAndLaptops } from './hubAndLaptops';
import { addLinkedPost } from '../../src/main/core/linkedPosts';
import { folderOwner } from '../../src/main/core/users';
import { LinkState, remoteKey } from '../../src/main/sync/linkState';

/**
 * Issue 28 item 2 with another Calendar Desk as the hub: its API reuses a venue of the same name on create
 * (and would write the second one's address over it), so venues of one name are settled before sending.
 */
let servers: HubAndLaptops;
let hub: TestServer;
let laptop: TestServer;
beforeAll(async () => {
  servers = await startHubAndLaptops();
  ({ hub, laptopA: laptop } = servers);
});
afterAll(async () => {
  await servers?.close();
});

const planned = (report: { operations: { type: string }[] }) =>
  report.operations.filter((operation) => operation.type !== 'accept');
/** A venue created as an import does: one of the same name is another place (the API would reuse it). */
const importVenue = (server: TestServer, input: Record<string, unknown>) => {
  const { store } = server.engine;
  const call = { store, caller: folderOwner(store), now: new Date(), language: 'en' as const };
  return addLinkedPost('venue', input, call, { avoidDuplicates: false });
};
const hubVenues = () =>
  Object.fromEntries(
    [...hub.engine.store.venues.values()]
      .filter((venue) => venue.status !== 'trash')
      .map((venue) => [venue.name, venue.address]),
  );

describe('sync: venues of one name', () => {
  it('refuses to send them unsettled, keeps them apart when asked, and then has nothing to do', async () => {
    const first = await write(laptop, 'venues', { venue: 'Riverside Studio', address: 'Spreeweg 1' });
    const second = await importVenue(laptop, {
      venue: 'Riverside Studio',
      address: 'Köpenicker Str. 70',
      city: 'Kreuzberg',
    });
    await write(laptop, 'events', eventBody('One', 3, { venue: first.id }));
    await write(laptop, 'events', eventBody('Two', 4, { venue: second.id }));

    await expect(syncWith(hub, laptop)).rejects.toMatchObject({
      code: 'SYNC_SAME_NAMES',
      message: expect.stringContaining('"Riverside Studio (Kreuzberg)"'),
    });
    expect(hubVenues()).toEqual({});

    const report = await syncWith(hub, laptop, 'ask', { sameNames: 'keep-apart' });
    expect(report.failures).toEqual([]);
    expect(hubVenues()).toEqual({
      'Riverside Studio': 'Spreeweg 1',
      'Riverside Studio (Kreuzberg)': 'Köpenicker Str. 70',
    });
    expect(planned(await syncWith(hub, laptop))).toEqual([]);
  });

  it('never links a second record here to a remote record already linked', async () => {
    const links = new LinkState(
      laptop.engine.store,
      remoteKey(hub.engine.apiRoot, 'cal/events/v1'),
      hub.engine.apiRoot,
      'cal/events/v1',
    );
    const [first, second] = links.all().filter((link) => link.kind === 'venue');
    expect(first!.remoteId).not.toBe(second!.remoteId);
    await expect(links.put({ ...second!, remoteId: first!.remoteId })).rejects.toMatchObject({
      code: 'SYNC_REMOTE_ALREADY_LINKED',
    });
    // Refused before it was written: the data file still links the second to its own remote record.
    const reread = new LinkState(laptop.engine.store, links.key, hub.engine.apiRoot, 'cal/events/v1');
    expect(reread.get('venue', second!.localId)?.remoteId).toBe(second!.remoteId);
  });
});
