// Load generation with autocannon, in the benchmark's own process (the servers run in child processes).
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { cpuMsOf, inTurns, round, waitIdle } from './proc.mjs';

/**
 * Runs autocannon against `url` and summarises it. It starts once the processes of `idle` have finished any
 * work an earlier run left (requests it abandoned), so that nothing spills into this measurement.
 * `maxSeconds` stops a run that has an `amount` early (slow servers); `pid` (the server's) adds the share
 * of a core the server used during the run.
 */
export async function runLoad({ url, pid, idle = [], maxSeconds, ...options }) {
  for (const idlePid of idle) await waitIdle(idlePid);
  const cpuBefore = pid ? cpuMsOf(pid) : null;
  const started = performance.now();
  return await new Promise((resolve, reject) => {
    let timer;
    let lastAnswerAt;
    const instance = autocannon({ url, timeout: 60, ...options }, (error, result) => {
      clearTimeout(timer);
      if (error) return reject(error);
      // Up to the last answer: autocannon notices that an `amount` is done only at its next 1-second tick.
      const wallMs = (lastAnswerAt ?? performance.now()) - started;
      const cpuAfter = pid ? cpuMsOf(pid) : null;
      const ok = result['2xx'] ?? 0;
      resolve({
        // Answers over the measured time (autocannon's own `duration` counts whole seconds).
        requestsPerSecond: round(result.requests.total / (wallMs / 1000), 1),
        answered2xx: ok,
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
        statusCodes: Object.fromEntries(
          Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, Number(count)]),
        ),
        latencyMs: {
          p50: result.latency.p50,
          p90: result.latency.p90,
          p99: result.latency.p99,
          max: result.latency.max,
          mean: round(result.latency.mean, 2),
        },
        bytesPerSecond: Math.round(result.throughput.average),
        seconds: round(wallMs / 1000, 2),
        connections: result.connections,
        // The machine's 1-minute load average as the run ended: other work skews every absolute figure.
        loadAverage: round(loadavg()[0], 2),
        serverCpuShare:
          cpuBefore !== null && cpuAfter !== null ? round((cpuAfter - cpuBefore) / wallMs, 2) : null,
      });
    });
    instance.on('response', () => {
      lastAnswerAt = performance.now();
    });
    if (maxSeconds) timer = setTimeout(() => instance.stop(), maxSeconds * 1000);
  });
}

/**
 * Two sides loaded in turn (`[{ url, pid, requests? }]`, the same `options` for both): `rounds` rounds, each side
 * `duration / rounds` seconds of every round (whole seconds, at least one), so that a noisy spell of the machine
 * falls on both (issue 32: "alternating the two sides"). Each side's requests/s is its answers over its measured
 * time; its latency the worst round's; `rounds` keeps every round.
 */
export async function alternatingLoads({ sides, rounds, duration, ...options }) {
  const seconds = Math.max(1, Math.round(duration / rounds));
  const runs = await inTurns(sides, rounds, (side) => runLoad({ ...options, ...side, duration: seconds }));
  return runs.map((sideRuns) => {
    const totalSeconds = sideRuns.reduce((sum, run) => sum + run.seconds, 0);
    const answers = sideRuns.reduce((sum, run) => sum + run.requestsPerSecond * run.seconds, 0);
    const worst = sideRuns.reduce((a, b) => (b.latencyMs.p99 > a.latencyMs.p99 ? b : a));
    const sum = (key) => sideRuns.reduce((total, run) => total + (run[key] ?? 0), 0);
    return {
      ...worst,
      requestsPerSecond: round(answers / totalSeconds, 1),
      answered2xx: sum('answered2xx'),
      non2xx: sum('non2xx'),
      errors: sum('errors'),
      timeouts: sum('timeouts'),
      statusCodes: sideRuns.reduce((codes, run) => {
        for (const [code, count] of Object.entries(run.statusCodes)) codes[code] = (codes[code] ?? 0) + count;
        return codes;
      }, {}),
      bytesPerSecond: Math.round(
        sideRuns.reduce((total, run) => total + run.bytesPerSecond * run.seconds, 0) / totalSeconds,
      ),
      seconds: round(totalSeconds, 2),
      serverCpuShare: sideRuns.every((run) => run.serverCpuShare !== null)
        ? round(
            sideRuns.reduce((total, run) => total + run.serverCpuShare * run.seconds, 0) / totalSeconds,
            2,
          )
        : null,
      rounds: sideRuns.map((run) => ({ requestsPerSecond: run.requestsPerSecond, p99: run.latencyMs.p99 })),
    };
  });
}
