#!/usr/bin/env node
// `npm run bench:wordpress`: the push of a realistic 1,000-event calendar (bench/seed.mjs: venues, organizers,
// categories, tags, pictures by address) to the real WordPress + The Events Calendar site started by
// ../shared/peer/wordpress-peer.sh, against a minimal client that creates 1,000 plain events on the same site with
// 4 requests in flight; both in one run. Reports each time and their ratio (target: push ≤ 1.25× the client).
// Writes bench/results/wordpress-latest.json. Figures vary with the machine's load: compare the ratio.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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
    help: { type: 'boolean', short: 'h', default: false },
  },
  allowNegative: true,
});
if (args.help) {
  console.log('usage: npm run bench:wordpress [-- --events 1000 --concurrency 4 --out FILE --no-build]');
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

async function main() {
  if (args.build) {
    say('building the CLI (electron-vite build)');
    await run('npx', ['electron-vite', 'build'], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  }
  const work = await mkdtemp('/tmp/calendar-desk-bench-wp-');
  await chmod(work, 0o755);
  const peerDir = join(work, 'peer');
  const dataDir = join(work, 'data');
  const port = await freePort();
  const peerEnv = { ...process.env, PEER_DIR: peerDir, WP_TIMEZONE: 'Europe/Rome' };
  let pictures;
  try {
    say(`starting the real site on 127.0.0.1:${port}`);
    const { stdout } = await run('bash', [PEER_SCRIPT, String(port)], {
      env: peerEnv,
      maxBuffer: 16 * 1024 * 1024,
    });
    const [restRoot, adminAuth] = stdout.trim().split('\n').slice(-2);
    const [user, password] = Buffer.from(adminAuth.replace(/^Basic\s+/, ''), 'base64')
      .toString('utf8')
      .split(/:(.*)/s);

    // The seed's pictures are addresses on images.example.org; served here instead (from another port: WordPress
    // refuses to download from its own host), so the site fetches them as it would from the web.
    const jpeg = join(work, 'picture.jpg');
    await run('php', ['-r', `$i = imagecreatetruecolor(640, 400); imagejpeg($i, '${jpeg}', 80);`]);
    const pictureBytes = await readFile(jpeg);
    pictures = createServer((request, response) => {
      response.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Length': pictureBytes.length });
      response.end(pictureBytes);
    });
    await new Promise((resolve) => pictures.listen(0, '127.0.0.1', resolve));
    const picturesOrigin = `http://127.0.0.1:${pictures.address().port}`;

    say(`seeding a ${EVENTS}-event calendar`);
    const seeded = await run(
      process.execPath,
      [join(root, 'bench', 'seed.mjs'), '--events', String(EVENTS), '--data', dataDir],
      {
        cwd: root,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const counts = JSON.parse(seeded.stdout.trim().split('\n').at(-1)).counts;
    const file = join(dataDir, 'calendar.json');
    await writeFile(
      file,
      (await readFile(file, 'utf8')).replaceAll('https://images.example.org', picturesOrigin),
    );
    // The store trusts a file it wrote itself by its recorded size: this one is changed, so have it checked.
    await rm(join(dataDir, 'calendar.json.written'), { force: true });

    const authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    const createPlain = async (index) => {
      const day = new Date(Date.UTC(2027, 0, 1) + (index % 700) * 86_400_000).toISOString().slice(0, 10);
      const response = await fetch(`${restRoot}tribe/events/v1/events`, {
        method: 'POST',
        headers: { Authorization: authorization, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          title: `Plain event ${index}`,
          start_date: `${day} 19:00:00`,
          end_date: `${day} 21:00:00`,
        }),
      });
      await response.arrayBuffer();
      if (response.status !== 201) throw new Error(`plain create answered HTTP ${response.status}`);
    };
    const plainClient = async (count, offset) => {
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < count) await createPlain(offset + next++);
        }),
      );
      return performance.now() - started;
    };

    say('warming the site up (20 plain events)');
    await plainClient(20, 100_000);
    say(`minimal client: ${EVENTS} plain events, ${CONCURRENCY} in flight`);
    const minimalMs = await plainClient(EVENTS, 0);
    say(`  ${seconds(minimalMs)} s`);

    say('push: calendar-desk sync --namespace tribe/events/v1 (the whole seeded calendar)');
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
          restRoot,
          '--namespace',
          'tribe/events/v1',
          '--user',
          user,
          '--json',
        ],
        {
          cwd: root,
          env: { ...process.env, CALENDAR_DESK_REMOTE_PASSWORD: password },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      // Progress lines: the first ('start') comes once the site was checked and read and the plan made.
      child.stderr.on('data', (chunk) => {
        if (readMs === null && String(chunk).includes('"type":"start"')) readMs = performance.now() - started;
      });
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, report: JSON.parse(out) }));
    });
    const pushMs = performance.now() - started;
    say(`  ${seconds(pushMs)} s (exit ${push.code})`);

    const { summary, failures = [] } = push.report;
    // Events sent: the plan's event operations that did not fail (the site's own lists hide past events).
    const failedEvents = failures.filter((failure) => failure.kind === 'event').length;
    const pushedEvents =
      push.report.operations.filter((operation) => operation.kind === 'event').length - failedEvents;
    const ratio = Math.round((pushMs / minimalMs) * 1000) / 1000;
    const result = {
      date: new Date().toISOString(),
      loadAverage: loadavg().map((value) => Math.round(value * 100) / 100),
      events: EVENTS,
      concurrency: CONCURRENCY,
      seeded: counts,
      minimalClient: { ms: Math.round(minimalMs), perEventMs: Math.round((minimalMs / EVENTS) * 10) / 10 },
      push: {
        ms: Math.round(pushMs),
        checkReadAndPlanMs: readMs === null ? null : Math.round(readMs),
        exitStatus: push.code,
        summary,
        failures: failures.length,
        firstFailures: failures
          .slice(0, 3)
          .map((failure) => `${failure.kind} "${failure.title}": ${failure.message}`),
        eventsSent: pushedEvents,
      },
      ratio,
      target: {
        ratio: TARGET_RATIO,
        met: ratio <= TARGET_RATIO && push.code === 0 && pushedEvents === EVENTS,
      },
    };
    await mkdir(join(root, 'bench', 'results'), { recursive: true });
    await writeFile(args.out, `${JSON.stringify(result, null, 2)}\n`);
    console.log(
      [
        `site: WordPress + The Events Calendar (../shared/peer), php-fpm with 4 workers, load average ${result.loadAverage.join(' ')}`,
        `minimal client  ${EVENTS} plain events, ${CONCURRENCY} in flight      ${seconds(minimalMs)} s  (${result.minimalClient.perEventMs} ms an event)`,
        `push            ${EVENTS} events + ${counts.venues} venues, ${counts.organizers} organizers, ${counts.categories} categories, ${counts.tags} tags, ${counts.media} pictures   ${seconds(pushMs)} s`,
        `                created ${summary.created}, failed ${summary.failed}, pictures uploaded ${summary.uploaded}; events sent ${pushedEvents} of ${EVENTS}; exit ${push.code}`,
        `                of which checking and reading the site and planning ${seconds(readMs ?? 0)} s`,
        `ratio push / minimal client: ${ratio}×   [${result.target.met ? 'met' : 'NOT met'}] target ≤ ${TARGET_RATIO}×` +
          (push.code === 0 && pushedEvents === EVENTS
            ? ''
            : ' (the push did not deliver every event: see the failures)'),
        ...result.push.firstFailures.map((line) => `  failure: ${line}`),
      ].join('\n'),
    );
  } finally {
    pictures?.close();
    await run('bash', [PEER_SCRIPT, 'stop'], { env: peerEnv }).catch(() => undefined);
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`[bench:wordpress] failed: ${error.stack ?? error}`);
  process.exit(1);
});
