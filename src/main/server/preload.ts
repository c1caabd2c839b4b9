import { preloadHtmlModules } from '../core/html';
import { preloadBodyParser } from './middleware/body';

/**
 * Loads what only writes need (the body parser, the HTML sanitizer: about 150 ms of module loading), once the
 * server has answered and indexed what it must: left to the first write, that load stalled every request
 * arriving behind it (the mixed load's p99 at 100,000 events was that one stall).
 */
export async function preloadWritePath(): Promise<void> {
  await preloadBodyParser();
  // One module per turn of the event loop: a request arriving meanwhile waits for one load, not for all.
  await new Promise((resolve) => setImmediate(resolve));
  await preloadHtmlModules();
}
