/**
 * Runs once before the suite: proves each server answers (or fails the run with one clear line
 * naming what is missing and how to start it), then applies migrations and creates the test run's
 * topics (TEST_TOPICS, never the demo's) once.
 */
import { createPool, migrate } from '@vitalis/db';
import { createKafka, ensureTopics } from '@vitalis/kafka';
import { createRedis } from '@vitalis/redis';
import { TEST_TOPICS, testEnv } from './env';

async function reachable(name: string, where: string, probe: () => Promise<unknown>): Promise<void> {
  try {
    await probe();
  } catch (err) {
    throw new Error(
      `test infrastructure missing: ${name} at ${where} is not answering (${(err as Error).message}). Start it with \`make up\`, or set the URL env vars.`,
      { cause: err },
    );
  }
}

export default async function setup(): Promise<void> {
  const pool = createPool({ url: testEnv.DATABASE_URL, max: 2 });
  const redis = createRedis({ url: testEnv.REDIS_URL });
  const kafka = createKafka({ brokers: testEnv.KAFKA_BROKERS, clientId: 'vitalis-test-setup', retries: 2 });
  try {
    await reachable('PostgreSQL', testEnv.DATABASE_URL, () => pool.query('SELECT 1'));
    await reachable('Redis', testEnv.REDIS_URL, async () => {
      await redis.connect();
      await redis.ping();
    });
    await reachable('Kafka', testEnv.KAFKA_BROKERS.join(','), () => ensureTopics(kafka, undefined, TEST_TOPICS));
    await migrate(pool);
  } finally {
    await pool.end();
    redis.disconnect();
  }
}
