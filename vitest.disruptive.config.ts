import { defineConfig } from 'vitest/config';

// Tests that kill and restart the shared servers: one file at a time, after the main suite
// (`make test-disruptive`), so they never pull a server from under another test.
export default defineConfig({
  test: {
    include: ['test/disruptive/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts', 'test/helpers/fhir-validator-setup.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
  },
});
