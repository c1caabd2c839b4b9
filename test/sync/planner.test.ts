import { describe, expect, it } from 'vitest';
import { plan } from '../../src/main/sync/planner';
import { contentHash } from '../../src/main/sync/compare';
import type { Link, LocalRecord, RemoteRecord, SyncKind } from '../../src/main/sync/model';

const category = (id: number, parent = 0, revision = 1): LocalRecord => ({
  kind: 'category',
  id,
  revision,
  slug: `cat-${id}`,
  deleted: false,
  fields: { name: `Cat ${id}`, slug: `cat-${id}`, description: '' },
  refs: { parent },
});
const event = (id: number, revision = 1, extra: Partial<LocalRecord> = {}): LocalRecord => ({
  kind: 'event',
  id,
  revision,
  slug: `event-${id}`,
  deleted: false,
  fields: { title: `Event ${id}`, slug: `event-${id}` },
  refs: { venue: 0, categories: [] },
  ...extra,
});
const remoteOf = (
  kind: SyncKind,
  id: number,
  fields: Record<string, unknown>,
  modifiedUtc: string | null = null,
): RemoteRecord => ({
  kind,
  id,
  slug: String(fields.slug),
  modifiedUtc,
  etag: null,
  fields,
});
const linkOf = (kind: SyncKind, localId: number, remote: RemoteRecord, pushedRevision: number): Link => ({
  kind,
  localId,
  remoteId: remote.id,
  pushedRevision,
  remoteModifiedUtc: remote.modifiedUtc,
  remoteEtag: null,
  remoteHash: contentHash(remote.fields),
});
const types = (operations: { type: string; kind: string; localId: number }[]) =>
  operations.map((operation) => `${operation.type} ${operation.kind} ${operation.localId}`);

