import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/disruptive/**', '**/node_modules/**'],
    globalSetup: ['test/helpers/global-setup.ts', 'test/helpers/fhir-validator-setup.ts'],
    // Real servers, real network: generous per-test limits, but no timing is ever asserted.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    // Test files share one PostgreSQL/Kafka/Redis; each test uses its own ids, never truncates.
    sequence: { concurrent: false },
    reporters: ['default'],
    // The test browser runs in UTC (test/helpers/browser.ts); so does the process that builds the
    // browser tests' expected times (shownClock), whatever the machine's zone.
    env: { TZ: 'UTC' },
  },
});
