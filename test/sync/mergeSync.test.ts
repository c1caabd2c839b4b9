import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, startTestServer, type TestServer } from '../helpers/server';
import { runSync, type SyncReport } from '../../src/main/sync/sync';
import { folderOwner } from '../../src/main/core/users';
import { importFile } from '../../src/main/exchange/importFile';
import type { CalendarStore } from '../../src/main/store/store';

/**
 * A merge of two venues (and of two organizers) travels through two-way sync (issue 15 item 3): two laptops and
 * a hub, three real Calendar Desk servers. The laptop that merged sends the moved events as edits and the merged
 * venue as one deletion; the hub and the other laptop end with one venue and every event linked to it, and the
 * next syncs find nothing to do and no conflict.
 */
let hub: TestServer;
let laptopA: TestServer;
let laptopB: TestServer;
beforeAll(async () => {
  [hub, laptopA, laptopB] = await Promise.all([startTestServer(), startTestServer(), startTestServer()]);
});
afterAll(async () => {
  await Promise.all([hub, laptopA, laptopB].map((server) => server?.close()));
});

const syncWithHub = (laptop: TestServer): Promise<SyncReport> =>
  runSync({
    store: laptop.engine.store,
    caller: folderOwner(laptop.engine.store),
    policy: 'ask',
    remote: {
      root: hub.engine.apiRoot,
      namespace: 'cal/events/v1',
      auth: { token: hub.engine.adminToken },
      backoffMs: 1,
    },
  });

async function write(server: TestServer, path: string, json: Record<string, unknown>) {
  const answer = await server.api(path, { method: 'POST', auth: server.admin, json });
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  return answer.body as { id: number; uid: string };
}

/**
 * Where each event not in the trash points on one calendar: its venue's and organizers' uids. By title and
 * start, as a series' dates the hub makes itself have uids of their own. (An event in the trash is a deletion to
 * the sync: its copy on the hub stays in the hub's trash as it was; here it links to the kept venue, and a
 * restore sends it so.)
 */
function linksByUid(store: CalendarStore) {
  return Object.fromEntries(
    [...store.events.values()]
      .filter((event) => event.status !== 'trash')
      .map((event) => [
        `${event.title} ${event.startLocal}`,
        {
          status: event.status,
          venue: store.venues.get(event.venueId)?.uid ?? null,
          organizers: event.organizerIds.map((id) => store.organizers.get(id)?.uid ?? `missing ${id}`),
        },
      ]),
  );
}
const liveVenues = (store: CalendarStore) =>
  [...store.venues.values()].filter((venue) => venue.status !== 'trash').map((venue) => venue.uid);
const liveOrganizers = (store: CalendarStore) =>
  [...store.organizers.values()].filter((person) => person.status !== 'trash').map((person) => person.uid);

