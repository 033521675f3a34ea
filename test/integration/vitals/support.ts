/**
 * Shared plumbing for the vitals integration tests: private topics (so a test's ingest worker sees
 * only its own messages and counts are exact), an in-process ingest worker, polling helpers.
 */
import { randomUUID } from 'node:crypto';
import type { Admin, KafkaMessage } from 'kafkajs';
import { createPool, type Pool } from '@vitalis/db';
import { createKafka, createVitalsProducer, type VitalisKafka, type VitalsProducer } from '@vitalis/kafka';
import { createLogger } from '@vitalis/log';
import type { Scope } from '@vitalis/schemas';
import { startIngest, type IngestWorker, type IngestOptions } from '../../../apps/ingest/src/worker';
import { authHeaders as realAuthHeaders } from '../../helpers/auth';
import { testEnv } from '../../helpers/env';

export const uid = () => randomUUID().slice(0, 8);

export function testKafka(name: string): VitalisKafka {
  return createKafka({ brokers: testEnv.KAFKA_BROKERS, clientId: `vitalis-test-${name}`, logger: createLogger('test-kafka', 'error') });
}

export function testPool(): Pool {
  return createPool({ url: testEnv.DATABASE_URL, max: 8, application: 'vitalis-vitals-test' });
}

/** Creates a private observations topic + DLQ topic; returns their names and a cleanup. */
export async function privateTopics(admin: Admin, partitions = 3): Promise<{ topic: string; dlqTopic: string; drop: () => Promise<void> }> {
  const id = uid();
  const topic = `vitals.test.${id}`;
  const dlqTopic = `vitals.test.${id}.dlq`;
  await admin.createTopics({
    waitForLeaders: true,
    topics: [
      { topic, numPartitions: partitions, replicationFactor: 1 },
      { topic: dlqTopic, numPartitions: 1, replicationFactor: 1 },
    ],
  });
  return { topic, dlqTopic, drop: () => admin.deleteTopics({ topics: [topic, dlqTopic] }).catch(() => {}) };
}

export async function startTestIngest(
  kafka: VitalisKafka,
  pool: Pool,
  opts: Partial<IngestOptions> & { topic: string; dlqTopic: string },
): Promise<IngestWorker> {
  return startIngest({
    kafka,
    pool,
    logger: createLogger('test-ingest', 'error'),
    groupId: `vitalis-test-ingest-${uid()}`,
    maxWaitTimeInMs: 200,
    ...opts,
  });
}

/** An ingest on private topics: an admin, a pool, an idempotent producer and a running worker. */
export interface IngestRig {
  admin: Admin;
  pool: Pool;
  producer: VitalsProducer;
  topics: Awaited<ReturnType<typeof privateTopics>>;
  worker: IngestWorker;
}

/** Opens an IngestRig (a test file's beforeAll); closeIngestRig undoes it. */
export async function openIngestRig(kafka: VitalisKafka, partitions = 3): Promise<IngestRig> {
  const admin = kafka.admin();
  await admin.connect();
  const pool = testPool();
  const topics = await privateTopics(admin, partitions);
  const producer = createVitalsProducer(kafka, { retries: 'unbounded' });
  await producer.connect();
  const worker = await startTestIngest(kafka, pool, { topic: topics.topic, dlqTopic: topics.dlqTopic });
  return { admin, pool, producer, topics, worker };
}

/** Stops what openIngestRig opened, whatever part of it a failed beforeAll left (afterAll). */
export async function closeIngestRig(rig: Partial<IngestRig>): Promise<void> {
  await rig.worker?.stop();
  await rig.producer?.disconnect();
  await rig.topics?.drop();
  await rig.admin?.disconnect();
  await rig.pool?.end();
}

export async function waitFor<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 45_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await probe();
  while (!done(last)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 200));
    last = await probe();
  }
  return last;
}

export async function countStored(
  pool: Pool,
  where: { patient?: string; devicePrefix?: string },
): Promise<{ rows: number; distinct: number }> {
  const { rows } = await pool.query<{ rows: number; distinct: number }>(
    `SELECT count(*)::int AS rows, count(DISTINCT (device_id, seq, effective_at))::int AS distinct
       FROM vitals_observations
      WHERE ($1::text IS NULL OR patient_id = $1) AND ($2::text IS NULL OR device_id LIKE $2 || '%')`,
    [where.patient ?? null, where.devicePrefix ?? null],
  );
  return rows[0]!;
}

/** Reads a topic from the beginning until `until` says stop; returns the messages seen. */
export async function readTopic(
  kafka: VitalisKafka,
  topic: string,
  until: (seen: KafkaMessage[]) => boolean,
  timeoutMs = 30_000,
): Promise<KafkaMessage[]> {
  const consumer = kafka.consumer({ groupId: `vitalis-test-reader-${uid()}`, maxWaitTimeInMs: 200 });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const seen: KafkaMessage[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out reading ${topic} (${seen.length} messages seen)`)), timeoutMs);
      void consumer.run({
        eachMessage: async ({ message }) => {
          seen.push(message);
          if (until(seen)) {
            clearTimeout(timer);
            resolve();
          }
        },
      });
    });
  } finally {
    await consumer.disconnect();
  }
  return seen;
}

export function numeric(patient: string, device: string, seq: number, at: Date | string, overrides: Record<string, unknown> = {}) {
  return {
    patient_id: patient,
    device_id: device,
    seq,
    effective_at: typeof at === 'string' ? at : at.toISOString(),
    code: '8867-4',
    value: 60 + (seq % 40),
    unit: '/min',
    ...overrides,
  };
}

/** Bearer headers for vitals calls against a real gateway: a fresh OAuth client holding `scopes`. */
export async function authHeaders(gatewayUrl: string, scopes: Scope[]): Promise<Record<string, string>> {
  return realAuthHeaders(gatewayUrl, scopes);
}

/**
 * Positions a new consumer group at the current end of `topic`, so it reads only what comes next.
 * The high watermarks themselves are committed: kafkajs' admin.resetOffsets({ earliest: false })
 * commits -1 ("latest"), which its consumer reads as "no offset" and, with fromBeginning, starts
 * from the first message (the whole shared topic, which made these tests slow and flaky).
 */
export async function groupAtEnd(admin: Admin, groupId: string, topic: string): Promise<void> {
  const ends = await admin.fetchTopicOffsets(topic);
  await admin.setOffsets({ groupId, topic, partitions: ends.map((p) => ({ partition: p.partition, offset: p.high })) });
}
