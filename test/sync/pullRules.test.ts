import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventBody } from '../helpers/server';
import { addUser } from '../../src/main/core/users';
import type { Caller } from '../../src/main/core/capabilities';
import { allOf, startSyncPair, type SyncPair } from './syncHelpers';

/*
 * `remote-wins` writes the remote version into the local calendar through the same core functions as the
 * API, as the user who started the sync: what the API would refuse, the pull refuses too, on that record only.
 */

let pair: SyncPair;
beforeEach(async () => {
  pair = await startSyncPair();
});
afterEach(() => pair.close());

const remoteIdOf = async (collection: string, field: string, value: string) =>
  (await allOf(pair.remote, collection)).find((record) => record[field] === value)!.id as number;

async function edit(server: 'local' | 'remote', path: string, json: Record<string, unknown>) {
  const side = pair[server];
  const answer = await side.api(path, { method: 'POST', auth: side.admin, json });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

describe('sync pull: the rules of the API apply', () => {
  it('refuses a category parent that would make a loop here, reports it on that record, and goes on', async () => {
    const create = async (name: string) =>
      (await pair.local.api('categories', { method: 'POST', auth: pair.local.admin, json: { name } })).body
        .id as number;
    const music = await create('Music');
    const jazz = await create('Jazz');
    await pair.sync();
    // On the remote Music goes under Jazz; here Jazz goes under Music, and Music changes too (a conflict).
    await edit('remote', `categories/${await remoteIdOf('categories', 'name', 'Music')}`, {
      parent: await remoteIdOf('categories', 'name', 'Jazz'),
    });
    await edit('local', `categories/${jazz}`, { parent: music });
    await edit('local', `categories/${music}`, { description: 'Live music' });
    // Another record of the same run, which must still be done.
    await pair.local.api('events', { method: 'POST', auth: pair.local.admin, json: eventBody('Gig', 3) });

    const report = await pair.sync({ policy: 'remote-wins' });

    const failure = report.failures.find((candidate) => candidate.localId === music);
    expect(failure).toMatchObject({ kind: 'category', code: 'SYNC_PULL_REFUSED' });
    expect(failure!.message).toContain('A category cannot be its own parent or ancestor.');
    expect(failure!.message).toContain('keep the local version');
    // Nothing of the refused version was written here: Music keeps its place and its local text.
    expect(pair.local.engine.store.terms.get(music)).toMatchObject({ parent: 0, description: 'Live music' });
    expect(pair.local.engine.store.terms.get(jazz)).toMatchObject({ parent: music });
    // (Jazz's own move is refused by the remote, where Music is now under Jazz: a failure of its own.)
    expect(report.failures.map((candidate) => candidate.localId).sort()).toEqual([music, jazz].sort());
    expect(report.summary.created).toBe(1);
    expect((await allOf(pair.remote, 'events')).map((event) => event.title)).toEqual(['Gig']);
  });

  it('writes as the user who started the sync: a record that user may not change is refused, the rest pulled', async () => {
    const store = pair.local.engine.store;
    const { user } = await addUser(store, 'ann', 'author', () => new Date());
    const ann: Caller = { userId: user.id, login: user.login, role: user.role };
    const admins = (
      await pair.local.api('events', { method: 'POST', auth: pair.local.admin, json: eventBody('Gala', 4) })
    ).body.id as number;
    const anns = (
      await pair.local.api('events', {
        method: 'POST',
        auth: pair.local.admin,
        json: eventBody('Bake sale', 5, { author: user.id }),
      })
    ).body.id as number;
    await pair.sync();
    for (const [title, localId] of [
      ['Gala', admins],
      ['Bake sale', anns],
    ] as const) {
      await edit('remote', `events/${await remoteIdOf('events', 'title', title)}`, {
        title: `${title} (remote)`,
      });
      await edit('local', `events/${localId}`, { description: 'Changed here' });
    }

    const report = await pair.sync({ policy: 'remote-wins', caller: ann });

    expect(report.summary).toMatchObject({ pulled: 1, failed: 1 });
    expect(report.failures).toEqual([
      expect.objectContaining({ kind: 'event', localId: admins, code: 'SYNC_PULL_NOT_ALLOWED' }),
    ]);
    expect(report.failures[0]!.message).toContain('ann (author), who started the sync, may not change it');
    expect(store.events.get(admins)).toMatchObject({ title: 'Gala', description: 'Changed here' });
    expect(store.events.get(anns)).toMatchObject({ title: 'Bake sale (remote)' });
  });
});
