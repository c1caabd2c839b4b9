#!/usr/bin/env node
// `npm run bench:wordpress`: the push of a realistic 1,000-event calendar (bench/seed.mjs: venues, organizers,
// categories, tags, pictures by address) to the real WordPress + The Events Calendar site started by
// ../shared/peer/wordpress-peer.sh, against a minimal client that creates 1,000 plain events on the same site with
// 4 requests in flight, in two scenarios, each on a fresh site of its own: the push alone (one way, to a site with
// none of its events), and the push with the import of the 1,000 foreign events the minimal client put there first
// (two-way). After the push alone, an unchanged two-way sync is timed against reading the site's lists (issue 32
// item 3: a sync with nothing changed costs what reading the site costs). Reports each time, their ratio (target: push ≤ 1.25× the client), the load average, and the requests
// the push made by route with the time php-fpm took for them (nginx's log of the site, timed).
// Writes bench/results/wordpress-latest.json. Figures vary with the machine's load: compare the ratios.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const PEER_SCRIPT = join(root, '..', 'shared', 'peer', 'wordpress-peer.sh');
const CLI = join(root, 'bin', 'calendar-desk.js');
const run = promisify(execFile);
const TARGET_RATIO = 1.25;

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '4' },
    out: { type: 'string', default: join(root, 'bench', 'results', 'wordpress-latest.json') },
    build: { type: 'boolean', default: true },
    only: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
  allowNegative: true,
});
if (args.help) {
  console.log(
    'usage: npm run bench:wordpress [-- --events 1000 --concurrency 4 --out FILE --no-build --only push-alone|push-and-import]',
  );
  process.exit(0);
}
if (!existsSync(PEER_SCRIPT)) {
  console.error(
    `bench:wordpress needs the real site: ${PEER_SCRIPT} is missing (../shared/peer beside the clone)`,
  );
  process.exit(2);
}
const EVENTS = Number(args.events);
const CONCURRENCY = Number(args.concurrency);

/** A free loopback port. */
const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const say = (line) => console.error(`[bench:wordpress] ${line}`);
const seconds = (ms) => Math.round(ms / 100) / 10;

/**
 * Starts one real site (its own PEER_DIR under `work`) and has nginx time every request: a log line per request
 * with its route, status and the time php-fpm took to answer it ($request_time), read by {@link requestsSince}.
 */
async function startSite(work, name) {
  const peerDir = join(work, name);
  const port = await freePort();
  const env = { ...process.env, PEER_DIR: peerDir, WP_TIMEZONE: 'Europe/Rome' };
  const stop = () => run('bash', [PEER_SCRIPT, 'stop'], { env }).catch(() => undefined);
  say(`starting the real site ${name} on 127.0.0.1:${port}`);
  try {
    const { stdout } = await run('bash', [PEER_SCRIPT, String(port)], { env, maxBuffer: 16 * 1024 * 1024 });
    const [restRoot, adminAuth] = stdout.trim().split('\n').slice(-2);
    const [user, password] = Buffer.from(adminAuth.replace(/^Basic\s+/, ''), 'base64')
      .toString('utf8')
      .split(/:(.*)/s);
    const conf = join(peerDir, 'etc', 'nginx.conf');
    const timedLog = join(peerDir, 'log', 'timed-access.log');
    const text = await readFile(conf, 'utf8');
    await writeFile(
      conf,
      text.replace(
        /access_log [^;]+;/,
        `log_format timed '$request_method $request_uri $status $request_time'; access_log ${timedLog} timed;`,
      ),
    );
    await run('nginx', ['-p', peerDir, '-c', conf, '-s', 'reload']);
    // The reload is done once a request shows in the new log.
    for (let tries = 0; tries < 50 && !existsSync(timedLog); tries++) {
      await (await fetch(restRoot)).arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return {
      restRoot,
      user,
      password,
      timedLog,
      stop,
      authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Where the site's timed log ends now (requests after it are the next phase's). */
const logMark = async (site) => (existsSync(site.timedLog) ? (await stat(site.timedLog)).size : 0);

/**
 * The requests the site answered since `mark`, by method and route (ids as N, uploads' names as F): how many,
 * and the seconds php-fpm spent on them in all. The busiest routes first.
 */
async function requestsSince(site, mark) {
  const text = (await readFile(site.timedLog)).subarray(mark).toString('utf8');
  const routes = new Map();
  let total = 0;
  let seconds = 0;
  for (const line of text.split('\n')) {
    const [method, uri, status, time] = line.split(' ');
    if (!time) continue;
    const route = `${method} ${uri
      .replace(/\?.*/, '')
      .replace(/^\/wp-json\//, '')
      .replace(/\/\d+(?=\/|$)/g, '/N')
      .replace(/\/wp-content\/uploads\/.*/, '/wp-content/uploads/F')}`;
    const entry = routes.get(route) ?? { route, count: 0, seconds: 0, statuses: {} };
    entry.count++;
    entry.seconds += Number(time);
    entry.statuses[status] = (entry.statuses[status] ?? 0) + 1;
    routes.set(route, entry);
    total++;
    seconds += Number(time);
  }
  return {
    requests: total,
    phpSeconds: Math.round(seconds * 10) / 10,
    routes: [...routes.values()]
      .sort((a, b) => b.seconds - a.seconds)
      .map((entry) => ({ ...entry, seconds: Math.round(entry.seconds * 10) / 10 })),
  };
}

/** A minimal client: `count` plain events, CONCURRENCY requests in flight. Answers the milliseconds it took. */
async function plainClient(site, count, offset) {
  const createPlain = async (index) => {
    const day = new Date(Date.UTC(2027, 0, 1) + (index % 700) * 86_400_000).toISOString().slice(0, 10);
    const response = await fetch(`${site.restRoot}tribe/events/v1/events`, {
      method: 'POST',
      headers: { Authorization: site.authorization, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        title: `Plain event ${index}`,
        start_date: `${day} 19:00:00`,
        end_date: `${day} 21:00:00`,
      }),
    });
    await response.arrayBuffer();
    if (response.status !== 201) throw new Error(`plain create answered HTTP ${response.status}`);
  };
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await createPlain(offset + next++);
    }),
  );
  return performance.now() - started;
}

