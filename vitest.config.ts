import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Date arithmetic of the strtotime port runs on the process clock: the engine pins it to UTC.
    env: { TZ: 'UTC' },
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
