import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CalendarStore } from '../../src/main/store/store';
import { ensureAdminAccess } from '../../src/main/core/users';
import { importIntoLocal } from '../../src/main/sync/pull';
import { toRemoteRecord } from '../../src/main/sync/remoteRecords';

// A remote's event whose status this calendar does not have (a WordPress plugin's own status, such as an
// "archived" post) must not be stored: no list, filter or status check here knows what it means.

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

const settings = { siteName: 'x', siteDescription: '', timezone: 'UTC', postsPerPage: 10 };
const open = (dataDir: string) => CalendarStore.open({ dataDir, initialSettings: settings });
const admin = { userId: 1, login: 'admin', role: 'administrator' as const };
const remoteEvent = (status: string) =>
  toRemoteRecord('wordpress', 'event', {
    id: 41,
    slug: 'summer-fair',
    uid: '6f2d7c1e-3b9a-4c55-9a0e-1d2c3b4a5f60',
    title: 'Summer fair',
    status,
    start_date: '2027-06-05 10:00:00',
    end_date: '2027-06-05 16:00:00',
    timezone: 'UTC',
  });

describe('importing a remote event with a status this calendar does not have', () => {
  it('is refused as a problem of that record, and the calendar opens again afterwards', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'calendar-desk-pull-'));
    folders.push(dataDir);
    const store = await open(dataDir);
    await ensureAdminAccess(store, () => new Date());
    const imported = importIntoLocal(store, 'event', remoteEvent('archived'), () => null, new Date(), admin);
    await expect(imported).rejects.toThrow(/archived/);
    expect(store.events.size).toBe(0);
    await store.close();
    const reopened = await open(dataDir);
    expect(reopened.events.size).toBe(0);
    await reopened.close();
  });

  it('keeps a status it has (a scheduled event stays scheduled)', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'calendar-desk-pull-'));
    folders.push(dataDir);
    const store = await open(dataDir);
    const created = await importIntoLocal(
      store,
      'event',
      remoteEvent('future'),
      () => null,
      new Date(),
      admin,
    );
    expect(store.events.get(created.id)!.status).toBe('future');
    await store.close();
  });
});

describe('importing a remote venue with a status this calendar does not have', () => {
  it('is refused as a problem of that record', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'calendar-desk-pull-'));
    folders.push(dataDir);
    const store = await open(dataDir);
    const venue = toRemoteRecord('wordpress', 'venue', {
      id: 7,
      slug: 'town-hall',
      venue: 'Town Hall',
      status: 'archived',
    });
    const imported = importIntoLocal(store, 'venue', venue, () => null, new Date(), admin);
    await expect(imported).rejects.toThrow(/archived/);
    expect(store.venues.size).toBe(0);
    await store.close();
  });
});
