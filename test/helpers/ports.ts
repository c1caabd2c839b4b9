import { createServer } from 'node:net';

/** A free loopback port (for a server that cannot be asked to pick one itself): taken, then given back. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * `start` on a free port, again on another one (up to `attempts` in all) when it failed in a way `portTaken`
 * recognises: another test's server may take the port between `freePort` giving it back and the server binding it.
 */
export async function onFreePort<T>(
  start: (port: number) => Promise<T>,
  portTaken: (error: Error) => boolean,
  attempts = 3,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (error) {
      if (attempt >= attempts || !(error instanceof Error) || !portTaken(error)) throw error;
    }
  }
}
