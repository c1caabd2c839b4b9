#!/usr/bin/env node
// `npm run bench:caldav` (issue 30 item 5): Calendar Desk's CalDAV server against Debian's Radicale holding the same
// events, in one run, the two sides alternating, the same client (Node's fetch) for both:
// - a full first sync: PROPFIND depth 1 (ETags), then calendar-multiget of every resource in batches of 100
//   (target: Calendar Desk ≥ 3× Radicale's resources per second);
// - an unchanged sync-collection from a fresh token, repeated 600 times (target: p99 ≤ 20 ms), beside Radicale's
//   (60 times: it takes ~0.5 s an answer);
// - a change made through the REST API reaches the next sync-collection (checked; the bench fails otherwise).
// Then the sync with a CalDAV calendar as the remote (bench/caldavRemote.mjs). Figures vary with the load (printed):
// compare the ratios. Writes bench/results/caldav-latest.json. Run `npm run build` first: this serves out/.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadTs } from './lib/loadTs.mjs';
import { freePort, listening } from './lib/servers.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '3' },
    reports: { type: 'string', default: '600' },
    remote: { type: 'boolean', default: true },
    out: { type: 'string', default: join(root, 'bench', 'results', 'caldav-latest.json') },
  },
  allowNegative: true,
});
const EVENTS = Number(args.events);
const RUNS = Number(args.runs);
const REPORTS = Number(args.reports);
const FIRST_SYNC_TARGET = 3;
const UNCHANGED_P99_TARGET_MS = 20;
if (!existsSync(join(root, 'out', 'main', 'cli.js'))) {
  console.error('bench:caldav serves the built app: run "npm run build" first.');
  process.exit(2);
}

const xml = (body) => `<?xml version="1.0" encoding="utf-8"?>${body}`;
const NS = 'xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"';

const work = await mkdtemp(join(tmpdir(), 'calendar-desk-bench-caldav-'));
const children = [];
process.on('exit', () => children.forEach((child) => child.kill('SIGTERM')));

// Calendar Desk with the seeded calendar, served as users run it.
const { seedDataFolder } = await loadTs('bench/seedData.ts');
const dataDir = join(work, 'data');
process.stderr.write(`seeding ${EVENTS} events…\n`);
const seeded = await seedDataFolder(dataDir, { events: EVENTS, seed: 11 });
const deskPort = await freePort();
const desk = spawn(
  process.execPath,
  [join(root, 'bin', 'calendar-desk.js'), 'serve', '--data', dataDir, '--port', String(deskPort)],
  {
    stdio: 'ignore',
    env: { ...process.env, CALENDAR_DESK_NO_BROWSER: '1' },
  },
);
children.push(desk);
const deskOrigin = `http://127.0.0.1:${deskPort}`;
await listening(`${deskOrigin}/`);
const deskSide = {
  name: 'Calendar Desk',
  calendar: `${deskOrigin}/dav/calendars/admin/events/`,
  headers: { Authorization: `Bearer ${seeded.adminToken}` },
};

