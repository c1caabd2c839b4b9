import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventBody, startTestServer, type TestServer } from '../helpers/server';
import { runSync } from '../../src/main/sync/sync';
import { startOriginalPlugin, type OriginalPlugin } from './fixtures/originalPlugin';
import { folderOwner } from '../../src/main/core/users';

/** A real 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * What the real WordPress site of test/wordpress/ cannot show here, against a stand-in built from the recorded
 * exchanges. The proof that sync works with The Events Calendar is test/wordpress/ (the real site); these stay:
 * - a picture given by its web address: the real site on loopback refuses to download from local addresses, and
 *   the tests reach no other;
 * - a site without WordPress' media library (the real site always has wp/v2/media);
 * - the account checks (contributor, wrong password), until the real-site tests of those (another branch) land.
 */
describe('sync to a stand-in of the original plugin: what the real site cannot show', () => {
  let local: TestServer;
  let site: OriginalPlugin;
  beforeEach(async () => {
    local = await startTestServer();
    site = await startOriginalPlugin();
  });
  afterEach(async () => {
    await local.close();
    await site.close();
  });

  const sync = (policy: 'ask' | 'local-wins' = 'ask') =>
    runSync({
      store: local.engine.store,
      caller: folderOwner(local.engine.store),
      policy,
      remote: {
        root: site.root,
        namespace: 'tribe/events/v1',
        auth: { user: site.user, password: site.password },
        backoffMs: 1,
      },
    });
  const live = (collection: string) =>
    site.records.get(collection)!.filter((record) => record.status !== 'trash');

  it('a picture given by its address is sent as is; the site keeps its own copy, and that is no change', async () => {
    const address = 'https://pictures.example.org/fair.jpg';
    await local.api('events', {
      method: 'POST',
      auth: local.admin,
      json: eventBody('Fair', 4, { image: address }),
    });
    const first = await sync();
    expect(first.failures).toEqual([]);
    expect(first.summary).toMatchObject({ created: 1, uploaded: 0, failed: 0 });
    // The address was downloaded by the site: its picture has the site's own address now.
    const [fair] = live('events');
    expect(fair!.image).toMatchObject({ id: site.attachments.find((item) => item.from === address)!.id });
    // Nothing to do again, although the site shows the picture under another URL.
    expect((await sync()).operations).toEqual([]);
  });

  it('a site without the media library: a record with an uploaded picture fails with what to do, the others go on', async () => {
    await site.close();
    site = await startOriginalPlugin({ media: false });
    const uploaded = await fetch(`${local.engine.apiRoot}calendar-desk/v1/media`, {
      method: 'POST',
      headers: { ...local.admin, 'Content-Type': 'image/png' },
      body: PNG,
    });
    const poster = ((await uploaded.json()) as { id: number }).id;
    await local.api('events', {
      method: 'POST',
      auth: local.admin,
      json: eventBody('Concert', 3, { image: poster }),
    });
    await local.api('events', { method: 'POST', auth: local.admin, json: eventBody('Fair', 4) });
    const report = await sync();
    expect(report.summary).toMatchObject({ created: 1, failed: 1, uploaded: 0 });
    expect(report.failures).toEqual([
      expect.objectContaining({
        title: 'Concert',
        code: 'REMOTE_NO_MEDIA_UPLOAD',
        message: expect.stringMatching(/no picture upload.*web address instead/),
      }),
    ]);
    expect(live('events').map((event) => event.title)).toEqual(['Fair']);
  });

  it('a site without wp/v2 cannot take a password: a protected event is not sent (it would be public), the others go on', async () => {
    await site.close();
    site = await startOriginalPlugin({ media: false });
    await local.api('events', {
      method: 'POST',
      auth: local.admin,
      json: eventBody('Members only', 3, { post_password: 'letmein' }),
    });
    await local.api('events', { method: 'POST', auth: local.admin, json: eventBody('Fair', 4) });
    const report = await sync();
    expect(report.summary).toMatchObject({ created: 1, failed: 1 });
    expect(report.failures).toEqual([
      expect.objectContaining({
        title: 'Members only',
        code: 'SYNC_PASSWORD_UNSUPPORTED',
        message: expect.stringMatching(/password-protected.*not sent: it would have been public there/),
      }),
    ]);
    expect(live('events').map((event) => event.title)).toEqual(['Fair']);
  });

  it('a contributor account is refused before anything is sent (its events would stay drafts)', async () => {
    const contributorSite = await startOriginalPlugin({ role: 'contributor' });
    try {
      await expect(
        runSync({
          store: local.engine.store,
          caller: folderOwner(local.engine.store),
          policy: 'ask',
          remote: {
            root: contributorSite.root,
            namespace: 'tribe/events/v1',
            auth: { user: contributorSite.user, password: contributorSite.password },
          },
        }),
      ).rejects.toMatchObject({
        code: 'REMOTE_INSUFFICIENT_ROLE',
        message: expect.stringMatching(/contributor/),
      });
    } finally {
      await contributorSite.close();
    }
  });

  it('wrong application password: stopped at once with the reason', async () => {
    await expect(
      runSync({
        store: local.engine.store,
        caller: folderOwner(local.engine.store),
        policy: 'ask',
        remote: {
          root: site.root,
          namespace: 'tribe/events/v1',
          auth: { user: 'admin', password: 'nope nope' },
        },
      }),
    ).rejects.toMatchObject({ code: 'REMOTE_BAD_CREDENTIALS' });
  });
});
