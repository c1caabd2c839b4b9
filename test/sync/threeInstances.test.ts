import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, type TestServer } from '../helpers/server';
import type { SyncReport } from '../../src/main/sync/sync';
import type { ConflictPolicy } from '../../src/main/sync/model';
import { exportByUid, idOf, startHubAndLaptops, syncWith, write, type HubAndLaptops } from './hubAndLaptops';

/**
 * Two laptops and a hub, three real Calendar Desk servers: each laptop plans offline, then both sync with the
 * hub in turn (two-way, the default) until the three calendars are one.
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

const syncWithHub = (laptop: TestServer, policy: ConflictPolicy = 'ask'): Promise<SyncReport> =>
  syncWith(hub, laptop, policy);

describe('two laptops and a hub, each planning offline, converge', () => {
  it('merges different fields, lists the real conflicts with three values, trashes deletions, and ends identical', async () => {
    // Laptop A starts the calendar; both laptops sync it once.
    const music = await write(laptopA, 'categories', { name: 'Music' });
    const mill = await write(laptopA, 'venues', { venue: 'Old Mill', address: 'Mill Lane 2', city: 'Brno' });
    const concert = await write(
      laptopA,
      'events',
      eventBody('Concert', 10, { venue: mill.id, categories: [music.id], description: 'Strings' }),
    );
    const lecture = await write(laptopA, 'events', eventBody('Lecture', 11));
    const workshop = await write(laptopA, 'events', eventBody('Workshop', 12, { description: 'Wood' }));
    expect((await syncWithHub(laptopA)).summary).toMatchObject({ created: 5, failed: 0 });
    const first = await syncWithHub(laptopB);
    expect(first.summary).toMatchObject({ imported: 5, created: 0, failed: 0, conflicts: 0 });
    expect(exportByUid(laptopB.engine.store)).toEqual(exportByUid(laptopA.engine.store));

    // Offline: different fields of one event, the same field of another, a deletion against an edit, and the
    // same café entered on both laptops (spelled differently), each with an event there.
    await write(laptopA, `events/${concert.id}`, { title: 'Concert in the park' });
    await write(laptopB, `events/${idOf(laptopB, concert.uid)}`, { description: 'Bring a blanket' });
    await write(laptopA, `events/${lecture.id}`, { title: 'Lecture (room 1)' });
    await write(laptopB, `events/${idOf(laptopB, lecture.uid)}`, { title: 'Lecture (room 2)' });
    expect(
      (await laptopA.api(`events/${workshop.id}`, { method: 'DELETE', auth: laptopA.admin })).status,
    ).toBe(200);
    await write(laptopB, `events/${idOf(laptopB, workshop.uid)}`, { excerpt: 'Materials provided' });
    const cafeA = await write(laptopA, 'venues', { venue: 'Café Central', address: "Rue de l'Église 1" });
    await write(laptopA, 'events', eventBody('Jazz night', 13, { venue: cafeA.id }));
    const cafeB = await write(laptopB, 'venues', { venue: 'CAFE CENTRAL', address: "rue de l'eglise 1" });
    await write(laptopB, 'events', eventBody('Poetry', 14, { venue: cafeB.id }));

    // Both sync twice in turn.
    const a1 = await syncWithHub(laptopA);
    expect(a1.conflicts).toEqual([]);
    expect(a1.summary).toMatchObject({ created: 2, updated: 2, deleted: 1, failed: 0 });

    const b1 = await syncWithHub(laptopB);
    expect(b1.failures).toEqual([]);
    expect(b1.conflicts).toEqual([
      {
        kind: 'event',
        localId: idOf(laptopB, lecture.uid),
        remoteId: idOf(hub, lecture.uid),
        reason: 'both-changed',
        title: 'Lecture (room 2)',
        diff: [{ field: 'title', base: 'Lecture', local: 'Lecture (room 2)', remote: 'Lecture (room 1)' }],
      },
      {
        kind: 'event',
        localId: idOf(laptopB, workshop.uid),
        remoteId: idOf(hub, workshop.uid),
        reason: 'remote-deleted',
        title: 'Workshop',
        // B's edit against the value at the last sync; the hub's side is the deletion.
        diff: [{ field: 'excerpt', base: '', local: 'Materials provided', remote: null }],
      },
    ]);
    // The concert took A's title and sent B's description; the café became one.
    const concertOnHub = hub.engine.store.events.get(idOf(hub, concert.uid))!;
    expect(concertOnHub).toMatchObject({ title: 'Concert in the park', description: 'Bring a blanket' });
    const cafes = [...hub.engine.store.venues.values()].filter((venue) => /caf/i.test(venue.name));
    expect(cafes.map((venue) => venue.name)).toEqual(['Café Central']);

    const a2 = await syncWithHub(laptopA);
    expect(a2.conflicts).toEqual([]);
    expect(a2.summary).toMatchObject({ imported: 1, pulled: 1, failed: 0 });
    expect(laptopA.engine.store.events.get(concert.id)).toMatchObject({ description: 'Bring a blanket' });

    // B settles its two conflicts for the hub's version: the lecture's title, and the workshop to the trash.
    const b2 = await syncWithHub(laptopB, 'remote-wins');
    expect(b2.conflicts).toEqual([]);
    expect(b2.summary).toMatchObject({ pulled: 1, trashed: 1, failed: 0 });

    // Nothing is left to do anywhere, and the three calendars are one.
    for (const laptop of [laptopA, laptopB]) {
      const quiet = await syncWithHub(laptop);
      expect(quiet.operations).toEqual([]);
      expect(quiet.conflicts).toEqual([]);
    }
    const hubExport = exportByUid(hub.engine.store);
    expect(exportByUid(laptopA.engine.store)).toEqual(hubExport);
    expect(exportByUid(laptopB.engine.store)).toEqual(hubExport);
    expect(hubExport.events[workshop.uid]).toMatchObject({ status: 'trash' });
    expect(hubExport.events[lecture.uid]).toMatchObject({ title: 'Lecture (room 1)' });
    // The workshop is in B's trash, restorable, with B's edit.
    expect(laptopB.engine.store.events.get(idOf(laptopB, workshop.uid))).toMatchObject({
      status: 'trash',
      excerpt: 'Materials provided',
    });
  });
});
