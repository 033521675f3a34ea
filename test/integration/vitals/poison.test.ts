/**
 * Rows the database refuses, against real PostgreSQL and Kafka, in databases of the tests' own
 * (test/helpers/private-database.ts) whose schema is changed under the code:
 *  - a CHECK constraint refusing devices named `poison-…` (a refusal that does not depend on what
 *    the zod schema lets through): one refused row among 5,000 is isolated in ONE transaction of a
 *    few statements (2 when COPY names the row, ≤ 2·log2(5,000) by bisection with unnest), the
 *    other 4,999 stored, and the refused row's partition offset left for the worker to record once
 *    its row is dead-lettered; once it is, the batch is done: a group reading the topic again skips
 *    it (not isolated or dead-lettered again, and the live stage never gets the refused row);
 *  - a trigger failing every write of devices `stall-…` with a non-data error (the database
 *    "unwell" for one partition): that partition stalls, the ingest's gauge and the gateway's health
 *    name it (and only it) while the other partitions flow, and both recover once the trigger goes.
 * The long runs (50,000 readings with 1,000 refused; a slow database with a short session
 * timeout) are in test/disruptive/poison-run.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import { createVitalsProducer, type VitalsProducer } from '@vitalis/kafka';
import { withTransaction } from '@vitalis/db';
import { createIngestMetrics, createRegistry, METRIC } from '@vitalis/metrics';
import type { CommittedBatch } from '../../../apps/ingest/src/live/stage';
import { isDataError } from '../../../apps/ingest/src/worker';
import { toRow, writeRowsByPartition, writeRowsIsolating, storedOffsets, type StoredRow } from '../../../apps/ingest/src/store';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { installAppendLogStall, type AppendLogStall } from '../../helpers/append-log-stall';
import { privateDatabase, type PrivateDatabase } from '../../helpers/private-database';
import { countStored, numeric, privateTopics, startTestIngest, testKafka, uid, waitFor } from './support';

describe('isolating the rows the database refuses, in its own transaction', () => {
  let db: PrivateDatabase;
  beforeAll(async () => {
    db = await privateDatabase('refuse');
    await db.pool.query(`ALTER TABLE vitals_observations ADD CONSTRAINT test_refuses_poison CHECK (device_id NOT LIKE 'poison-%')`);
  });
  afterAll(async () => db?.drop());

  /** 5,000 rows over two partitions (0: even offsets, 1: odd), the one at `bad` from a poison device. */
  const batch = (bad: number): StoredRow[] => {
    const patient = `pat-iso-${uid()}`;
    const start = Date.now();
    return Array.from({ length: 5_000 }, (_, i) => {
      const device = i === bad ? `poison-${patient}` : `${patient}-dev`;
      return toRow(numeric(patient, device, i, new Date(start + i)) as never, i % 2, String(i));
    });
  };

  for (const method of ['copy', 'unnest'] as const) {
    it(`${method}: 1 refused row among 5,000 costs a few statements; 4,999 stored, the refused partition's offset not recorded`, async () => {
      const rows = batch(2_345);
      const topic = `vitals.iso.${uid()}`;
      const ends = new Map([
        [0, 5_000n],
        [1, 5_001n],
      ]);
      const failure = await withTransaction(db.pool, (c) => writeRowsByPartition(c, topic, rows, method, ends)).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(isDataError(failure)).toBe(true);
      let heartbeats = 0;
      const started = performance.now();
      const result = await withTransaction(db.pool, (c) =>
        writeRowsIsolating(c, topic, rows, method, ends, { failure, isRefusal: isDataError, between: async () => void (heartbeats += 1) }),
      );
      const ms = performance.now() - started;
      expect(result.refused.map((r) => r.row.kafka_offset)).toEqual(['2345']);
      expect((result.refused[0]!.err as Error).message).toMatch(/violates check constraint "test_refuses_poison"/);
      expect([...result.counts.values()].reduce((a, b) => a + b, 0)).toBe(4_999);
      expect(await countStored(db.pool, { patient: rows[0]!.patient_id })).toEqual({ rows: 4_999, distinct: 4_999 });
      if (method === 'copy')
        expect(result.attempts).toBe(2); // the rows before it, the rows after it (COPY named it, a CHECK)
      else expect(result.attempts).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(5_000)));
      expect(heartbeats).toBe(result.attempts);
      // partition 1 (odd offsets) held the refused row: its offset waits for the dead letter
      expect(await storedOffsets(db.pool, topic, [0, 1])).toEqual(new Map([[0, 5_000n]]));
      console.log(`isolating 1 refused row among 5,000 (${method}): ${result.attempts} statements, ${ms.toFixed(0)} ms`);
    });
  }

  it('a redelivered batch (rows already stored) is isolated too: the staged path in savepoints stores nothing twice', async () => {
    const rows = batch(10);
    const topic = `vitals.iso.${uid()}`;
    const ends = new Map([
      [0, 5_000n],
      [1, 5_001n],
    ]);
    const run = async () => {
      const failure = await withTransaction(db.pool, (c) => writeRowsByPartition(c, topic, rows, 'copy', ends)).then(
        () => undefined,
        (err: unknown) => err,
      );
      return withTransaction(db.pool, (c) => writeRowsIsolating(c, topic, rows, 'copy', ends, { failure, isRefusal: isDataError }));
    };
    const first = await run();
    const again = await run();
    expect(first.refused).toHaveLength(1);
    expect(again.refused).toHaveLength(1);
    expect([...again.counts.values()].reduce((a, b) => a + b, 0)).toBe(0);
    expect(await countStored(db.pool, { patient: rows[0]!.patient_id })).toEqual({ rows: 4_999, distinct: 4_999 });
  });
});

