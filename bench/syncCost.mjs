#!/usr/bin/env node
// `npm run bench:sync` (issue 32 item 3): does a two-way sync with another Calendar Desk cost what changed, not
// what the calendar holds? A 10,000-event laptop (bench/seedData.ts) and a hub served by `calendar-desk serve`
// holding the same calendar (a copy of the folder: the first sync adopts every record by uid), then, in-process as
// the CLI runs it: 5 two-way syncs with nothing changed, and one after 10 events were renamed on the laptop and 10
// on the hub. Targets: unchanged ≤ 1 s; with 10 changes ≤ 1.5× that. The load average is printed beside.
// Writes bench/results/sync-cost-latest.json. Run `npm run build` first: the hub serves out/.
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
    events: { type: 'string', default: '10000' },
    changes: { type: 'string', default: '10' },
    out: { type: 'string', default: join(root, 'bench', 'results', 'sync-cost-latest.json') },
  },
});
const EVENTS = Number(args.events);
const CHANGES = Number(args.changes);

const work = await mkdtemp(join(tmpdir(), 'calendar-desk-bench-sync-'));
const { seedDataFolder } = await loadTs('bench/seedData.ts');
const { openCalendar, syncWithHub, editLocally } = await loadTs('bench/syncCostRun.ts');
const laptopDir = join(work, 'laptop');
const hubDir = join(work, 'hub');
process.stderr.write(`seeding ${EVENTS} events…\n`);
const seeded = await seedDataFolder(laptopDir, { events: EVENTS, seed: 5 });
await cp(laptopDir, hubDir, { recursive: true });
const port = await freePort();
const hub = spawn(
  process.execPath,
  [join(root, 'bin', 'calendar-desk.js'), 'serve', '--data', hubDir, '--port', String(port)],
  {
    stdio: 'ignore',
  },
);
const hubRoot = `http://127.0.0.1:${port}/wp-json/`;
await listening(`http://127.0.0.1:${port}/`);
const token = seeded.adminToken;

const store = await openCalendar(laptopDir);
const timed = async (what) => {
  const started = performance.now();
  const report = await syncWithHub(store, hubRoot, token);
  const ms = performance.now() - started;
  if (report.failures.length)
    throw new Error(`${what}: ${report.failures.length} failures, first: ${report.failures[0].message}`);
  process.stderr.write(`${what}: ${Math.round(ms)} ms, ${report.operations.length} operations\n`);
  return { ms, operations: report.operations.length, conflicts: report.conflicts.length };
};
const first = await timed('first sync (adopting every record)');
const unchanged = [];
for (let run = 0; run < 5; run++) unchanged.push(await timed(`unchanged ${run + 1}`));

// 10 events renamed here, 10 others on the hub through its REST API.
await editLocally(store, CHANGES, '(edited here)');
const listed = await (
  await fetch(`${hubRoot}cal/events/v1/events?per_page=50&page=3`, {
    headers: { Authorization: `Bearer ${token}` },
  })
).json();
let hubEdits = 0;
for (const event of listed.events) {
  if (hubEdits >= CHANGES || event.recurrence?.length) continue;
  const answer = await fetch(`${hubRoot}cal/events/v1/events/${event.id}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ description: `${event.description} (edited on the hub)` }),
  });
  if (answer.status === 200) hubEdits++;
}
const withChanges = await timed(`${CHANGES} + ${hubEdits} changes`);

await store.close();
await new Promise((resolve) => {
  hub.once('exit', resolve);
  hub.kill('SIGTERM');
});
await rm(work, { recursive: true, force: true, maxRetries: 5 });

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const unchangedMs = median(unchanged.map((one) => one.ms));
const result = {
  events: EVENTS,
  load: loadavg().map((value) => Number(value.toFixed(2))),
  firstSyncMs: Math.round(first.ms),
  unchangedMs: unchanged.map((one) => Math.round(one.ms)),
  unchangedTargetMs: 1000,
  changes: {
    here: CHANGES,
    hub: hubEdits,
    ms: Math.round(withChanges.ms),
    operations: withChanges.operations,
  },
  changedRatio: Number((withChanges.ms / unchangedMs).toFixed(2)),
  changedRatioTarget: 1.5,
};
await mkdir(join(root, 'bench', 'results'), { recursive: true });
await writeFile(args.out, `${JSON.stringify(result, null, 2)}\n`);
const met = (ok) => (ok ? 'met' : 'NOT met');
console.log(`Sync with another Calendar Desk, ${EVENTS} events, load ${result.load.join(' ')}`);
console.log(`  first sync (adopting every record): ${result.firstSyncMs} ms`);
console.log(
  `  unchanged two-way sync: ${result.unchangedMs.join(', ')} ms (target ≤ 1000 ms: ${met(unchangedMs <= 1000)})`,
);
console.log(
  `  with ${CHANGES} changes here and ${hubEdits} on the hub: ${result.changes.ms} ms, ${result.changedRatio}× the unchanged (target ≤ 1.5×: ${met(result.changedRatio <= 1.5)})`,
);