// Radicale holding the same resources, written into its storage folder as its own PUTs would leave them.
const radicalePort = await freePort();
const login = 'bench';
const password = 'bench-secret-1';
await writeFile(join(work, 'users'), `${login}:${password}\n`);
const radicaleSide = {
  name: 'Radicale',
  calendar: `http://127.0.0.1:${radicalePort}/${login}/events/`,
  headers: { Authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` },
};

async function propfind(side) {
  const answer = await fetch(side.calendar, {
    method: 'PROPFIND',
    headers: { ...side.headers, Depth: '1', 'Content-Type': 'application/xml' },
    body: xml(`<d:propfind ${NS}><d:prop><d:getetag/></d:prop></d:propfind>`),
  });
  if (answer.status !== 207) throw new Error(`${side.name} PROPFIND: HTTP ${answer.status}`);
  const text = await answer.text();
  return [...text.matchAll(/<(?:\w+:)?href>([^<]+\.ics)<\/(?:\w+:)?href>/g)].map((match) => match[1]);
}
async function multiget(side, hrefs) {
  const texts = [];
  for (let at = 0; at < hrefs.length; at += 100) {
    const batch = hrefs.slice(at, at + 100);
    const answer = await fetch(side.calendar, {
      method: 'REPORT',
      headers: { ...side.headers, Depth: '1', 'Content-Type': 'application/xml' },
      body: xml(
        `<c:calendar-multiget ${NS}><d:prop><d:getetag/><c:calendar-data/></d:prop>${batch.map((href) => `<d:href>${href}</d:href>`).join('')}</c:calendar-multiget>`,
      ),
    });
    if (answer.status !== 207) throw new Error(`${side.name} multiget: HTTP ${answer.status}`);
    const text = await answer.text();
    texts.push(
      ...text
        .split(/<(?:\w+:)?calendar-data[^>]*>/)
        .slice(1)
        .map((part) => part.split(/<\/(?:\w+:)?calendar-data>/)[0]),
    );
  }
  return texts;
}
async function firstSync(side) {
  const started = performance.now();
  const hrefs = await propfind(side);
  const texts = await multiget(side, hrefs);
  const ms = performance.now() - started;
  return { ms, resources: texts.length, perSecond: (texts.length / ms) * 1000, texts };
}
async function syncCollection(side, token) {
  const answer = await fetch(side.calendar, {
    method: 'REPORT',
    headers: { ...side.headers, Depth: '0', 'Content-Type': 'application/xml' },
    body: xml(
      `<d:sync-collection ${NS}><d:sync-token>${token}</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`,
    ),
  });
  if (answer.status !== 207) throw new Error(`${side.name} sync-collection: HTTP ${answer.status}`);
  const text = await answer.text();
  return {
    token:
      /<(?:\w+:)?sync-token>([^<]+)<\/(?:\w+:)?sync-token>\s*<\/(?:\w+:)?multistatus>/.exec(text)?.[1] ??
      /<(?:\w+:)?sync-token>([^<]+)</.exec(text)?.[1],
    hrefs: [...text.matchAll(/<(?:\w+:)?href>([^<]+\.ics)<\/(?:\w+:)?href>/g)].map((match) => match[1]),
  };
}

// Radicale gets what Calendar Desk serves, resource for resource.
process.stderr.write('copying the calendar into Radicale…\n');
const served = await firstSync(deskSide);
const collection = join(work, 'collections', 'collection-root', login, 'events');
await mkdir(collection, { recursive: true });
await writeFile(
  join(collection, '.Radicale.props'),
  JSON.stringify({ tag: 'VCALENDAR', 'D:displayname': 'events' }),
);
const unescape = (text) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#13;/g, '\r')
    .replace(/&amp;/g, '&');
await Promise.all(
  served.texts.map((text, index) => writeFile(join(collection, `r${index}.ics`), unescape(text))),
);
const radicale = spawn(
  '/usr/bin/radicale',
  [
    '--server-hosts',
    `127.0.0.1:${radicalePort}`,
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
children.push(radicale);
await listening(`http://127.0.0.1:${radicalePort}/`);

// Warm-up (caches, first compilations), not counted.
for (const side of [deskSide, radicaleSide]) await firstSync(side);

const first = { 'Calendar Desk': [], Radicale: [] };
for (let run = 0; run < RUNS; run++)
  for (const side of run % 2 ? [radicaleSide, deskSide] : [deskSide, radicaleSide]) {
    const result = await firstSync(side);
    first[side.name].push(result);
    process.stderr.write(
      `run ${run + 1} ${side.name}: ${result.resources} resources in ${Math.round(result.ms)} ms\n`,
    );
  }

const p99 = (values) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(values.length * 0.99) - 1)];
const unchanged = {};
const tokens = {};
for (const side of [deskSide, radicaleSide]) {
  // A client starting afresh asks with an empty token, then follows the one it got.
  let { token } = await syncCollection(side, '');
  const times = [];
  // Radicale takes ~0.5 s an answer at 10,000 events: fewer of its answers give its p99 well enough.
  for (let index = 0; index < (side === radicaleSide ? Math.min(REPORTS, 60) : REPORTS); index++) {
    const started = performance.now();
    const answer = await syncCollection(side, token);
    times.push(performance.now() - started);
    if (answer.hrefs.length)
      throw new Error(`${side.name}: an unchanged sync-collection listed ${answer.hrefs.length} changes`);
    token = answer.token ?? token;
  }
  tokens[side.name] = token;
  unchanged[side.name] = times;
}

