import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { Memory } from 'lowdb';
import { describe, expect, it } from 'vitest';
import { readChanges } from '../../src/main/core/changes';
import { eventRecord } from '../../src/main/core/eventRecord';
import { CalendarStore, type Transaction } from '../../src/main/store/store';
import type { DataFile, FeedKind, Settings } from '../../src/main/store/schema';

/**
 * The store's change feed against a plain model: after any sequence of creates, updates, permanent deletions
 * and changes that fail half-way, reading the feed after any cursor, in pages of any size, gives every record
 * changed since then once at its latest change and every deletion since then, in order; a reopened store
 * reads the same.
 */

const settings: Settings = { siteName: 'Test', siteDescription: '', timezone: 'UTC', postsPerPage: 10 };
const memoryStore = (adapter: Memory<DataFile>) =>
  CalendarStore.open({
    dataDir: '/nonexistent/calendar-desk',
    initialSettings: settings,
    lock: false,
    adapter,
  });

const operation = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), event: fc.boolean() }),
  fc.record({ kind: fc.constantFrom('update' as const, 'delete' as const, 'fail' as const), pick: fc.nat() }),
);

type Op = { kind: 'create'; event: boolean } | { kind: 'update' | 'delete' | 'fail'; pick: number };

interface Model {
  /** Latest change of each existing record, by `kind:id`. */
  latest: Map<string, number>;
  deletions: Array<{ seq: number; key: string }>;
  seq: number;
}

/** What reading after `after` must give, per the model (no pruning: the limits are not reached). */
function expected(model: Model, after: number): string[] {
  const changes = [
    ...[...model.latest].map(([key, seq]) => ({ seq, text: `${seq} upsert ${key}` })),
    ...model.deletions.map(({ seq, key }) => ({ seq, text: `${seq} delete ${key}` })),
  ];
  return changes
    .filter((change) => change.seq > after)
    .sort((a, b) => a.seq - b.seq)
    .map((change) => change.text);
}

/** Reads the whole feed after `after` in pages of `limit`. */
function readPaged(store: CalendarStore, after: number, limit: number): string[] {
  const texts: string[] = [];
  let cursor = after;
  for (;;) {
    const { items, more } = store.changeFeed.read(cursor, limit);
    expect(items.length).toBeLessThanOrEqual(limit);
    for (const item of items) {
      texts.push(`${item.seq} ${item.tombstone ? 'delete' : 'upsert'} ${item.kind}:${item.id}`);
    }
    if (!more) return texts;
    cursor = items.at(-1)!.seq;
  }
}

async function apply(store: CalendarStore, model: Model, op: Op) {
  const existing = [...model.latest.keys()];
  if (op.kind === 'create') {
    await store.mutate((tx) => {
      if (op.event) {
        const id = tx.nextPostId();
        tx.putEvent(
          eventRecord({
            id,
            authorId: 1,
            status: 'publish',
            language: 'en',
            dateUtc: '2026-11-01 00:00:00',
            timezone: 'UTC',
            slug: `e${id}`,
          }),
        );
        model.latest.set(`event:${id}`, ++model.seq);
      } else {
        const id = tx.nextTermId();
        tx.putTerm({
          id,
          uid: randomUUID(),
          taxonomy: 'tag',
          name: `t${id}`,
          slug: `t${id}`,
          description: '',
          parent: 0,
          language: 'en',
          modifiedUtc: '2026-11-01 00:00:00',
          revision: 1,
        });
        model.latest.set(`tag:${id}`, ++model.seq);
      }
    });
    return;
  }
  if (existing.length === 0) return;
  const key = existing[op.pick % existing.length];
  const [kind, idText] = key.split(':') as [FeedKind, string];
  const id = Number(idText);
  const change = (tx: Transaction) => {
    if (op.kind === 'delete') {
      if (kind === 'event') tx.deletePost('event', id, '2026-11-20 10:00:00');
      else tx.deleteTerm(id, '2026-11-20 10:00:00');
    } else if (kind === 'event') {
      const event = store.events.get(id)!;
      tx.putEvent({ ...event, revision: event.revision + 1 });
    } else {
      const term = store.terms.get(id)!;
      tx.putTerm({ ...term, revision: term.revision + 1 });
    }
    if (op.kind === 'fail') throw new Error('rule broken half-way');
  };
  if (op.kind === 'fail') {
    await expect(store.mutate(change)).rejects.toThrow('rule broken');
    return;
  }
  await store.mutate(change);
  model.seq++;
  if (op.kind === 'delete') {
    model.latest.delete(key);
    model.deletions.push({ seq: model.seq, key });
  } else model.latest.set(key, model.seq);
}

describe('the change feed (property)', () => {
  it('reads as the model after any changes, from any cursor, in pages of any size, also once reopened', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(operation, { maxLength: 60 }),
        fc.integer({ min: 1, max: 7 }),
        fc.nat(),
        async (operations, limit, cursorPick) => {
          const adapter = new Memory<DataFile>();
          const store = await memoryStore(adapter);
          const model: Model = { latest: new Map(), deletions: [], seq: 0 };
          for (const op of operations) await apply(store, model, op);
          const after = cursorPick % (model.seq + 1);
          expect(readPaged(store, after, limit)).toEqual(expected(model, after));
          // A full read: every existing record, no tombstones.
          const full = store.changeFeed
            .read(null, 1000)
            .items.map((item) => `${item.seq} upsert ${item.kind}:${item.id}`);
          expect(full).toEqual(expected({ ...model, deletions: [] }, 0));
          expect(store.changeFeed.latest()).toBe(model.seq);
          // The same full read as the API pages it: every existing record once, no tombstone.
          const paged: string[] = [];
          let since: string | undefined;
          for (let page = 0; page < 100; page++) {
            const read = readChanges(store, since, limit);
            paged.push(...read.changes.map((change) => `${change.seq} ${change.action} ${change.kind}`));
            since = read.cursor;
            if (!read.more) break;
          }
          expect(paged).toEqual(full.map((text) => text.replace(/:\d+$/, '')));
          expect(readChanges(store, since, limit).changes).toEqual([]);

          const reopened = await memoryStore(adapter);
          expect(readPaged(reopened, after, limit)).toEqual(expected(model, after));
          expect(reopened.changeFeed.state()).toEqual(store.changeFeed.state());
        },
      ),
      { numRuns: 150 },
    );
  });
});
