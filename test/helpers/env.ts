/**
 * Where the tests find the real infrastructure: the same servers `make up` starts, with the
 * database `vitalis_test` so a running demo (`make run`, database `vitalis`) is left alone.
 * Override with the usual env vars (DATABASE_URL, REDIS_URL, KAFKA_BROKERS).
 */
import { parseConfig, infraShape, url } from '@vitalis/config';

export const testEnv = parseConfig({
  ...infraShape,
  DATABASE_URL: url('postgres://postgres@127.0.0.1:55432/vitalis_test', ['postgres:', 'postgresql:']),
  LOG_LEVEL: infraShape.LOG_LEVEL.default('warn'),
});
