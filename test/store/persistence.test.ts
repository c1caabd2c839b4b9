import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, eventBody, type TestServer } from '../helpers/server';
import { CalendarStore, DATA_FILE_NAME } from '../../src/main/store/store';
import { dataFileSchema, type DataFile } from '../../src/main/store/schema';

let dataDir: string;
let server: TestServer | undefined;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'calendar-desk-persist-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

/** What is durable in the folder right now (data file plus journal), validated against the schema. */
async function onDisk(): Promise<DataFile> {
  return dataFileSchema.parse(
    await CalendarStore.inspect(dataDir, {
      siteName: 'x',
      siteDescription: '',
      timezone: 'UTC',
      postsPerPage: 10,
    }),
  );
}

/** Every id a record ever had in the data file's collections. */
const postIds = (data: DataFile) =>
  [...data.events, ...data.venues, ...data.organizers, ...data.media].map((record) => record.id);

async function expectCreated(result: { status: number; body: { id: number } }) {
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  return result.body.id;
}

describe('restart persistence through the server', () => {
  it('keeps every record, credential and id counter across a restart', async () => {
    server = await startTestServer({ dataDir });
    const { api, admin } = server;
    const venue = await expectCreated(
      await api('venues', { method: 'POST', auth: admin, json: { venue: 'Blue Note', city: 'Milano' } }),
    );
    const organizer = await expectCreated(
      await api('organizers', { method: 'POST', auth: admin, json: { organizer: 'Anna', email: 'a@b.it' } }),
    );
    const music = await expectCreated(
      await api('categories', { method: 'POST', auth: admin, json: { name: 'Music' } }),
    );
    const jazz = await expectCreated(
      await api('tags', { method: 'POST', auth: admin, json: { name: 'jazz' } }),
    );
    const first = await expectCreated(
      await api('events', {
        method: 'POST',
        auth: admin,
        json: eventBody('Jazz night', 3, {
          venue,
          organizer: [organizer],
          categories: [music],
          tags: [jazz],
          cost: '15€',
          image: 'https://example.com/poster.jpg',
        }),
      }),
    );
    const second = await expectCreated(
      await api('events', {
        method: 'POST',
        auth: admin,
        json: eventBody('Open air', 5, {
          venue: { venue: 'Parco Sempione', city: 'Milano' },
          organizer: [{ organizer: 'Comune' }],
          categories: ['Outdoor'],
          tags: ['summer', 'free'],
        }),
      }),
    );
    const bob = await server.userHeaders('bob', 'editor');
    const bobsEvent = await expectCreated(
      await api('events', { method: 'POST', auth: bob, json: eventBody("Bob's talk", 7) }),
    );
    const update = await api(`events/${first}`, {
      method: 'POST',
      auth: admin,
      json: { title: 'Jazz night II' },
    });
    expect(update.status).toBe(200);
    expect((await api(`events/${second}`, { method: 'DELETE', auth: admin })).status).toBe(200);

    // Delete the newest term, so an id counter derived from the highest existing id would hand it out again.
    const newestTag = await expectCreated(
      await api('tags', { method: 'POST', auth: admin, json: { name: 'ephemeral' } }),
    );
    expect(Math.max(...(await onDisk()).terms.map((term) => term.id))).toBe(newestTag);
    expect((await api(`tags/${newestTag}`, { method: 'DELETE', auth: admin })).status).toBe(200);

    const before = await onDisk();
    const maxTermBefore = Math.max(newestTag, ...before.terms.map((term) => term.id));
    const maxPostBefore = Math.max(...postIds(before));
    const readAll = async (origin: string) => {
      const paths = [
        'events?per_page=50',
        'events?per_page=50&status=trash',
        `events/${first}`,
        `events/${second}`,
        `events/${bobsEvent}`,
        'venues?per_page=50',
        'organizers?per_page=50',
        'categories?per_page=50&hide_empty=false',
        'tags?per_page=50&hide_empty=false',
      ];
      const bodies: Record<string, unknown> = {};
      for (const path of paths) {
        const result = await api(path, { auth: admin });
        // Ports differ between the two runs: compare everything else.
        bodies[path] = [result.status, JSON.parse(JSON.stringify(result.body).replaceAll(origin, 'ORIGIN'))];
      }
      return bodies;
    };
    const seenBefore = await readAll(server.engine.origin);
    const tokenBefore = server.engine.adminToken;
    await server.close();
    // A clean shutdown folds the journal into the data file.
    const bytesBefore = await readFile(join(dataDir, DATA_FILE_NAME), 'utf8');
    const fileAlone = dataFileSchema.parse(JSON.parse(bytesBefore));
    expect(fileAlone).toEqual(await onDisk());
    expect(fileAlone.events.map((event) => event.id)).toEqual(before.events.map((event) => event.id));

    server = await startTestServer({ dataDir });
    // Opening an intact folder rewrites nothing, and the admin keeps the same token.
    expect(await readFile(join(dataDir, DATA_FILE_NAME), 'utf8')).toBe(bytesBefore);
    expect(server.engine.adminToken).toBe(tokenBefore);
    const readAfter = async () => {
      const origin = server!.engine.origin;
      const bodies: Record<string, unknown> = {};
      for (const path of Object.keys(seenBefore)) {
        const result = await server!.api(path, { auth: server!.admin });
        bodies[path] = [result.status, JSON.parse(JSON.stringify(result.body).replaceAll(origin, 'ORIGIN'))];
      }
      return bodies;
    };
    expect(await readAfter()).toEqual(seenBefore);
    expect(before.events.find((event) => event.id === second)?.status).toBe('trash');

    // Bob's application password still works; new ids continue after every id ever used.
    const bobAgain = await server.api('events', {
      method: 'POST',
      auth: bob,
      json: eventBody('Bob again', 8),
    });
    expect(bobAgain.status).toBe(201);
    expect(bobAgain.body.id).toBeGreaterThan(maxPostBefore);
    const term = await server.api('tags', {
      method: 'POST',
      auth: server.admin,
      json: { name: 'brand new' },
    });
    expect(term.status).toBe(201);
    expect(term.body.id).toBeGreaterThan(maxTermBefore);
  });

  it('never reuses the id of a deleted term, even the newest one', async () => {
    server = await startTestServer({ dataDir });
    const create = (name: string) =>
      server!.api('categories', { method: 'POST', auth: server!.admin, json: { name } });
    const a = (await create('A')).body.id as number;
    expect((await server.api(`categories/${a}`, { method: 'DELETE', auth: server.admin })).status).toBe(200);
    const b = (await create('B')).body.id as number;
    expect(b).toBeGreaterThan(a);
    expect((await server.api(`categories/${b}`, { method: 'DELETE', auth: server.admin })).status).toBe(200);
    await server.close();
    server = await startTestServer({ dataDir });
    const c = (await create('C')).body.id as number;
    expect(c).toBeGreaterThan(b);
  });
});

