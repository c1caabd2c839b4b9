import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, startTestServer, type TestServer } from '../helpers/server';
import { startProxy, type Proxy } from '../helpers/proxy';
import { allOf } from './syncHelpers';
import { runSync, type SyncOptions, type SyncReport } from '../../src/main/sync/sync';
import { folderOwner } from '../../src/main/core/users';
import { LinkState, remoteKey } from '../../src/main/sync/linkState';
import { localRecords } from '../../src/main/sync/localRecords';
import { plan } from '../../src/main/sync/planner';
import { RemoteClient } from '../../src/main/sync/remoteClient';
import { readRemoteChanges } from '../../src/main/sync/remoteFeed';
import { readRemote } from '../../src/main/sync/remoteRead';
import type { RemoteRecord } from '../../src/main/sync/model';

/**
 * Two-way sync with another Calendar Desk reads its change feed since the last sync instead of every record.
 * The remote sits behind a proxy that sees each request; its clock is driven so that old deletions are pruned.
 */
const DAY = 86_400_000;
const NAMESPACE = 'cal/events/v1';
let now = Date.parse('2026-11-24T09:00:00Z');
let local: TestServer;
let remote: TestServer;
let proxy: Proxy;
beforeAll(async () => {
  [local, remote] = await Promise.all([startTestServer(), startTestServer({ clock: () => new Date(now) })]);
  proxy = await startProxy(remote.engine.origin);
});
afterAll(async () => {
  await proxy?.close();
  await Promise.all([local, remote].map((server) => server?.close()));
});

const remoteOptions = () => ({
  root: proxy.root,
  namespace: NAMESPACE,
  auth: { token: remote.engine.adminToken },
  backoffMs: 1,
});
const sync = (options: Partial<SyncOptions> = {}): Promise<SyncReport> =>
  runSync({
    store: local.engine.store,
    caller: folderOwner(local.engine.store),
    policy: 'ask',
    remote: remoteOptions(),
    ...options,
  });

async function write(server: TestServer, path: string, json: Record<string, unknown>) {
  const answer = await server.api(path, { method: 'POST', auth: server.admin, json });
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  return answer.body as { id: number; uid: string };
}
const deleteForGood = async (path: string) =>
  expect((await remote.api(`${path}?force=true`, { method: 'DELETE', auth: remote.admin })).status).toBe(200);

/** The requests of one sync, as `METHOD path` without the REST root. */
async function requestsOf(run: () => Promise<SyncReport>) {
  const from = proxy.seen.length;
  const report = await run();
  const seen = proxy.seen
    .slice(from)
    .map((request) => `${request.method} ${request.url.replace('/wp-json/', '')}`);
  return { report, seen };
}
/** Reads of a collection's list (the full read), as opposed to the feed and the verification's probe. */
const listReads = (seen: string[]) => seen.filter((line) => /^GET cal\/events\/v1\/\w+\?.*&page=/.test(line));
const feedReads = (seen: string[]) => seen.filter((line) => line.startsWith('GET calendar-desk/v1/changes'));

const names = async (server: TestServer, collection: string, field: string) =>
  (await allOf(server, collection)).map((record) => record[field]).sort();

/** Both calendars hold the same records (compared by what a volunteer sees). */
async function expectSameCalendars() {
  for (const [collection, field] of [
    ['events', 'title'],
    ['venues', 'venue'],
    ['categories', 'name'],
    ['tags', 'name'],
  ] as const)
    expect(await names(local, collection, field), collection).toEqual(await names(remote, collection, field));
}

const comparable = (records: RemoteRecord[]) =>
  records
    .map(({ kind, id, slug, fields }) => ({ kind, id, slug, fields }))
    .sort((a, b) => `${a.kind}:${a.id}`.localeCompare(`${b.kind}:${b.id}`));