describe('plan()', () => {
  it('orders creates: parents before children, terms, venues, organizers, then events', () => {
    const local = [
      event(10),
      category(3, 2),
      category(2, 1),
      category(1),
      { ...category(5), kind: 'tag' as const, refs: {} },
    ];
    expect(types(plan(local, [], [], { policy: 'ask' }).operations)).toEqual([
      'create category 1',
      'create category 2',
      'create category 3',
      'create tag 5',
      'create event 10',
    ]);
  });

  it('coalesces: create+update = create, create+delete = nothing, update+delete = delete', () => {
    const remoteSynced = remoteOf('event', 70, { title: 'Event 3', slug: 'event-3' }, '2026-01-01 00:00:00');
    const local = [
      event(1, 5), // created then edited four times, never synced
      event(2, 2, { deleted: true }), // created then trashed, never synced
      event(3, 4, { deleted: true }), // synced at revision 1, edited, then trashed
    ];
    const result = plan(local, [linkOf('event', 3, remoteSynced, 1)], [remoteSynced], { policy: 'ask' });
    expect(types(result.operations)).toEqual(['create event 1', 'delete event 3']);
  });

  it('deletions run after everything else, events before the terms they use', () => {
    const remoteCat = remoteOf('category', 9, { name: 'Cat 1', slug: 'cat-1', description: '', parent: 0 });
    const remoteEvent = remoteOf('event', 8, { title: 'Event 2', slug: 'event-2' }, '2026-01-01 00:00:00');
    const links = [linkOf('category', 1, remoteCat, 1), linkOf('event', 2, remoteEvent, 1)];
    const local = [event(2, 2, { deleted: true }), event(3)];
    expect(types(plan(local, links, [remoteCat, remoteEvent], { policy: 'ask' }).operations)).toEqual([
      'create event 3',
      'delete event 2',
      'delete category 1',
    ]);
  });

  it('adopts a remote record with the same slug and content instead of creating a twin', () => {
    const twin = remoteOf('category', 40, { name: 'Cat 1', slug: 'cat-1', description: '', parent: 0 });
    const result = plan([category(1)], [], [twin], { policy: 'ask' });
    expect(result.operations).toEqual([
      { type: 'adopt', kind: 'category', localId: 1, remoteId: 40, title: 'Cat 1', thenUpdate: false },
    ]);
  });

  it('a create whose answer was lost (pending link) is resolved by slug, never sent twice', () => {
    const created = remoteOf('event', 12, { title: 'Event 1', slug: 'event-1', venue: 0, categories: [] });
    const pending: Link = {
      ...linkOf('event', 1, created, 1),
      remoteId: null,
      pushedRevision: null,
      remoteHash: null,
    };
    expect(types(plan([event(1)], [pending], [created], { policy: 'ask' }).operations)).toEqual([
      'adopt event 1',
    ]);
    expect(types(plan([event(1)], [pending], [], { policy: 'ask' }).operations)).toEqual(['create event 1']);
  });

  it('a record changed on both sides is a conflict with a diff; policies settle it', () => {
    const before = remoteOf(
      'event',
      5,
      { title: 'Event 1', slug: 'event-1', venue: 0, categories: [] },
      '2026-01-01 00:00:00',
    );
    const after = {
      ...before,
      modifiedUtc: '2026-02-01 00:00:00',
      fields: { ...before.fields, title: 'Changed there' },
    };
    const local = [event(1, 2, { fields: { title: 'Changed here', slug: 'event-1' } })];
    const links = [linkOf('event', 1, before, 1)];
    const asked = plan(local, links, [after], { policy: 'ask' });
    expect(asked.operations).toEqual([]);
    expect(asked.conflicts[0]?.diff).toEqual([
      { field: 'title', local: 'Changed here', remote: 'Changed there' },
    ]);
    expect(types(plan(local, links, [after], { policy: 'local-wins' }).operations)).toEqual([
      'update event 1',
    ]);
    expect(types(plan(local, links, [after], { policy: 'remote-wins' }).operations)).toEqual([
      'pull event 1',
    ]);
    expect(plan(local, links, [after], { policy: 'skip' }).conflicts).toHaveLength(1);
    // Changed only remotely: nothing is pushed, and the baseline stays (a later local edit is a conflict).
    expect(plan([event(1, 1)], links, [after], { policy: 'ask' })).toEqual({ operations: [], conflicts: [] });
  });

  it('a record deleted on the remote is a conflict unless the user let it go', () => {
    const gone = remoteOf('event', 5, { title: 'Event 1', slug: 'event-1' });
    const links = [linkOf('event', 1, gone, 1)];
    expect(
      plan([event(1)], links, [], { policy: 'ask' }).conflicts.map((conflict) => conflict.reason),
    ).toEqual(['remote-deleted']);
    expect(types(plan([event(1)], links, [], { policy: 'local-wins' }).operations)).toEqual([
      'create event 1',
    ]);
    const letGo = [{ ...links[0]!, remoteHash: 'remote-gone' }];
    expect(plan([event(1)], letGo, [], { policy: 'ask' })).toEqual({ operations: [], conflicts: [] });
  });

  it('pictures: compared by remote media id; one never sent (pushed before pictures synced) is sent once', () => {
    const poster = {
      mediaId: 30,
      fileName: 'abcdef012345-poster.png',
      url: '/media/abcdef012345-poster.png',
    };
    const withoutImage = remoteOf(
      'event',
      5,
      { title: 'Event 1', slug: 'event-1', venue: 0, categories: [] },
      '2026-01-01 00:00:00',
    );
    const links = [linkOf('event', 1, withoutImage, 1)];
    // Unchanged here and there, but its picture was never sent: an update that shows the picture.
    const drift = plan([event(1, 1, { image: poster })], links, [withoutImage], { policy: 'ask' });
    expect(drift.operations).toEqual([
      expect.objectContaining({
        type: 'update',
        localId: 1,
        diff: [{ field: 'image', local: 'local-media:30', remote: null }],
      }),
    ]);
    // Once sent (the remote shows media 77, which the media link names): nothing to do.
    const withImage = { ...withoutImage, fields: { ...withoutImage.fields, image: 77 } };
    const sent = [linkOf('event', 1, withImage, 1)];
    const mediaLinks = [{ localId: 30, remoteId: 77, pendingFile: null }];
    expect(plan([event(1, 1, { image: poster })], sent, [withImage], { policy: 'ask', mediaLinks })).toEqual({
      operations: [],
      conflicts: [],
    });
    // A picture removed on the remote is a remote change: kept, not re-sent behind the user's back.
    const removedThere = { ...withoutImage, modifiedUtc: '2026-02-01 00:00:00' };
    expect(
      plan([event(1, 1, { image: poster })], sent, [removedThere], { policy: 'ask', mediaLinks }).operations,
    ).toEqual([]);
    // Removed here: an update whose diff says so.
    expect(
      plan([event(1, 2, { image: null })], sent, [withImage], { policy: 'ask', mediaLinks }).operations,
    ).toEqual([
      expect.objectContaining({ type: 'update', diff: [{ field: 'image', local: null, remote: 77 }] }),
    ]);
  });

  it('pictures by address: the same address on the remote is the same picture (twins adopt)', () => {
    const address = 'https://pictures.example.org/a.jpg';
    const local = event(1, 1, { image: { mediaId: 31, fileName: null, url: address } });
    const twin = {
      ...remoteOf('event', 9, { title: 'Event 1', slug: 'event-1', venue: 0, categories: [], image: 44 }),
      imageUrl: address,
    };
    expect(plan([local], [], [twin], { policy: 'ask' }).operations).toEqual([
      expect.objectContaining({ type: 'adopt', remoteId: 9, thenUpdate: false }),
    ]);
    const other = { ...twin, imageUrl: 'https://pictures.example.org/b.jpg' };
    expect(plan([local], [], [other], { policy: 'ask' }).conflicts[0]?.diff).toEqual([
      { field: 'image', local: address, remote: 44 },
    ]);
  });
});

