import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithPeer, PEER_START_TIMEOUT_MS } from '../helpers/wordpressPeer';
import { startWordPressPair, type WordPressPair } from './wordpressSync';

/**
 * A venue or organizer in the local trash and its events, synced two-way with the real site: restoring the
 * venue brings it back to its events there without a conflict, and editing an event's organizers keeps one in
 * the trash (hidden, as on the site) for when it comes back.
 */
describeWithPeer('venues and organizers in the trash, with the real WordPress site', () => {
  let pair: WordPressPair;
  beforeAll(async () => {
    pair = await startWordPressPair();
  }, PEER_START_TIMEOUT_MS);
  afterAll(async () => {
    await pair?.stop();
  });

  const twoWay = () => pair.sync({ direction: 'both' });
  const event = async (id: number) => (await pair.local.api(`events/${id}`, { auth: pair.local.admin })).body;

  it('a venue restored from the trash goes back to its events on both sides, with no conflict', async () => {
    const venue = await pair.post('venues', { venue: 'Old Mill', city: 'Bologna' });
    const concert = await pair.post('events', {
      title: 'Mill concert',
      start_date: '2031-06-01 20:00:00',
      end_date: '2031-06-01 22:00:00',
      venue: venue.id,
    });
    expect((await twoWay()).summary.failed).toBe(0);
    expect((await twoWay()).operations).toEqual([]);

    await pair.local.api(`venues/${venue.id}`, { method: 'DELETE', auth: pair.local.admin });
    const afterTrash = await twoWay();
    expect(afterTrash.conflicts).toEqual([]);
    expect(afterTrash.summary.failed).toBe(0);
    expect((await twoWay()).operations).toEqual([]);

    await pair.post(`venues/${venue.id}`, { status: 'publish' });
    const afterRestore = await twoWay();
    expect(afterRestore.conflicts).toEqual([]);
    expect(afterRestore.summary.failed).toBe(0);
    // The event is sent with its venue back; nothing of the site's version is taken.
    const sent = afterRestore.operations.filter((operation) => operation.kind === 'event');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ localId: concert.id });
    expect(sent[0]!.type === 'update' || (sent[0]!.type === 'merge' && sent[0]!.toLocal.length === 0)).toBe(
      true,
    );
    expect((await twoWay()).operations).toEqual([]);
    expect((await event(concert.id)).venue.id).toBe(venue.id);
    const onSite = await pair.site.api(`tribe/events/v1/events/${afterRestoreRemoteId(concert.id)}`);
    expect(onSite.body.venue.venue).toBe('Old Mill');
  }, 240_000);

  it('an organizer in the trash stays with the event when its organizer list is edited', async () => {
    const [anna, ben, carla] = await Promise.all(
      ['Anna Ricci', 'Ben Okafor', 'Carla Neri'].map((organizer) => pair.post('organizers', { organizer })),
    );
    const talk = await pair.post('events', {
      title: 'Garden talk',
      start_date: '2031-07-01 18:00:00',
      end_date: '2031-07-01 19:00:00',
      organizer: [anna!.id, ben!.id],
    });
    expect((await twoWay()).summary.failed).toBe(0);
    await pair.local.api(`organizers/${ben!.id}`, { method: 'DELETE', auth: pair.local.admin });
    expect((await twoWay()).summary.failed).toBe(0);
    expect((await event(talk.id)).organizer.map((one: { id: number }) => one.id)).toEqual([anna!.id]);

    // The list as the editor sees it (Ben hidden), with Carla added.
    await pair.post(`events/${talk.id}`, { organizer: [anna!.id, carla!.id] });
    expect((await twoWay()).summary.failed).toBe(0);
    expect((await twoWay()).operations).toEqual([]);

    await pair.post(`organizers/${ben!.id}`, { status: 'publish' });
    const afterRestore = await twoWay();
    expect(afterRestore.conflicts).toEqual([]);
    expect(afterRestore.summary.failed).toBe(0);
    expect((await twoWay()).operations).toEqual([]);
    const shown = (await event(talk.id)).organizer.map((one: { id: number }) => one.id);
    expect(shown.sort()).toEqual([anna!.id, ben!.id, carla!.id].sort());
    const onSite = await pair.site.api(`tribe/events/v1/events/${afterRestoreRemoteId(talk.id)}`);
    expect(onSite.body.organizer.map((one: { organizer: string }) => one.organizer).sort()).toEqual([
      'Anna Ricci',
      'Ben Okafor',
      'Carla Neri',
    ]);
  }, 240_000);

  /** The site's id of a local event (linked by the syncs above). */
  function afterRestoreRemoteId(localId: number): number {
    const store = pair.local.engine.store;
    const key = store.syncKeys('link:').find((entry) => entry.endsWith(`|event:${localId}`));
    return (store.syncState(key!) as { remoteId: number }).remoteId;
  }
});
