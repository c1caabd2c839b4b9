import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeWithPeer,
  PEER_START_TIMEOUT_MS,
  startWordPressPeer,
  type WordPressPeer,
} from '../helpers/wordpressPeer';
import { eventBody, startTestServer, type TestServer } from '../helpers/server';
import { startProxy } from '../helpers/proxy';
import { runSync } from '../../src/main/sync/sync';
import type { ConflictPolicy } from '../../src/main/sync/model';
import { folderOwner } from '../../src/main/core/users';

type Account = { user: string; password: string };

describeWithPeer('password-protected events published to the real WordPress site', () => {
  let peer: WordPressPeer;
  let local: TestServer;
  let editor: Account;
  let author: Account;
  beforeAll(async () => {
    [peer, local] = await Promise.all([startWordPressPeer(), startTestServer()]);
    editor = await peer.createUser('edna', 'editor');
    author = await peer.createUser('arthur', 'author');
  }, PEER_START_TIMEOUT_MS);
  afterAll(async () => {
    await local?.close();
    await peer?.stop();
  });

  const sync = (account: Account, root = peer.root, policy: ConflictPolicy = 'ask') =>
    runSync({
      store: local.engine.store,
      caller: folderOwner(local.engine.store),
      policy,
      remote: { root, namespace: 'tribe/events/v1', auth: account, backoffMs: 50 },
    });
  const addEvent = async (title: string, extra: Record<string, unknown>) => {
    const answer = await local.api('events', {
      method: 'POST',
      auth: local.admin,
      json: eventBody(title, 5, { description: `<p>About ${title}</p>`, excerpt: 'Short', ...extra }),
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.id as number;
  };
  /** The site's own view: WordPress core's edit context (password, status) of the event of that title. */
  const onSite = async (title: string) => {
    const found = await peer.api(
      `wp/v2/tribe_events?context=edit&status=any&search=${encodeURIComponent(title)}&_fields=id,title,status,password`,
    );
    const matches = found.body.filter((post: { title: { raw: string } }) => post.title.raw === title);
    expect(matches, `exactly one "${title}" on the site`).toHaveLength(1);
    return matches[0] as { id: number; status: string; password: string };
  };
  /** What an anonymous visitor gets from the plugin's API. */
  const anonymous = (id: number, password?: string) =>
    peer.api(`tribe/events/v1/events/${id}${password ? `?password=${password}` : ''}`, { auth: null });

  it('an administrator publishes them with their password, created as drafts so they are never open', async () => {
    await addEvent("Members' evening", { post_password: 'letmein' });
    await addEvent('Board meeting', { post_password: 'board', status: 'draft' });
    await addEvent('Open day', {});
    const proxy = await startProxy(peer.site);
    const report = await sync(peer.admin, proxy.root);
    expect(report.failures).toEqual([]);
    expect(report.summary).toMatchObject({ created: 3, failed: 0 });

    const members = await onSite("Members' evening");
    expect(members).toMatchObject({ status: 'publish', password: 'letmein' });
    const closed = await anonymous(members.id);
    expect(closed.status).toBe(403);
    expect(closed.body.code).toBe('event-password-protected');
    const withPassword = await anonymous(members.id, 'letmein');
    expect(withPassword.status).toBe(200);
    expect(withPassword.body.description).toContain('About Members');
    const list = await peer.api('tribe/events/v1/events?per_page=50', { auth: null });
    const listed = list.body.events.find((event: { id: number }) => event.id === members.id);
    expect(listed.description).toBe('');

    expect(await onSite('Board meeting')).toMatchObject({ status: 'draft', password: 'board' });
    const open = await onSite('Open day');
    expect(open).toMatchObject({ status: 'publish', password: '' });
    expect((await anonymous(open.id)).body.description).toContain('About Open day');

    // On the wire: the plugin got a draft, WordPress core then the password and the status in one request.
    const creates = proxy.seen.filter(
      (seen) => seen.method === 'POST' && /tribe\/events\/v1\/events$/.test(seen.url),
    );
    const membersCreate = creates
      .map((seen) => JSON.parse(seen.body))
      .find((body) => body.title === "Members' evening");
    expect(membersCreate.status).toBe('draft');
    expect(membersCreate).not.toHaveProperty('password');
    const protect = proxy.seen.filter((seen) => seen.url.includes(`wp/v2/tribe_events/${members.id}`));
    expect(protect.map((seen) => JSON.parse(seen.body))).toEqual([
      { password: 'letmein', status: 'publish' },
    ]);

    // A second sync to the same address sends nothing and leaves them protected.
    const again = await sync(peer.admin, proxy.root);
    await proxy.close();
    expect(again.operations.filter((operation) => operation.type !== 'accept')).toEqual([]);
    expect((await anonymous(members.id)).status).toBe(403);
  }, 120_000);

  it('an editor publishes them with their password; a password removed here is removed there', async () => {
    const id = await addEvent('Choir rehearsal', { post_password: 'sing' });
    const report = await sync(editor);
    expect(report.failures).toEqual([]);
    const choir = await onSite('Choir rehearsal');
    expect(choir).toMatchObject({ status: 'publish', password: 'sing' });
    expect((await anonymous(choir.id)).status).toBe(403);

    await local.api(`events/${id}`, { method: 'POST', auth: local.admin, json: { post_password: '' } });
    // The plugin's list blanks a protected event's description: that reads as a change on the site.
    const opened = await sync(editor, peer.root, 'local-wins');
    expect(opened.failures).toEqual([]);
    expect(await onSite('Choir rehearsal')).toMatchObject({ status: 'publish', password: '' });
    expect((await anonymous(choir.id)).status).toBe(200);
  }, 120_000);

  it('an author may protect its own events; one it may not change is refused with the reason and left as it was', async () => {
    await addEvent('Poetry night', { post_password: 'verse' });
    const own = await sync(author);
    expect(own.failures).toEqual([]);
    const poetry = await onSite('Poetry night');
    expect(poetry).toMatchObject({ status: 'publish', password: 'verse' });
    expect((await anonymous(poetry.id)).status).toBe(403);

    // "Open day" was published by the administrator: the author may not change it.
    const openDay = [...local.engine.store.events.values()].find((event) => event.title === 'Open day')!;
    await local.api(`events/${openDay.id}`, {
      method: 'POST',
      auth: local.admin,
      json: { post_password: 'late' },
    });
    const refused = await sync(author);
    expect(refused.failures).toEqual([
      expect.objectContaining({
        title: 'Open day',
        code: 'rest_cannot_edit',
        message: expect.stringMatching(
          /^The site did not let this account set the event's password \(Sorry, you are not allowed to edit this post\.\): only editors and administrators may change any event there, authors only their own\. Sync with an editor or administrator account\. Nothing of it was changed on the site/,
        ),
      }),
    ]);
    expect(await onSite('Open day')).toMatchObject({ status: 'publish', password: '' });
  }, 120_000);
});