/** The collections a sync reads from the site, with the queries it reads them with (all time, hidden ones too). */
const LISTS = [
  'events?start_date=1900-01-01%2000:00:00&end_date=2200-12-31%2023:59:59&show_hidden=true&',
  'venues?',
  'organizers?',
  'categories?hide_empty=false&',
  'tags?hide_empty=false&',
];

/**
 * The floor of an unchanged sync with the site (issue 32 item 3): reading every page of the lists a sync reads,
 * 50 records a page, 4 pages in flight, and doing nothing with them. Returns the ms it took.
 */
async function plainListing(site) {
  const started = performance.now();
  for (const list of LISTS) {
    for (let page = 1, full = true; full; page += CONCURRENCY) {
      const answers = await Promise.all(
        Array.from({ length: CONCURRENCY }, async (_, index) => {
          const response = await fetch(
            `${site.restRoot}tribe/events/v1/${list}per_page=50&page=${page + index}`,
            { headers: { Authorization: site.authorization } },
          );
          const body = await response.json();
          return response.status === 200 ? (Object.values(body).find(Array.isArray)?.length ?? 0) : 0;
        }),
      );
      full = answers.every((count) => count === 50);
    }
  }
  return performance.now() - started;
}

/**
 * Two-way syncs of a calendar already on the site with nothing changed on either side, alternating with the
 * plain listing (the floor): the ms of each, the operations each planned.
 */
async function unchangedSyncs(site, dataDir, runs = 3) {
  // The first settles what the push left (the site's warm-up events are imported): not timed.
  await syncRun(site, dataDir, []);
  const syncs = [];
  const listings = [];
  let routes = [];
  for (let run = 0; run < runs; run++) {
    listings.push(Math.round(await plainListing(site)));
    const mark = await logMark(site);
    const sync = await syncRun(site, dataDir, []);
    routes = (await requestsSince(site, mark)).routes;
    syncs.push({ ms: sync.ms, checkReadAndPlanMs: sync.checkReadAndPlanMs, operations: sync.operations });
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const syncMs = median(syncs.map((sync) => sync.ms));
  const listingMs = median(listings);
  return { syncs, listings, ratio: Math.round((syncMs / listingMs) * 100) / 100, lastSyncRoutes: routes };
}

/** A freshly seeded EVENTS-event calendar in `dataDir`, its pictures served from `picturesOrigin`. */
async function seedCalendar(dataDir, picturesOrigin) {
  const seeded = await run(
    process.execPath,
    [join(root, 'bench', 'seed.mjs'), '--events', String(EVENTS), '--data', dataDir],
    { cwd: root, maxBuffer: 16 * 1024 * 1024 },
  );
  const file = join(dataDir, 'calendar.json');
  await writeFile(
    file,
    (await readFile(file, 'utf8')).replaceAll('https://images.example.org', picturesOrigin),
  );
  // The store trusts a file it wrote itself by its recorded size: this one is changed, so have it checked.
  await rm(join(dataDir, 'calendar.json.written'), { force: true });
  return JSON.parse(seeded.stdout.trim().split('\n').at(-1)).counts;
}

/** `calendar-desk sync` of `dataDir` to the site, timed; `extra`: more options (a direction). */
async function syncRun(site, dataDir, extra) {
  const started = performance.now();
  let readMs = null;
  const push = await new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        CLI,
        'sync',
        '--data',
        dataDir,
        '--remote',
        site.restRoot,
        '--namespace',
        'tribe/events/v1',
        '--user',
        site.user,
        // The seed has venues and organizers of one name: kept apart on the site (renamed), as a user would.
        '--keep-apart',
        '--json',
        ...extra,
      ],
      {
        cwd: root,
        env: { ...process.env, CALENDAR_DESK_REMOTE_PASSWORD: site.password },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    // Progress lines: the first ('start') comes once the site was checked and read and the plan made.
    child.stderr.on('data', (chunk) => {
      err += chunk;
      if (readMs === null && err.includes('"type":"start"')) readMs = performance.now() - started;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        resolve({ code, report: JSON.parse(out) });
      } catch {
        reject(new Error(`sync exited ${code} without a report: ${err.slice(-2000)}`));
      }
    });
  });
  const ms = performance.now() - started;
  const { summary, failures = [] } = push.report;
  // Events sent: the plan's event operations that did not fail (the site's own lists hide past events).
  const failedEvents = failures.filter((failure) => failure.kind === 'event').length;
  const sent = push.report.operations.filter(
    (operation) => operation.kind === 'event' && operation.type === 'create',
  ).length;
  return {
    ms: Math.round(ms),
    checkReadAndPlanMs: readMs === null ? null : Math.round(readMs),
    exitStatus: push.code,
    summary,
    failures: failures.length,
    firstFailures: failures
      .slice(0, 3)
      .map((failure) => `${failure.kind} "${failure.title}": ${failure.message}`),
    eventsSent: sent - failedEvents,
    operations: push.report.operations.length,
  };
}