describe('a merge of venues and organizers, synced two ways', () => {
  it('reaches the hub and the other laptop as event edits and one deletion each, with no conflict after', async () => {
    const kept = await write(laptopA, 'venues', { venue: 'Teatro Comunale', address: 'Via Roma 1' });
    const twin = await write(laptopA, 'venues', { venue: 'Teatro Com. (Bologna)', address: 'via Roma 1' });
    const anna = await write(laptopA, 'organizers', { organizer: 'Anna Rossi', email: 'anna@example.org' });
    const annaToo = await write(laptopA, 'organizers', { organizer: 'A. Rossi' });
    const piero = await write(laptopA, 'organizers', { organizer: 'Piero Bianchi' });
    await write(laptopA, 'events', eventBody('At the kept one', 10, { venue: kept.id, status: 'publish' }));
    await write(
      laptopA,
      'events',
      eventBody('Concert', 11, { venue: twin.id, organizer: [annaToo.id, piero.id], status: 'publish' }),
    );
    await write(laptopA, 'events', eventBody('Draft', 12, { venue: twin.id, status: 'draft' }));
    await write(
      laptopA,
      'events',
      eventBody('Choir', 13, {
        venue: twin.id,
        organizer: [anna.id, annaToo.id],
        status: 'publish',
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
      }),
    );
    const cancelled = await write(laptopA, 'events', eventBody('Cancelled', 14, { venue: twin.id }));
    expect((await syncWithHub(laptopA)).summary).toMatchObject({ failed: 0, conflicts: 0 });
    // Trashed after it reached the hub: the hub's copy is in its trash too.
    expect(
      (await laptopA.api(`events/${cancelled.id}`, { method: 'DELETE', auth: laptopA.admin })).status,
    ).toBe(200);
    expect((await syncWithHub(laptopA)).summary).toMatchObject({ deleted: 1, failed: 0, conflicts: 0 });
    expect((await syncWithHub(laptopB)).summary).toMatchObject({ failed: 0, conflicts: 0 });
    expect(liveVenues(laptopB.engine.store).sort()).toEqual([kept.uid, twin.uid].sort());

    // On laptop A: the two venues are one, and so are the two Annas.
    const merge = (kind: string, id: number, into: number) =>
      laptopA.api(`${laptopA.engine.origin}/wp-json/calendar-desk/v1/${kind}/${id}/merge`, {
        method: 'POST',
        auth: laptopA.admin,
        json: { into },
      });
    const venueMerge = await merge('venues', twin.id, kept.id);
    expect(venueMerge.status, JSON.stringify(venueMerge.body)).toBe(200);
    expect(venueMerge.body.moved).toBe(6); // the concert, the draft, the choir's three dates, the cancelled one
    const organizerMerge = await merge('organizers', annaToo.id, anna.id);
    expect(organizerMerge.body.moved).toBe(4); // the concert and the choir's three dates

    const pushed = await syncWithHub(laptopA);
    expect(pushed.failures).toEqual([]);
    expect(pushed.conflicts).toEqual([]);
    // The moved events are edits (a series may travel as its head's edit), the two records one deletion each.
    const deletions = pushed.operations.filter((operation) => operation.type === 'delete');
    expect(deletions.map((operation) => [operation.kind, operation.localId])).toEqual([
      ['organizer', annaToo.id],
      ['venue', twin.id],
    ]);
    expect(pushed.operations.filter((operation) => operation.type === 'create')).toEqual([]);
    expect(pushed.summary).toMatchObject({ created: 0, deleted: 2, failed: 0 });
    // The concert, the draft and the choir's three dates (the series' dates go with its head's edit).
    const edits = pushed.operations.filter((operation) => operation.type === 'update');
    expect(edits.map((operation) => operation.title).sort()).toEqual([
      'Choir',
      'Choir',
      'Choir',
      'Concert',
      'Draft',
    ]);
    expect(pushed.operations).toHaveLength(edits.length + 2);
    expect(laptopA.engine.store.events.get(cancelled.id)).toMatchObject({
      status: 'trash',
      venueId: kept.id,
    });

    // The hub: one Teatro and one Anna, every event linked to them, the merged ones in its trash.
    expect(liveVenues(hub.engine.store)).toEqual([kept.uid]);
    expect(liveOrganizers(hub.engine.store).sort()).toEqual([anna.uid, piero.uid].sort());
    const onA = linksByUid(laptopA.engine.store);
    expect(linksByUid(hub.engine.store)).toEqual(onA);
    expect(Object.values(onA).filter((links) => links.venue === twin.uid)).toEqual([]);

    // Laptop B takes the merge in: the edits, the two deletions (to its trash); no conflict, no re-creation.
    const pulled = await syncWithHub(laptopB);
    expect(pulled.failures).toEqual([]);
    expect(pulled.conflicts).toEqual([]);
    expect(pulled.summary).toMatchObject({ created: 0, imported: 0, trashed: 2, failed: 0 });
    expect(liveVenues(laptopB.engine.store)).toEqual([kept.uid]);
    expect(linksByUid(laptopB.engine.store)).toEqual(onA);

    // Nothing is left to do anywhere.
    for (const laptop of [laptopA, laptopB]) {
      const quiet = await syncWithHub(laptop);
      expect(quiet.operations).toEqual([]);
      expect(quiet.conflicts).toEqual([]);
    }
  });
});

describe('venues of one name on the hub, pulled', () => {
  it('a venue new on the hub with the name of one here but another address is imported as its own venue', async () => {
    const bologna = await write(laptopA, 'venues', { venue: 'Sala Verdi', address: 'Via Roma 1' });
    expect((await syncWithHub(laptopA)).summary).toMatchObject({ failed: 0, conflicts: 0 });
    // Imported into the hub from a CSV file: another place of that name (another address), so a venue of its own.
    const file = ['Venue Name,Venue Address', '"SALA VERDÌ","Corso Martiri 5"'].join('\n');
    await importFile(hub.engine.store, 'venues.csv', file, new Date(), folderOwner(hub.engine.store));
    const onHub = [...hub.engine.store.venues.values()].filter((venue) => /sala verd/i.test(venue.name));
    expect(onHub).toHaveLength(2);
    const pulled = await syncWithHub(laptopA);
    expect(pulled.failures).toEqual([]);
    expect(pulled.conflicts).toEqual([]);
    const named = [...laptopA.engine.store.venues.values()].filter((venue) => /sala verd/i.test(venue.name));
    expect(named.map((venue) => [venue.name, venue.address]).sort()).toEqual([
      ['SALA VERDÌ', 'Corso Martiri 5'],
      ['Sala Verdi', 'Via Roma 1'],
    ]);
    expect(laptopA.engine.store.venues.get(bologna.id)!.address).toBe('Via Roma 1');
  });
});
