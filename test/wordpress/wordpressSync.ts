import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { expect } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { startWordPressPeer, type PeerResult, type WordPressPeer } from '../helpers/wordpressPeer';
import { runSync, type SyncOptions, type SyncReport } from '../../src/main/sync/sync';
import type { ConflictPolicy } from '../../src/main/sync/model';
import { folderOwner } from '../../src/main/core/users';

/**
 * A local calendar (a real Calendar Desk server) and the real WordPress site it is pushed to. Its syncs are
 * push-only unless a test asks for `direction` (two-way sync with the site: twoWay.test.ts).
 */
export interface WordPressPair {
  local: TestServer;
  site: WordPressPeer;
  sync(options?: Partial<SyncOptions> & { policy?: ConflictPolicy; root?: string }): Promise<SyncReport>;
  /** A write to the local calendar as the desktop app makes it; fails the test when refused. */
  post(path: string, json: unknown): Promise<{ id: number } & Record<string, unknown>>;
  stop(): Promise<void>;
}

export async function startWordPressPair(): Promise<WordPressPair> {
  const [local, site] = await Promise.all([startTestServer(), startWordPressPeer()]);
  return {
    local,
    site,
    sync: ({ root, ...options } = {}) =>
      runSync({
        store: local.engine.store,
        caller: folderOwner(local.engine.store),
        policy: 'ask',
        direction: 'push',
        ...options,
        remote: {
          root: root ?? site.root,
          namespace: 'tribe/events/v1',
          auth: { user: site.admin.user, password: site.admin.password },
          backoffMs: 1,
          ...options.remote,
        },
      }),
    async post(path, json) {
      const answer = await local.api(path, { method: 'POST', auth: local.admin, json });
      expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
      return answer.body;
    },
    async stop() {
      await Promise.all([local.close(), site.stop()]);
    },
  };
}

/** The real WordPress site as the hub of two laptops (two real Calendar Desk servers), for two-way sync tests. */
export interface SiteAndLaptops {
  site: WordPressPeer;
  laptopA: TestServer;
  laptopB: TestServer;
  stop(): Promise<void>;
}

export async function startSiteAndLaptops(): Promise<SiteAndLaptops> {
  const started = await Promise.allSettled([startWordPressPeer(), startTestServer(), startTestServer()]);
  const stopAll = async () => {
    await Promise.all(
      started.map((one) =>
        one.status !== 'fulfilled' ? undefined : 'stop' in one.value ? one.value.stop() : one.value.close(),
      ),
    );
  };
  const failed = started.find((one) => one.status === 'rejected');
  if (failed) {
    // What did start is stopped: a WordPress site left running keeps its PHP and database processes.
    await stopAll();
    throw failed.reason;
  }
  const [site, laptopA, laptopB] = started.map((one) => (one as PromiseFulfilledResult<unknown>).value) as [
    WordPressPeer,
    TestServer,
    TestServer,
  ];
  return { site, laptopA, laptopB, stop: stopAll };
}

/** A two-way sync (the default) of a laptop with the site, as its administrator. */
export const syncWithSite = (
  site: WordPressPeer,
  laptop: TestServer,
  policy: ConflictPolicy = 'ask',
): Promise<SyncReport> =>
  runSync({
    store: laptop.engine.store,
    caller: folderOwner(laptop.engine.store),
    policy,
    remote: {
      root: site.root,
      namespace: 'tribe/events/v1',
      auth: { user: site.admin.user, password: site.admin.password },
      backoffMs: 1,
    },
  });

