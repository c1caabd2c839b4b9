import { describe, expect, it } from 'vitest';
import { planSides } from '../../src/renderer/src/components/sync/planSides';
import type { Operation } from '../../src/shared/schemas/sync';

const event = { kind: 'event' as const, localId: 4, title: 'Spring concert' };

describe('the preview split by the way changes go', () => {
  it('lists imports, pulls and remote deletions as coming from the site, sends as going to it', () => {
    const operations: Operation[] = [
      { type: 'create', ...event, title: 'New here' },
      { type: 'import', ...event, localId: 0, title: 'New there', remoteId: 9 },
      { type: 'pull', ...event, remoteId: 3 },
      { type: 'trash', ...event, title: 'Deleted there' },
      { type: 'accept', ...event, remoteId: 3 },
      { type: 'unlink', ...event },
    ];
    const { outgoing, incoming } = planSides(operations);
    expect(outgoing.map((row) => [row.action, row.title])).toEqual([['sync.operations.create', 'New here']]);
    expect(incoming.map((row) => [row.action, row.title])).toEqual([
      ['sync.operations.incoming.import', 'New there'],
      ['sync.operations.incoming.pull', 'Spring concert'],
      ['sync.operations.incoming.trash', 'Deleted there'],
    ]);
  });

  it('splits a merge: the fields taken here are incoming, the fields sent are outgoing', () => {
    const merge: Operation = {
      type: 'merge',
      ...event,
      remoteId: 3,
      toLocal: ['description'],
      toRemote: ['title', 'website'],
      localPending: false,
    };
    const { outgoing, incoming } = planSides([merge]);
    expect(incoming).toEqual([
      {
        action: 'sync.operations.incoming.pull',
        kind: 'event',
        title: 'Spring concert',
        fields: ['description'],
      },
    ]);
    expect(outgoing).toEqual([
      {
        action: 'sync.operations.update',
        kind: 'event',
        title: 'Spring concert',
        fields: ['title', 'website'],
      },
    ]);
    // A pull-only merge sends nothing: its local changes wait for a sync that pushes.
    const pullOnly = planSides([{ ...merge, toRemote: [], localPending: true }]);
    expect(pullOnly.outgoing).toEqual([]);
  });
});
