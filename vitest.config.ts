import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';

export default defineConfig({
  // Component tests mount the renderer's .vue files.
  plugins: [vue()],
  test: {
    include: ['test/**/*.test.ts'],
    // Date arithmetic of the strtotime port runs on the process clock: the engine pins it to UTC.
    env: { TZ: 'UTC' },
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
