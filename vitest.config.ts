import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['shared/**/*.test.ts', 'relay/**/*.test.ts', 'eval/**/*.test.ts', 'scripts/**/*.test.mjs'],
    exclude: ['**/node_modules/**', '**/.output/**'],
    // TANDEM_TEST_DATABASE=postgres runs every relay on Postgres (relay/test/global-postgres.ts).
    globalSetup: ['relay/test/global-postgres.ts'],
    pool: 'forks',
    // Two cores: each test file may run its own Chromium.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    allowOnly: !process.env.CI,
  },
});
