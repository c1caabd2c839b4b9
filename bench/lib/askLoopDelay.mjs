// The asking side of bench/lib/loopDelay.mjs (preloaded into the server under test): one SIGUSR2, then the
// `loop-delay {…}` line the server prints in answer, read from its standard output.

/**
 * What the server's event loop went through since the previous call: `{maxMs, p99Ms, meanMs}`, or null when no
 * answer comes within 5 s (the server was not started with `--import bench/lib/loopDelay.mjs`).
 */
export async function loopDelaySince(child) {
  let output = '';
  const listen = (chunk) => (output += chunk);
  child.stdout.on('data', listen);
  child.kill('SIGUSR2');
  try {
    for (let waited = 0; waited < 5000; waited += 10) {
      const line = output.split('\n').find((text) => text.startsWith('loop-delay '));
      if (line) return JSON.parse(line.slice('loop-delay '.length));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return null;
  } finally {
    child.stdout.off('data', listen);
  }
}
