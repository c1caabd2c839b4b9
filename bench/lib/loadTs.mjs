// Loads a TypeScript module of the repository (and the src/ modules it imports) through Vite's module runner,
// so that the benchmark can share code with the app without a separate build step or a global tool.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Imports a module by its path from the repository root (`bench/seedData.ts`). */
export async function loadTs(relativePath) {
  const { module } = await runnerImport(resolve(root, relativePath), {
    configFile: false,
    root,
    logLevel: 'error',
  });
  return module;
}
