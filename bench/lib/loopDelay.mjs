// Preloaded into the server under test (`node --import bench/lib/loopDelay.mjs …`, issue 32): watches the
// server's own event loop with perf_hooks.monitorEventLoopDelay, and on SIGUSR2 prints what it saw since the
// previous signal as one stdout line, `loop-delay {"maxMs":…,"p99Ms":…,"meanMs":…}`, then starts afresh.
// The app's code knows nothing of it: the bench brackets a part of its run with two signals.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
const ms = (nanoseconds) => Math.round(nanoseconds / 1e5) / 10;

process.on('SIGUSR2', () => {
  const seen = { maxMs: ms(histogram.max), p99Ms: ms(histogram.percentile(99)), meanMs: ms(histogram.mean) };
  histogram.reset();
  process.stdout.write(`loop-delay ${JSON.stringify(seen)}\n`);
});
