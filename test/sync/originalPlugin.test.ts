import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventBody, startTestServer, type TestServer } from '../helpers/server';
import { runSync } from '../../src/main/sync/sync';
import { startOriginalPlugin, type OriginalPlugin } from './fixtures/originalPlugin';

/** A real 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe('sync to a WordPress site running the original plugin', () => {
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

  it('pushes past and future events over several pages, and a second push finds everything in place', async () => {
    // 55 events: more than one page of 50; half in the past, which the default date window would hide.
    for (let index = 0; index < 55; index++) {
      const answer = await local.api('events', {
        method: 'POST',
        auth: local.admin,
        json: eventBody(`Event ${index}`, index % 2 ? 10 + index : -30 - index, {
          description: `About event ${index}`,
          categories: ['Talks'],
          venue: index === 0 ? { venue: 'Hall' } : undefined,
        }),
      });
      expect(answer.status).toBe(201);
    }
    const first = await sync();
    expect(first.failures).toEqual([]);
    expect(first.summary).toMatchObject({ created: 57, failed: 0, conflicts: 0 });
    expect(live('events')).toHaveLength(55);
    // Descriptions come back wrapped in <p>: still the same content, so nothing to push again.
    expect(live('events')[0]!.description).toBe('<p>About event 0</p>');

    const second = await sync();
    expect(second.operations).toEqual([]);
    expect(second.conflicts).toEqual([]);
    expect(live('events')).toHaveLength(55);
    expect(live('venues')).toHaveLength(1);
    expect(live('categories')).toHaveLength(1);
  });

  it('a term that already exists under another slug is adopted (term_exists), not duplicated', async () => {
    site.seed('tags', { name: 'Free', slug: 'free-entry' });
    await local.api('tags', { method: 'POST', auth: local.admin, json: { name: 'Free' } });
    const report = await sync();
    expect(report.failures).toEqual([]);
    expect(report.summary).toMatchObject({ created: 0, adopted: 1 });
    expect(live('tags')).toHaveLength(1);
  });

  it('updates and deletions reach the site', async () => {
    const created = await local.api('events', {
      method: 'POST',
      auth: local.admin,
      json: eventBody('Talk', 4),
    });
    await sync();
    await local.api(`events/${created.body.id}`, {
      method: 'POST',
      auth: local.admin,
      json: { title: 'Long talk' },
    });
    expect((await sync()).summary).toMatchObject({ updated: 1, failed: 0 });
    expect(live('events').map((event) => event.title)).toEqual(['Long talk']);
    await local.api(`events/${created.body.id}`, { method: 'DELETE', auth: local.admin });
    expect((await sync()).summary).toMatchObject({ deleted: 1, failed: 0 });
    expect(live('events')).toEqual([]);
  });

  it('pictures: an upload goes to the media library once (a lost answer is found, not re-sent), an address is sent as is, a removed picture is dropped', async () => {
    await site.close();
    site = await startOriginalPlugin({ dropUploadAnswers: 1 });
    const uploaded = await fetch(`${local.engine.apiRoot}calendar-desk/v1/media`, {
      method: 'POST',
      headers: {
        ...local.admin,
        'Content-Type': 'image/png',
        'Content-Disposition': 'attachment; filename="poster.png"',
      },
      body: PNG,
    });
    const poster = ((await uploaded.json()) as { id: number }).id;
    const address = 'https://pictures.example.org/fair.jpg';
    const withFile = await local.api('events', {
      method: 'POST',
      auth: local.admin,
      json: eventBody('Concert', 3, { image: poster, venue: { venue: 'Hall', image: poster } }),
    });
    await local.api('events', {
      method: 'POST',
      auth: local.admin,
      json: eventBody('Fair', 4, { image: address }),
    });

    const first = await sync();
    expect(first.failures).toEqual([]);
    expect(first.summary).toMatchObject({ created: 3, uploaded: 1, failed: 0 });
    // The upload whose answer was cut was found in the media library: no second copy.
    expect(site.attachments.filter((item) => item.from === null)).toHaveLength(1);
    const [upload] = site.attachments.filter((item) => item.from === null);
    expect(upload!.bytes).toEqual(PNG);
    expect(upload!.type).toBe('image/png');
    const concert = live('events').find((event) => event.title === 'Concert')!;
    expect(concert.image).toMatchObject({ id: upload!.id });
    expect(live('venues')[0]!.image).toMatchObject({ id: upload!.id });
    const served = await fetch((concert.image as { url: string }).url);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
    // The address was downloaded by the site: its picture has the site's own address now.
    const fair = live('events').find((event) => event.title === 'Fair')!;
    expect(fair.image).toMatchObject({ id: site.attachments.find((item) => item.from === address)!.id });

    // Nothing to do again, although the site shows the address picture under another URL.
    const second = await sync();
    expect(second.operations).toEqual([]);

    // Removed here: the event is sent without `image` (the plugin refuses '' for events and removes a
    // picture that is not sent).
    await local.api(`events/${withFile.body.id}`, { method: 'POST', auth: local.admin, json: { image: '' } });
    const removed = await sync();
    expect(removed.summary).toMatchObject({ updated: 1, failed: 0 });
    expect(live('events').find((event) => event.title === 'Concert')!.image).toBe(false);
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

  it('a picture address the site cannot fetch: that record fails, naming the address and what to do', async () => {
    await local.api('events', {
      method: 'POST',
      auth: local.admin,
      json: eventBody('Concert', 3, { image: 'https://pictures.invalid/poster.jpg' }),
    });
    const report = await sync();
    expect(report.summary).toMatchObject({ created: 0, failed: 1 });
    expect(report.failures[0]!.message).toMatch(
      /refused its picture https:\/\/pictures\.invalid\/poster\.jpg .*must be able to fetch that address/,
    );
  });

  it('a contributor account is refused before anything is sent (its events would stay drafts)', async () => {
    const contributorSite = await startOriginalPlugin({ role: 'contributor' });
    try {
      await expect(
        runSync({
          store: local.engine.store,
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
