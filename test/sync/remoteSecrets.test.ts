import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSyncPair, type SyncPair } from './syncHelpers';
import { startProxy, type Proxy, type SeenRequest } from '../helpers/proxy';
import { REMOTES_KEY, savedRemotes } from '../../src/main/sync/remotes';
import { fileSecretBox } from '../../src/main/sync/secretBox';

/**
 * A saved remote's secret stays with its site (issue 26, item 6): the local Calendar Desk saves a remote with
 * the remote's admin token; "the other host" is a second real server (a proxy in front of the same real
 * Calendar Desk, so it answers like one) recording every Authorization header it receives.
 */
let pair: SyncPair;
let other: Proxy;
let token: string;
beforeEach(async () => {
  pair = await startSyncPair();
  other = await startProxy(pair.remote.engine.origin);
  token = pair.remote.engine.adminToken;
});
afterEach(async () => {
  await other.close();
  await pair.close();
});

async function admin(path: string, init: { method?: string; json?: unknown } = {}) {
  const { local } = pair;
  return local.api(`${local.engine.origin}/wp-json/calendar-desk/v1/${path}`, {
    method: init.method ?? 'GET',
    json: init.json,
    auth: local.admin,
  });
}

async function saveRemote(root: string) {
  const saved = await admin('remotes', {
    method: 'PUT',
    json: [{ name: 'Website', root, auth_type: 'token', secret: token }],
  });
  expect(saved.status).toBe(200);
  return saved.body[0];
}

/** What the other host was sent with credentials: nothing, ever. */
const withCredentials = (seen: SeenRequest[]) => seen.filter((request) => request.authorization);

