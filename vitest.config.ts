import { defineConfig } from 'vitest/config';

// The tests that start the server or a CLI as a child process (until they move under test/process/).
const PROCESS = [
  'test/integration/analytics-crash.test.ts',
  'test/integration/backup-cli.test.ts',
  'test/integration/crash.test.ts',
  'test/integration/deploy.test.ts',
  'test/integration/instances.test.ts',
  'test/integration/media-bucket.test.ts',
  'test/integration/owner-recovery.test.ts',
  'test/integration/payment-crash.test.ts',
  'test/integration/process.test.ts',
  'test/integration/stripe-crash.test.ts',
];

/**
 * Four projects, each with its own script (`npm run test:unit`, ...); `npm test` runs them all. Unit tests
 * need neither a database nor the browser bundle, so only the others run the global setup that builds them.
 */
export default defineConfig({
  test: {
    setupFiles: ['test/setup-cldr.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.{ts,tsx}'] } },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.{ts,tsx}'], exclude: PROCESS, globalSetup: ['test/global-setup.ts'] } },
      { extends: true, test: { name: 'browser', include: ['test/browser/**/*.test.{ts,tsx}'], globalSetup: ['test/global-setup.ts'] } },
      { extends: true, test: { name: 'process', include: [...PROCESS, 'test/process/**/*.test.{ts,tsx}'], globalSetup: ['test/global-setup.ts'] } },
    ],
  },
});
