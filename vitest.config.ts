import { defineConfig } from 'vitest/config';

/**
 * Four projects, each with its own script (`npm run test:unit`, ...); `npm test` runs them all. Unit tests
 * need neither a database nor the browser bundle, so only the others run the global setup that builds them.
 * test/unit mirrors src/; test/integration and test/browser are by server area; test/process starts the
 * server or a CLI as a child process.
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
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.{ts,tsx}'], isolate: false } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.{ts,tsx}'],
          isolate: false,
          setupFiles: ['test/setup-fast-hash.ts'],
          globalSetup: ['test/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.{ts,tsx}'],
          isolate: false,
          setupFiles: ['test/setup-fast-hash.ts'],
          globalSetup: ['test/global-setup.ts'],
        },
      },
      { extends: true, test: { name: 'process', include: ['test/process/**/*.test.{ts,tsx}'], globalSetup: ['test/global-setup.ts'] } },
    ],
  },
});