const load = () => loadavg().map((value) => Math.round(value * 100) / 100);

/**
 * One scenario on a site of its own: the minimal client's 1,000 plain events and the push of the seeded
 * calendar, timed in the same run. `importing`: the plain events are made first, so the push (two-way) also
 * imports them all; otherwise the push goes first, one way (`--push-only`), to a site with only the
 * warm-up's events.
 */
async function scenario(work, name, importing, picturesOrigin) {
  const dataDir = join(work, `${name}-data`);
  const counts = await seedCalendar(dataDir, picturesOrigin);
  const site = await startSite(work, name);
  try {
    const loadBefore = load();
    say(`${name}: warming the site up (20 plain events)`);
    await plainClient(site, 20, 100_000);
    const minimal = async () => {
      say(`${name}: minimal client: ${EVENTS} plain events, ${CONCURRENCY} in flight`);
      const mark = await logMark(site);
      const ms = await plainClient(site, EVENTS, 0);
      minimalPhpSeconds = (await requestsSince(site, mark)).phpSeconds;
      say(`  ${seconds(ms)} s, ${minimalPhpSeconds} s in php-fpm`);
      return ms;
    };
    let minimalPhpSeconds = 0;
    const minimalFirst = importing ? await minimal() : null;
    say(`${name}: calendar-desk sync${importing ? '' : ' --push-only'} (the whole seeded calendar)`);
    const mark = await logMark(site);
    const push = await syncRun(site, dataDir, importing ? [] : ['--push-only']);
    const requests = await requestsSince(site, mark);
    say(`  ${seconds(push.ms)} s (exit ${push.exitStatus}), ${requests.requests} requests`);
    let unchanged = null;
    if (!importing) {
      say(`${name}: two-way syncs with nothing changed, against reading the site's lists`);
      unchanged = await unchangedSyncs(site, dataDir);
      say(
        `  syncs ${unchanged.syncs.map((sync) => sync.ms).join(', ')} ms; lists ${unchanged.listings.join(', ')} ms`,
      );
    }
    const minimalMs = minimalFirst ?? (await minimal());
    const ratio = Math.round((push.ms / minimalMs) * 1000) / 1000;
    const handled = push.eventsSent + (push.summary.imported ?? 0);
    const eventRequests = requests.routes
      .filter((entry) => /tribe\/events\/v1\/events|wp\/v2\/tribe_events/.test(entry.route))
      .reduce((sum, entry) => sum + entry.count, 0);
    const delivered = push.exitStatus === 0 && push.eventsSent === EVENTS;
    return {
      name,
      loadAverage: { before: loadBefore, after: load() },
      seeded: counts,
      minimalClient: {
        ms: Math.round(minimalMs),
        perEventMs: Math.round((minimalMs / EVENTS) * 10) / 10,
        phpSeconds: minimalPhpSeconds,
      },
      push: {
        ...push,
        requests: requests.requests,
        requestsPerEvent: Math.round((eventRequests / Math.max(1, handled)) * 100) / 100,
        phpSeconds: requests.phpSeconds,
        routes: requests.routes.slice(0, 12),
      },
      ratio,
      target: { ratio: TARGET_RATIO, met: ratio <= TARGET_RATIO && delivered },
      unchanged,
    };
  } finally {
    await site.stop();
  }
}

