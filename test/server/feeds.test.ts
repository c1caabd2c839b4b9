import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import ICAL from 'ical.js';
import { startTestServer, eventBody, type TestServer } from '../helpers/server';
import { mountSmallDisk, whySmallDisksCannotBeMounted } from '../helpers/tmpfs';
import { parseWithPythonIcalendar } from '../helpers/icalendarPython';
import { FEED_SECRET_FILE } from '../../src/main/core/feeds/secret';
import { remoteKey } from '../../src/main/sync/linkState';
import { REMOTES_KEY } from '../../src/main/sync/remotes';

const ADMIN = 'wp-json/calendar-desk/v1';

interface Feeds {
  enabled: boolean;
  past_months: number;
  calendar: { http: string; webcal: string } | null;
  categories: { id: number; name: string; slug: string; http: string; webcal: string }[];
  venues: { id: number; name: string; slug: string; http: string; webcal: string }[];
}

let server: TestServer;
let feeds: Feeds;
const ids: Record<string, number> = {};
const uids: Record<string, string> = {};

async function admin(path: string, init: RequestInit & { json?: unknown } = {}) {
  return server.api(`${server.engine.origin}/${ADMIN}/${path}`, { ...init, auth: server.admin });
}

async function create(name: string, body: Record<string, unknown>) {
  const created = await server.api('events', { method: 'POST', json: body, auth: server.admin });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  ids[name] = created.body.id;
  uids[name] = created.body.uid;
}

const summaries = (text: string) =>
  new ICAL.Component(ICAL.parse(text))
    .getAllSubcomponents('vevent')
    .map((vevent) => String(vevent.getFirstPropertyValue('summary')))
    .sort();

beforeAll(async () => {
  server = await startTestServer();
  const term = async (name: string, parent = 0) =>
    (await server.api('categories', { method: 'POST', json: { name, parent }, auth: server.admin })).body.id;
  const choir = await term('Choir');
  const youth = await term('Youth choir', choir);
  const talks = await term('Talks');
  const venue = async (name: string) =>
    (
      await server.api('venues', {
        method: 'POST',
        json: { venue: name, status: 'publish', city: 'Lucca' },
        auth: server.admin,
      })
    ).body.id;
  const hall = await venue('Town Hall');
  const church = await venue('St Mary &amp; Paul');
  const published = { status: 'publish' };
  await create('concert', {
    ...eventBody('Bach &amp; H&auml;ndel', 10),
    ...published,
    timezone: 'Europe/Rome',
    categories: [choir],
    venue: hall,
  });
  await create('youth', {
    ...eventBody('Youth rehearsal', 20),
    ...published,
    timezone: 'America/New_York',
    categories: [youth],
  });
  await create('recentTalk', {
    ...eventBody('Recent talk', -40),
    ...published,
    categories: [talks],
    venue: church,
  });
  await create('oldTalk', { ...eventBody('Old talk', -200), ...published, categories: [talks] });
  await create('draft', { ...eventBody('Draft plan', 5), status: 'draft', categories: [choir] });
  await create('private', { ...eventBody('Board meeting', 5), status: 'private', categories: [choir] });
  await create('protected', {
    ...eventBody('Members only', 5),
    ...published,
    post_password: 'secret',
    categories: [choir],
  });
  await create('hidden', { ...eventBody('Hidden party', 5), ...published, hide_from_listings: true });
  // More than the original feed's 30: every future event is in.
  for (let day = 30; day < 65; day++)
    await create(`far${day}`, { ...eventBody(`Far ${day}`, day), ...published });
  feeds = (await admin('feeds')).body;
}, 60_000);

afterAll(() => server?.close());

