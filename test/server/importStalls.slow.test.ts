import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  partWayCounts,
  startServedCalendar,
  watchedUrls,
  whileWatching,
  type ServedCalendar,
} from '../helpers/stallWatch';
import { bigIcs, csvRows } from '../helpers/bigImports';

// Issue 26 item 3: whatever way a large file comes in, the server keeps answering reads while it is imported,
// previewed, followed, refreshed or undone. The server is `calendar-desk serve` in a child process and a client
// reads one event and asks a path no route answers every 10 ms meanwhile (test/helpers/stallWatch.ts): every read
// is answered, and readers see a large write part-way, between its store changes. (How long a slice holds the
// server is measured by bench/importStalls.mjs, not asserted here: it depends on the machine.)

const ADMIN = 'wp-json/calendar-desk/v1';
const SERIES = 71; // daily series up to the two-year horizon: some 49,000 events, under the 50,000 budget

let served: ServedCalendar;
let site: Server;
let siteBody = '';
beforeAll(async () => {
  served = await startServedCalendar();
  site = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/calendar' });
    response.end(siteBody);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
}, 120_000);
afterAll(async () => {
  site?.close();
  await served?.close();
});

const importBody = (file_name: string, content: string, extra: Record<string, unknown> = {}) => ({
  method: 'POST',
  json: { file_name, content, ...extra },
});
/** How many events the calendar shows (published, any date). */
const liveEvents = async () => {
  const response = await fetch(
    `${served.origin}/wp-json/cal/events/v1/events?per_page=1&start_date=2000-01-01&end_date=2100-01-01`,
    {
      headers: { Authorization: `Bearer ${served.token}` },
    },
  );
  return Number(response.headers.get('X-WP-Total'));
};

/** How many events an anonymous reader's list shows (published, any date): the watched read's count. */
const shownEvents = async (origin: string) =>
  Number((await fetch(watchedUrls(origin).read)).headers.get('X-WP-Total'));

/**
 * Runs `work` watched, and checks that the server answered all the while: no request failed and every read of
 * the calendar was answered (the slowest answers are printed, not asserted: they depend on the machine).
 * `partWay`: the work changes what the calendar shows, and readers saw it part-way (two counts or more between
 * the one before and the one after): it was applied in store changes with answers between them, where one
 * change of it all would have held every read until it was done. `answered`: at least that many requests, each
 * sent once the one before was answered, were answered while the work ran.
 */
async function answeringMeanwhile<T>(
  work: () => Promise<T>,
  expected: { partWay?: boolean; answered?: number },
  origin = served.origin,
): Promise<T> {
  const before = await shownEvents(origin);
  const { result, loop, read } = await whileWatching(origin, work);
  const after = await shownEvents(origin);
  const partWay = partWayCounts(read.meanwhile, before, after);
  console.info(
    `longest stall ${loop.longestMs.toFixed(0)} ms, slowest read ${read.longestMs.toFixed(0)} ms (${read.answers} reads); ` +
      `answered meanwhile: ${loop.meanwhile.length} + ${read.meanwhile.length}, ${partWay.length} counts part-way`,
  );
  expect([...loop.failures, ...read.failures]).toEqual([]);
  expect(read.answers).toBeGreaterThan(1);
  if (expected.partWay) expect(partWay.length, `${before} → ${after}: ${read.meanwhile}`).toBeGreaterThan(1);
  if (expected.answered) expect(loop.meanwhile.length).toBeGreaterThanOrEqual(expected.answered);
  return result;
}

/**
 * A preview writes nothing anyone sees (each slice is taken back before another request is answered): the
 * requests answered while it ran show it let go of the server. This check cannot tell slices from the file's
 * reading, which yields too; test/server/icsImport.hostile.test.ts sees a preview's store changes one by one.
 */
const PREVIEW = { answered: 3 };

describe('a large .ics, the server answering reads meanwhile', () => {
  let importId = '';
  let imported = 0;

  it('previewed (dry_run): it says what the import would do, and nothing is stored', async () => {
    const before = await liveEvents();
    const preview = await answeringMeanwhile(
      () =>
        served.admin(`${ADMIN}/import`, importBody('big.ics', bigIcs(SERIES, 'daily'), { dry_run: true })),
      PREVIEW,
    );
    expect(preview.status, JSON.stringify(preview.body).slice(0, 300)).toBe(200);
    expect(preview.body).toMatchObject({ dry_run: true, events: SERIES });
    expect(preview.body.rows).toHaveLength(SERIES);
    expect(preview.body.rows.every((row: { action: string }) => row.action === 'create')).toBe(true);
    expect(await liveEvents()).toBe(before);
    expect((await served.admin(`${ADMIN}/imports`)).body).toEqual([]);
  }, 180_000);

  it('imported: every date stored, one entry in the history', async () => {
    const before = await liveEvents();
    const result = await answeringMeanwhile(
      () => served.admin(`${ADMIN}/import`, importBody('big.ics', bigIcs(SERIES, 'daily'))),
      { partWay: true },
    );
    expect(result.status, JSON.stringify(result.body).slice(0, 300)).toBe(200);
    imported = (await liveEvents()) - before;
    expect(imported).toBeGreaterThan(SERIES * 690);
    expect(imported).toBeLessThanOrEqual(50_000);
    importId = result.body.import_id;
    const history = (await served.admin(`${ADMIN}/imports`)).body;
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ id: importId, created: imported, undone: false });
  }, 180_000);

  it('undone: every date it created goes to the trash', async () => {
    expect(importId).not.toBe('');
    const before = await liveEvents();
    const undone = await answeringMeanwhile(
      () => served.admin(`${ADMIN}/imports/${importId}/undo`, { method: 'POST' }),
      { partWay: true },
    );
    expect(undone.status, JSON.stringify(undone.body).slice(0, 300)).toBe(200);
    expect(undone.body).toMatchObject({ restored: 0, trashed: imported, kept: [] });
    expect(await liveEvents()).toBe(before - imported);
    expect((await served.admin(`${ADMIN}/imports`)).body[0]).toMatchObject({ id: importId, undone: true });
  }, 180_000);
});

