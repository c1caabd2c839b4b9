import { expect } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { runSync, type SyncOptions, type SyncReport } from '../../src/main/sync/sync';
import type { ConflictPolicy } from '../../src/main/sync/model';
import { folderOwner } from '../../src/main/core/users';
import type { CalendarStore } from '../../src/main/store/store';

/** Two laptops and a hub, three real Calendar Desk servers, each on its own port over its own data file. */
export interface HubAndLaptops {
  hub: TestServer;
  laptopA: TestServer;
  laptopB: TestServer;
  close(): Promise<void>;
}

export async function startHubAndLaptops(): Promise<HubAndLaptops> {
  const [hub, laptopA, laptopB] = await Promise.all([
    startTestServer(),
    startTestServer(),
    startTestServer(),
  ]);
  return {
    hub,
    laptopA,
    laptopB,
    close: async () => {
      await Promise.all([hub, laptopA, laptopB].map((server) => server.close()));
    },
  };
}

/** A two-way sync (the default) of a laptop with the hub. */
export const syncWith = (
  hub: TestServer,
  laptop: TestServer,
  policy: ConflictPolicy = 'ask',
  more: Pick<SyncOptions, 'sameNames'> = {},
): Promise<SyncReport> =>
  runSync({
    store: laptop.engine.store,
    caller: folderOwner(laptop.engine.store),
    policy,
    ...more,
    remote: {
      root: hub.engine.apiRoot,
      namespace: 'cal/events/v1',
      auth: { token: hub.engine.adminToken },
      backoffMs: 1,
    },
  });

/** A write through the server's API as its administrator; fails the test unless it is a success. */
export async function write(server: TestServer, path: string, json: Record<string, unknown>) {
  const answer = await server.api(path, { method: 'POST', auth: server.admin, json });
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  return answer.body as { id: number; slug: string; uid: string };
}

/** The id on `server` of the event with this uid. */
export const idOf = (server: TestServer, uid: string) =>
  [...server.engine.store.events.values()].find((event) => event.uid === uid)!.id;

/** Keys that differ between instances by nature: local ids, revisions and times of writing. */
const LOCAL_KEYS = new Set(['id', 'revision', 'modifiedUtc', 'dateUtc', 'createdUtc']);

/**
 * A calendar as a comparable export: every record keyed by uid, its references (venue, organizers, terms, a
 * series' head) as uids, without ids, sync links and times of writing.
 */
export function exportByUid(store: CalendarStore) {
  const uidOf = (records: { get(id: number): { uid: string } | undefined }) => (id: number) =>
    records.get(id)?.uid ?? `missing:${id}`;
  const venue = uidOf(store.venues);
  const organizer = uidOf(store.organizers);
  const term = uidOf(store.terms);
  const event = uidOf(store.events);
  const plain = (record: object) =>
    Object.fromEntries(Object.entries(record).filter(([key]) => !LOCAL_KEYS.has(key)));
  const byUid = <T extends { uid: string }>(records: Iterable<T>, map: (record: T) => object) =>
    Object.fromEntries([...records].map((record) => [record.uid, map(record)]));
  return {
    terms: byUid(store.terms.values(), (record) => ({
      ...plain(record),
      parent: record.parent && term(record.parent),
    })),
    venues: byUid(store.venues.values(), plain),
    organizers: byUid(store.organizers.values(), plain),
    // A record in the trash is compared as trashed: the side that trashed it for the other's deletion keeps its
    // own last edit there (restorable, nobody's work is lost; the tests check that edit where it matters).
    events: byUid(store.events.values(), (record) =>
      record.status === 'trash'
        ? { status: 'trash' }
        : {
            ...plain(record),
            parentId: record.parentId && event(record.parentId),
            venueId: record.venueId && venue(record.venueId),
            organizerIds: record.organizerIds.map(organizer).sort(),
            categoryIds: record.categoryIds.map(term).sort(),
            tagIds: record.tagIds.map(term).sort(),
          },
    ),
  };
}
