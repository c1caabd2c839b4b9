import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeWithPeer,
  PEER_START_TIMEOUT_MS,
  startWordPressPeer,
  type WordPressPeer,
} from '../helpers/wordpressPeer';
import { startSyncPair, type SyncPair } from '../sync/syncHelpers';

/**
 * "Add a site" on the Publish screen checks the address, the credentials and the events namespace at once
 * (POST calendar-desk/v1/remotes/check), against the real WordPress + The Events Calendar site and another
 * Calendar Desk, and says which field is wrong.
 */
describeWithPeer('checking a site before it is saved', () => {
  let peer: WordPressPeer;
  let pair: SyncPair;
  beforeAll(async () => {
    [peer, pair] = await Promise.all([startWordPressPeer(), startSyncPair()]);
  }, PEER_START_TIMEOUT_MS);
  afterAll(async () => {
    await Promise.all([peer?.stop(), pair?.close()]);
  });

  const check = (json: Record<string, unknown>) =>
    pair.local.api(`${pair.local.engine.origin}/wp-json/calendar-desk/v1/remotes/check`, {
      method: 'POST',
      json,
      auth: pair.local.admin,
    });

  it('finds the REST root from the bare site address and picks The Events Calendar namespace', async () => {
    const siteAddress = peer.root.replace(/wp-json\/$/, '');
    const answer = await check({
      root: siteAddress,
      auth_type: 'password',
      user: peer.admin.user,
      secret: peer.admin.password,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ root: peer.root, namespace: 'tribe/events/v1', kind: 'wordpress' });
  });

  it('says the password is wrong, next to the password field', async () => {
    const answer = await check({
      root: peer.root,
      auth_type: 'password',
      user: peer.admin.user,
      secret: 'abcd efgh ijkl mnop qrst uvwx',
    });
    expect(answer.status).toBe(502);
    expect(answer.body.code).toBe('remote_bad_credentials');
    expect(answer.body.data.field).toBe('secret');
  });

  it('says a subscriber may not publish, next to the user field', async () => {
    const subscriber = await peer.createUser('reader', 'subscriber');
    const answer = await check({
      root: peer.root,
      auth_type: 'password',
      user: subscriber.user,
      secret: subscriber.password,
    });
    expect(answer.status).toBe(502);
    expect(answer.body.code).toBe('remote_insufficient_role');
    expect(answer.body.data.field).toBe('user');
  });

  it('recognises another Calendar Desk (cal/events/v1)', async () => {
    const answer = await check({
      root: pair.remote.engine.apiRoot,
      auth_type: 'token',
      secret: pair.remote.engine.adminToken,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ namespace: 'cal/events/v1', kind: 'calendar-desk' });
  });

  it('fails fast on an address where nothing answers, saying so in words', async () => {
    // A port that was free a moment ago: connections to it are refused.
    const closed = createServer();
    await new Promise<void>((listening) => closed.listen(0, '127.0.0.1', listening));
    const { port } = closed.address() as AddressInfo;
    await new Promise((done) => closed.close(done));
    const started = Date.now();
    const answer = await check({ root: `http://127.0.0.1:${port}/`, auth_type: 'none' });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(answer.status).toBe(502);
    expect(answer.body.code).toBe('remote_unreachable');
    expect(answer.body.data).toMatchObject({ field: 'root', network: 'ECONNREFUSED' });
    expect(answer.body.message).toContain('nothing answers at that address');
    expect(answer.body.message).not.toContain('ECONNREFUSED');
  });

  it('refuses a form without an address with the documented 400', async () => {
    const answer = await check({ auth_type: 'none' });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('rest_invalid_param');
    expect(Object.keys(answer.body.data.params)).toEqual(['root']);
  });
});
