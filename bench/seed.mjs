#!/usr/bin/env node
// Seeds a data folder with a realistic calendar: node bench/seed.mjs --events 10000 --data /tmp/cal [--seed 7]
// Prints one JSON line: the sample ids the benchmark uses, the counts, the file size and the time it took.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { loadTs } from './lib/loadTs.mjs';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '1000' },
    data: { type: 'string' },
    seed: { type: 'string' },
    now: { type: 'string' },
  },
});
if (!values.data) {
  console.error('usage: node bench/seed.mjs --events N --data DIR [--seed S] [--now ISO-DATE]');
  process.exit(2);
}
const events = Number(values.events);
if (!Number.isInteger(events) || events < 0) {
  console.error(`--events must be a whole number, not "${values.events}"`);
  process.exit(2);
}

const { seedDataFolder } = await loadTs('bench/seedData.ts');
const started = performance.now();
const result = await seedDataFolder(resolve(values.data), {
  events,
  seed: values.seed === undefined ? undefined : Number(values.seed),
  now: values.now === undefined ? undefined : new Date(values.now),
});
const { adminToken: _token, ...summary } = result;
console.log(JSON.stringify({ ...summary, seedMs: Math.round(performance.now() - started) }));
