import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, startTestServer, type TestServer } from '../helpers/server';

/** CONTRACT §2: every record of the five kinds has a `uid`, a UUID, read-only, stable. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const FOREIGN = '0f8fad5b-d9cb-469f-a165-70867728950e';

let dataDir: string;
let server: TestServer;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'calendar-desk-uids-'));
  server = await startTestServer({ dataDir });
});
afterAll(async () => {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Creates one record of each kind (the event with its own venue, organizer, category and tag). */
async function createAll() {
  const auth = server.admin;
  const event = await server.api('events', {
    method: 'POST',
    auth,
    json: eventBody('Choir rehearsal', 3, {
      venue: { venue: 'Parish hall', city: 'Rome' },
      organizer: { organizer: 'The choir', email: 'choir@example.test' },
      categories: ['Music'],
      tags: ['weekly'],
    }),
  });
  expect(event.status).toBe(201);
  return event.body;
}

describe('record uids through the API', () => {
  it('gives every new record its own UUID, shown wherever the record is', async () => {
    const event = await createAll();
    const uids = [
      event.uid,
      event.venue.uid,
      event.organizer[0].uid,
      event.categories[0].uid,
      event.tags[0].uid,
    ];
    for (const uid of uids) expect(uid).toMatch(UUID);
    expect(new Set(uids).size).toBe(5);

    // The same uid on each kind's own route as embedded in the event.
    expect((await server.api(`events/${event.id}`)).body.uid).toBe(event.uid);
    expect((await server.api(`venues/${event.venue.id}`)).body.uid).toBe(event.venue.uid);
    expect((await server.api(`organizers/${event.organizer[0].id}`)).body.uid).toBe(event.organizer[0].uid);
    expect((await server.api(`categories/${event.categories[0].id}`)).body.uid).toBe(event.categories[0].uid);
    expect((await server.api(`tags/${event.tags[0].id}`)).body.uid).toBe(event.tags[0].uid);

    // A second event is a different record.
    const other = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: eventBody('Other', 4),
    });
    expect(other.body.uid).toMatch(UUID);
    expect(other.body.uid).not.toBe(event.uid);
  });

  it('keeps the uid through updates, a uid sent by the client included, and across a restart', async () => {
    const event = await createAll();
    const updates: Array<[string, Record<string, unknown>]> = [
      [`events/${event.id}`, { title: 'Renamed', uid: FOREIGN }],
      [`venues/${event.venue.id}`, { city: 'Milan', uid: FOREIGN }],
      [`organizers/${event.organizer[0].id}`, { phone: '123', uid: FOREIGN }],
      [`categories/${event.categories[0].id}`, { description: 'Songs', uid: FOREIGN }],
      [`tags/${event.tags[0].id}`, { description: 'Every week', uid: FOREIGN }],
    ];
    const before: string[] = [];
    for (const [path, json] of updates) {
      before.push((await server.api(path)).body.uid);
      const updated = await server.api(path, { method: 'POST', auth: server.admin, json });
      expect(updated.status, path).toBe(200);
      expect(updated.body.uid, path).toBe(before.at(-1));
    }

    await server.close();
    server = await startTestServer({ dataDir });
    for (const [index, [path]] of updates.entries()) {
      expect((await server.api(path)).body.uid, path).toBe(before[index]);
    }
  });

  it('takes the uid of a new event from an administrator only (the sync from another Calendar Desk)', async () => {
    const editor = await server.userHeaders('uid-editor', 'editor');
    const ignored = await server.api('events', {
      method: 'POST',
      auth: editor,
      json: eventBody('From an editor', 5, { uid: FOREIGN }),
    });
    expect(ignored.status).toBe(201);
    expect(ignored.body.uid).toMatch(UUID);
    expect(ignored.body.uid).not.toBe(FOREIGN);
    // Not even checked for them: a read-only field sent back is no error.
    const odd = await server.api('events', {
      method: 'POST',
      auth: editor,
      json: eventBody('Also from an editor', 5, { uid: 'not a uuid' }),
    });
    expect(odd.status).toBe(201);

    const kept = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: eventBody('Synced here', 5, { uid: FOREIGN.toUpperCase() }),
    });
    expect(kept.status).toBe(201);
    expect(kept.body.uid).toBe(FOREIGN);

    const taken = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: eventBody('Synced twice', 5, { uid: FOREIGN }),
    });
    // One in use is not taken (an event trashed on the remote and pushed again): two events would become one.
    expect(taken.status).toBe(201);
    expect(taken.body.uid).toMatch(UUID);
    expect(taken.body.uid).not.toBe(FOREIGN);
    expect((await server.api(`events/${kept.body.id}`)).body.uid).toBe(FOREIGN);

    const bad = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: eventBody('Bad uid', 5, { uid: 'abc@google.com' }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('rest_invalid_param');
    expect(bad.body.data.params.uid).toBe('uid must be a UUID.');
  });

  it('takes the uid of a new venue, organizer, category or tag from an administrator only, never on update', async () => {
    const editor = await server.userHeaders('uid-editor-2', 'editor');
    const kinds: Array<[string, (name: string) => Record<string, unknown>]> = [
      ['venues', (name) => ({ venue: name })],
      ['organizers', (name) => ({ organizer: name })],
      ['categories', (name) => ({ name })],
      ['tags', (name) => ({ name })],
    ];
    for (const [index, [collection, body]] of kinds.entries()) {
      const wanted = `0f8fad5b-d9cb-469f-a165-7086772895${String(index).padStart(2, '0')}`;
      const ignored = await server.api(collection, {
        method: 'POST',
        auth: editor,
        json: { ...body(`${collection} by an editor`), uid: wanted },
      });
      expect(ignored.status, collection).toBe(201);
      expect(ignored.body.uid, collection).not.toBe(wanted);

      const kept = await server.api(collection, {
        method: 'POST',
        auth: server.admin,
        json: { ...body(`${collection} synced`), uid: wanted },
      });
      expect(kept.status, collection).toBe(201);
      expect(kept.body.uid, collection).toBe(wanted);

      const taken = await server.api(collection, {
        method: 'POST',
        auth: server.admin,
        json: { ...body(`${collection} synced again`), uid: wanted },
      });
      expect(taken.status, collection).toBe(201);
      expect(taken.body.uid, collection).not.toBe(wanted);

      // An update cannot change it, an administrator's neither.
      const updated = await server.api(`${collection}/${ignored.body.id}`, {
        method: 'POST',
        auth: server.admin,
        json: { uid: FOREIGN },
      });
      expect(updated.status, collection).toBe(200);
      expect(updated.body.uid, collection).toBe(ignored.body.uid);
    }
  });
});
