import { defineConfig } from '@playwright/test';

// CI sums passed/failed from test-results/results.json: keep that reporter and path as they are.
export default defineConfig({
  testDir: 'tests',
  outputDir: 'test-results/artifacts',
  workers: 2,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/results.json' }]],
  use: { trace: 'retain-on-failure' },
});
