import { afterAll, describe, expect, it } from 'vitest';
import { freshStores } from './freshStores';
import { LinkState, remoteKey } from '../../src/main/sync/linkState';
import type { Link } from '../../src/main/sync/model';

const stores = freshStores();
afterAll(() => stores.closeAll());

const ROOT = 'http://127.0.0.1:9/wp-json/';
const link = (localId: number, remoteId: number | null): Link => ({
  kind: 'venue',
  localId,
  remoteId,
  pushedRevision: 1,
  remoteModifiedUtc: null,
  remoteEtag: null,
  remoteHash: null,
});

describe('the local record of a remote record (what a pulled event refers to)', () => {
  it('follows the links as they are written, moved and removed, and as a new run reads them', async () => {
    const store = await stores.open();
    const key = remoteKey(ROOT, 'cal/events/v1');
    const links = new LinkState(store, key, ROOT, 'cal/events/v1');
    await links.put(link(1, 10));
    await links.put(link(2, 20));
    expect(links.localIdOf('venue', 10)).toBe(1);
    expect(links.localIdOf('organizer', 10)).toBeNull();

    // Venue 1 is now the copy of remote 11: remote 10 is nobody's any more.
    await links.put(link(1, 11));
    expect(links.localIdOf('venue', 10)).toBeNull();
    expect(links.localIdOf('venue', 11)).toBe(1);

    // A create whose outcome is unknown is linked to no remote record.
    await links.put(link(2, null));
    expect(links.localIdOf('venue', 20)).toBeNull();

    await links.remove('venue', 1);
    expect(links.localIdOf('venue', 11)).toBeNull();

    await links.put(link(3, 30));
    const reread = new LinkState(store, key, ROOT, 'cal/events/v1');
    expect(reread.localIdOf('venue', 30)).toBe(3);
    expect(reread.localIdOf('venue', 11)).toBeNull();
  });
});
