import { execFile } from 'node:child_process';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeWithPeer,
  PEER_START_TIMEOUT_MS,
  startWordPressPeer,
  type WordPressPeer,
} from '../helpers/wordpressPeer';
import { startTestServer, type TestServer } from '../helpers/server';
import { exportCsv, type CsvKind } from '../../src/main/exchange/csv';

const run = promisify(execFile);
const IMPORT_CSV = new URL('../../../shared/peer/import-csv.sh', import.meta.url).pathname;

interface SiteEvent {
  id: number;
  title: string;
  utc_start_date: string;
  utc_end_date: string;
  start_date: string;
  timezone: string;
  all_day: boolean;
  featured: boolean;
  sticky: boolean;
  hide_from_listings: boolean;
  cost: string;
  website: string;
  venue: Record<string, unknown> | unknown[];
  organizer: { organizer: string; email: string }[];
  categories: { name: string }[];
  tags: { name: string }[];
}

/**
 * What we export, the plugin's own CSV importer takes as it is: its import screen pre-selects every column
 * (`auto` mode: what a user gets without touching the dropdowns), and the site stores every field, instants
 * included. The site runs in Berlin time; the events are in other zones.
 */
describeWithPeer("our CSV files through the plugin's own importer on the real site", () => {
  let peer: WordPressPeer;
  let local: TestServer;
  const imports: Record<string, string> = {};
  const importCsv = async (kind: CsvKind) => {
    const type = { venues: 'venue', organizers: 'organizer', events: 'events' }[kind];
    const file = join(peer.dir, `${kind}.csv`);
    await writeFile(file, exportCsv(local.engine.store, kind));
    await chmod(file, 0o644);
    const { stdout } = await run('bash', [IMPORT_CSV, type, file, 'auto'], {
      env: { ...process.env, PEER_DIR: peer.dir, PEER_PORT: String(peer.port) },
      timeout: 120_000,
    });
    return stdout;
  };

  beforeAll(async () => {
    [peer, local] = await Promise.all([startWordPressPeer({ timezone: 'Europe/Berlin' }), startTestServer()]);
    const post = async (path: string, json: Record<string, unknown>) => {
      const answer = await local.api(path, { method: 'POST', auth: local.admin, json });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body as { id: number };
    };
    const hall = await post('venues', {
      venue: 'Town Hall',
      address: '1 Main Street',
      city: 'Springfield',
      country: 'United States',
      state: 'IL',
      stateprovince: 'IL',
      zip: '62701',
      phone: '+1 217 555 0100',
      website: 'https://townhall.example.org/',
      description: 'The big hall upstairs',
    });
    const board = await post('organizers', {
      organizer: 'Choir Board',
      email: 'board@example.org',
      phone: '555-0101',
      website: 'https://choir.example.org/',
    });
    const friends = await post('organizers', { organizer: 'Friends of Music', email: 'friends@example.org' });
    await post('events', {
      title: 'Evening concert in New York',
      description: 'Bach and Britten',
      start_date: '2027-05-01 19:30:00',
      end_date: '2027-05-01 21:00:00',
      timezone: 'America/New_York',
      venue: hall.id,
      organizer: [board.id, friends.id],
      featured: true,
      sticky: true,
      categories: ['Concerts'],
      tags: ['Evening'],
      cost: '15',
      website: 'https://choir.example.org/concert',
    });
    await post('events', {
      title: 'Morning recital in Tokyo',
      start_date: '2027-05-02 10:00:00',
      end_date: '2027-05-02 11:30:00',
      timezone: 'Asia/Tokyo',
      hide_from_listings: true,
      organizer: [board.id],
    });
    await post('events', {
      title: 'Harvest festival',
      start_date: '2027-09-18',
      end_date: '2027-09-19',
      all_day: true,
      timezone: 'Europe/London',
      venue: hall.id,
    });

    // Venues and organizers first: the importer links an event only to ones that exist (by exact name).
    for (const kind of ['venues', 'organizers', 'events'] as const) imports[kind] = await importCsv(kind);
  }, PEER_START_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.all([peer?.stop(), local?.close()]);
  });

  it('the import screen pre-selects every column, and the importer has no column we do not write', () => {
    for (const kind of ['venues', 'organizers', 'events']) {
      const report = imports[kind]!;
      expect(report, report).toMatch(/^DONE/m);
      expect(report, report).not.toMatch(/Do Not Import/);
      expect(report, report).toMatch(/^unused importer fields: $/m);
      expect(report, report).toMatch(/^failed rows: (\[\]|false)$/m);
      expect(report, report).toMatch(/"skipped":0/);
    }
  });

  // Each event by its id, on both sides: the lists leave out what is hidden from listings.
  const localEvents = async () =>
    Promise.all(
      [...local.engine.store.events.values()].map(
        async ({ id }) => (await local.api(`events/${id}`)).body as SiteEvent,
      ),
    );
  const siteEvents = async (): Promise<SiteEvent[]> => {
    const ids = (await peer.api('wp/v2/tribe_events?per_page=50&status=any&context=edit')).body as {
      id: number;
    }[];
    return Promise.all(
      ids.map(async ({ id }) => {
        const answer = await peer.api(`tribe/events/v1/events/${id}`);
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        return answer.body as SiteEvent;
      }),
    );
  };

  it('every event arrives once, at the same instant, in its own zone, with its flags', async () => {
    const site = await siteEvents();
    const here = await localEvents();
    expect(site.map((event) => event.title).sort()).toEqual(here.map((event) => event.title).sort());
    for (const event of here) {
      const there = site.find((candidate) => candidate.title === event.title)!;
      const fields = (e: SiteEvent) => ({
        start: e.all_day ? e.start_date.slice(0, 10) : e.utc_start_date,
        end: e.all_day ? undefined : e.utc_end_date,
        timezone: e.timezone,
        all_day: e.all_day,
        featured: e.featured,
        sticky: e.sticky,
        hide_from_listings: e.hide_from_listings,
        categories: e.categories.map((term) => term.name),
        tags: e.tags.map((term) => term.name),
      });
      expect(fields(there), event.title).toEqual(fields(event));
    }
    const concert = site.find((event) => event.title === 'Evening concert in New York')!;
    expect(concert.utc_start_date).toBe('2027-05-01 23:30:00');
    expect(concert.cost).toMatch(/15/);
    expect(concert.website).toBe('https://choir.example.org/concert');
    // Not all-day stays not all-day (the importer reads our FALSE as false).
    expect(site.filter((event) => event.all_day).map((event) => event.title)).toEqual(['Harvest festival']);
  });

  it('events are linked to the venue and both organizers, which keep their details', async () => {
    const site = await siteEvents();
    const concert = site.find((event) => event.title === 'Evening concert in New York')!;
    expect(concert.organizer.map((organizer) => organizer.organizer).sort()).toEqual([
      'Choir Board',
      'Friends of Music',
    ]);
    expect(concert.organizer.find((o) => o.organizer === 'Choir Board')?.email).toBe('board@example.org');
    const recital = site.find((event) => event.title === 'Morning recital in Tokyo')!;
    expect(recital.organizer.map((organizer) => organizer.organizer)).toEqual(['Choir Board']);
    expect(recital.venue).toEqual([]);
    const venue = concert.venue as Record<string, unknown>;
    expect(venue).toMatchObject({
      venue: 'Town Hall',
      address: '1 Main Street',
      city: 'Springfield',
      country: 'United States',
      stateprovince: 'IL',
      zip: '62701',
      phone: '+1 217 555 0100',
      website: 'https://townhall.example.org/',
    });
    const festival = site.find((event) => event.title === 'Harvest festival')!;
    expect((festival.venue as Record<string, string>).venue).toBe('Town Hall');
    // One venue and two organizers on the site: the events' names found the imported ones.
    const venues = (await peer.api('tribe/events/v1/venues?per_page=50')).body.venues as unknown[];
    const organizers = (await peer.api('tribe/events/v1/organizers?per_page=50')).body
      .organizers as unknown[];
    expect(venues).toHaveLength(1);
    expect(organizers).toHaveLength(2);
  });

  it("importing the same events file again, the site's importer updates the timed events instead of adding them", async () => {
    const timed = (events: SiteEvent[]) => events.filter((event) => !event.all_day).map((event) => event.id);
    const before = timed(await siteEvents());
    const report = await importCsv('events');
    expect(timed(await siteEvents()).sort()).toEqual(before.sort());
    // The plugin (6.17) looks for an all-day event with `_EventAllDay = yes` but stores `1`: it adds the all-day
    // event again, whatever the file says (our own import matches it by its day).
    expect(report, report).toMatch(/"updated":2,"created":1,"skipped":0/);
  });
});
