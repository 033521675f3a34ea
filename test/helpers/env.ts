/**
 * Where the tests find the real infrastructure: the same servers `make up` starts, with the
 * database `vitalis_test` so a running demo (`make run`, database `vitalis`) is left alone.
 * Override with the usual env vars (DATABASE_URL, REDIS_URL, KAFKA_BROKERS).
 *
 * DATABASE_URL is the schema's OWNER (as MIGRATION_DATABASE_URL in production): the global setup
 * migrates with it and tests inspect or arrange the database through it. The gateways the tests
 * start connect as the least-privileged app role, as in production: APP_DATABASE_URL, by default
 * the same server and database as user vitalis_app (libs/db migration 0013; trust auth here).
 */
import { parseConfig, infraShape, url } from '@vitalis/config';
import type { TopicNames } from '@vitalis/kafka';

export const APP_ROLE = 'vitalis_app';

const owner = parseConfig({
  ...infraShape,
  DATABASE_URL: url('postgres://postgres@127.0.0.1:55432/vitalis_test', ['postgres:', 'postgresql:']),
  LOG_LEVEL: infraShape.LOG_LEVEL.default('warn'),
});

/** The owner's URL with the app role's user name (and no password: trust auth on 127.0.0.1). */
export function asAppRole(ownerUrl: string): string {
  const u = new URL(ownerUrl);
  u.username = APP_ROLE;
  u.password = '';
  return u.toString();
}

export const testEnv = { ...owner, APP_DATABASE_URL: process.env.APP_DATABASE_URL ?? asAppRole(owner.DATABASE_URL) };

/**
 * Every test (and the API fuzzer) speaks from 127.0.0.1, and the demo users are shared by every
 * test file and run: one address's refusal-audit budget, sign-in failures or request rate limits,
 * or a demo user's failure count, would be shared by the whole suite. The tests of these limits set
 * small ones and use addresses (test/helpers/http-from.ts) and users of their own.
 */
export const ONE_ADDRESS_LIMITS = {
  REFUSAL_AUDIT_LIMIT: '1000000',
  LOGIN_ADDRESS_MAX_FAILURES: '1000000',
  LOGIN_USER_FREE_FAILURES: '1000000',
  OAUTH_ADDRESS_RATE_LIMIT: '1000000',
  OAUTH_CLIENT_RATE_LIMIT: '1000000',
  OAUTH_AUTH_FAILURE_ADDRESS_LIMIT: '1000000',
  OAUTH_AUTH_FAILURE_CLIENT_LIMIT: '1000000',
  REGISTRATION_ADDRESS_RATE_LIMIT: '1000000',
  MCP_ANONYMOUS_SESSION_LIMIT: '1000000',
} as const;

/**
 * The Kafka topics of a test run: never the demo's (TOPICS, which `make run`'s simulator, gateway
 * and ingest use), so running the tests never changes what `make run` shows, before or after.
 * Test gateways publish to and serve these by default (test/helpers/gateway.ts); tests that need a
 * clean topic make private ones. The contract check has topics of its own (CONTRACT_TOPICS).
 * `make test` checks afterwards that no test record reached the demo topic (test/helpers/demo-topic.ts).
 */
export const TEST_TOPICS: TopicNames = {
  vitalsObservations: 'vitalis-test.vitals.observations.v1',
  vitalsDeadLetter: 'vitalis-test.vitals.observations.v1.dlq',
};

/** The contract check's topics (test/contract/fuzz.ts): the fuzzer's records reach no one else's. */
export const CONTRACT_TOPICS: TopicNames = {
  vitalsObservations: 'vitalis-contract.vitals.observations.v1',
  vitalsDeadLetter: 'vitalis-contract.vitals.observations.v1.dlq',
};