describe('a batch whose refused rows went to the DLQ is done: read again (a new group, a reset, a restart), it is skipped', () => {
  const kafka = testKafka('poison-again');
  let db: PrivateDatabase;
  let admin: Admin;
  let producer: VitalsProducer;
  let topics: Awaited<ReturnType<typeof privateTopics>>;
  const workers: { stop: () => Promise<void> }[] = [];

  beforeAll(async () => {
    db = await privateDatabase('again');
    await db.pool.query(`ALTER TABLE vitals_observations ADD CONSTRAINT test_refuses_poison CHECK (device_id NOT LIKE 'poison-%')`);
    admin = kafka.admin();
    await admin.connect();
    topics = await privateTopics(admin, 1);
    producer = createVitalsProducer(kafka, { retries: 'unbounded' });
    await producer.connect();
  });
  afterAll(async () => {
    for (const w of workers) await w.stop();
    await producer?.disconnect();
    await topics?.drop();
    await admin?.disconnect();
    await db?.drop();
  });

  it('is neither isolated nor dead-lettered again, and the live stage gets only the rows the log holds', async () => {
    const patient = `pat-again-${uid()}`;
    const at = Date.now();
    const send = (seqs: number[], poisonAt?: number) =>
      producer.send({
        topic: topics.topic,
        acks: -1,
        messages: seqs.map((i) => ({
          key: patient,
          value: JSON.stringify(numeric(patient, i === poisonAt ? `poison-${patient}` : `${patient}-dev`, i, new Date(at + i))),
        })),
      });
    const dlqEnd = async () => Number((await admin.fetchTopicOffsets(topics.dlqTopic))[0]!.high);
    const live = (seen: string[]) => async (batch: CommittedBatch) =>
      void seen.push(...batch.items.map((i) => `${i.offset}/${i.item ?? 0}`));

    const firstSeen: string[] = [];
    const first = await startTestIngest(kafka, db.pool, { topic: topics.topic, dlqTopic: topics.dlqTopic, afterCommit: live(firstSeen) });
    workers.push(first);
    await send([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 4);
    await waitFor(
      () => countStored(db.pool, { patient }),
      (c) => c.rows === 9,
      45_000,
      '9 rows stored',
    );
    await waitFor(dlqEnd, (n) => n === 1, 45_000, 'the refused record dead-lettered');
    expect(first.stats.isolations).toBe(1);
    expect(firstSeen).toHaveLength(9);
    await first.stop();
    expect(await storedOffsets(db.pool, topics.topic, [0])).toEqual(new Map([[0, 10n]])); // recorded after the DLQ

    // A group of its own reads the topic from the beginning, as a reset or a lost offset commit would.
    const againSeen: string[] = [];
    const again = await startTestIngest(kafka, db.pool, { topic: topics.topic, dlqTopic: topics.dlqTopic, afterCommit: live(againSeen) });
    workers.push(again);
    await send([10]);
    await waitFor(
      () => countStored(db.pool, { patient }),
      (c) => c.rows === 10,
      45_000,
      'the next record stored',
    );
    expect(again.stats.skipped).toBe(10);
    expect(again.stats.isolations).toBe(0);
    expect(again.stats.deadLettered).toBe(0);
    expect(await dlqEnd()).toBe(1);
    // published again as a redelivery (the gateways drop what they have), never the refused row
    expect(againSeen.sort()).toEqual([...firstSeen, '10/0'].sort());
    expect(againSeen).not.toContain('4/0');
  });
});

describe('a stalled partition is reported by the ingest gauge and the gateway health, and recovers', () => {
  const kafka = testKafka('stall');
  let db: PrivateDatabase;
  let admin: Admin;
  let producer: VitalsProducer;
  let topics: Awaited<ReturnType<typeof privateTopics>>;
  let gw: RunningGateway;
  let stop: (() => Promise<void>) | undefined;
  let stall: AppendLogStall;
  const metrics = createIngestMetrics(createRegistry('ingest-stall-test'));
  const groupId = `vitalis-test-stall-${uid()}`;

  beforeAll(async () => {
    db = await privateDatabase('stall');
    stall = await installAppendLogStall(db.pool, { devicePrefix: 'stall-', stalled: true });
    admin = kafka.admin();
    await admin.connect();
    topics = await privateTopics(admin, 3);
    producer = createVitalsProducer(kafka, { retries: 'unbounded' });
    await producer.connect();
    const worker = await startTestIngest(kafka, db.pool, {
      topic: topics.topic,
      dlqTopic: topics.dlqTopic,
      groupId,
      metrics,
      lagPollMs: 250,
      maxWaitTimeInMs: 100,
    });
    stop = () => worker.stop();
    gw = await startGateway({
      VITALS_TOPIC: topics.topic,
      LIVE_TOPIC: topics.topic,
      INGEST_GROUP_ID: groupId,
      HEALTH_STALL_AFTER_MS: '2000',
    });
  });

  afterAll(async () => {
    await gw?.close();
    await stop?.();
    await producer?.disconnect();
    await topics?.drop();
    await admin?.disconnect();
    await db?.drop();
  });

  const stalledSeconds = async () => {
    const gauge = (await metrics.registry.getSingleMetric(METRIC.ingestPartitionStalled)?.get())?.values ?? [];
    return new Map(gauge.filter((v) => v.labels.topic === topics.topic).map((v) => [Number(v.labels.partition), v.value]));
  };
  const health = async () =>
    (await (await fetch(`${gw.url}/api/v1/health`)).json()) as {
      status: string;
      pipeline: {
        status: string;
        stalled_partitions: number[];
        lag: number;
        partitions: { partition: number; lag: number; stalled_s: number }[];
      };
    };

  it('names only the stuck partition while the others store; once the database takes its rows, it is progressing again', async () => {
    const patient = `pat-stall-${uid()}`;
    const at = Date.now();
    await producer.send({
      topic: topics.topic,
      acks: -1,
      messages: [
        { partition: 1, key: patient, value: JSON.stringify(numeric(patient, `stall-${patient}`, 1, new Date(at))) },
        ...[0, 2].flatMap((partition) =>
          Array.from({ length: 5 }, (_, i) => ({
            partition,
            key: patient,
            value: JSON.stringify(numeric(patient, `${patient}-dev-${partition}`, i, new Date(at + i))),
          })),
        ),
      ],
    });
    await waitFor(
      () => countStored(db.pool, { patient }),
      (c) => c.rows === 10,
      45_000,
      'partitions 0 and 2 stored',
    );

    const stalled = await waitFor(health, (h) => h.pipeline.status === 'stalled', 45_000, 'health naming the stalled partition');
    expect(stalled.status).toBe('degraded');
    expect(stalled.pipeline.stalled_partitions).toEqual([1]);
    expect(stalled.pipeline.partitions.find((p) => p.partition === 1)).toMatchObject({ lag: 1 });
    expect(stalled.pipeline.partitions.filter((p) => p.partition !== 1).every((p) => p.lag === 0 && p.stalled_s === 0)).toBe(true);
    const gauge = await waitFor(stalledSeconds, (g) => (g.get(1) ?? 0) >= 1, 45_000, 'the stalled-seconds gauge of partition 1');
    expect(gauge.get(0)).toBe(0);
    expect(gauge.get(2)).toBe(0);

    await stall.stop();
    await waitFor(
      () => countStored(db.pool, { patient }),
      (c) => c.rows === 11,
      60_000,
      'the stuck row stored once the database takes it',
    );
    const recovered = await waitFor(health, (h) => h.pipeline.status === 'ok' && h.pipeline.lag === 0, 45_000, 'health ok again');
    expect(recovered.status).toBe('ok');
    expect(recovered.pipeline.stalled_partitions).toEqual([]);
    await waitFor(stalledSeconds, (g) => g.get(1) === 0, 45_000, 'the gauge back to 0');
  });
});
