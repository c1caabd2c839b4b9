import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, eventBody, type TestServer } from '../helpers/server';
import { PNG } from '../helpers/fixtures';
import { deadPid } from '../helpers/processes';
import { mountSmallDisk, whySmallDisksCannotBeMounted, type SmallDisk } from '../helpers/tmpfs';

const JPEG_START = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);

let server: TestServer;
let upload: (body: Buffer, headers: Record<string, string>) => Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- asserted field by field

beforeAll(async () => {
  server = await startTestServer();
  upload = async (body, headers) => {
    const response = await fetch(`${server.engine.apiRoot}calendar-desk/v1/media`, {
      method: 'POST',
      headers,
      body,
    });
    return { status: response.status, body: await response.json() };
  };
});
afterAll(() => server.close());

describe('POST /calendar-desk/v1/media (pictures from the desktop)', () => {
  it('copies a picture into the data folder, serves it inert, and events use it as their image', async () => {
    const created = await upload(PNG, {
      ...server.admin,
      'Content-Type': 'image/png',
      'Content-Disposition': 'attachment; filename="Concert poster.png"',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.any(Number), extension: 'png' });
    expect(created.body.url).toMatch(
      new RegExp(`^${server.engine.origin}/media/[a-f0-9]{12}-concert-poster\\.png$`),
    );

    const files = await readdir(join(server.dataDir, 'media'));
    expect(files).toHaveLength(1);
    expect(await readFile(join(server.dataDir, 'media', files[0]))).toEqual(PNG);

    const served = await fetch(created.body.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('Content-Type')).toBe('image/png');
    expect(served.headers.get('Content-Security-Policy')).toBe("default-src 'none'");
    expect(served.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);

    const event = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: eventBody('With poster', 3, { image: created.body.id }),
    });
    expect(event.status).toBe(201);
    expect(event.body.image).toEqual({ id: created.body.id, url: created.body.url, extension: 'png' });
  });

  it('needs a user who may upload files', async () => {
    expect((await upload(PNG, { 'Content-Type': 'image/png' })).status).toBe(401);
    const contributor = await server.userHeaders('connie', 'contributor');
    expect((await upload(PNG, { ...contributor, 'Content-Type': 'image/png' })).status).toBe(403);
    const author = await server.userHeaders('arthur', 'author');
    expect((await upload(PNG, { ...author, 'Content-Type': 'image/png' })).status).toBe(201);
  });

  it('refuses what is not a picture of an accepted type, keeping nothing', async () => {
    const before = (await readdir(join(server.dataDir, 'media'))).length;
    const svg = await upload(Buffer.from('<svg onload="alert(1)"/>'), {
      ...server.admin,
      'Content-Type': 'image/svg+xml',
    });
    expect(svg).toMatchObject({ status: 415, body: { code: 'rest_upload_unsupported_type' } });
    const disguised = await upload(JPEG_START, { ...server.admin, 'Content-Type': 'image/png' });
    expect(disguised).toMatchObject({ status: 400, body: { code: 'rest_upload_invalid' } });
    expect(disguised.body.message).toMatch(/not a PNG picture/);
    const huge = await upload(Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]), {
      ...server.admin,
      'Content-Type': 'image/png',
    });
    expect(huge).toMatchObject({ status: 413, body: { code: 'rest_upload_too_large' } });
    expect((await readdir(join(server.dataDir, 'media'))).length).toBe(before);
  });

  it('finds uploaded pictures by part of their file name, for uploaders only (a sync looks up a lost upload)', async () => {
    const created = await upload(PNG, {
      ...server.admin,
      'Content-Type': 'image/png',
      'Content-Disposition': 'attachment; filename="Lookup me.png"',
    });
    const search = (query: string, headers: Record<string, string> = server.admin) =>
      fetch(`${server.engine.apiRoot}calendar-desk/v1/media?${query}`, { headers }).then(
        async (response) => ({
          status: response.status,
          body: await response.json(),
        }),
      );
    const found = await search('search=lookup-me');
    expect(found.status).toBe(200);
    expect(found.body).toEqual([
      {
        id: created.body.id,
        url: created.body.url,
        extension: 'png',
        file: expect.stringMatching(/-lookup-me\.png$/),
      },
    ]);
    expect((await search('search=nothing-like-this')).body).toEqual([]);
    expect((await search('')).status).toBe(400);
    expect((await search('search=lookup-me', {})).status).toBe(401);
    const contributor = await server.userHeaders('cora', 'contributor');
    expect((await search('search=lookup-me', contributor)).status).toBe(403);
  });

  it('serves no other file of the data folder under /media/', async () => {
    for (const path of [
      '/media/..%2Fcalendar.json',
      '/media/admin-token',
      '/media/calendar.json',
      // A name of the stored shape that names no stored picture.
      '/media/000000000000-not-stored.png',
    ]) {
      expect((await fetch(`${server.engine.origin}${path}`)).status, path).toBe(404);
    }
  });
});

