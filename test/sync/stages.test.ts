import { describe, expect, it } from 'vitest';
import { inPool, stagesOf } from '../../src/main/sync/stages';
import { linkKey, type LocalRecord, type Operation, type SyncKind } from '../../src/main/sync/model';

const record = (kind: SyncKind, id: number, parent = 0): LocalRecord => ({
  kind,
  id,
  revision: 1,
  slug: `${kind}-${id}`,
  deleted: false,
  fields: {},
  refs: kind === 'category' ? { parent } : {},
});
const create = (kind: SyncKind, localId: number): Operation => ({ type: 'create', kind, localId, title: '' });
const remove = (kind: SyncKind, localId: number): Operation => ({
  type: 'delete',
  kind,
  localId,
  remoteId: localId,
  title: '',
  force: false,
});
const names = (stages: Operation[][]) =>
  stages.map((stage) => stage.map((operation) => `${operation.type} ${operation.kind} ${operation.localId}`));

describe('stagesOf: what may be sent at once, in dependency order', () => {
  it('parents with tags, then children, then venues and organizers, then events; deletions last, reversed', () => {
    const local = new Map(
      [record('category', 1), record('category', 2, 1), record('category', 3, 2), record('tag', 4)].map(
        (item) => [linkKey(item.kind, item.id), item],
      ),
    );
    const stages = stagesOf(
      [
        create('category', 1),
        create('category', 2),
        create('category', 3),
        create('tag', 4),
        create('venue', 5),
        create('organizer', 6),
        create('event', 7),
        create('event', 8),
        remove('event', 9),
        remove('venue', 10),
        remove('category', 11),
      ],
      local,
    );
    expect(names(stages)).toEqual([
      ['create category 1', 'create tag 4'],
      ['create category 2'],
      ['create category 3'],
      ['create venue 5', 'create organizer 6'],
      ['create event 7', 'create event 8'],
      ['delete event 9'],
      ['delete venue 10'],
      ['delete category 11'],
    ]);
  });
});

describe('inPool', () => {
  it('runs at most `limit` at once, in order, and starts nothing once told to stop', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    await inPool(
      Array.from({ length: 10 }, (_, index) => index),
      3,
      () => started.length < 7,
      async (item) => {
        started.push(item);
        most = Math.max(most, ++running);
        await new Promise((resolve) => setTimeout(resolve, 5 + (item % 3)));
        running--;
      },
    );
    expect(most).toBe(3);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});
