// Helpers of the benches that start servers: a free loopback port, and waiting until an address answers.
import { createServer } from 'node:net';

/** A free loopback port. */
export const freePort = () =>
  new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

/** Resolves once `url` answers an OPTIONS request (any status); gives up after about a minute. */
export async function listening(url) {
  for (let attempt = 0; ; attempt++) {
    try {
      await fetch(url, { method: 'OPTIONS' });
      return;
    } catch (error) {
      if (attempt > 600) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