describe('a saved remote’s secret stays with its site', () => {
  it('remotes/check with a saved id lends its secret only to the origin it was entered for', async () => {
    const remote = await saveRemote(pair.remote.engine.apiRoot);
    const foreign = await admin('remotes/check', {
      method: 'POST',
      json: { id: remote.id, root: other.root, auth_type: 'token' },
    });
    // The other host is not even asked: the check says the password must be entered for the new address.
    expect(foreign.status).toBe(409);
    expect(foreign.body).toMatchObject({ code: 'remote_secret_missing', data: { field: 'secret' } });
    expect(foreign.body.message).toContain('Enter the password for the new address');
    expect(other.seen).toEqual([]);
    // With a password typed for it, the other host gets that one, never the saved one.
    await admin('remotes/check', {
      method: 'POST',
      json: { id: remote.id, root: other.root, auth_type: 'token', secret: 'typed for the other host' },
    });
    const sent = other.seen.map((request) => request.authorization).filter(Boolean);
    expect(sent.length).toBeGreaterThan(0);
    expect(new Set(sent)).toEqual(new Set(['Bearer typed for the other host']));
    expect(JSON.stringify(other.seen)).not.toContain(token);

    // At its own origin the saved secret is still lent (the edit form checks without retyping it).
    const own = await admin('remotes/check', {
      method: 'POST',
      json: { id: remote.id, root: pair.remote.engine.origin, auth_type: 'token' },
    });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ root: pair.remote.engine.apiRoot, kind: 'calendar-desk' });
  });

  it('changing the address to another origin forgets the secret; plan and sync ask for it in plain words', async () => {
    const remote = await saveRemote(pair.remote.engine.apiRoot);
    // Another path on the same origin keeps it.
    const samePlace = await admin('remotes', {
      method: 'PUT',
      json: [{ ...remote, root: pair.remote.engine.apiRoot.replace(/\/$/, '') }],
    });
    expect(samePlace.body[0]).toMatchObject({ has_secret: true });

    const moved = await admin('remotes', { method: 'PUT', json: [{ ...remote, root: other.root }] });
    expect(moved.status).toBe(200);
    expect(moved.body[0]).toMatchObject({ root: other.root, has_secret: false });
    expect((await admin('remotes')).body[0]).toMatchObject({ has_secret: false });

    for (const action of ['plan', 'sync']) {
      const answer = await admin(`remotes/${remote.id}/${action}`, { method: 'POST', json: {} });
      expect(answer.status).toBe(409);
      expect(answer.body).toMatchObject({
        code: 'remote_secret_missing',
        data: { status: 409, field: 'secret' },
      });
      expect(answer.body.message).toContain('enter its token again');
    }
    expect(withCredentials(other.seen)).toEqual([]);

    // Forgotten, not hidden: moving back does not bring it back.
    const back = await admin('remotes', {
      method: 'PUT',
      json: [{ ...remote, root: pair.remote.engine.apiRoot }],
    });
    expect(back.body[0]).toMatchObject({ has_secret: false });
  });

  it('a remotes list edited by hand cannot send the sealed secret to another origin', async () => {
    const remote = await saveRemote(pair.remote.engine.apiRoot);
    const store = pair.local.engine.store;
    const edited = savedRemotes(store).map((saved) => ({
      ...saved,
      root: other.root,
      secretOrigin: new URL(other.root).origin,
    }));
    // What an edit of the data file would leave: the sealed secret beside another address and origin.
    await store.mutate((tx) => tx.setSyncState(REMOTES_KEY, edited));
    const planned = await admin(`remotes/${remote.id}/plan`, { method: 'POST', json: {} });
    expect(planned.status).toBe(409);
    expect(planned.body.code).toBe('remote_secret_missing');
    const checked = await admin('remotes/check', {
      method: 'POST',
      json: { id: remote.id, root: other.root, auth_type: 'token' },
    });
    expect(checked.status).toBe(409);
    expect(withCredentials(other.seen)).toEqual([]);
  });

  it('a secret saved before secrets were bound stays with the address it was saved with', async () => {
    const store = pair.local.engine.store;
    // As an older version saved it: the bare secret sealed, no origin beside it.
    const older = {
      id: 'older',
      name: 'Website',
      root: pair.remote.engine.apiRoot,
      namespace: 'cal/events/v1',
      authType: 'token',
      user: '',
      secret: fileSecretBox(pair.local.dataDir).encrypt(token),
    };
    await store.mutate((tx) => tx.setSyncState(REMOTES_KEY, [older]));
    expect((await admin('remotes')).body[0]).toMatchObject({ has_secret: true });
    expect((await admin('remotes/older/plan', { method: 'POST', json: {} })).status).toBe(200);
    const moved = await admin('remotes', {
      method: 'PUT',
      json: [{ id: 'older', root: other.root, auth_type: 'token' }],
    });
    expect(moved.body[0]).toMatchObject({ has_secret: false });
    expect((await admin('remotes/older/plan', { method: 'POST', json: {} })).status).toBe(409);
    expect(withCredentials(other.seen)).toEqual([]);
  });

  it('an address with a user and password in it is refused in words, never fetched nor echoed', async () => {
    const { origin } = pair.remote.engine;
    const withUser = pair.remote.engine.apiRoot.replace('http://', 'http://volunteer:s3cret-pw@');
    // Another site's name before @ makes the address look like that site's.
    const lookalike = pair.remote.engine.apiRoot.replace('http://', 'http://calendar.example.org@');
    const proxied = other.root.replace('http://', 'http://volunteer:s3cret-pw@');
    for (const root of [withUser, lookalike, proxied]) {
      const answers = [
        await admin('remotes', {
          method: 'PUT',
          json: [{ name: 'Website', root, auth_type: 'token', secret: token }],
        }),
        await admin('remotes/check', { method: 'POST', json: { root, auth_type: 'token', secret: token } }),
        await admin('sync-jobs', {
          method: 'POST',
          json: { remote: root, namespace: 'cal/events/v1', auth: { token } },
        }),
      ];
      for (const answer of answers) {
        expect(answer.status, JSON.stringify(answer.body)).toBe(400);
        expect(answer.body.code).toBe('rest_invalid_param');
        expect(JSON.stringify(answer.body)).toMatch(/holds a user name or password \(before @\)/);
        expect(JSON.stringify(answer.body)).not.toContain('s3cret-pw');
      }
    }
    expect((await admin('remotes')).body).toEqual([]);
    expect(other.seen).toEqual([]);
    // Spellings of one origin are that origin (the secret stays); any other host name is another (it goes).
    const remote = await saveRemote(pair.remote.engine.apiRoot);
    const port = new URL(origin).port;
    for (const [root, kept] of [
      [`http://127.0.0.1.:${port}/wp-json/`, true],
      [`HTTP://127.0.0.1:${port}/wp-json/`, true],
      [`http://127.1:${port}/wp-json/`, true],
      [`http://localhost:${port}/wp-json/`, false],
      [`http://127.0.0.1.nip.io:${port}/wp-json/`, false],
      [`http://xn--bcher-kva.example:${port}/wp-json/`, false],
    ] as const) {
      await saveRemote(pair.remote.engine.apiRoot);
      const saved = (await admin('remotes')).body[0];
      const moved = await admin('remotes', { method: 'PUT', json: [{ ...saved, root }] });
      expect(moved.status, root).toBe(200);
      expect(moved.body[0], root).toMatchObject({ has_secret: kept });
    }
    expect(remote.has_secret).toBe(true);
  });

  it('a redirect from the remote to another host never carries the credentials there', async () => {
    // The real remote, behind a proxy that sends the list of events to the other host.
    const redirecting = await startProxy(pair.remote.engine.origin, (request) =>
      request.method === 'GET' && request.url.startsWith('/wp-json/cal/events/v1/events?')
        ? { status: 307, headers: { Location: `${new URL(other.root).origin}${request.url}` } }
        : null,
    );
    try {
      const remote = await saveRemote(redirecting.root);
      const planned = await admin(`remotes/${remote.id}/plan`, { method: 'POST', json: {} });
      // The remote itself got the token; the other host got the redirected reads, without it.
      expect(redirecting.seen.some((request) => request.authorization === `Bearer ${token}`)).toBe(true);
      expect(other.seen.some((request) => request.url.startsWith('/wp-json/cal/events/v1/events?'))).toBe(
        true,
      );
      expect(withCredentials(other.seen)).toEqual([]);
      expect(planned.status).not.toBe(500);
    } finally {
      await redirecting.close();
    }
  });
});
