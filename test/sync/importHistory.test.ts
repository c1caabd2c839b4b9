import { afterEach, describe, expect, it } from 'vitest';
import { importFile } from '../../src/main/sync/exchange/importFile';
import { importHistoryOf } from '../../src/main/sync/exchange/importHistory';
import { undoImport } from '../../src/main/sync/exchange/importUndo';
import { trashedPost } from '../../src/main/core/posts';
import { folderOwner } from '../../src/main/core/users';
import { freshStores } from './freshStores';

const stores = freshStores();
afterEach(() => stores.closeAll());

const CSV = 'Event Name,Event Start Date,Event Start Time\nPicnic,2027-05-01,12:00\nChoir,2027-05-02,19:30\n';

describe('more writes in the same import (alsoWrite, for an address refresh)', () => {
  it('are in its rows, its history counts and its undo', async () => {
    const store = await stores.open();
    const now = new Date();
    await importFile(store, 'first.csv', CSV, now, folderOwner(store));
    const choir = [...store.events.values()].find((event) => event.title === 'Choir')!;
    const refreshed = await importFile(
      store,
      'feed.csv',
      CSV.replace(/\nChoir.*\n/, '\n'),
      now,
      folderOwner(store),
      {
        sourceId: 'source-1',
        alsoWrite: ({ tx }) => {
          // What left the source goes to the trash, in the import's own store change.
          tx.putEvent(trashedPost(store, store.events.get(choir.id)!, now));
          return [
            { line: 0, kind: 'events', title: 'Choir', action: 'trash', reason: 'no longer in the source' },
          ];
        },
      },
    );
    expect(refreshed.rows).toEqual([
      { line: 2, kind: 'events', title: 'Picnic', action: 'unchanged' },
      { line: 0, kind: 'events', title: 'Choir', action: 'trash', reason: 'no longer in the source' },
    ]);
    expect(store.events.get(choir.id)?.status).toBe('trash');
    expect(importHistoryOf(store).list()[0]).toMatchObject({
      id: refreshed.import_id,
      source_id: 'source-1',
      created: 0,
      updated: 0,
      trashed: 1,
    });
    const undone = await undoImport(store, refreshed.import_id!, now);
    expect(undone).toEqual({ restored: 1, trashed: 0, kept: [] });
    expect(store.events.get(choir.id)?.status).toBe('publish');
    expect(store.events.get(choir.id)?.slug).toBe(choir.slug);
  });
});
