import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import vue from 'eslint-plugin-vue';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import { importX } from 'eslint-plugin-import-x';

/**
 * The layers of ARCHITECTURE.md as import rules: each entry names the files of a layer and the layers they must
 * not import. Paths are matched on the import string (`../server/app`), one `../` or more before the folder.
 * Only the shell (src/main/index.ts, src/main/desktop/, src/preload/) may import `electron`.
 */
const LAYERS = [
  {
    files: ['src/renderer/**/*.{ts,vue}'],
    forbidden: ['main', 'preload'],
    why: 'the renderer talks HTTP to the API',
  },
  {
    files: ['src/shared/**/*.ts'],
    forbidden: ['main', 'preload', 'renderer'],
    why: 'shared is below main and renderer',
  },
  {
    files: ['src/preload/**/*.ts'],
    forbidden: ['main', 'renderer'],
    shell: true,
    why: 'the preload only exposes the bridge',
  },
  {
    files: ['src/main/store/**/*.ts'],
    forbidden: ['core', 'server', 'sync', 'exchange', 'dav', 'caldavSync', 'cli', 'desktop', 'engine'],
    why: 'the store is below core',
  },
  {
    files: ['src/main/core/**/*.ts'],
    forbidden: ['server', 'sync', 'exchange', 'dav', 'caldavSync', 'cli', 'desktop', 'engine'],
    why: 'core rules know no HTTP or sync',
  },
  {
    files: ['src/main/sync/**/*.ts'],
    forbidden: ['server', 'exchange', 'dav', 'caldavSync', 'cli', 'desktop', 'engine'],
    why: 'sync runs beside the server, not inside it, and knows no file formats',
  },
  {
    files: ['src/main/dav/**/*.ts'],
    forbidden: ['server', 'sync', 'caldavSync', 'cli', 'desktop', 'engine'],
    why: 'calendar resources are shared by the CalDAV server and the CalDAV remote, below both',
  },
  {
    files: ['src/main/caldavSync/**/*.ts'],
    forbidden: ['server', 'cli', 'desktop', 'engine'],
    why: 'the sync with a CalDAV calendar runs beside the server, not inside it',
  },
  {
    files: ['src/main/exchange/**/*.ts'],
    forbidden: ['server', 'dav', 'caldavSync', 'cli', 'desktop', 'engine'],
    why: 'imports and exports run beside the server, not inside it',
  },
  {
    files: ['src/main/server/**/*.ts'],
    forbidden: ['cli', 'desktop', 'engine'],
    why: 'the server is used by the engine, not the reverse',
  },
  { files: ['src/main/cli/**/*.ts'], forbidden: ['desktop'], why: 'the CLI runs without Electron' },
  {
    files: ['src/main/engine.ts'],
    forbidden: ['desktop', 'cli'],
    why: 'the engine is shared by the CLI and the shell',
  },
  {
    files: ['src/main/index.ts', 'src/main/desktop/**/*.ts'],
    forbidden: ['cli'],
    shell: true,
    why: 'the shell starts the engine',
  },
];

function layerRules() {
  return LAYERS.map(({ files, forbidden, shell, why }) => ({
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: shell ? [] : [{ name: 'electron', message: 'Only the Electron shell imports electron.' }],
          patterns: [
            {
              regex: `^(\\.\\./)+(${forbidden.join('|')})(/|$)`,
              message: `Layer rule (docs/ARCHITECTURE.md): ${why}.`,
            },
          ],
        },
      ],
    },
  }));
}

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'coverage/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...vue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser } },
  },
  {
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['src/renderer/**/*.{ts,vue}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Type-aware rules: a promise nobody awaits loses its errors (an unhandled rejection, a write reported done
    // before it is). Types come from the tsconfig that holds each file.
    files: ['**/*.{ts,mts,cts,vue}'],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
        extraFileExtensions: ['.vue'],
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  // The type-checked recommended rules for the engine and the shared code (issue 29): values typed `any` kept
  // from spreading, methods not called without their object, nothing stringified as "[object Object]".
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({
    ...config,
    files: ['src/main/**/*.ts', 'src/shared/**/*.ts'],
  })),
  {
    // The renderer's tests are in no project the root tsconfig.json references (they need DOM and Node both).
    files: ['test/renderer/**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: false, project: './tsconfig.renderer-test.json' },
    },
  },
  {
    // No import cycles in the app's code (issue 29): a circle makes the order modules start in matter, and hides
    // which of two modules is the lower one. Type-only imports are left out (they vanish in the build).
    // Vue components are not followed (the rule would parse them as TypeScript).
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts'],
      'import-x/ignore': ['\\.vue$'],
      'import-x/resolver': { node: { extensions: ['.ts', '.js'] } },
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true, allowUnsafeDynamicCyclicDependency: false }],
    },
  },
  ...layerRules(),
  prettier,
);