describe('calendar feeds', () => {
  it('lists the addresses for administrators only, with a 256-bit secret, as http and webcal', async () => {
    expect(feeds.enabled).toBe(true);
    expect(feeds.past_months).toBe(3);
    expect(feeds.calendar!.http).toMatch(
      new RegExp(`^${server.engine.origin}/feeds/[A-Za-z0-9_-]{43}/calendar\\.ics$`),
    );
    expect(feeds.calendar!.webcal).toBe(feeds.calendar!.http.replace('http:', 'webcal:'));
    expect(feeds.categories.map((feed) => feed.name)).toEqual(['Choir', 'Talks', 'Youth choir']);
    expect(feeds.venues.map((feed) => feed.name)).toEqual(['St Mary & Paul', 'Town Hall']);
    expect((await server.api(`${server.engine.origin}/${ADMIN}/feeds`)).status).toBe(401);
    const editor = await server.userHeaders('ed', 'editor');
    expect((await server.api(`${server.engine.origin}/${ADMIN}/feeds`, { auth: editor })).status).toBe(403);
    // The secret's file is the user's alone.
    expect((await stat(join(server.dataDir, FEED_SECRET_FILE))).mode & 0o077).toBe(0);
  });

  it('serves the whole calendar as valid iCalendar: published public events, recent past, every future one', async () => {
    const response = await fetch(feeds.calendar!.http);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const text = await response.text();
    const expected = [
      'Bach & Händel',
      'Recent talk',
      'Youth rehearsal',
      ...Array.from({ length: 35 }, (_, index) => `Far ${index + 30}`),
    ].sort();
    expect(summaries(text)).toEqual(expected);
    // The independent parser reads the same events, each in its zone, with the VTIMEZONE of every zone used.
    const python = await parseWithPythonIcalendar(text);
    expect(python.events.map((event) => event.summary).sort()).toEqual(expected);
    const concert = python.events.find((event) => event.uid === uids.concert)!;
    expect(concert).toMatchObject({ tzid: 'Europe/Rome', url: null });
    expect(concert.start).toMatch(/T10:00:00\+0[12]:00$/);
    expect(python.events.find((event) => event.uid === uids.youth)!.tzid).toBe('America/New_York');
    expect(python.timezones.sort()).toEqual(expect.arrayContaining(['America/New_York', 'Europe/Rome']));
    // Drafts, private, password-protected and hidden-from-listings events are nowhere in it.
    for (const secret of ['Draft plan', 'Board meeting', 'Members only', 'Hidden party', 'Old talk'])
      expect(text).not.toContain(secret);
  });

  it('serves one feed per category (with its sub-categories) and per venue', async () => {
    const choir = feeds.categories.find((feed) => feed.name === 'Choir')!;
    expect(summaries(await (await fetch(choir.http)).text())).toEqual(['Bach & Händel', 'Youth rehearsal']);
    const youth = feeds.categories.find((feed) => feed.name === 'Youth choir')!;
    expect(summaries(await (await fetch(youth.webcal.replace('webcal:', 'http:'))).text())).toEqual([
      'Youth rehearsal',
    ]);
    const church = feeds.venues.find((feed) => feed.name === 'St Mary & Paul')!;
    const churchFeed = await (await fetch(church.http)).text();
    expect(summaries(churchFeed)).toEqual(['Recent talk']);
    expect(churchFeed).toContain('LOCATION:St Mary & Paul\\, Lucca');
    const unknown = feeds.calendar!.http.replace('calendar.ics', 'category/nothing-here.ics');
    expect((await fetch(unknown)).status).toBe(404);
    // Feeds are read-only.
    const post = await fetch(feeds.calendar!.http, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers 304 to If-None-Match, and a new ETag after a change', async () => {
    const first = await fetch(feeds.calendar!.http);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(feeds.calendar!.http, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const changed = await server.api(`events/${ids.concert}`, {
      method: 'POST',
      json: { title: 'Bach evening' },
      auth: server.admin,
    });
    expect(changed.status).toBe(200);
    const after = await fetch(feeds.calendar!.http, { headers: { 'If-None-Match': etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(await after.text()).toContain('SUMMARY:Bach evening');
  });

  it('keeps past events for the configured number of months', async () => {
    const set = (months: unknown) => admin('settings', { method: 'PUT', json: { feed_past_months: months } });
    expect((await set(12)).body.feed_past_months).toBe(12);
    expect(summaries(await (await fetch(feeds.calendar!.http)).text())).toContain('Old talk');
    await set(0);
    const now = summaries(await (await fetch(feeds.calendar!.http)).text());
    expect(now).not.toContain('Recent talk');
    expect(now).not.toContain('Old talk');
    const bad = await set(500);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('rest_invalid_param');
    await set(3);
  });

  it('gives the event the URL of its page on the website it was published to, never the local page', async () => {
    const root = 'https://choir.example.org/wp-json/';
    const key = remoteKey(root, 'tribe/events/v1');
    await server.engine.store.mutate((tx) => {
      tx.setSyncState(REMOTES_KEY, [
        {
          id: 'r1',
          name: 'Site',
          root,
          namespace: 'tribe/events/v1',
          authType: 'none',
          user: '',
          secret: null,
        },
      ]);
      tx.setSyncState(`link:${key}|event:${ids.youth}`, {
        kind: 'event',
        localId: ids.youth,
        remoteId: 77,
        pushedRevision: 1,
        remoteModifiedUtc: null,
        remoteEtag: null,
        remoteHash: null,
        url: 'https://choir.example.org/event/youth-rehearsal/',
      });
    });
    const python = await parseWithPythonIcalendar(await (await fetch(feeds.calendar!.http)).text());
    expect(python.events.find((event) => event.uid === uids.youth)!.url).toBe(
      'https://choir.example.org/event/youth-rehearsal/',
    );
    expect(python.events.every((event) => !event.url?.includes('127.0.0.1'))).toBe(true);
  });

  it('revokes and regenerates the secret: a revoked address is 404', async () => {
    const old = feeds.calendar!.http;
    const revoked = await admin('feeds/revoke', { method: 'POST' });
    expect(revoked.body).toMatchObject({ enabled: false, calendar: null });
    const gone = await fetch(old);
    expect(gone.status).toBe(404);
    expect(await gone.text()).toMatch(/revoked/);
    const regenerated = await admin('feeds/regenerate', { method: 'POST' });
    expect(regenerated.body.enabled).toBe(true);
    expect(regenerated.body.calendar.http).not.toBe(old);
    expect((await fetch(old)).status).toBe(404);
    expect((await fetch(regenerated.body.calendar.http)).status).toBe(200);
    // A near miss of the right secret (its first character changed) is as unknown as any other.
    const nearMiss = regenerated.body.calendar.http.replace(/\/feeds\/(.)/, (_: string, first: string) =>
      first === 'A' ? '/feeds/B' : '/feeds/A',
    );
    expect(nearMiss).not.toBe(regenerated.body.calendar.http);
    expect((await fetch(nearMiss)).status).toBe(404);
    feeds = regenerated.body;
  });
});

const cannotMount = await whySmallDisksCannotBeMounted();

describe.skipIf(cannotMount !== null)(
  cannotMount
    ? `SKIPPED (${cannotMount}): new feed addresses on a full disk`
    : 'new feed addresses on a full disk',
  () => {
    it('answers 503 saying what is wrong with the disk and what to do; the addresses stay as they were', async () => {
      const disk = await mountSmallDisk();
      const onDisk = await startTestServer({ dataDir: join(disk.dir, 'data') });
      try {
        const call = (action: string) =>
          onDisk.api(`${onDisk.engine.origin}/${ADMIN}/${action}`, {
            method: action === 'feeds' ? 'GET' : 'POST',
            auth: onDisk.admin,
          });
        const before = (await call('feeds')).body as Feeds;
        const secretFile = join(onDisk.dataDir, FEED_SECRET_FILE);
        const saved = await readFile(secretFile, 'utf8');

        await disk.fill();
        const full = await call('feeds/regenerate');
        expect(full.status).toBe(503);
        expect(full.body.code).toBe('rest_storage_unavailable');
        expect(full.body.message).toContain('could not save the feed addresses');
        expect(full.body.message).toContain(`the disk that holds the data folder ${onDisk.dataDir} is full`);
        expect(full.body.message).toContain('free some space on that disk');

        const revoked = await call('feeds/revoke');
        expect(revoked.status).toBe(503);
        expect(revoked.body.message).toContain('free some space on that disk');

        // Nothing changed: the same addresses, still answering, and the same secret on disk.
        expect(((await call('feeds')).body as Feeds).calendar).toEqual(before.calendar);
        expect((await fetch(before.calendar!.http)).status).toBe(200);
        expect(await readFile(secretFile, 'utf8')).toBe(saved);
      } finally {
        await onDisk.close();
        await disk.unmount();
      }
    });
  },
);
