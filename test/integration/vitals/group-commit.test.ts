/**
 * Group commit against real Kafka and PostgreSQL: the batches of one fetch (one per partition) are
 * written in one transaction (their rows share an xmin), and the offsets committed off the hot
 * path still all reach Kafka: a restarted worker in the same group redelivers nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import { createVitalsProducer, type VitalsProducer } from '@vitalis/kafka';
import type { Pool } from '@vitalis/db';
import { countStored, numeric, privateTopics, startTestIngest, testKafka, testPool, uid, waitFor } from './support';

const PARTITIONS = 6;
const kafka = testKafka('group-commit');
let admin: Admin;
let pool: Pool;
let producer: VitalsProducer;
let topics: Awaited<ReturnType<typeof privateTopics>>;

beforeAll(async () => {
  admin = kafka.admin();
  await admin.connect();
  pool = testPool();
  topics = await privateTopics(admin, PARTITIONS);
  producer = createVitalsProducer(kafka, { retries: 'unbounded' });
  await producer.connect();
});

afterAll(async () => {
  await producer?.disconnect();
  await topics?.drop();
  await admin?.disconnect();
  await pool?.end();
});

describe('ingest group commit', () => {
  it('writes a backlog spread over every partition in fewer transactions than partitions, and commits every offset', async () => {
    const run = uid();
    const prefix = `gc-${run}-`;
    const now = Date.now();
    // one message per (patient, seq) for 30 patients: the default partitioner spreads them over all 6 partitions
    await producer.send({
      topic: topics.topic,
      acks: -1,
      // each patient's messages in one partition, every partition used (hashing 30 random keys leaves one empty ~2.5% of runs)
      messages: Array.from({ length: 30 }, (_, p) =>
        Array.from({ length: 20 }, (_, s) => ({
          key: `${prefix}${p}`,
          partition: p % PARTITIONS,
          value: JSON.stringify(numeric(`${prefix}${p}`, `${prefix}${p}-dev`, s, new Date(now + s))),
        })),
      ).flat(),
    });
    const groupId = `vitalis-test-gc-${run}`;
    const worker = await startTestIngest(kafka, pool, { topic: topics.topic, dlqTopic: topics.dlqTopic, groupId, concurrency: PARTITIONS });
    try {
      await waitFor(
        () => countStored(pool, { devicePrefix: prefix }),
        (c) => c.rows === 600,
        45_000,
        '600 rows',
      );
    } finally {
      await worker.stop();
    }
    const { rows } = await pool.query<{ partitions: number; transactions: number; rows: number }>(
      `SELECT count(DISTINCT kafka_partition)::int AS partitions, count(DISTINCT xmin::text)::int AS transactions, count(*)::int AS rows
         FROM vitals_observations WHERE device_id LIKE $1 || '%'`,
      [prefix],
    );
    expect(rows[0]).toMatchObject({ partitions: PARTITIONS, rows: 600 });
    expect(rows[0]!.transactions).toBeLessThan(PARTITIONS);

    // every partition's offset reached Kafka (committed asynchronously, flushed by stop)
    const high = await admin.fetchTopicOffsets(topics.topic);
    const committed = await admin.fetchOffsets({ groupId, topics: [topics.topic] });
    const byPartition = new Map(committed[0]!.partitions.map((p) => [p.partition, p.offset]));
    for (const { partition, high: end } of high) expect(byPartition.get(partition)).toBe(end);

    // a new member of the same group starts after them: a marker is the only message it reads
    const again = await startTestIngest(kafka, pool, { topic: topics.topic, dlqTopic: topics.dlqTopic, groupId, concurrency: PARTITIONS });
    try {
      const marker = `${prefix}marker`;
      await producer.send({
        topic: topics.topic,
        acks: -1,
        messages: [{ key: marker, value: JSON.stringify(numeric(marker, `${prefix}marker-dev`, 0, new Date())) }],
      });
      await waitFor(
        () => countStored(pool, { patient: marker }),
        (c) => c.rows === 1,
        45_000,
        'marker',
      );
      expect(again.stats.messages).toBe(1);
      expect(again.stats.duplicates).toBe(0);
    } finally {
      await again.stop();
    }
  });
});
