import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import vue from '@vitejs/plugin-vue';

/**
 * Writes a .br and a .gz twin next to every text file of the renderer build: `serve` (koa-static) sends the
 * twin the browser accepts, so nothing is compressed per request and the 1 MB of scripts travels as ~300 kB.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'calendar-desk-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css|html|svg|json)$/.test(fileName)) continue;
        const path = join(outDir, fileName);
        const content = await readFile(path);
        if (content.length < 1024) continue;
        await writeFile(`${path}.gz`, gzipSync(content, { level: 9 }));
        await writeFile(
          `${path}.br`,
          brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
    },
  };
}

// One build for the three faces: the Electron entry and the `calendar-desk` CLI share the engine
// modules (main), the preload bridge, and the Vue renderer that `serve` also hands to browsers.
export default defineConfig({
  main: {
    // A release build (the release workflow sets CALENDAR_DESK_RELEASE=1) checks GitHub Releases for updates.
    define: {
      'process.env.CALENDAR_DESK_RELEASE': JSON.stringify(process.env.CALENDAR_DESK_RELEASE ?? ''),
    },
    build: {
      // The packages every start loads (the server, the store, the date rules, the CLI) are bundled into the
      // main chunk: read from one file, they load in about half the time Node's module loader needs to find and
      // translate their hundreds of files. The rest stays in node_modules, loaded when first used.
      externalizeDeps: {
        exclude: [
          'zod',
          'qs',
          'luxon',
          'entities',
          '@koa/router',
          'locutus',
          'koa',
          'proper-lockfile',
          'commander',
        ],
      },
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          cli: resolve(__dirname, 'src/main/cli/index.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        // Sandboxed preloads are run as CommonJS by Electron (no ESM there): out/preload/index.cjs.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    build: {
      // electron-vite leaves the renderer unminified by default; browsers of `serve` download it too.
      minify: true,
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
    plugins: [vue(), precompress()],
  },
});