async function main() {
  if (args.build) {
    say('building the CLI (electron-vite build)');
    await run('npx', ['electron-vite', 'build'], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  }
  const work = await mkdtemp('/tmp/calendar-desk-bench-wp-');
  await chmod(work, 0o755);
  let pictures;
  try {
    // The seed's pictures are addresses on images.example.org; served here instead (from another port: WordPress
    // refuses to download from its own host), so the site fetches them as it would from the web.
    const jpeg = join(work, 'picture.jpg');
    await run('php', ['-r', `$i = imagecreatetruecolor(640, 400); imagejpeg($i, '${jpeg}', 80);`]);
    const pictureBytes = await readFile(jpeg);
    pictures = createServer((request, response) => {
      response.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Length': pictureBytes.length });
      response.end(pictureBytes);
    });
    // WordPress downloads from 127.0.0.1 on ports 80, 443 and 8080 only: 8080 when it is free, so the site
    // really fetches each picture (else any port, and the site refuses them: each event arrives without it).
    const listen = (port) =>
      new Promise((resolve, reject) => {
        pictures.once('error', reject);
        pictures.listen(port, '127.0.0.1', () => {
          pictures.off('error', reject);
          resolve();
        });
      });
    await listen(8080).catch(() => listen(0));
    const picturesOrigin = `http://127.0.0.1:${pictures.address().port}`;
    if (pictures.address().port !== 8080)
      say(`port 8080 is taken: pictures served from ${picturesOrigin}, which the site refuses to fetch`);

    const scenarios = [];
    for (const name of args.only ? [args.only] : ['push-alone', 'push-and-import'])
      scenarios.push(await scenario(work, name, name === 'push-and-import', picturesOrigin));
    const result = {
      date: new Date().toISOString(),
      events: EVENTS,
      concurrency: CONCURRENCY,
      picturesFetchable: pictures.address().port === 8080,
      scenarios,
    };
    await mkdir(join(root, 'bench', 'results'), { recursive: true });
    await writeFile(args.out, `${JSON.stringify(result, null, 2)}\n`);
    const lines = [
      'site: WordPress + The Events Calendar (../shared/peer), php-fpm with 4 workers, a fresh site per scenario',
    ];
    for (const { name, loadAverage, seeded: counts, minimalClient, push, ratio, target } of scenarios) {
      lines.push(
        `${name}   (load average ${loadAverage.before.join(' ')} before, ${loadAverage.after.join(' ')} after)`,
        `  minimal client  ${EVENTS} plain events, ${CONCURRENCY} in flight   ${seconds(minimalClient.ms)} s  (${minimalClient.perEventMs} ms an event), ${minimalClient.phpSeconds} s in php-fpm`,
        `  push            ${EVENTS} events + ${counts.venues} venues, ${counts.organizers} organizers, ${counts.categories} categories, ${counts.tags} tags, ${counts.media} pictures   ${seconds(push.ms)} s`,
        `                  created ${push.summary.created}, imported ${push.summary.imported ?? 0}, failed ${push.summary.failed}, pictures uploaded ${push.summary.uploaded}; events sent ${push.eventsSent} of ${EVENTS}; exit ${push.exitStatus}`,
        `                  checking and reading the site and planning ${seconds(push.checkReadAndPlanMs ?? 0)} s; ${push.requests} requests (${push.requestsPerEvent} an event sent or imported), ${push.phpSeconds} s in php-fpm`,
        ...push.routes
          .slice(0, 6)
          .map((entry) => `                    ${entry.count} × ${entry.route}  ${entry.seconds} s`),
        `  ratio push / minimal client: ${ratio}×   [${target.met ? 'met' : 'NOT met'}] target ≤ ${TARGET_RATIO}×` +
          (push.exitStatus === 0 && push.eventsSent === EVENTS
            ? ''
            : ' (the push did not deliver every event: see the failures)'),
        ...push.firstFailures.map((line) => `  failure: ${line}`),
      );
      const { unchanged } = scenarios.find((one) => one.name === name);
      if (unchanged)
        lines.push(
          `  unchanged two-way sync  ${unchanged.syncs.map((sync) => `${seconds(sync.ms)} s (${sync.operations} operations)`).join(', ')}`,
          `  reading the site's lists (the floor)  ${unchanged.listings.map((ms) => `${seconds(ms)} s`).join(', ')}   ratio ${unchanged.ratio}×`,
          ...unchanged.lastSyncRoutes
            .slice(0, 6)
            .map((entry) => `                    ${entry.count} × ${entry.route}  ${entry.seconds} s`),
        );
    }
    console.log(lines.join('\n'));
  } finally {
    pictures?.close();
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`[bench:wordpress] failed: ${error.stack ?? error}`);
  process.exit(1);
});
