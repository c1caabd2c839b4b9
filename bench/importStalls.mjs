// The server's longest stall during each way of importing a large file (issue 26 item 3: never hold the event
// loop more than ~50 ms at a time). The server runs as `calendar-desk serve` in a child process; while each
// import runs, two clients ask it every 10 ms for a path no route answers (the event loop alone, no disk:
// its slowest answer is the longest stall) and for one event (a read of the calendar, which also waits for
// changes to be on disk); the slowest answer of each is printed (test/helpers/stallWatch.ts). Those clients
// share this process with the import's own request, whose answer (megabytes for a CSV's rows) is read here
// too: the server's own event loop is therefore also watched from inside (bench/lib/loopDelay.mjs,
// perf_hooks.monitorEventLoopDelay), its longest delay printed as `server_loop_ms`.
//
//   node bench/importStalls.mjs [--series 71]
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadTs } from './lib/loadTs.mjs';
import { loopDelaySince } from './lib/askLoopDelay.mjs';

const { startServedCalendar, watchStalls, watchedUrls } = await loadTs('test/helpers/stallWatch.ts');
const { bigIcs, csvRows } = await loadTs('test/helpers/bigImports.ts');

const seriesArg = process.argv.indexOf('--series');
const SERIES = seriesArg > 0 ? Number(process.argv[seriesArg + 1]) : 71;
const ADMIN = 'wp-json/calendar-desk/v1';
const results = [];
const LOOP_DELAY = ['--import', pathToFileURL(join(import.meta.dirname, 'lib', 'loopDelay.mjs')).href];

/** Runs `work` watched by both clients, and notes the slowest answers under `name`. */
async function measure(served, name, work) {
  const urls = watchedUrls(served.origin);
  const page = watchStalls(urls.loop);
  const read = watchStalls(urls.read);
  await new Promise((resolve) => setTimeout(resolve, 50));
  await loopDelaySince(served.child);
  const started = performance.now();
  const result = await work();
  const tookMs = performance.now() - started;
  const serverLoop = await loopDelaySince(served.child);
  const [pageStalls, readStalls] = await Promise.all([page.stop(), read.stop()]);
  const line = {
    path: name,
    status: result.status,
    took_s: (tookMs / 1000).toFixed(1),
    longest_stall_ms: Math.round(pageStalls.longestMs),
    longest_read_ms: Math.round(readStalls.longestMs),
    server_loop_ms: serverLoop ? Math.round(serverLoop.maxMs) : null,
    answers: pageStalls.answers + readStalls.answers,
  };
  results.push(line);
  console.log(JSON.stringify(line));
  if (result.status >= 300) console.log(JSON.stringify(result.body).slice(0, 400));
  return result;
}

const importBody = (file_name, content, extra = {}) => ({
  method: 'POST',
  json: { file_name, content, ...extra },
});

// An address to follow: a local site serving the calendar.
let served = '';
const site = createServer((request, response) => {
  response.writeHead(200, { 'Content-Type': 'text/calendar' });
  response.end(served);
});
await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
const siteUrl = `http://127.0.0.1:${site.address().port}/calendar.ics`;

const first = await startServedCalendar(LOOP_DELAY);
try {
  const ics = bigIcs(SERIES, 'daily');
  console.log(`${SERIES} daily series (${ics.length} bytes), ~${SERIES * 693} events`);
  await measure(first, 'ics import, dry_run', () =>
    first.admin(`${ADMIN}/import`, importBody('big.ics', ics, { dry_run: true })),
  );
  // The first preview right after a start overlaps the server's own start-up work (its indexes, its modules
  // loaded in parts): the second shows the import alone.
  await measure(first, 'ics import, dry_run again', () =>
    first.admin(`${ADMIN}/import`, importBody('big.ics', ics, { dry_run: true })),
  );
  const imported = await measure(first, 'ics import', () =>
    first.admin(`${ADMIN}/import`, importBody('big.ics', ics)),
  );
  await measure(first, 'undo of the ics import', () =>
    first.admin(`${ADMIN}/imports/${imported.body.import_id}/undo`, { method: 'POST' }),
  );
  served = bigIcs(SERIES, 'followed');
  const followed = await measure(first, 'import address: follow', () =>
    first.admin(`${ADMIN}/import-sources`, { method: 'POST', json: { url: siteUrl } }),
  );
  served = bigIcs(SERIES, 'followed', 'Renamed');
  await measure(first, 'import address: refresh (every event changed)', () =>
    first.admin(`${ADMIN}/import-sources/${followed.body.id}/refresh`, { method: 'POST' }),
  );
  served = bigIcs(1, 'followed', 'Renamed');
  await measure(first, 'import address: refresh (all but one series left: trashed)', () =>
    first.admin(`${ADMIN}/import-sources/${followed.body.id}/refresh`, { method: 'POST' }),
  );
} finally {
  await first.close();
}

const second = await startServedCalendar(LOOP_DELAY);
try {
  const csv = csvRows(28_000);
  console.log(`CSV of 28,000 rows (${csv.length} bytes)`);
  await measure(second, 'csv import, dry_run', () =>
    second.admin(`${ADMIN}/import`, importBody('big.csv', csv, { dry_run: true })),
  );
  await measure(second, 'csv import', () => second.admin(`${ADMIN}/import`, importBody('big.csv', csv)));
} finally {
  await second.close();
}

// A JSON dump as large as the API takes (1 MiB), exported from one calendar and restored into a new one.
const source = await startServedCalendar(LOOP_DELAY);
let dump;
try {
  await source.admin(`${ADMIN}/import`, importBody('some.csv', csvRows(700)));
  const exported = await fetch(`${source.origin}/${ADMIN}/export?format=json`, {
    headers: { Authorization: `Bearer ${source.token}` },
  });
  dump = await exported.text();
} finally {
  await source.close();
}
const third = await startServedCalendar(LOOP_DELAY);
try {
  console.log(`JSON dump of 700 events (${dump.length} bytes)`);
  await measure(third, 'json import', () => third.admin(`${ADMIN}/import`, importBody('dump.json', dump)));
} finally {
  await third.close();
  site.close();
}
console.table(results);