/** A real PNG of `width`×`height` red pixels (WordPress reads its size, so it must be a valid image). */
export function pngBytes(width: number, height: number): Buffer {
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, Buffer.from([255, 0, 0]))]);
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'latin1'), data])));
    return Buffer.concat([length, Buffer.from(type, 'latin1'), data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A picture from a file on this computer, uploaded into the local calendar as the desktop app does. */
export async function uploadPictureFile(local: TestServer, bytes: Buffer, name: string): Promise<number> {
  const folder = await mkdtemp(join(tmpdir(), 'calendar-desk-picture-'));
  try {
    const path = join(folder, name);
    await writeFile(path, bytes);
    const response = await fetch(`${local.engine.apiRoot}calendar-desk/v1/media`, {
      method: 'POST',
      headers: {
        ...local.admin,
        'Content-Type': 'image/png',
        'Content-Disposition': `attachment; filename="${name}"`,
      },
      body: await readFile(path),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: number }).id;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** The ids of the records a realistic calendar was built from, by what they are. */
export interface Calendar {
  picture: number;
  music: number;
  jazz: number;
  theatre: number;
  family: number;
  outdoor: number;
  hall: number;
  park: number;
  choir: number;
  festival: number;
  concert: number;
  marathon: number;
  fair: number;
  rehearsal: number;
  secret: number;
}

/** A multi-paragraph description with entities and markup a volunteer would paste. */
export const CONCERT_DESCRIPTION =
  '<p>An evening of <strong>jazz</strong> &amp; swing.</p>\n<p>Doors open at 19:00 &#8211; don&#8217;t be late!</p>\n<ul>\n<li>Bar</li>\n<li>Cloakroom</li>\n</ul>';

/**
 * A theatre-and-music calendar as a user builds it: a category with a child, tags, two venues with full
 * addresses (one with the picture), two organizers, events in three time zones (timed, multi-day, all-day), a
 * draft, an event hidden from listings, HTML descriptions, costs and websites.
 */
export async function buildCalendar(pair: WordPressPair): Promise<Calendar> {
  const { post } = pair;
  const picture = await uploadPictureFile(pair.local, pngBytes(64, 48), 'festival poster.png');
  const music = (await post('categories', { name: 'Music', description: 'Concerts and gigs' })).id;
  const jazz = (await post('categories', { name: 'Jazz', parent: music })).id;
  const theatre = (await post('categories', { name: 'Theatre' })).id;
  const family = (await post('tags', { name: 'Family' })).id;
  const outdoor = (await post('tags', { name: 'Outdoor' })).id;
  const hall = (
    await post('venues', {
      venue: 'Town Hall',
      address: '1 Market Square',
      city: 'Lyon',
      country: 'France',
      province: 'Rhône',
      zip: '69001',
      phone: '+33 4 00 00 00 00',
      website: 'https://townhall.example.org/',
      show_map: true,
      show_map_link: false,
      image: picture,
    })
  ).id;
  const park = (
    await post('venues', {
      venue: 'Central Park',
      description: '<p>The big park.</p>',
      address: '59th St',
      city: 'New York',
      state: 'NY',
      country: 'United States',
      zip: '10019',
      show_map: false,
      show_map_link: true,
    })
  ).id;
  const choir = (
    await post('organizers', {
      organizer: 'City Choir',
      description: 'Singing since 1901.',
      email: 'choir@example.org',
      phone: '+33 1 23 45 67 89',
      website: 'https://choir.example.org/',
      image: picture,
    })
  ).id;
  const festival = (await post('organizers', { organizer: 'Festival Team', email: 'team@example.org' })).id;
  const concert = (
    await post('events', {
      title: 'Jazz & Swing Night',
      description: CONCERT_DESCRIPTION,
      excerpt: 'Jazz in the hall',
      start_date: '2027-03-12 20:00:00',
      end_date: '2027-03-12 23:00:00',
      timezone: 'Europe/Paris',
      cost: '15',
      website: 'https://tickets.example.org/jazz',
      venue: hall,
      organizer: [choir, festival],
      categories: [jazz],
      tags: [family],
      image: picture,
      featured: true,
      show_map: true,
    })
  ).id;
  const marathon = (
    await post('events', {
      title: 'City Marathon',
      description: 'Runners from all over the world.',
      start_date: '2027-05-01 07:30:00',
      end_date: '2027-05-03 18:00:00',
      timezone: 'America/New_York',
      cost: 'Free',
      venue: park,
      organizer: [festival],
      categories: [music, theatre],
      tags: [outdoor, family],
      sticky: true,
    })
  ).id;
  const fair = (
    await post('events', {
      title: 'Cherry Blossom Fair',
      description: '<p>Hanami under the trees.</p>',
      start_date: '2027-04-02 00:00:00',
      end_date: '2027-04-02 23:59:59',
      all_day: true,
      timezone: 'Asia/Tokyo',
      cost: '0',
      tags: [outdoor],
    })
  ).id;
  const rehearsal = (
    await post('events', {
      title: 'Dress rehearsal',
      status: 'draft',
      start_date: '2027-03-10 18:00:00',
      end_date: '2027-03-10 21:00:00',
      timezone: 'Europe/Paris',
      venue: hall,
      categories: [theatre],
    })
  ).id;
  const secret = (
    await post('events', {
      title: 'Members-only preview',
      description: 'Not in the listings.',
      start_date: '2027-03-11 18:00:00',
      end_date: '2027-03-11 20:00:00',
      timezone: 'Europe/Paris',
      hide_from_listings: true,
      venue: hall,
    })
  ).id;
  return {
    picture,
    music,
    jazz,
    theatre,
    family,
    outdoor,
    hall,
    park,
    choir,
    festival,
    concert,
    marathon,
    fair,
    rehearsal,
    secret,
  };
}

/** The remote id the sync linked a local record to. */
export function remoteIdOf(pair: WordPressPair, kind: string, localId: number): number {
  const store = pair.local.engine.store;
  const key = store.syncKeys('link:').find((entry) => entry.endsWith(`|${kind}:${localId}`));
  const link = key ? (store.syncState(key) as { remoteId: number | null }) : undefined;
  if (!link?.remoteId) throw new Error(`${kind} ${localId} is not linked to the site`);
  return link.remoteId;
}

/**
 * The posts of a WordPress type as the site stores them (`context=edit`: raw content, any status). Events: the
 * upcoming ones only (the plugin keeps past events out of WordPress' own list).
 */
export async function sitePosts(site: WordPressPeer, type: string): Promise<PeerResult['body'][]> {
  const answer = await site.api(`wp/v2/${type}?context=edit&status=any&per_page=100`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}