// A change through the REST API reaches the next sync-collection.
const event = (
  await (
    await fetch(`${deskOrigin}/wp-json/cal/events/v1/events?per_page=1`, { headers: deskSide.headers })
  ).json()
).events[0];
const changed = await fetch(`${deskOrigin}/wp-json/cal/events/v1/events/${event.id}`, {
  method: 'POST',
  headers: { ...deskSide.headers, 'Content-Type': 'application/json' },
  body: JSON.stringify({ title: `${event.title} (changed by the bench)` }),
});
if (changed.status !== 200) throw new Error(`the REST change failed: HTTP ${changed.status}`);
const after = await syncCollection(deskSide, tokens['Calendar Desk']);
const restChangeSeen = after.hrefs.length >= 1;
if (!restChangeSeen)
  throw new Error('a change made through the REST API did not reach the next sync-collection');

const stopped = (child) =>
  new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
await Promise.all([stopped(desk), stopped(radicale)]);
await rm(work, { recursive: true, force: true, maxRetries: 5 });

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const deskRate = median(first['Calendar Desk'].map((one) => one.perSecond));
const radicaleRate = median(first.Radicale.map((one) => one.perSecond));
const result = {
  events: EVENTS,
  resources: served.resources,
  load: loadavg().map((value) => Number(value.toFixed(2))),
  firstSyncMs: Object.fromEntries(
    Object.entries(first).map(([name, runs]) => [name, runs.map((one) => Math.round(one.ms))]),
  ),
  firstSyncPerSecond: { 'Calendar Desk': Math.round(deskRate), Radicale: Math.round(radicaleRate) },
  firstSyncRatio: Number((deskRate / radicaleRate).toFixed(2)),
  firstSyncTarget: FIRST_SYNC_TARGET,
  unchangedP99Ms: Object.fromEntries(
    Object.entries(unchanged).map(([name, times]) => [name, Number(p99(times).toFixed(1))]),
  ),
  unchangedMedianMs: Object.fromEntries(
    Object.entries(unchanged).map(([name, times]) => [name, Number(median(times).toFixed(1))]),
  ),
  unchangedWorstMs: Object.fromEntries(
    Object.entries(unchanged).map(([name, times]) => [
      name,
      [...times]
        .sort((a, b) => b - a)
        .slice(0, 5)
        .map((ms) => Number(ms.toFixed(1))),
    ]),
  ),
  unchangedWorstAt: Object.fromEntries(
    Object.entries(unchanged).map(([name, times]) => [
      name,
      times
        .map((ms, index) => [ms, index])
        .sort((a, b) => b[0] - a[0])
        .slice(0, 5)
        .map(([, index]) => index),
    ]),
  ),
  unchangedP99TargetMs: UNCHANGED_P99_TARGET_MS,
  restChangeSeen,
};
await mkdir(join(root, 'bench', 'results'), { recursive: true });
await writeFile(args.out, `${JSON.stringify(result, null, 2)}\n`);
const met = (ok) => (ok ? 'met' : 'NOT met');
console.log(`CalDAV server, ${EVENTS} events (${served.resources} resources), load ${result.load.join(' ')}`);
console.log(
  `  first sync (PROPFIND + multiget by 100), ms: Calendar Desk ${result.firstSyncMs['Calendar Desk'].join(', ')}; Radicale ${result.firstSyncMs.Radicale.join(', ')}`,
);
console.log(
  `  resources/s (medians): ${result.firstSyncPerSecond['Calendar Desk']} vs ${result.firstSyncPerSecond.Radicale}: ${result.firstSyncRatio}× (target ≥ ${FIRST_SYNC_TARGET}×: ${met(result.firstSyncRatio >= FIRST_SYNC_TARGET)})`,
);
console.log(
  `  unchanged sync-collection p99: Calendar Desk ${result.unchangedP99Ms['Calendar Desk']} ms, Radicale ${result.unchangedP99Ms.Radicale} ms (target ≤ ${UNCHANGED_P99_TARGET_MS} ms: ${met(result.unchangedP99Ms['Calendar Desk'] <= UNCHANGED_P99_TARGET_MS)})`,
);
console.log(`  a REST change reaches the next sync-collection: ${restChangeSeen ? 'yes' : 'NO'}`);
if (args.remote) {
  console.log('');
  await new Promise((resolve, reject) => {
    const remote = spawn(process.execPath, [join(root, 'bench', 'caldavRemote.mjs')], { stdio: 'inherit' });
    remote.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`bench/caldavRemote.mjs exited with ${code}`)),
    );
  });
}