describe('the media folder at start', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'calendar-desk-media-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  /** Uploads a picture on a server of `dataDir`, stops it, and returns the stored file name. */
  async function uploadAndStop(): Promise<string> {
    const first = await startTestServer({ dataDir });
    try {
      const response = await fetch(`${first.engine.apiRoot}calendar-desk/v1/media`, {
        method: 'POST',
        headers: { ...first.admin, 'Content-Type': 'image/png' },
        body: PNG,
      });
      expect(response.status).toBe(201);
      return ((await response.json()) as { url: string }).url.split('/').pop()!;
    } finally {
      await first.close();
    }
  }

  it('sets aside files of uploads that never got their record, keeping every recorded picture', async () => {
    const kept = await uploadAndStop();
    // What a crash between writing the file and committing its record leaves, and a half-written copy.
    const folder = join(dataDir, 'media');
    await writeFile(join(folder, '0123456789ab-never-recorded.png'), PNG);
    await writeFile(join(folder, `.0123456789ab-half.png.${await deadPid()}.tmp`), PNG.subarray(0, 10));
    await writeFile(join(folder, 'notes.txt'), 'not ours: left alone');
    // Set aside by an earlier start: kept for 30 days.
    await mkdir(join(folder, '.orphaned'));
    await writeFile(join(folder, '.orphaned', 'aaaaaaaaaaaa-last-month.png'), PNG);
    const fortyDaysAgo = new Date(Date.now() - 40 * 86_400_000);
    await utimes(join(folder, '.orphaned', 'aaaaaaaaaaaa-last-month.png'), fortyDaysAgo, fortyDaysAgo);
    await writeFile(join(folder, '.orphaned', 'bbbbbbbbbbbb-last-week.png'), PNG);

    const restarted = await startTestServer({ dataDir });
    try {
      expect((await readdir(folder)).sort()).toEqual(['.orphaned', kept, 'notes.txt'].sort());
      // Kept aside for a while (an older data file put back by hand may still want it), never served.
      expect((await readdir(join(folder, '.orphaned'))).sort()).toEqual([
        '0123456789ab-never-recorded.png',
        'bbbbbbbbbbbb-last-week.png',
      ]);
      expect(
        (await fetch(`${restarted.engine.origin}/media/.orphaned/0123456789ab-never-recorded.png`)).status,
      ).toBe(404);
      const served = await fetch(`${restarted.engine.origin}/media/${kept}`);
      expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
    } finally {
      await restarted.close();
    }
  });

  it('leaves the media folder alone after a start that had to repair the data', async () => {
    await uploadAndStop();
    const folder = join(dataDir, 'media');
    await writeFile(join(folder, '0123456789ab-unknown.png'), PNG);
    // A torn last journal line: the start repairs it and says so.
    await writeFile(join(dataDir, 'journal-000000000099.log'), '0badc0de {"seq":99,"ops":[');
    const restarted = await startTestServer({ dataDir });
    try {
      expect(restarted.engine.notices.join(' ')).toMatch(/unfinished last change/);
      expect(await readdir(folder)).toContain('0123456789ab-unknown.png');
    } finally {
      await restarted.close();
    }
  });
});

const cannotMount = await whySmallDisksCannotBeMounted();

describe.skipIf(cannotMount !== null)(
  cannotMount
    ? `SKIPPED (${cannotMount}): uploads on a full or read-only disk`
    : 'uploads on a full or read-only disk',
  () => {
    let disk: SmallDisk;
    let onDisk: TestServer;
    beforeEach(async () => {
      disk = await mountSmallDisk();
      onDisk = await startTestServer({ dataDir: join(disk.dir, 'data') });
    });
    const afterThis: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const undo of afterThis.splice(0).reverse()) await undo();
      await onDisk?.close();
      await disk?.unmount();
    });

    const uploadThere = async () => {
      const response = await fetch(`${onDisk.engine.apiRoot}calendar-desk/v1/media`, {
        method: 'POST',
        headers: { ...onDisk.admin, 'Content-Type': 'image/png' },
        body: PNG,
      });
      return { status: response.status, body: (await response.json()) as { code: string; message: string } };
    };
    const mediaFiles = () => readdir(join(onDisk.dataDir, 'media')).catch(() => [] as string[]);

    it('answers 503 rest_storage_unavailable saying the disk is full and what to do, keeping no part of the picture', async () => {
      await disk.fill();
      const refused = await uploadThere();
      expect(refused.status).toBe(503);
      expect(refused.body.code).toBe('rest_storage_unavailable');
      expect(refused.body.message).toContain(`the disk that holds the data folder ${onDisk.dataDir} is full`);
      expect(refused.body.message).toContain('free some space on that disk');
      expect(await mediaFiles()).toEqual([]);
      // Reading goes on; once there is space again, the same upload works.
      expect((await onDisk.api('events')).status).toBe(200);
      await rm(join(disk.dir, 'filler'));
      expect((await uploadThere()).status).toBe(201);
    });

    it('answers 503 rest_storage_unavailable saying the disk is read-only', async () => {
      // The pictures' folder on a disk of its own, made read-only (the journal's disk cannot be while in use).
      const mediaFolder = join(onDisk.dataDir, 'media');
      await mkdir(mediaFolder, { recursive: true });
      const mediaDisk = await mountSmallDisk(1, mediaFolder);
      afterThis.push(() => mediaDisk.unmount());
      await mediaDisk.remountReadOnly();
      const refused = await uploadThere();
      expect(refused.status).toBe(503);
      expect(refused.body.code).toBe('rest_storage_unavailable');
      expect(refused.body.message).toContain(
        `the data folder ${onDisk.dataDir} is on a disk that is mounted read-only`,
      );
      expect(await mediaFiles()).toEqual([]);
      expect((await onDisk.api('events')).status).toBe(200);
    });
  },
);
