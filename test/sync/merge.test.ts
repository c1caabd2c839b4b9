import { describe, expect, it } from 'vitest';
import { mergeFields } from '../../src/main/sync/merge';

const base = { title: 'Picnic', description: 'Bring food', start_date: '2026-06-01 10:00:00', tags: [3, 4] };

describe('three-way merge of one record', () => {
  it('a field changed on one side only takes that change; different fields on both sides merge', () => {
    const local = { ...base, title: 'Picnic in the park' };
    const remote = { ...base, start_date: '2026-06-02 10:00:00' };
    expect(mergeFields(base, local, remote)).toEqual({
      toLocal: ['start_date'],
      toRemote: ['title'],
      conflicts: [],
    });
  });

  it('the same field changed differently on both sides is a conflict with the three values', () => {
    const local = { ...base, title: 'Picnic (local)' };
    const remote = { ...base, title: 'Picnic (remote)', description: 'Bring drinks' };
    expect(mergeFields(base, local, remote)).toEqual({
      toLocal: ['description'],
      toRemote: [],
      conflicts: [{ field: 'title', base: 'Picnic', local: 'Picnic (local)', remote: 'Picnic (remote)' }],
    });
  });

  it('the same change on both sides, or a change of representation only, is no change', () => {
    const local = { ...base, title: 'Rock & Roll', tags: [4, 3] };
    const remote = { ...base, title: 'Rock &amp; Roll', description: '<p>Bring food</p>\n' };
    expect(mergeFields(base, local, remote)).toEqual({ toLocal: [], toRemote: [], conflicts: [] });
  });

  it('a value the remote leaves out (empty) against a base that had one is a change there', () => {
    const local = { ...base };
    const remote: Record<string, unknown> = { title: 'Picnic', start_date: base.start_date, tags: [3, 4] };
    expect(mergeFields(base, local, remote).toLocal).toEqual(['description']);
  });

  it('no base value for a field (a field new since the last sync): a difference is a conflict', () => {
    const local = { ...base, excerpt: 'Mine' };
    const remote = { ...base, excerpt: 'Theirs' };
    expect(mergeFields(base, local, remote).conflicts).toEqual([
      { field: 'excerpt', base: null, local: 'Mine', remote: 'Theirs' },
    ]);
  });
});
