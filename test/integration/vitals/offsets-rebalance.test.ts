/**
 * Offsets in the transaction (issue 24 item 3), with two ingest consumers in one group on a private
 * topic, against real Kafka and PostgreSQL. The ingest records each partition's next offset with the
 * rows (vitals_ingest_offsets) and reads it whenever partitions are assigned to it; a range Kafka
 * hands out again (its offset commit was lost: a crash between the database commit and the Kafka
 * commit, here made by resetting the group's offsets while it is empty) is skipped before the write,
 * so it never reaches the identity index (no duplicates counted, nothing stored again). Asserted on
 * the ingest's counters and its Prometheus series, not on timing. Then one consumer leaves and joins
 * again: every rebalance is checked, and what comes next is stored exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import { createVitalsProducer, type VitalsProducer } from '@vitalis/kafka';
import type { Pool } from '@vitalis/db';
import { createIngestMetrics, createRegistry, METRIC, type IngestMetrics } from '@vitalis/metrics';
import type { IngestWorker } from '../../../apps/ingest/src/worker';
import { countStored, numeric, privateTopics, startTestIngest, testKafka, testPool, uid, waitFor } from './support';

const kafka = testKafka('offsets-rebalance');
let admin: Admin;
let pool: Pool;
let producer: VitalsProducer;
let topics: Awaited<ReturnType<typeof privateTopics>>;
const running: IngestWorker[] = [];
const groupId = `vitalis-test-rebalance-${uid()}`;
const prefix = `pat-rb-${uid()}`;
const patients = Array.from({ length: 8 }, (_, i) => `${prefix}-${i}`);
let seq = 0;

beforeAll(async () => {
  admin = kafka.admin();
  await admin.connect();
  pool = testPool();
  topics = await privateTopics(admin, 4);
  producer = createVitalsProducer(kafka, { retries: 'unbounded' });
  await producer.connect();
});

afterAll(async () => {
  for (const w of running) await w.stop();
  await producer?.disconnect();
  await topics?.drop();
  await admin?.disconnect();
  await pool?.end();
});

/** One record per patient per round (8 patients over 4 partitions). */
async function produceRound(): Promise<void> {
  const at = new Date();
  await producer.send({
    topic: topics.topic,
    acks: -1,
    messages: patients.map((p) => ({ key: p, value: JSON.stringify(numeric(p, `${p}-dev`, seq++, at)) })),
  });
}

async function member(metrics?: IngestMetrics): Promise<IngestWorker> {
  const w = await startTestIngest(kafka, pool, {
    topic: topics.topic,
    dlqTopic: topics.dlqTopic,
    groupId,
    sessionTimeoutMs: 10_000,
    metrics,
  });
  running.push(w);
  return w;
}

async function leave(w: IngestWorker): Promise<void> {
  await w.stop();
  running.splice(running.indexOf(w), 1);
}

const stored = () => countStored(pool, { devicePrefix: prefix });
const counter = async (metrics: IngestMetrics, name: string) =>
  (await metrics.registry.getSingleMetric(name)!.get()).values.reduce((n, v) => n + v.value, 0);

describe('offsets stored in the transaction, checked on assignment', () => {
  it('skips a redelivered range after a rebalance, and stores what follows once as members leave and join', async () => {
    // 1. One member stores three rounds; its offsets reach Kafka when it leaves.
    const first = await member();
    for (let i = 0; i < 3; i++) await produceRound();
    await waitFor(stored, (c) => c.rows === 24, 45_000, '24 rows');
    await leave(first);
    const { rows } = await pool.query<{ p: number; n: string }>(
      'SELECT kafka_partition AS p, next_offset::text AS n FROM vitals_ingest_offsets WHERE topic = $1 ORDER BY 1',
      [topics.topic],
    );
    const ends = await admin.fetchTopicOffsets(topics.topic);
    // the stored next offset of every partition is its end: recorded with the rows
    expect(rows.map((r) => [r.p, r.n])).toEqual(
      ends
        .filter((e) => e.high !== '0')
        .sort((a, b) => a.partition - b.partition)
        .map((e) => [e.partition, e.high]),
    );

    // 2. The group's Kafka offsets are lost (what a crash after the database commit leaves behind).
    await admin.setOffsets({ groupId, topic: topics.topic, partitions: ends.map((e) => ({ partition: e.partition, offset: '0' })) });

    // 3. Two members join; each reads the stored offsets of what it is assigned and skips the redelivered range.
    const metricsA = createIngestMetrics(createRegistry('ingest-a'));
    const metricsB = createIngestMetrics(createRegistry('ingest-b'));
    const [a, b] = await Promise.all([member(metricsA), member(metricsB)]);
    // (at least 24: a skipped range whose Kafka commit a rebalance cut off is handed out, and skipped, once more)
    const skipped = await waitFor(
      async () => a.stats.skipped + b.stats.skipped,
      (n) => n >= 24,
      60_000,
      'the 24 redelivered records skipped',
    );
    expect(skipped).toBeGreaterThanOrEqual(24);
    expect(a.stats.stored + b.stats.stored).toBe(0);
    expect(a.stats.duplicates + b.stats.duplicates).toBe(0); // none reached the identity index
    expect((await counter(metricsA, METRIC.ingestRedeliveredSkipped)) + (await counter(metricsB, METRIC.ingestRedeliveredSkipped))).toBe(
      a.stats.skipped + b.stats.skipped,
    );
    // Both members read their assignment's stored offsets. One of them may have joined (and
    // skipped all 24) before the other's join rebalanced the group: wait for the second's check.
    expect(
      await waitFor(
        () => counter(metricsA, METRIC.ingestAssignmentChecks),
        (n) => n >= 1,
        60_000,
        'member A checked an assignment',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(
      await waitFor(
        () => counter(metricsB, METRIC.ingestAssignmentChecks),
        (n) => n >= 1,
        60_000,
        'member B checked an assignment',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(await stored()).toEqual({ rows: 24, distinct: 24 });

    // 4. B leaves: A is assigned every partition (checked again) and stores the next round once.
    const checksBefore = a.stats.assignmentChecks;
    await leave(b);
    await waitFor(
      async () => a.stats.assignmentChecks,
      (n) => n > checksBefore,
      60_000,
      'A checked its new assignment',
    );
    await produceRound();
    await waitFor(stored, (c) => c.rows === 32, 45_000, '32 rows');

    // 5. B joins again: another rebalance, checked by both; the next round is stored once.
    const metricsB2 = createIngestMetrics(createRegistry('ingest-b2'));
    const b2 = await member(metricsB2);
    await waitFor(
      async () => b2.stats.assignmentChecks,
      (n) => n >= 1,
      60_000,
      'B checked its assignment',
    );
    await produceRound();
    await waitFor(stored, (c) => c.rows === 40, 45_000, '40 rows');
    expect(await stored()).toEqual({ rows: 40, distinct: 40 });
    expect(a.stats.duplicates + b2.stats.duplicates).toBe(0);
    expect(b2.stats.stored + a.stats.stored).toBe(16);
  });
});