/** What the feed read and the full read give for the local calendar as it is now, and the plans made of them. */
async function bothReads() {
  const client = new RemoteClient(remoteOptions());
  await client.verify();
  const links = new LinkState(local.engine.store, remoteKey(client.root, NAMESPACE), client.root, NAMESPACE);
  const records = localRecords(local.engine.store);
  const byFeed = await readRemoteChanges(client, records, links, links.meta.cursor ?? null);
  if (!byFeed) throw new Error('the remote did not show its change feed');
  const full = await readRemote(client, records, links);
  const planOf = (remoteRecords: RemoteRecord[]) =>
    plan(records, links.all(), remoteRecords, {
      policy: 'ask',
      mediaLinks: links.allMedia(),
      direction: 'both',
    });
  return { byFeed, full, feedPlan: planOf(byFeed.records), fullPlan: planOf(full) };
}

describe('two-way sync with another Calendar Desk through its change feed', () => {
  let concert: { id: number; uid: string };
  let late: { id: number; uid: string };

  it('reads everything the first time, then only the changes, and applies them', async () => {
    const venue = await write(remote, 'venues', { venue: 'Town hall', city: 'Lyon' });
    late = await write(remote, 'tags', { name: 'Late' });
    await write(remote, 'categories', { name: 'Music' });
    concert = await write(remote, 'events', eventBody('Concert', 3, { venue: venue.id, tags: [late.id] }));
    await write(remote, 'events', eventBody('Fair', 5));
    await write(local, 'events', eventBody('Picnic', 4));

    const first = await requestsOf(sync);
    expect(first.report.summary).toMatchObject({ imported: 5, created: 1, failed: 0, conflicts: 0 });
    expect(feedReads(first.seen)).toEqual([expect.not.stringContaining('since=')]);
    await expectSameCalendars();

    await write(remote, `events/${concert.id}`, { title: 'Concert at dusk' });
    const second = await requestsOf(sync);
    expect(listReads(second.seen)).toEqual([]);
    expect(feedReads(second.seen)).toEqual([expect.stringContaining('since=')]);
    // Nothing but the verification, the feed and nothing else: no record read one by one.
    expect(second.seen.filter((line) => /^GET cal\/events\/v1\/\w+\/\d+/.test(line))).toEqual([]);
    expect(second.report.summary).toMatchObject({ pulled: 1, created: 0, updated: 0, failed: 0 });
    expect(await names(local, 'events', 'title')).toEqual(['Concert at dusk', 'Fair', 'Picnic']);
    await expectSameCalendars();
  });

  it('reads the same records and plans the same operations as a full read', async () => {
    await write(remote, 'venues', { venue: 'Old mill', city: 'Nantes' });
    const localConcert = [...local.engine.store.events.values()].find((event) => event.uid === concert.uid)!;
    await write(local, `events/${localConcert.id}`, { description: 'Bring a chair' });
    await write(local, 'tags', { name: 'Outdoor' });

    const { byFeed, full, feedPlan, fullPlan } = await bothReads();
    expect(byFeed.fullRead).toBe(false);
    expect(comparable(byFeed.records)).toEqual(comparable(full));
    expect(feedPlan).toEqual(fullPlan);
    expect(feedPlan.operations.map((operation) => operation.type).sort()).toEqual([
      'create',
      'import',
      'update',
    ]);
    await sync();
    await expectSameCalendars();
  });

  it('removes here a term deleted for good on the remote', async () => {
    await deleteForGood(`tags/${late.id}`);
    const { report, seen } = await requestsOf(sync);
    expect(listReads(seen)).toEqual([]);
    expect(report.summary.failed).toBe(0);
    expect(await names(local, 'tags', 'name')).toEqual(['Outdoor']);
    await expectSameCalendars();
  });

  it('reads everything again when the cursor is older than the remote keeps deletions, and still converges', async () => {
    const first = await write(remote, 'tags', { name: 'First' });
    const second = await write(remote, 'tags', { name: 'Second' });
    await sync();
    expect(await names(local, 'tags', 'name')).toEqual(['First', 'Outdoor', 'Second']);
    // The local calendar does not sync for 100 days; meanwhile one deletion, and a later one that prunes it.
    await deleteForGood(`tags/${first.id}`);
    now += 100 * DAY;
    await deleteForGood(`tags/${second.id}`);
    await write(remote, `events/${concert.id}`, { title: 'Winter concert' });

    const { byFeed, full, feedPlan, fullPlan } = await bothReads();
    expect(byFeed.fullRead).toBe(true);
    expect(comparable(byFeed.records)).toEqual(comparable(full));
    expect(feedPlan).toEqual(fullPlan);

    const { report, seen } = await requestsOf(sync);
    // The old cursor answered 410; the feed is read from its start.
    expect(feedReads(seen)).toEqual([
      expect.stringContaining('since='),
      expect.not.stringContaining('since='),
    ]);
    expect(report.summary).toMatchObject({ failed: 0, conflicts: 0 });
    expect(await names(local, 'tags', 'name')).toEqual(['Outdoor']);
    expect(await names(local, 'events', 'title')).toContain('Winter concert');
    await expectSameCalendars();

    // The fresh cursor works: the next sync reads only the feed again, and finds nothing to do.
    const next = await requestsOf(sync);
    expect(feedReads(next.seen)).toEqual([expect.stringContaining('since=')]);
    expect(listReads(next.seen)).toEqual([]);
    expect(next.report.operations).toEqual([]);
  });

  it('keeps the cursor when a sync did not take the changes in, so the next one reads them again', async () => {
    await write(remote, `events/${concert.id}`, { title: 'Spring concert' });
    // A push-only sync sends nothing and leaves the remote's edit for later.
    const pushOnly = await sync({ direction: 'push' });
    expect(pushOnly.summary.pulled).toBe(0);
    expect(await names(local, 'events', 'title')).not.toContain('Spring concert');

    const { report, seen } = await requestsOf(sync);
    expect(listReads(seen)).toEqual([]);
    expect(report.summary.pulled).toBe(1);
    expect(await names(local, 'events', 'title')).toContain('Spring concert');
    await expectSameCalendars();
  });

  it('saves the cursor only once a sync finished: an interrupted one leaves it where it was', async () => {
    const savedCursor = () => {
      const key = remoteKey(proxy.root, NAMESPACE);
      return (local.engine.store.syncState(`remote:${key}`) as { cursor?: string }).cursor;
    };
    const before = savedCursor();
    expect(before).toMatch(/:\d+$/);
    await write(remote, `events/${concert.id}`, { title: 'Summer concert' });
    // Cancelled once the remote is read, before any operation (a cancel while reading fails the sync instead).
    const stopped = new AbortController();
    const interrupted = await sync({
      signal: stopped.signal,
      onProgress: (event) => event.type === 'start' && stopped.abort(),
    });
    expect(interrupted.interrupted).toBe(true);
    expect(savedCursor()).toBe(before);

    const report = await sync();
    expect(report.summary.pulled).toBe(1);
    expect(savedCursor()).not.toBe(before);
    expect(await names(local, 'events', 'title')).toContain('Summer concert');
  });

  it('reads everything through the lists for an account that may not read the feed', async () => {
    const author = await remote.userHeaders('ada', 'author');
    const [login, password] = Buffer.from(author.Authorization.slice('Basic '.length), 'base64')
      .toString()
      .split(':');
    const laptop = await startTestServer();
    try {
      const { report, seen } = await requestsOf(() =>
        runSync({
          store: laptop.engine.store,
          caller: folderOwner(laptop.engine.store),
          policy: 'ask',
          direction: 'pull',
          remote: { ...remoteOptions(), auth: { user: login, password } },
        }),
      );
      expect(feedReads(seen)).toHaveLength(1);
      expect(listReads(seen).length).toBeGreaterThanOrEqual(5);
      expect(report.summary.failed).toBe(0);
      expect(await names(laptop, 'events', 'title')).toEqual(await names(remote, 'events', 'title'));
    } finally {
      await laptop.close();
    }
  });
});
