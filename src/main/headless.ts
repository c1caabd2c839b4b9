// Entry of the headless single executable (`npm run dist:headless`): the `calendar-desk` CLI with the built web UI
// inside, as Node's single executable application assets. Runs as CommonJS inside the executable.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import * as sea from 'node:sea';

/** The asset listing the web UI's files (written by scripts/dist-headless.mjs). */
export const RENDERER_MANIFEST = 'renderer/manifest.json';

interface Manifest {
  files: string[];
}

/** Where unpacked web UIs live: `$XDG_CACHE_HOME/calendar-desk` (`~/.cache/calendar-desk`). */
function cacheRoot(env: NodeJS.ProcessEnv): string {
  const cache =
    env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(cache, 'calendar-desk');
}

/**
 * Writes the web UI carried by the executable to a folder the server can serve (once per build: the folder is named
 * after the manifest's hash, and is written under another name then renamed, so a half-written one is never used).
 */
export function unpackRenderer(env: NodeJS.ProcessEnv = process.env): string {
  const manifestText = sea.getAsset(RENDERER_MANIFEST, 'utf8');
  const hash = createHash('sha256').update(manifestText).digest('hex').slice(0, 16);
  const target = join(cacheRoot(env), `web-${hash}`);
  if (existsSync(join(target, 'index.html'))) return target;
  const partial = `${target}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  const manifest = JSON.parse(manifestText) as Manifest;
  for (const file of manifest.files) {
    const path = join(partial, file);
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(path, new Uint8Array(sea.getAsset(`renderer/${file}`)));
  }
  try {
    renameSync(partial, target);
  } catch (error) {
    // Another start unpacked the same build meanwhile: theirs is as good as ours.
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(join(target, 'index.html'))) throw error;
  }
  return target;
}

async function start(): Promise<void> {
  // The machine's zone, read before the CLI loads (it pins TZ to UTC).
  const machineZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const rendererDir = sea.isSea() ? unpackRenderer() : undefined;
  const { main } = await import('./cli/index');
  // Inside the executable argv is [executable, executable, ...arguments], as commander expects from node.
  await main(process.argv, { machineZone, rendererDir });
}

void start();
