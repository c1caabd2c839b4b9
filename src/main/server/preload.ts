import { setImmediate as nextTurn } from 'node:timers/promises';
import { preloadHtmlModules } from '../core/html';
import { loadInParts } from '../core/modulesInParts';
import { preloadBodyParser } from './middleware/body';

/**
 * The body parser's largest dependencies, each as the module that needs it finds it ([that module, the
 * dependency]): loaded one per turn first, they are taken from Node's cache when the parser is loaded.
 */
const BODY_PARSER_PARTS: Array<[string, string]> = [
  ['side-channel-map', 'get-intrinsic'],
  ['side-channel', 'side-channel-map'],
  ['qs', 'side-channel'],
  ['co-body', 'qs'],
  ['co-body', 'raw-body'],
  ['co-body', 'type-is'],
  ['@koa/bodyparser', 'type-is'],
  ['@koa/bodyparser', 'co-body'],
];

/**
 * Loads what only writes need (the body parser, the HTML sanitizer: about 150 ms of module loading), once the
 * server has answered and indexed what it must: left to the first write, that load stalled every request
 * arriving behind it (the mixed load's p99 at 100,000 events was that one stall). Each in parts, one per turn
 * of the event loop: a request arriving meanwhile waits for one part, not for all (issue 26: the body parser
 * alone was 50-100 ms in one piece).
 */
export async function preloadWritePath(): Promise<void> {
  await loadInParts(BODY_PARSER_PARTS);
  await preloadBodyParser();
  // One module per turn of the event loop: a request arriving meanwhile waits for one load, not for all.
  await nextTurn();
  await preloadHtmlModules();
}
