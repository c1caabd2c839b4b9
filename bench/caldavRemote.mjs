#!/usr/bin/env node
// Part of `npm run bench:caldav`: the sync with a CalDAV calendar (issue 31) against Debian's Radicale, in one run:
// - the first push of a realistic 1,000-event calendar (bench/seedData.ts) against a minimal client PUTting 1,000
//   plain events with 4 requests in flight to the same server, alternating the two sides, each into a fresh
//   calendar (target: push ≤ 1.25× the client);
// - a two-way sync of those 1,000 events with nothing changed (target ≤ 1 s), repeated;
// with the load average beside. Writes bench/results/caldav-remote-latest.json.
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadTs } from './lib/loadTs.mjs';
import { freePort, listening } from './lib/servers.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '1000' },
    runs: { type: 'string', default: '3' },
    out: { type: 'string', default: join(root, 'bench', 'results', 'caldav-remote-latest.json') },
  },
});
const EVENTS = Number(args.events);
const RUNS = Number(args.runs);
const PUSH_TARGET = 1.25;
const UNCHANGED_TARGET_MS = 1000;

const work = await mkdtemp(join(tmpdir(), 'calendar-desk-bench-caldav-'));
const login = 'bench';
const password = 'bench-secret-1';
const auth = { Authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` };
await writeFile(join(work, 'users'), `${login}:${password}\n`);
const port = await freePort();
const server = `http://127.0.0.1:${port}`;
const radicale = spawn(
  '/usr/bin/radicale',
  [
    '--server-hosts',
    `127.0.0.1:${port}`,
    '--storage-filesystem-folder',
    join(work, 'collections'),
    '--auth-type',
    'htpasswd',
    '--auth-htpasswd-filename',
    join(work, 'users'),
    '--auth-htpasswd-encryption',
    'plain',
  ],
  { stdio: 'ignore' },
);
await listening(server);

let calendars = 0;
async function freshCalendar() {
  const url = `${server}/${login}/calendar-${++calendars}/`;
  const made = await fetch(url, { method: 'MKCALENDAR', headers: auth });
  if (made.status !== 201) throw new Error(`MKCALENDAR ${url}: HTTP ${made.status}`);
  return url;
}

/** The floor: a minimal client creating plain events with `inFlight` PUTs at a time. */
async function minimalClient(calendarUrl, inFlight = 4) {
  const day = new Date().toISOString().slice(0, 10).replace(/-/g, '');
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < EVENTS) {
      const index = next++;
      const uid = `bench-${calendars}-${index}`;
      const body = [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//bench//EN',
        'BEGIN:VEVENT',
        `UID:${uid}`,
        'DTSTAMP:20261101T000000Z',
        `DTSTART:${day}T100000Z`,
        `DTEND:${day}T110000Z`,
        `SUMMARY:Plain event ${index}`,
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n');
      const answer = await fetch(`${calendarUrl}${uid}.ics`, {
        method: 'PUT',
        headers: { ...auth, 'Content-Type': 'text/calendar', 'If-None-Match': '*' },
        body,
      });
      if (answer.status !== 201) throw new Error(`PUT ${uid}: HTTP ${answer.status}`);
      await answer.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return performance.now() - started;
}

const { seedDataFolder } = await loadTs('bench/seedData.ts');
const { openCalendar, syncWithCalendar } = await loadTs('bench/caldavRemoteRun.ts');

const seeded = join(work, 'seeded');
await seedDataFolder(seeded, { events: EVENTS, seed: 7 });

async function withCalendar(dataDir, body) {
  const store = await openCalendar(dataDir);
  try {
    return await body(store);
  } finally {
    await store.close();
  }
}
const syncOnce = (store, calendarUrl) => syncWithCalendar(store, calendarUrl, { user: login, password });

const pushes = [];
const floors = [];
let lastPushed = null;
for (let run = 0; run < RUNS; run++) {
  floors.push(await minimalClient(await freshCalendar()));
  const dataDir = join(work, `push-${run}`);
  await cp(seeded, dataDir, { recursive: true });
  const calendarUrl = await freshCalendar();
  await withCalendar(dataDir, async (store) => {
    const started = performance.now();
    const report = await syncOnce(store, calendarUrl);
    pushes.push(performance.now() - started);
    if (report.failures.length)
      throw new Error(`the push failed for ${report.failures.length} events: ${report.failures[0].message}`);
    process.stderr.write(`run ${run + 1}: push ${report.summary.created} resources\n`);
  });
  lastPushed = { dataDir, calendarUrl };
}

const unchanged = await withCalendar(lastPushed.dataDir, async (store) => {
  const times = [];
  for (let run = 0; run < 5; run++) {
    const started = performance.now();
    const report = await syncOnce(store, lastPushed.calendarUrl);
    times.push(performance.now() - started);
    if (report.operations.length)
      throw new Error(`an unchanged sync planned ${report.operations.length} operations`);
  }
  return times;
});

radicale.kill('SIGTERM');
await rm(work, { recursive: true, force: true });

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const pushRatio = median(pushes) / median(floors);
const result = {
  events: EVENTS,
  runs: RUNS,
  load: loadavg().map((value) => Number(value.toFixed(2))),
  floorMs: floors.map(Math.round),
  pushMs: pushes.map(Math.round),
  pushRatio: Number(pushRatio.toFixed(2)),
  pushTarget: PUSH_TARGET,
  unchangedMs: unchanged.map(Math.round),
  unchangedTargetMs: UNCHANGED_TARGET_MS,
};
await mkdir(join(root, 'bench', 'results'), { recursive: true });
await writeFile(args.out, `${JSON.stringify(result, null, 2)}\n`);
const met = (ok) => (ok ? 'met' : 'NOT met');
console.log(`CalDAV remote (Radicale), ${EVENTS} events, load ${result.load.join(' ')}`);
console.log(`  minimal client, 4 in flight: ${result.floorMs.join(', ')} ms`);
console.log(`  first push:                  ${result.pushMs.join(', ')} ms`);
console.log(
  `  push / client (medians):     ${result.pushRatio}× (target ≤ ${PUSH_TARGET}×: ${met(pushRatio <= PUSH_TARGET)})`,
);
console.log(
  `  unchanged two-way sync:      ${result.unchangedMs.join(', ')} ms (target ≤ ${UNCHANGED_TARGET_MS} ms: ${met(Math.max(...unchanged) <= UNCHANGED_TARGET_MS)})`,
);