/** How many events of any date the API finds searching for `text`. */
async function eventsTitled(text: string): Promise<number> {
  const found = await fetch(
    `${served.origin}/wp-json/cal/events/v1/events?per_page=1&start_date=2000-01-01&end_date=2100-01-01&search=${encodeURIComponent(text)}`,
    { headers: { Authorization: `Bearer ${served.token}` } },
  );
  return Number(found.headers.get('X-WP-Total'));
}

describe('a large followed address, the server answering reads meanwhile', () => {
  it('followed, then refreshed with every event changed, then emptied: all of it in the calendar as the address says', async () => {
    const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/calendar.ics`;
    const before = await liveEvents();
    siteBody = bigIcs(SERIES, 'followed');
    const followed = await answeringMeanwhile(
      () => served.admin(`${ADMIN}/import-sources`, { method: 'POST', json: { url } }),
      { partWay: true },
    );
    expect(followed.status, JSON.stringify(followed.body).slice(0, 300)).toBe(201);
    const brought = (await liveEvents()) - before;
    expect(brought).toBeGreaterThan(SERIES * 690);

    siteBody = bigIcs(SERIES, 'followed', 'Renamed');
    // Every read answered; not yet the stall bound: a change of a whole series (its 696 dates) is still one
    // store change, which held the server 1.8 to 2.2 s on a machine shared by many test runs (issue 26).
    const { result: refreshed, read } = await whileWatching(served.origin, () =>
      served.admin(`${ADMIN}/import-sources/${followed.body.id}/refresh`, { method: 'POST' }),
    );
    expect(read.failures).toEqual([]);
    expect(refreshed.status, JSON.stringify(refreshed.body).slice(0, 300)).toBe(200);
    expect(refreshed.body.rows.every((row: { action: string }) => row.action === 'update')).toBe(true);
    expect(await liveEvents()).toBe(before + brought);
    expect(await eventsTitled('Renamed')).toBe(brought);

    // What left the address goes to the trash, a slice at a time: the calendar keeps one series of it. (Its
    // dates are counted: a series whose time of day is past the clock's has one date more within the horizon.)
    const kept = await eventsTitled('Renamed followed-0');
    expect(kept).toBeGreaterThan(690);
    siteBody = bigIcs(1, 'followed', 'Renamed');
    const emptied = await answeringMeanwhile(
      () => served.admin(`${ADMIN}/import-sources/${followed.body.id}/refresh`, { method: 'POST' }),
      { partWay: true },
    );
    expect(emptied.status, JSON.stringify(emptied.body).slice(0, 300)).toBe(200);
    expect(emptied.body.rows.filter((row: { action: string }) => row.action === 'trash')).toHaveLength(
      SERIES - 1,
    );
    expect(await liveEvents()).toBe(before + kept);
    expect(await eventsTitled('Renamed followed-0')).toBe(kept);
    expect((await served.admin(`${ADMIN}/import-sources`)).body[0]).toMatchObject({ last_error: null });
  }, 300_000);
});

describe('a large CSV and a JSON dump, the server answering reads meanwhile', () => {
  it('a CSV of 28,000 rows, previewed then imported', async () => {
    const csv = csvRows(28_000);
    const before = await liveEvents();
    const preview = await answeringMeanwhile(
      () => served.admin(`${ADMIN}/import`, importBody('big.csv', csv, { dry_run: true })),
      PREVIEW,
    );
    expect(preview.status, JSON.stringify(preview.body).slice(0, 300)).toBe(200);
    expect(preview.body).toMatchObject({ dry_run: true, events: 28_000 });
    expect(await liveEvents()).toBe(before);
    const result = await answeringMeanwhile(
      () => served.admin(`${ADMIN}/import`, importBody('big.csv', csv)),
      { partWay: true },
    );
    expect(result.status, JSON.stringify(result.body).slice(0, 300)).toBe(200);
    expect(await liveEvents()).toBe(before + 28_000);
  }, 300_000);

  it('a JSON dump as large as the API takes, restored into a new calendar', async () => {
    // Exported from this calendar's CSV rows: a dump of 700 events, restored into a fresh one.
    const source = await startServedCalendar();
    const target = await startServedCalendar();
    try {
      await source.admin(`${ADMIN}/import`, importBody('some.csv', csvRows(700)));
      const exported = await fetch(`${source.origin}/${ADMIN}/export?format=json`, {
        headers: { Authorization: `Bearer ${source.token}` },
      });
      const dump = await exported.text();
      const result = await answeringMeanwhile(
        () => target.admin(`${ADMIN}/import`, importBody('dump.json', dump)),
        // Restored as one store change by design (700 events): every request answered is what it shows.
        {},
        target.origin,
      );
      expect(result.status, JSON.stringify(result.body).slice(0, 300)).toBe(200);
      expect(result.body.events).toBe(700);
    } finally {
      await Promise.all([source.close(), target.close()]);
    }
  }, 180_000);
});
