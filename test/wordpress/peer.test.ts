import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeWithPeer,
  PEER_START_TIMEOUT_MS,
  startWordPressPeer,
  type WordPressPeer,
} from '../helpers/wordpressPeer';

describeWithPeer('the real WordPress + The Events Calendar site used as the remote', () => {
  let peer: WordPressPeer;
  beforeAll(async () => {
    peer = await startWordPressPeer();
  }, PEER_START_TIMEOUT_MS);
  afterAll(async () => {
    await peer?.stop();
  });

  it('serves the plugin namespace and takes the administrator application password', async () => {
    const index = await peer.api('', { auth: null });
    expect(index.status).toBe(200);
    expect(index.body.namespaces).toContain('tribe/events/v1');
    const me = await peer.api('wp/v2/users/me?context=edit');
    expect(me.status).toBe(200);
    expect(me.body.roles).toEqual(['administrator']);
  });

  it('creates users of other roles that can sign in with their own application password', async () => {
    const author = await peer.createUser('author1', 'author');
    const me = await peer.api('wp/v2/users/me?context=edit', { auth: author.auth });
    expect(me.status).toBe(200);
    expect(me.body.roles).toEqual(['author']);
    const anonymous = await peer.api('wp/v2/users/me', { auth: null });
    expect(anonymous.status).toBe(401);
  });
});