describe('durability of acknowledged writes', () => {
  it('has every 2xx write on disk (data file or journal) by the time the response arrives', async () => {
    server = await startTestServer({ dataDir });
    const { api, admin } = server;

    const created = await api('events', { method: 'POST', auth: admin, json: eventBody('Durable', 2) });
    expect(created.status).toBe(201);
    expect((await onDisk()).events.find((event) => event.id === created.body.id)?.title).toBe('Durable');

    const patched = await api(`events/${created.body.id}`, {
      method: 'PATCH',
      auth: admin,
      json: { title: 'Durable, renamed' },
    });
    expect(patched.status).toBe(200);
    expect((await onDisk()).events.find((event) => event.id === created.body.id)?.title).toBe(
      'Durable, renamed',
    );

    const venue = await api('venues', { method: 'POST', auth: admin, json: { venue: 'Teatro' } });
    expect(venue.status).toBe(201);
    expect((await onDisk()).venues.map((record) => record.id)).toContain(venue.body.id);

    const organizer = await api('organizers', { method: 'POST', auth: admin, json: { organizer: 'Org' } });
    expect(organizer.status).toBe(201);
    expect((await onDisk()).organizers.map((record) => record.id)).toContain(organizer.body.id);

    const tag = await api('tags', { method: 'POST', auth: admin, json: { name: 'kept' } });
    expect(tag.status).toBe(201);
    expect((await onDisk()).terms.map((term) => term.id)).toContain(tag.body.id);

    const removed = await api(`tags/${tag.body.id}`, { method: 'DELETE', auth: admin });
    expect(removed.status).toBe(200);
    expect((await onDisk()).terms.map((term) => term.id)).not.toContain(tag.body.id);

    const trashed = await api(`events/${created.body.id}`, { method: 'DELETE', auth: admin });
    expect(trashed.status).toBe(200);
    expect((await onDisk()).events.find((event) => event.id === created.body.id)?.status).toBe('trash');

    const venueTrashed = await api(`venues/${venue.body.id}`, { method: 'DELETE', auth: admin });
    expect(venueTrashed.status).toBe(200);
    expect((await onDisk()).venues.find((record) => record.id === venue.body.id)?.status).toBe('trash');
  });

  it('lands all of 50 concurrent creates, each once, in a valid file', async () => {
    server = await startTestServer({ dataDir });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, n) =>
        server!.api('events', {
          method: 'POST',
          auth: server!.admin,
          json: eventBody(`Parallel ${n}`, 1 + (n % 20), {
            categories: ['Shared'],
            venue: { venue: `Hall ${n}` },
          }),
        }),
      ),
    );
    expect(results.map((result) => result.status)).toEqual(Array(50).fill(201));
    const ids = results.map((result) => result.body.id as number);
    expect(new Set(ids).size).toBe(50);

    const disk = await onDisk(); // parses against the schema
    const titles = new Map(disk.events.map((event) => [event.id, event.title]));
    for (const [n, id] of ids.entries()) expect(titles.get(id)).toBe(`Parallel ${n}`);
    expect(disk.events).toHaveLength(50);
    expect(disk.venues).toHaveLength(50);
    // Auto-created by name in 50 concurrent requests, yet created once.
    expect(disk.terms.filter((term) => term.name === 'Shared')).toHaveLength(1);
    expect(new Set(postIds(disk)).size).toBe(postIds(disk).length);

    const list = await server.api('events?per_page=50');
    expect(list.status).toBe(200);
    expect(list.headers.get('X-WP-Total')).toBe('50');
  });
});
