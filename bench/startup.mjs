#!/usr/bin/env node
// Start-up only (issue 17): seeds one calendar with the benchmark's seed, then starts `calendar-desk serve` on it
// several times and measures, for each start, the time from the spawn to the first answered
// GET /events?per_page=50 (as `npm run bench` does), the resident memory then and a few seconds later (the
// background index build and series extension done), and the CPU time spent. Prints every start and the
// medians, with the machine's load average: compare figures only within one run.
//
//   node bench/startup.mjs [--events 100000] [--runs 7] [--data DIR] [--against OTHER_CHECKOUT] [--profile DIR]
//                          [--floor-events 1000] [--floor-data DIR] [--json FILE]
//
// --data reuses a seeded folder (the seed takes a while at 100,000 events); --against alternates the starts
// with another checkout's build (e.g. a copy of main), so that both face the same load; --profile writes a
// V8 CPU profile of each start (node --cpu-prof) into DIR. Run `npm run build` first: this measures out/.
// --floor-events (issue 32) alternates every start with one on a calendar of that many events (seeded the same
// way, or --floor-data) and reports the ratio of the medians: "the start does not grow with the calendar" is
// that ratio, measured under the same load, whatever the machine. --json writes every start, the medians and the
// ratios to FILE as well (what `npm run bench` reads).
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cpuMsOf, memoryOf, round, runMain, runNode, spawnUntil, stopChild } from './lib/proc.mjs';
import { START_RATIO_TARGET } from './lib/targets.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '7' },
    data: { type: 'string' },
    against: { type: 'string' },
    profile: { type: 'string' },
    'settle-ms': { type: 'string', default: '3000' },
    'floor-events': { type: 'string' },
    'floor-data': { type: 'string' },
    json: { type: 'string' },
  },
});

const checkouts = [root, ...(args.against ? [resolve(args.against)] : [])];
for (const checkout of checkouts) {
  if (!existsSync(join(checkout, 'out', 'main', 'cli.js')))
    throw new Error(`${checkout} is not built: run "npm run build" there first.`);
}

/** The status of one GET (node:http without keep-alive, as the benchmark's first request). */
function statusOf(url) {
  return new Promise((resolveStatus, reject) => {
    const req = request(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolveStatus(res.statusCode));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function start(checkout, dataDir) {
  const flags = args.profile ? ['--cpu-prof', `--cpu-prof-dir=${resolve(args.profile)}`] : [];
  const load = loadavg()[0];
  const started = performance.now();
  const { child, found: apiRoot } = await spawnUntil(
    [...flags, join(checkout, 'bin', 'calendar-desk.js'), 'serve', '--port', '0', '--data', dataDir],
    { cwd: checkout, match: (line) => /API root:\s+(\S+)/.exec(line)?.[1] },
  );
  const listeningMs = performance.now() - started;
  try {
    const status = await statusOf(`${apiRoot}/events?per_page=50`);
    const firstAnswerMs = performance.now() - started;
    const atFirstAnswer = memoryOf(child.pid);
    const cpuMs = cpuMsOf(child.pid);
    await new Promise((resolveWait) => setTimeout(resolveWait, Number(args['settle-ms'])));
    const settled = memoryOf(child.pid);
    if (status !== 200) throw new Error(`the first list was answered with ${status}`);
    return {
      firstAnswerMs: Math.round(firstAnswerMs),
      listeningMs: Math.round(listeningMs),
      cpuMs,
      rssMB: atFirstAnswer?.rssMB,
      settledRssMB: settled?.rssMB,
      load: round(load, 2),
    };
  } finally {
    await stopChild(child);
  }
}

const median = (values) => {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** A data folder with `events` events: `given` when set, else a fresh seed (recorded in `seeded` for removal). */
async function dataFolder(given, events, seeded) {
  if (given) return resolve(given);
  const folder = await mkdtemp(join(tmpdir(), 'calendar-desk-startup-'));
  seeded.push(folder);
  console.log(`Seeding ${Number(events).toLocaleString('en-US')} events into ${folder}…`);
  await runNode([join(root, 'bench', 'seed.mjs'), '--events', events, '--data', folder], { cwd: root });
  return folder;
}

async function main() {
  const seeded = [];
  try {
    const dataDir = await dataFolder(args.data, args.events, seeded);
    const floorDir =
      args['floor-events'] || args['floor-data']
        ? await dataFolder(args['floor-data'], args['floor-events'] ?? '1000', seeded)
        : undefined;
    // Each side a checkout on a data folder; with a floor, the starts alternate, each run in the other order.
    const sides = checkouts.flatMap((checkout) => [
      { label: checkout, checkout, dataDir },
      ...(floorDir ? [{ label: `${checkout} (floor: ${floorDir})`, checkout, dataDir: floorDir }] : []),
    ]);
    const results = new Map(sides.map((side) => [side.label, []]));
    for (let run = 0; run < Number(args.runs); run++) {
      for (const side of run % 2 ? [...sides].reverse() : sides) {
        const result = await start(side.checkout, side.dataDir);
        results.get(side.label).push(result);
        console.log(`${side.label}: ${JSON.stringify(result)}`);
      }
    }
    /** What --json writes: each side's starts and median first answer, and each checkout's ratio to its floor. */
    const report = { sides: {}, ratios: {} };
    console.log('\nmedians: first answer ms (listening ms), CPU ms, RSS MB at first answer → settled');
    const medianOf = (label, key) => median(results.get(label).map((result) => result[key]));
    for (const [label, runs] of results) {
      const of = (key) => medianOf(label, key);
      report.sides[label] = { starts: runs, medianFirstAnswerMs: of('firstAnswerMs') };
      console.log(
        `  ${label}: ${of('firstAnswerMs')} (${of('listeningMs')}), CPU ${of('cpuMs')}, ` +
          `RSS ${of('rssMB')} → ${of('settledRssMB')} [${runs.map((result) => result.firstAnswerMs).join(' ')}]`,
      );
    }
    if (floorDir) {
      for (const checkout of checkouts) {
        const big = results.get(checkout);
        const floor = results.get(`${checkout} (floor: ${floorDir})`);
        const pairs = big.map((result, at) => round(result.firstAnswerMs / floor[at].firstAnswerMs, 2));
        const ratio = round(
          medianOf(checkout, 'firstAnswerMs') / median(floor.map((r) => r.firstAnswerMs)),
          2,
        );
        console.log(
          `  start ratio ${checkout}: ${ratio}× the floor's (target ≤ ${START_RATIO_TARGET}×; per pair ${pairs.join(' ')})`,
        );
        report.ratios[checkout] = {
          ratio,
          pairs,
          medianFirstAnswerMs: {
            calendar: medianOf(checkout, 'firstAnswerMs'),
            floor: median(floor.map((r) => r.firstAnswerMs)),
          },
        };
      }
    }
    const loads = [...results.values()].flat().map((result) => result.load);
    console.log(`load average (1 min) during the starts: ${Math.min(...loads)} to ${Math.max(...loads)}`);
    if (args.json) await writeFile(args.json, `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    for (const folder of seeded) await rm(folder, { recursive: true, force: true });
  }
}

runMain('startup', main);
