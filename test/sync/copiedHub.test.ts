import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventBody, startTestServer, type TestServer } from '../helpers/server';
import { syncWith, write } from './hubAndLaptops';
import { addLinkedPost } from '../../src/main/core/linkedPosts';
import { folderOwner } from '../../src/main/core/users';

/**
 * Issue 28: a hub set up as a copy of a laptop's data folder (the same records, the same uids, never synced).
 * The first sync adopts every record by uid, whatever the laptop kept apart by name and the pictures given by
 * address included; from the second on, a sync where nothing changed plans nothing.
 */
const PICTURE = 'https://images.example.org/events/poster-1.jpg';
let work: string;
let laptop: TestServer;
let hub: TestServer;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'calendar-desk-copied-hub-'));
  const laptopDir = join(work, 'laptop');
  const first = await startTestServer({ dataDir: laptopDir });
  const studio = await write(first, 'venues', { venue: 'Riverside Studio', address: 'Spreeweg 1' });
  const { store } = first.engine;
  // An import makes a second venue of the same name (the API would reuse the first).
  const other = await addLinkedPost(
    'venue',
    { venue: 'Riverside Studio', address: 'Köpenicker Str. 70', city: 'Kreuzberg' },
    { store, caller: folderOwner(store), now: new Date(), language: 'en' },
    { avoidDuplicates: false },
  );
  await write(first, 'events', eventBody('Rehearsal', 3, { venue: studio.id, image: PICTURE }));
  await write(first, 'events', eventBody('Concert', 4, { venue: other.id, image: PICTURE }));
  await write(first, 'events', eventBody('Workshop', 5));
  await first.close();
  await cp(laptopDir, join(work, 'hub'), { recursive: true });
  [laptop, hub] = await Promise.all([
    startTestServer({ dataDir: laptopDir }),
    startTestServer({ dataDir: join(work, 'hub') }),
  ]);
});
afterAll(async () => {
  await Promise.all([laptop?.close(), hub?.close()]);
  await rm(work, { recursive: true, force: true });
});

const sync = () => syncWith(hub, laptop, 'ask', { sameNames: 'keep-apart' });
const namesOf = (server: TestServer) =>
  [...server.engine.store.venues.values()].map((venue) => venue.name).sort();

describe('sync with a hub copied from this calendar', () => {
  it('adopts every record by uid, sends the name kept apart, and then has nothing to do', async () => {
    const first = await sync();
    expect(first.conflicts).toEqual([]);
    expect(first.failures).toEqual([]);
    expect(first.operations.filter((operation) => operation.type === 'create')).toEqual([]);
    // Nothing doubled on the hub; the second venue is kept apart there too.
    expect(hub.engine.store.events.size).toBe(3);
    expect(namesOf(hub)).toEqual(['Riverside Studio', 'Riverside Studio (Kreuzberg)']);
    expect(namesOf(laptop)).toEqual(namesOf(hub));

    for (const again of [await sync(), await sync()]) {
      expect(again.operations.filter((operation) => operation.type !== 'accept')).toEqual([]);
      expect(again.conflicts).toEqual([]);
    }
  });
});
