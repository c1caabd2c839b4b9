import { setImmediate as nextTurn } from 'node:timers/promises';
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/**
 * Loads modules one per turn of the event loop (issue 26: a request arriving meanwhile waits for one part, not
 * for all): each part `[from, name]` is `name` as the module `from` finds it (null: as this code finds it), so
 * the module that needs it later takes it from Node's cache. A part not found where it is looked for (another
 * layout of node_modules) is left to the module that needs it.
 */
export async function loadInParts(
  parts: ReadonlyArray<readonly [from: string | null, name: string]>,
): Promise<void> {
  for (const [from, name] of parts) {
    try {
      if (from === null) load(name);
      else createRequire(load.resolve(from))(name);
    } catch {
      /* laid out otherwise: loaded with the module that needs it */
    }
    await nextTurn();
  }
}
