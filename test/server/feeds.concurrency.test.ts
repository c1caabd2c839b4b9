import { readdir, readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { startTestServer, type TestServer } from '../helpers/server';
import { FEED_SECRET_FILE } from '../../src/main/core/feeds/secret';
import { temporaryCopyOf } from '../../src/main/store/durableJsonFile';

const ADMIN = 'wp-json/calendar-desk/v1';

interface Feeds {
  enabled: boolean;
  changed_utc: string | null;
  calendar: { http: string } | null;
  address_notice: string | null;
}

let dataDir: string;
let server: TestServer;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'feeds-concurrency-'));
  server = await startTestServer({ dataDir });
});
afterAll(async () => {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
});

const call = (action: string) =>
  server.api(`${server.engine.origin}/${ADMIN}/${action}`, {
    method: action === 'feeds' ? 'GET' : 'POST',
    auth: server.admin,
  });

/** The secret in feeds.json (null: revoked); the file must always parse. */
async function onDisk(): Promise<{ secret: string | null; changedUtc: string }> {
  return JSON.parse(await readFile(join(dataDir, FEED_SECRET_FILE), 'utf8'));
}

const secretOf = (feeds: Feeds) => feeds.calendar?.http.split('/feeds/')[1].split('/')[0] ?? null;

describe('feed addresses changed by many requests at once', () => {
  it('answers every one, keeps feeds.json whole, and the newest answer is what the file holds', async () => {
    const answered: string[] = [];
    for (let round = 0; round < 40; round++) {
      const actions = Array.from({ length: 16 }, (_, index) =>
        (index + round) % 3 === 0 ? 'feeds/revoke' : 'feeds/regenerate',
      );
      const answers = await Promise.all(actions.map(call));
      for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const bodies = answers.map((answer) => answer.body as Feeds);
      // Each change has its own time: the newest answer is the last write, and that is on disk.
      const times = bodies.map((body) => body.changed_utc!);
      expect(new Set(times).size).toBe(times.length);
      const newest = bodies.reduce((a, b) => (b.changed_utc! > a.changed_utc! ? b : a));
      const disk = await onDisk();
      expect(disk.changedUtc).toBe(newest.changed_utc);
      expect(disk.secret).toBe(secretOf(newest));
      expect(newest.enabled).toBe(disk.secret !== null);
      const now = (await call('feeds')).body as Feeds;
      expect(secretOf(now)).toBe(disk.secret);
      answered.push(...bodies.flatMap((body) => (body.calendar ? [body.calendar.http] : [])));
      // Only the current address answers.
      if (now.calendar) expect((await fetch(now.calendar.http)).status).toBe(200);
      expect((await fetch(answered[0])).status).toBe(404);
    }
    expect((await readdir(dataDir)).filter((name) => temporaryCopyOf(name) !== null)).toEqual([]);
  }, 120_000);

  it('keeps a revoked feed revoked after a restart on the same folder', async () => {
    const regenerated = (await call('feeds/regenerate')).body as Feeds;
    const others = Array.from({ length: 15 }, () => call('feeds/regenerate'));
    await Promise.all(others);
    const revoked = await call('feeds/revoke');
    expect(revoked.body).toMatchObject({ enabled: false, calendar: null });
    await server.close();
    server = await startTestServer({ dataDir });
    expect(((await call('feeds')).body as Feeds).enabled).toBe(false);
    expect((await onDisk()).secret).toBeNull();
    expect(
      (await fetch(regenerated.calendar!.http.replace(/:\d+\//, `:${server.engine.port}/`))).status,
    ).toBe(404);
  });
});

describe('a damaged feeds.json at start', () => {
  it('is set aside and the feeds start off, saying so, until new addresses are made', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'feeds-damaged-'));
    await writeFile(join(folder, FEED_SECRET_FILE), '{"secret":"abc","chan');
    const damaged = await startTestServer({ dataDir: folder });
    try {
      expect(damaged.engine.notices.join('\n')).toMatch(/feed secret file was damaged.*feeds are off/);
      const kept = (await readdir(folder)).filter((name) => name.startsWith(`${FEED_SECRET_FILE}.damaged-`));
      expect(kept).toHaveLength(1);
      expect(await readFile(join(folder, kept[0]), 'utf8')).toBe('{"secret":"abc","chan');
      const feeds = await damaged.api(`${damaged.engine.origin}/${ADMIN}/feeds`, { auth: damaged.admin });
      expect(feeds.status).toBe(200);
      expect(feeds.body).toMatchObject({ enabled: false, calendar: null });
      expect(feeds.body.address_notice).toMatch(/damaged.*calendar-desk feeds --regenerate/);
      const regenerated = await damaged.api(`${damaged.engine.origin}/${ADMIN}/feeds/regenerate`, {
        method: 'POST',
        auth: damaged.admin,
      });
      expect(regenerated.status).toBe(200);
      expect(regenerated.body.enabled).toBe(true);
      expect(regenerated.body.address_notice).toBeNull();
      expect((await fetch(regenerated.body.calendar.http)).status).toBe(200);
    } finally {
      await damaged.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
