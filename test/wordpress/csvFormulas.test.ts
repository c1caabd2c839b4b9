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
const TITLE = '=HYPERLINK("http://x","y")';

/**
 * A CSV whose formula-like cells our export wrote behind a quote (issue 26, item 7): the original plugin's own
 * CSV importer (Events → Import → CSV, driven as its admin screen does by ../shared/peer/import-csv.sh) still
 * takes the file.
 */
describeWithPeer("a neutralised CSV through the plugin's own importer on the real site", () => {
  let peer: WordPressPeer;
  let local: TestServer;
  const reports: Record<string, string> = {};
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
    [peer, local] = await Promise.all([startWordPressPeer(), startTestServer()]);
    const post = async (path: string, json: Record<string, unknown>) => {
      const answer = await local.api(path, { method: 'POST', auth: local.admin, json });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    };
    await post('venues', { venue: '@Hall', city: 'Springfield', phone: '+1 217 555 0100' });
    await post('events', {
      title: TITLE,
      description: 'Bring =SUM(1+1) friends',
      start_date: '2027-05-01 19:30:00',
      end_date: '2027-05-01 21:00:00',
      venue: { venue: '@Hall' },
      cost: '-12.5',
    });
    for (const kind of ['venues', 'events'] as const) reports[kind] = await importCsv(kind);
  }, PEER_START_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.all([peer?.stop(), local?.close()]);
  });

  it('the importer takes every row of the file', () => {
    for (const report of Object.values(reports)) {
      expect(report, report).toMatch(/^DONE/m);
      expect(report, report).toMatch(/^failed rows: (\[\]|false)$/m);
      expect(report, report).toMatch(/"skipped":0/);
    }
    expect(reports.events, reports.events).toMatch(/"created":1/);
  });

  it('the site keeps our quote as part of the text: the title begins with a quote, not a formula', async () => {
    const list = (await peer.api('wp/v2/tribe_events?per_page=50&status=any&context=edit')).body as {
      id: number;
      title: { raw: string };
    }[];
    // The importer stores the cell as it is: the quote stays in the post title (there is no un-quoting).
    expect(list.map((event) => event.title.raw)).toEqual([`'${TITLE}`]);
    const event = (await peer.api(`tribe/events/v1/events/${list[0]!.id}`)).body as {
      title: string;
      venue: { venue: string; phone: string };
    };
    // As the site shows it: WordPress turns the straight quotes typographic (‘ “ ”), the text after them as written.
    expect(event.title).toBe('&#8216;=HYPERLINK(&#8220;http://x&#8221;,&#8221;y&#8221;)');
    // The event is linked to the venue of the same (quoted) name, which the venue file created.
    expect(event.venue.venue).toBe('&#8216;@Hall');
    // A phone number is no formula: written, and stored, without a quote.
    expect(event.venue.phone).toBe('+1 217 555 0100');
    const venues = (await peer.api('wp/v2/tribe_venue?per_page=50&status=any&context=edit')).body as {
      title: { raw: string };
    }[];
    expect(venues.map((venue) => venue.title.raw)).toEqual(["'@Hall"]);
  });

  it('a plain negative cost is written and stored as it is', async () => {
    const costs = await peer.sql(
      "SELECT meta_value FROM wp_postmeta WHERE meta_key = '_EventCost' AND post_id IN (SELECT ID FROM wp_posts WHERE post_type = 'tribe_events')",
    );
    expect(costs.trim().split('\n').slice(1)).toEqual(['-12.5']);
  });
});
