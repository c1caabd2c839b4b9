// Distinct questions, as a real client asks them: the calendar moves window by window, filters and searches
// change, pages turn. No two requests of a run are the same, so the response cache cannot answer them.
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { inTurns, round } from './proc.mjs';

const DAY_MS = 86_400_000;
/** Days the seed spreads events over, centred on today (bench/seedData.ts: 1095). */
const SPAN_DAYS = 1080;
/** Words of the seeded titles: each matches a few percent of the events. */
const SEARCHES = ['night', 'club', 'market', 'park', 'tour', 'concert', 'reading', 'class'];
const CATEGORIES = [
  'music',
  'theatre',
  'workshops',
  'family',
  'sports',
  'talks',
  'exhibitions',
  'food-drink',
];
const TAGS = ['free', 'outdoor', 'indoor', 'kids', 'accessible', 'weekend', 'evening', 'festival'];

/** The shapes a request takes; windows are scaled so that every calendar size fills its pages alike. */
const VARIANTS = [
  { days: 7 },
  { days: 31, page: 2 },
  { days: 7, category: true },
  { days: 31, category: true, page: 2 },
  { days: 31, search: true },
  { days: 14, tag: true },
  { days: 14 },
  { days: 31, page: 3 },
  { days: 14, category: true },
  { days: 92, search: true },
  { days: 31, tag: true },
  { days: 31 },
];

const day = (ms) => new Date(ms).toISOString().slice(0, 10);

/**
 * `path(n)`: the n-th distinct `GET /events?per_page=50` path under `basePath`. Request n takes the variant
 * n mod 12 (the shapes interleave, as a client's questions do: a run of 1,080 requests of one shape, 92-day
 * searches say, measured that shape alone) and, with k = ⌊n / 12⌋, the day offset (k × 37) mod SPAN_DAYS (37 is
 * prime to 1080: every offset once per cycle, spread over the years), so paths are distinct for
 * n < SPAN_DAYS × VARIANTS.length (12,960).
 */
export function distinctQueries({ basePath, events, now = Date.now() }) {
  const first = Math.floor(now / DAY_MS) * DAY_MS - (SPAN_DAYS / 2) * DAY_MS;
  // The same density of events per window as at 100,000 events.
  const scale = Math.max(1, 100_000 / events);
  return {
    capacity: SPAN_DAYS * VARIANTS.length,
    path(n) {
      const variant = VARIANTS[n % VARIANTS.length];
      const k = Math.floor(n / VARIANTS.length);
      const offset = (k * 37) % SPAN_DAYS;
      const start = first + offset * DAY_MS;
      const days = Math.min(SPAN_DAYS, Math.round(variant.days * scale));
      const params = [
        ['per_page', '50'],
        ['start_date', day(start)],
        ['end_date', day(start + days * DAY_MS)],
      ];
      if (variant.page) params.push(['page', String(variant.page)]);
      if (variant.category) params.push(['categories', CATEGORIES[k % CATEGORIES.length]]);
      if (variant.tag) params.push(['tags', TAGS[k % TAGS.length]]);
      if (variant.search) params.push(['search', SEARCHES[k % SEARCHES.length]]);
      return `${basePath}?${new URLSearchParams(params)}`;
    },
  };
}

const percentile = (sorted, p) =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

function latencySummary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, value) => sum + value, 0) / (sorted.length || 1);
  return {
    count: sorted.length,
    p50: round(percentile(sorted, 50) ?? NaN),
    p90: round(percentile(sorted, 90) ?? NaN),
    p99: round(percentile(sorted, 99) ?? NaN),
    max: round(sorted.at(-1) ?? NaN),
    mean: round(mean, 2),
  };
}

/**
 * An open-loop load: request i is sent at `start + i / rate` whatever the answers before it did (autocannon's
 * `overallRate` instead gives each connection a quota per second, sent in a burst at the start of each second,
 * and waits for busy connections: neither is a fixed arrival rate). Latency counts from the planned send time,
 * so a server that falls behind is charged for the queue it builds.
 * `next(i)` returns `{ method, path, headers, body, kind }`.
 */
export async function openLoop({ origin, rate, seconds, next }) {
  const samples = emptySamples();
  await sendAtRate(origin, rate, Math.round(rate * seconds), next, samples);
  return summaryOf(samples, rate);
}

/**
 * The same open-loop arrivals on several sides (`[{ origin, next }]`) in turn: `segments` rounds, each side
 * `seconds / segments` of every round, so that a noisy spell of the machine falls on both (issue 32: "alternating
 * the two sides"). A first round of `warmupSeconds` a side is not counted; `measuring()` is called when the
 * counted rounds begin. One summary per side, in their order.
 */
export async function alternatingOpenLoops({
  sides,
  rate,
  seconds,
  segments,
  warmupSeconds = 1,
  measuring = async () => {},
}) {
  for (const side of sides)
    await sendAtRate(side.origin, rate, Math.round(rate * warmupSeconds), side.next, emptySamples());
  await measuring();
  const collected = sides.map(() => emptySamples());
  const perSegment = Math.round((rate * seconds) / segments);
  await inTurns(sides, segments, (side, index) =>
    sendAtRate(side.origin, rate, perSegment, side.next, collected[index]),
  );
  return collected.map((samples) => summaryOf(samples, rate));
}

const emptySamples = () => ({
  latencies: { all: [], read: [], write: [] },
  statusCodes: {},
  errors: 0,
  lateSends: 0,
  sent: 0,
  wallMs: 0,
});

/** Sends `count` requests at `rate` (the side's request numbers go on from `samples.sent`), and waits for them. */
async function sendAtRate(origin, rate, count, next, samples) {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const { latencies, statusCodes } = samples;
  const started = performance.now();
  const pending = [];
  for (let i = 0; i < count; i++) {
    const plannedAt = started + (i * 1000) / rate;
    const wait = plannedAt - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    if (performance.now() - plannedAt > 5) samples.lateSends++;
    const spec = next(samples.sent + i);
    pending.push(
      new Promise((resolve) => {
        const req = request(
          `${origin}${spec.path}`,
          { method: spec.method, headers: spec.headers, agent },
          (res) => {
            res.on('data', () => undefined);
            res.on('end', () => {
              const ms = performance.now() - plannedAt;
              latencies.all.push(ms);
              latencies[spec.kind].push(ms);
              statusCodes[res.statusCode] = (statusCodes[res.statusCode] ?? 0) + 1;
              resolve();
            });
          },
        );
        req.on('error', () => {
          samples.errors++;
          resolve();
        });
        req.end(spec.body);
      }),
    );
  }
  await Promise.all(pending);
  samples.sent += count;
  samples.wallMs += performance.now() - started;
  agent.destroy();
}

function summaryOf(samples, rate) {
  return {
    rate,
    sent: samples.sent,
    seconds: round(samples.wallMs / 1000, 2),
    statusCodes: samples.statusCodes,
    errors: samples.errors,
    // Sends the generator itself started more than 5 ms late (a busy load generator, not the server).
    lateSends: samples.lateSends,
    loadAverage: round(loadavg()[0], 2),
    latencyMs: latencySummary(samples.latencies.all),
    readLatencyMs: latencySummary(samples.latencies.read),
    writeLatencyMs: latencySummary(samples.latencies.write),
  };
}
