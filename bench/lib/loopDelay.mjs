// Preloaded into the server under test (`node --import bench/lib/loopDelay.mjs …`, issue 32): watches the
// server's own event loop with perf_hooks.monitorEventLoopDelay, and on SIGUSR2 prints what it saw since the
// previous signal as one stdout line, `loop-delay {"maxMs":…,"p99Ms":…,"meanMs":…,"holds":[…],"gc":{…}}`, then
// starts afresh. The app's code knows nothing of it: the bench brackets a part of its run with two signals.
//
// `holds` are the five longest times the loop did not turn (a 5 ms timer's lateness), each with the garbage
// collector's pauses inside it, so a report says whether a long delay was the collector or the app's own code;
// `gc` sums the collector's pauses by kind over the same span.
import { constants, monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
const ms = (nanoseconds) => Math.round(nanoseconds / 1e5) / 10;
const round = (milliseconds) => Math.round(milliseconds * 10) / 10;

const GC_KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'markCompact',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incrementalMarking',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakCallbacks',
};

/** The collector's pauses since the last report: `{start, duration, kind}` (performance-timeline ms). */
let pauses = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    pauses.push({
      start: entry.startTime,
      duration: entry.duration,
      kind: GC_KINDS[entry.detail?.kind] ?? 'other',
    });
  }
}).observe({ entryTypes: ['gc'] });

/** Times the loop was held past `HOLD_MS`: `{start, ms}`, the longest kept. */
const TICK_MS = 5;
const HOLD_MS = 20;
let holds = [];
let lastTick = performance.now();
setInterval(() => {
  const now = performance.now();
  const late = now - lastTick - TICK_MS;
  if (late > HOLD_MS) {
    // `atUs`: the monotonic clock in microseconds, the clock of a `--cpu-prof` profile's samples.
    const atUs = Math.round(Number(process.hrtime.bigint() / 1000n) - late * 1000);
    holds.push({ start: lastTick + TICK_MS, ms: late, atUs });
  }
  lastTick = now;
}, TICK_MS).unref();

function gcInside(start, end) {
  const inside = pauses.filter((pause) => pause.start < end && pause.start + pause.duration > start);
  return {
    gcMs: round(inside.reduce((sum, pause) => sum + pause.duration, 0)),
    gcKinds: [...new Set(inside.map((pause) => pause.kind))],
  };
}

process.on('SIGUSR2', () => {
  const longest = holds
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 5)
    .map((hold) => ({ ms: round(hold.ms), ...gcInside(hold.start, hold.start + hold.ms), atUs: hold.atUs }));
  const gc = {};
  for (const pause of pauses) {
    const kind = (gc[pause.kind] ??= { count: 0, totalMs: 0, longestMs: 0 });
    kind.count += 1;
    kind.totalMs = round(kind.totalMs + pause.duration);
    kind.longestMs = round(Math.max(kind.longestMs, pause.duration));
  }
  const seen = {
    maxMs: ms(histogram.max),
    p99Ms: ms(histogram.percentile(99)),
    meanMs: ms(histogram.mean),
    holds: longest,
    gc,
  };
  histogram.reset();
  holds = [];
  pauses = [];
  process.stdout.write(`loop-delay ${JSON.stringify(seen)}\n`);
});