describe('plan() two-way', () => {
  const before = remoteOf(
    'event',
    5,
    { title: 'Event 1', slug: 'event-1', description: 'Old', venue: 0, categories: [] },
    '2026-01-01 00:00:00',
  );
  const based = (pushedRevision: number): Link => ({
    ...linkOf('event', 1, before, pushedRevision),
    base: before.fields,
  });
  const changedThere = (fields: Record<string, unknown>): RemoteRecord => ({
    ...before,
    modifiedUtc: '2026-02-01 00:00:00',
    fields: { ...before.fields, ...fields },
  });
  const changedHere = (fields: Record<string, unknown>) =>
    event(1, 2, { fields: { title: 'Event 1', slug: 'event-1', description: 'Old', ...fields } });

  it('merges different fields changed on each side into one operation', () => {
    const planned = plan(
      [changedHere({ title: 'New title' })],
      [based(1)],
      [changedThere({ description: 'New' })],
      {
        policy: 'ask',
        direction: 'both',
      },
    );
    expect(planned.conflicts).toEqual([]);
    expect(planned.operations).toEqual([
      expect.objectContaining({
        type: 'merge',
        toLocal: ['description'],
        toRemote: ['title'],
        localPending: false,
      }),
    ]);
  });

  it('the same field changed differently is a conflict with three values, settled field-wise by the policy', () => {
    const local = [changedHere({ title: 'Here' })];
    const remote = [changedThere({ title: 'There', description: 'New' })];
    const asked = plan(local, [based(1)], remote, { policy: 'ask', direction: 'both' });
    expect(asked.operations).toEqual([]);
    expect(asked.conflicts[0]?.diff).toEqual([
      { field: 'title', base: 'Event 1', local: 'Here', remote: 'There' },
    ]);
    const remoteWins = plan(local, [based(1)], remote, { policy: 'remote-wins', direction: 'both' });
    expect(remoteWins.operations).toEqual([
      expect.objectContaining({ type: 'merge', toLocal: ['description', 'title'], toRemote: [] }),
    ]);
    const localWins = plan(local, [based(1)], remote, { policy: 'local-wins', direction: 'both' });
    expect(localWins.operations).toEqual([
      expect.objectContaining({ type: 'merge', toLocal: ['description'], toRemote: ['title'] }),
    ]);
  });

  it('imports what is new there, trashes here what was deleted there, and pull-only sends nothing', () => {
    const fresh = remoteOf('event', 9, { title: 'New there', slug: 'new-there' });
    const planned = plan([event(1, 1), event(2, 1)], [based(1)], [fresh], {
      policy: 'ask',
      direction: 'both',
    });
    expect(types(planned.operations).sort()).toEqual(['create event 2', 'import event 0', 'trash event 1']);
    const pullOnly = plan([event(1, 1), event(2, 1)], [based(1)], [fresh], {
      policy: 'ask',
      direction: 'pull',
    });
    expect(types(pullOnly.operations).sort()).toEqual(['import event 0', 'trash event 1']);
    // Edited here, deleted there: a conflict listing the edit against its base.
    const edited = plan([changedHere({ title: 'Edited' })], [based(1)], [], {
      policy: 'ask',
      direction: 'both',
    });
    expect(edited.conflicts).toEqual([
      expect.objectContaining({
        reason: 'remote-deleted',
        remoteId: 5,
        diff: [{ field: 'title', base: 'Event 1', local: 'Edited', remote: null }],
      }),
    ]);
  });

  it('a record with the same uid is the same record: never imported again, whatever its slug', () => {
    const there = { ...remoteOf('event', 9, { title: 'Event 3 (there)', slug: 'elsewhere' }), uid: 'abc' };
    const mine = event(3, 1, { send: { uid: 'abc' } });
    const planned = plan([mine], [], [there], { policy: 'ask', direction: 'both' });
    expect(planned.operations).toEqual([]);
    expect(planned.conflicts).toEqual([
      expect.objectContaining({ reason: 'both-exist', localId: 3, remoteId: 9 }),
    ]);
    const same = { ...there, fields: { title: 'Event 3', slug: 'event-3', venue: 0, categories: [] } };
    expect(types(plan([mine], [], [same], { policy: 'ask', direction: 'both' }).operations)).toEqual([
      'adopt event 3',
    ]);
  });

  it('takes nothing from the remote for a password-protected event (WordPress shows it with its texts hidden)', () => {
    const hidden = [changedThere({ description: '' })];
    const mine = {
      ...event(1, 1, { fields: { title: 'Event 1', slug: 'event-1', description: 'Old' } }),
      password: 'pw',
    };
    expect(plan([mine], [based(1)], hidden, { policy: 'ask', direction: 'both' }).operations).toEqual([]);
    const sentProtected = () => true;
    expect(
      plan(
        [changedHere({})].map((record) => ({ ...record, revision: 1 })),
        [based(1)],
        hidden,
        {
          policy: 'ask',
          direction: 'both',
          sentProtected,
        },
      ).operations,
    ).toEqual([]);
    // Without a password the same answer is the remote's edit, merged here.
    const open = { ...changedHere({}), revision: 1 };
    expect(types(plan([open], [based(1)], hidden, { policy: 'ask', direction: 'both' }).operations)).toEqual([
      'merge event 1',
    ]);
  });
});
