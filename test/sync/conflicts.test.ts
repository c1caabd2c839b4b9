import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventBody } from '../helpers/server';
import { allOf, startSyncPair, type SyncPair } from './syncHelpers';

let pair: SyncPair;
let localId: number;
let remoteId: number;
beforeEach(async () => {
  pair = await startSyncPair();
  const created = await pair.local.api('events', {
    method: 'POST',
    auth: pair.local.admin,
    json: eventBody('Picnic', 5, { description: 'Bring food' }),
  });
  localId = created.body.id;
  await pair.sync({ direction: 'push' });
  remoteId = (await allOf(pair.remote, 'events'))[0]!.id as number;
  // Both sides change the same event after the sync.
  await pair.local.api(`events/${localId}`, {
    method: 'POST',
    auth: pair.local.admin,
    json: { title: 'Picnic (local)' },
  });
  await pair.remote.api(`events/${remoteId}`, {
    method: 'POST',
    auth: pair.remote.admin,
    json: { title: 'Picnic (remote)', description: 'Bring drinks' },
  });
});
afterEach(async () => {
  await pair.close();
});

const remoteTitle = async () => (await allOf(pair.remote, 'events')).map((event) => event.title);

describe('sync --push-only: a record changed on both sides', () => {
  it('ask: lists the conflict with a field-level diff and changes nothing', async () => {
    const report = await pair.sync({ direction: 'push', policy: 'ask' });
    expect(report.conflicts).toEqual([
      {
        kind: 'event',
        localId,
        remoteId,
        reason: 'both-changed',
        title: 'Picnic (local)',
        diff: [
          { field: 'title', local: 'Picnic (local)', remote: 'Picnic (remote)' },
          { field: 'description', local: 'Bring food', remote: 'Bring drinks' },
        ],
      },
    ]);
    expect(report.summary).toMatchObject({ updated: 0, conflicts: 1 });
    expect(await remoteTitle()).toEqual(['Picnic (remote)']);
    // Still a conflict the next time: nothing was recorded as resolved.
    expect((await pair.sync({ direction: 'push', policy: 'ask' })).conflicts).toHaveLength(1);
  });

  it('a change made only on the remote is left there; a later local edit of that record is a conflict', async () => {
    await pair.sync({ direction: 'push', policy: 'local-wins' });
    await pair.remote.api(`events/${remoteId}`, {
      method: 'POST',
      auth: pair.remote.admin,
      json: { excerpt: 'Site note' },
    });
    const quiet = await pair.sync({ direction: 'push' });
    expect(quiet).toMatchObject({ operations: [], conflicts: [] });
    await pair.local.api(`events/${localId}`, {
      method: 'POST',
      auth: pair.local.admin,
      json: { title: 'Picnic again' },
    });
    const report = await pair.sync({ direction: 'push' });
    expect(report.conflicts.map((conflict) => conflict.diff.map((diff) => diff.field))).toEqual([
      ['title', 'excerpt'],
    ]);
  });

  it('skip: leaves it alone and reports it', async () => {
    const report = await pair.sync({ direction: 'push', policy: 'skip' });
    expect(report.conflicts).toHaveLength(1);
    expect(await remoteTitle()).toEqual(['Picnic (remote)']);
  });

  it('local-wins: overwrites the remote with the local version', async () => {
    const report = await pair.sync({ direction: 'push', policy: 'local-wins' });
    expect(report.summary).toMatchObject({ updated: 1, conflicts: 0 });
    const [event] = await allOf(pair.remote, 'events');
    expect(event).toMatchObject({ title: 'Picnic (local)', description: 'Bring food' });
    expect((await pair.sync({ direction: 'push', policy: 'ask' })).conflicts).toEqual([]);
  });

  it('remote-wins: the local record takes the remote version, and the conflict is settled', async () => {
    const report = await pair.sync({ direction: 'push', policy: 'remote-wins' });
    expect(report.summary).toMatchObject({ updated: 0, pulled: 1, conflicts: 0 });
    expect(await remoteTitle()).toEqual(['Picnic (remote)']);
    const mine = pair.local.engine.store.events.get(localId)!;
    expect(mine).toMatchObject({ title: 'Picnic (remote)', description: 'Bring drinks' });
    const next = await pair.sync({ direction: 'push', policy: 'ask' });
    expect(next.conflicts).toEqual([]);
    expect(next.operations).toEqual([]);
  });

  it('a per-record decision overrides the policy', async () => {
    const report = await pair.sync({
      direction: 'push',
      policy: 'ask',
      decisions: { [`event:${localId}`]: 'local-wins' },
    });
    expect(report.conflicts).toEqual([]);
    expect(await remoteTitle()).toEqual(['Picnic (local)']);
  });

  it('a local deletion of a record changed on the remote is a conflict too', async () => {
    await pair.local.api(`events/${localId}`, { method: 'DELETE', auth: pair.local.admin });
    const report = await pair.sync({ direction: 'push', policy: 'ask' });
    expect(report.conflicts.map((conflict) => conflict.reason)).toEqual(['local-deleted-remote-changed']);
    expect(await remoteTitle()).toEqual(['Picnic (remote)']);
    await pair.sync({ direction: 'push', policy: 'local-wins' });
    expect(await remoteTitle()).toEqual([]);
  });

  it('remote-wins from a Calendar Desk takes its texts as answered: every paragraph, the cost', async () => {
    const description = '<p>Bring drinks.</p>\n<p>And a blanket &amp; a hat.</p>';
    const edited = await pair.remote.api(`events/${remoteId}`, {
      method: 'POST',
      auth: pair.remote.admin,
      json: { description, cost: '12' },
    });
    expect(edited.status).toBe(200);
    const report = await pair.sync({ direction: 'push', policy: 'remote-wins' });
    expect(report.summary).toMatchObject({ pulled: 1, failed: 0 });
    const local = (await pair.local.api(`events/${localId}`, { auth: pair.local.admin })).body;
    expect(local.description).toBe(description);
    expect(local.cost_details.values).toEqual(['12']);
    expect((await pair.sync()).operations).toEqual([]);
  });
});
