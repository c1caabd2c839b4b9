import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventBody, type TestServer } from '../helpers/server';
import { allOf, startSyncPair, type SyncPair } from './syncHelpers';

/** A real 1×1 PNG, and a GIF (only their first bytes are checked): two different pictures. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.from([1, 0, 1, 0, 0, 0, 0, 59])]);

let pair: SyncPair;
beforeEach(async () => {
  pair = await startSyncPair();
});
afterEach(async () => {
  await pair.close();
});

/** A picture from "this computer", uploaded into the local data folder as the desktop app does. */
async function upload(server: TestServer, bytes: Buffer, type: string, name: string): Promise<number> {
  const response = await fetch(`${server.engine.apiRoot}calendar-desk/v1/media`, {
    method: 'POST',
    headers: {
      ...server.admin,
      'Content-Type': type,
      'Content-Disposition': `attachment; filename="${name}"`,
    },
    body: bytes,
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

async function post(path: string, json: unknown) {
  const answer = await pair.local.api(path, { method: 'POST', auth: pair.local.admin, json });
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  return answer.body as { id: number };
}

/** The bytes a remote serves for a record's picture. */
async function servedBytes(image: unknown): Promise<Buffer> {
  const response = await fetch((image as { url: string }).url);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

const remoteFiles = async () => readdir(join(pair.remote.dataDir, 'media')).catch(() => [] as string[]);

describe('sync: pictures', () => {
  it('an uploaded picture is uploaded once and served by the remote with the same bytes; a re-sync uploads nothing', async () => {
    const poster = await upload(pair.local, PNG, 'image/png', 'Concert poster.png');
    const venue = await post('venues', { venue: 'Town hall', image: poster });
    await post('events', eventBody('Concert', 3, { venue: venue.id, image: poster }));

    const planned = await pair.sync({ dryRun: true });
    expect(planned.summary).toMatchObject({ created: 2, uploaded: 1 });
    const report = await pair.sync();
    expect(report.failures).toEqual([]);
    expect(report.summary).toMatchObject({ created: 2, uploaded: 1, failed: 0 });

    const [event] = await allOf(pair.remote, 'events');
    const [remoteVenue] = await allOf(pair.remote, 'venues');
    expect(event!.image).toMatchObject({ id: expect.any(Number), extension: 'png' });
    expect(await servedBytes(event!.image)).toEqual(PNG);
    // Venue and event show the one picture: one upload, one remote file.
    expect((remoteVenue!.image as { id: number }).id).toBe((event!.image as { id: number }).id);
    expect(await remoteFiles()).toHaveLength(1);

    const again = await pair.sync();
    expect(again.operations).toEqual([]);
    expect(again.summary.uploaded).toBe(0);
    expect(await remoteFiles()).toHaveLength(1);
  });

  it('a replaced picture is planned as an update with its diff, uploaded and linked; a removed one is removed', async () => {
    const first = await upload(pair.local, PNG, 'image/png', 'first.png');
    const event = await post('events', eventBody('Fair', 5, { image: first }));
    const organizer = await post('organizers', { organizer: 'Alice', image: first });
    await pair.sync();
    const before = (await allOf(pair.remote, 'events'))[0]!.image as { id: number };

    const second = await upload(pair.local, GIF, 'image/gif', 'second.gif');
    await post(`events/${event.id}`, { image: second });
    const planned = await pair.sync({ dryRun: true });
    expect(planned.operations).toEqual([
      expect.objectContaining({
        type: 'update',
        kind: 'event',
        diff: [{ field: 'image', local: `local-media:${second}`, remote: before.id }],
      }),
    ]);
    expect(planned.summary).toMatchObject({ updated: 1, uploaded: 1 });

    const replaced = await pair.sync();
    expect(replaced.summary).toMatchObject({ updated: 1, uploaded: 1, failed: 0 });
    const after = (await allOf(pair.remote, 'events'))[0]!.image as { id: number; extension: string };
    expect(after.id).not.toBe(before.id);
    expect(after.extension).toBe('gif');
    expect(await servedBytes(after)).toEqual(GIF);
    expect((await pair.sync()).operations).toEqual([]);

    // Removed here: removed there (an event and an organizer).
    await post(`events/${event.id}`, { image: '' });
    await post(`organizers/${organizer.id}`, { image: '' });
    const removedPlan = await pair.sync({ dryRun: true });
    expect(removedPlan.operations.map((operation) => operation.type === 'update' && operation.diff)).toEqual([
      [{ field: 'image', local: null, remote: before.id }],
      [{ field: 'image', local: null, remote: after.id }],
    ]);
    const removed = await pair.sync();
    expect(removed.summary).toMatchObject({ updated: 2, uploaded: 0, failed: 0 });
    expect((await allOf(pair.remote, 'events'))[0]!.image).toBe(false);
    expect((await allOf(pair.remote, 'organizers'))[0]!.image).toBeUndefined();
    expect((await pair.sync()).operations).toEqual([]);
  });

  it('a picture whose remote copy is gone is uploaded again (the remote refuses the old id)', async () => {
    const poster = await upload(pair.local, PNG, 'image/png', 'poster.png');
    const event = await post('events', eventBody('Show', 4, { image: poster }));
    await pair.sync();
    // As if the picture was deleted on the remote: the link names a media id the remote does not have.
    const store = pair.local.engine.store;
    for (const key of store.syncKeys('media:')) {
      await store.mutate((tx) =>
        tx.setSyncState(key, { localId: poster, remoteId: 999_999, pendingFile: null }),
      );
    }
    await post(`events/${event.id}`, { title: 'Show (new date)' });
    const report = await pair.sync();
    expect(report.failures).toEqual([]);
    expect(report.summary).toMatchObject({ updated: 1, uploaded: 1 });
    const [remoteEvent] = await allOf(pair.remote, 'events');
    expect(remoteEvent!.image).not.toBe(false);
    expect(await servedBytes(remoteEvent!.image)).toEqual(PNG);
    expect((await pair.sync()).operations).toEqual([]);
  });

  it('events sent at the same time that share a picture share its one upload', async () => {
    const poster = await upload(pair.local, PNG, 'image/png', 'Season poster.png');
    for (const title of ['One', 'Two', 'Three', 'Four', 'Five'])
      await post('events', eventBody(title, 3, { image: poster }));
    const report = await pair.sync();
    expect(report.failures).toEqual([]);
    expect(report.summary).toMatchObject({ created: 5, uploaded: 1, failed: 0 });
    expect(await remoteFiles()).toHaveLength(1);
    const ids = new Set(
      (await allOf(pair.remote, 'events')).map((event) => (event.image as { id: number }).id),
    );
    expect(ids.size).toBe(1);
  });

  it('a picture file that is gone, or a name that is not a stored picture, fails that record only; nothing else is read', async () => {
    const gone = await upload(pair.local, PNG, 'image/png', 'gone.png');
    await post('events', eventBody('Gone', 2, { image: gone }));
    const store = pair.local.engine.store;
    await rm(join(pair.local.dataDir, 'media', store.media.get(gone)!.fileName!));
    const strange = await upload(pair.local, PNG, 'image/png', 'strange.png');
    await store.mutate((tx) => tx.putMedia({ ...store.media.get(strange)!, fileName: '../calendar.json' }));
    await post('events', eventBody('Strange', 3, { image: strange }));
    await post('events', eventBody('Plain', 4));

    const report = await pair.sync();
    expect(report.summary).toMatchObject({ created: 1, failed: 2, uploaded: 0 });
    expect(report.failures).toEqual([
      expect.objectContaining({
        title: 'Gone',
        code: 'SYNC_PICTURE_MISSING',
        message: expect.stringMatching(/cannot be read .*choose the picture again/),
      }),
      expect.objectContaining({
        title: 'Strange',
        code: 'SYNC_PICTURE_MISSING',
        message: expect.stringMatching(/not one this app stores/),
      }),
    ]);
    expect(await remoteFiles()).toEqual([]);
  });

  it('a picture given by its web address is sent as that address, uploads nothing, and round-trips', async () => {
    const address = 'https://pictures.example.org/summer/poster.jpg';
    const event = await post('events', eventBody('Open air', 9, { image: address }));
    const report = await pair.sync();
    expect(report.summary).toMatchObject({ created: 1, uploaded: 0, failed: 0 });
    expect((await allOf(pair.remote, 'events'))[0]!.image).toMatchObject({ url: address, extension: 'jpg' });
    expect(await remoteFiles()).toEqual([]);
    expect((await pair.sync()).operations).toEqual([]);

    const other = 'https://pictures.example.org/summer/poster-2.webp';
    await post(`events/${event.id}`, { image: other });
    expect((await pair.sync()).summary).toMatchObject({ updated: 1, failed: 0 });
    expect((await allOf(pair.remote, 'events'))[0]!.image).toMatchObject({ url: other });
    expect((await pair.sync()).operations).toEqual([]);
  });

  it('remote-wins gives the local record the remote picture (a removed one is removed here too)', async () => {
    const poster = await upload(pair.local, PNG, 'image/png', 'poster.png');
    const event = await post('events', eventBody('Talk', 2, { image: poster }));
    await pair.sync();
    // Both sides change the event; the remote also drops the picture.
    const [remoteEvent] = await allOf(pair.remote, 'events');
    const edited = await pair.remote.api(`events/${remoteEvent!.id}`, {
      method: 'POST',
      auth: pair.remote.admin,
      json: { title: 'Talk (moved)', image: '' },
    });
    expect(edited.status).toBe(200);
    await post(`events/${event.id}`, { title: 'Talk!' });

    // Push-only: the record is one whole-record conflict (two-way would merge the picture's removal).
    const asked = await pair.sync({ direction: 'push' });
    expect(asked.conflicts[0]!.diff).toEqual(
      expect.arrayContaining([
        { field: 'image', local: (remoteEvent!.image as { id: number }).id, remote: null },
      ]),
    );
    const pulled = await pair.sync({ direction: 'push', policy: 'remote-wins' });
    expect(pulled.summary).toMatchObject({ pulled: 1, failed: 0 });
    const local = await pair.local.api(`events/${event.id}`, { auth: pair.local.admin });
    expect(local.body).toMatchObject({ title: 'Talk (moved)', image: false });
    expect((await pair.sync()).operations).toEqual([]);
  });
});
