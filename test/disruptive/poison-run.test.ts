/**
 * The ingest survives rows the database refuses at full speed (issue 29): long runs against real
 * Kafka and PostgreSQL, each in a database of its own (test/helpers/private-database.ts) whose
 * `vitals_observations` refuses devices named `poison-…` (a CHECK constraint: a refusal by the
 * database that does not depend on what the zod schema lets through), on private topics and group.
 *  - 1,000 refused readings spread through 50,000 good ones from 24 devices, produced while the
 *    ingest runs: every good reading stored once and handed to the live stage once, every refused
 *    one in the DLQ exactly once (with its reason), no rebalance;
 *  - the same with a 6 s session timeout and a database that sleeps 0.3 s in every write statement
 *    (a statement trigger): isolating a fetch's refused rows takes far longer than the session
 *    timeout, and the member stays in the group (it heartbeats between statements).
 * Not destructive for the shared servers (nothing is stopped); here because the first run is long.
 * Counts and states are asserted, never durations; the figures are printed for docs/vitals.md.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import { createVitalsProducer, type VitalsProducer } from '@vitalis/kafka';
import { DLQ_HEADERS, type IngestWorker } from '../../apps/ingest/src/worker';
import type { CommittedBatch } from '../../apps/ingest/src/live/stage';
import { privateDatabase, type PrivateDatabase } from '../helpers/private-database';
import { countStored, numeric, privateTopics, readTopic, startTestIngest, testKafka, uid, waitFor } from '../integration/vitals/support';

const kafka = testKafka('poison-run');

interface Run {
  db: PrivateDatabase;
  admin: Admin;
  producer: VitalsProducer;
  topics: Awaited<ReturnType<typeof privateTopics>>;
  worker?: IngestWorker;
  /** Per `partition/offset/item`, how many times the live stage was handed it. */
  live: Map<string, number>;
  rebalances: number;
}

async function openRun(tag: string, partitions: number, schema: string[]): Promise<Run> {
  const db = await privateDatabase(tag);
  await db.pool.query(`ALTER TABLE vitals_observations ADD CONSTRAINT test_refuses_poison CHECK (device_id NOT LIKE 'poison-%')`);
  for (const sql of schema) await db.pool.query(sql);
  const admin = kafka.admin();
  await admin.connect();
  const topics = await privateTopics(admin, partitions);
  const producer = createVitalsProducer(kafka, { retries: 'unbounded' });
  await producer.connect();
  return { db, admin, producer, topics, live: new Map(), rebalances: 0 };
}

async function startRunIngest(run: Run, sessionTimeoutMs?: number): Promise<IngestWorker> {
  const worker = await startTestIngest(kafka, run.db.pool, {
    topic: run.topics.topic,
    dlqTopic: run.topics.dlqTopic,
    ...(sessionTimeoutMs ? { sessionTimeoutMs } : {}),
    afterCommit: async (batch: CommittedBatch) => {
      for (const { offset, item } of batch.items) {
        const key = `${batch.partition}/${offset}/${item ?? 0}`;
        run.live.set(key, (run.live.get(key) ?? 0) + 1);
      }
    },
  });
  worker.consumer.on(worker.consumer.events.REBALANCING, () => void (run.rebalances += 1));
  run.worker = worker;
  return worker;
}

async function closeRun(run: Partial<Run>): Promise<void> {
  await run.worker?.stop();
  await run.producer?.disconnect();
  await run.topics?.drop();
  await run.admin?.disconnect();
  await run.db?.drop();
}

/** `good` readings and `bad` refused ones (every (good+bad)/bad-th), from `devices` devices, in sends of 1,000. */
async function produce(run: Run, good: number, bad: number, devices: number): Promise<{ prefix: string }> {
  const prefix = `pat-prun-${uid()}`;
  const total = good + bad;
  const every = bad > 0 ? Math.floor(total / bad) : Infinity;
  const start = Date.now() - 60_000;
  let poisoned = 0;
  for (let from = 0; from < total; from += 1_000) {
    const messages = Array.from({ length: Math.min(1_000, total - from) }, (_, j) => {
      const i = from + j;
      const d = i % devices;
      const patient = `${prefix}-${d}`;
      const isBad = poisoned < bad && i % every === every - 1;
      if (isBad) poisoned += 1;
      const device = isBad ? `poison-${patient}` : `${patient}-dev`;
      return { key: patient, value: JSON.stringify(numeric(patient, device, i, new Date(start + i))) };
    });
    await run.producer.send({ topic: run.topics.topic, acks: -1, messages });
  }
  expect(poisoned).toBe(bad);
  return { prefix };
}

/** Waits for the group to have processed everything produced (stored + dead-lettered = produced). */
async function drained(run: Run, good: number, bad: number, prefix: string, timeoutMs: number) {
  await waitFor(
    () => countStored(run.db.pool, { devicePrefix: prefix }),
    (c) => c.rows >= good,
    timeoutMs,
    `${good} rows stored`,
  );
  await waitFor(
    async () => Number((await run.admin.fetchTopicOffsets(run.topics.dlqTopic))[0]!.high),
    (n) => n >= bad,
    timeoutMs,
    `${bad} dead letters`,
  );
}

async function expectExactlyOnce(run: Run, good: number, bad: number, prefix: string) {
  expect(await countStored(run.db.pool, { devicePrefix: prefix })).toEqual({ rows: good, distinct: good });
  expect(await countStored(run.db.pool, { devicePrefix: 'poison-' })).toEqual({ rows: 0, distinct: 0 });
  // the DLQ holds each refused record once, with the database's reason and its source position
  expect(Number((await run.admin.fetchTopicOffsets(run.topics.dlqTopic))[0]!.high)).toBe(bad);
  const dead = await readTopic(kafka, run.topics.dlqTopic, (seen) => seen.length >= bad, 60_000);
  const sources = new Set(
    dead.map((m) => `${m.headers?.[DLQ_HEADERS.partition]?.toString()}/${m.headers?.[DLQ_HEADERS.offset]?.toString()}`),
  );
  expect(sources.size).toBe(bad);
  for (const m of dead) {
    expect(m.headers?.[DLQ_HEADERS.reason]?.toString()).toMatch(
      /^refused by the database: .*violates check constraint "test_refuses_poison"/,
    );
    expect(JSON.parse(m.value!.toString()).device_id).toMatch(/^poison-/);
  }
  // every good reading handed to the live stage once (none of the refused ones)
  expect(run.live.size).toBe(good);
  expect([...run.live.values()].every((n) => n === 1)).toBe(true);
  // one join, no rebalance: the member kept its partitions throughout
  expect(run.worker!.stats.assignmentChecks).toBe(1);
  expect(run.rebalances).toBe(0);
  expect(run.worker!.stats.stored).toBe(good);
  expect(run.worker!.stats.deadLettered).toBe(bad);
  expect(run.worker!.stats.isolations).toBeGreaterThan(0);
}

describe('1,000 refused readings spread through 50,000 good ones, produced while the ingest runs', () => {
  const GOOD = 50_000;
  const BAD = 1_000;
  let run: Run;
  beforeAll(async () => {
    run = await openRun('prun', 12, []);
    await startRunIngest(run);
  });
  afterAll(async () => closeRun(run ?? {}));

  it('stores every good one once, dead-letters every refused one once, and the group never rebalances', async () => {
    const started = performance.now();
    const { prefix } = await produce(run, GOOD, BAD, 24);
    const produced = performance.now();
    await drained(run, GOOD, BAD, prefix, 170_000);
    const seconds = (performance.now() - started) / 1_000;
    await expectExactlyOnce(run, GOOD, BAD, prefix);
    const s = run.worker!.stats;
    console.log(
      `poison run: ${GOOD + BAD} records (${BAD} refused) produced in ${((produced - started) / 1_000).toFixed(1)} s, all processed in ${seconds.toFixed(1)} s ` +
        `(${Math.round(GOOD / seconds)} rows/s stored); ${s.isolations} isolations of ${(s.isolationMs / s.isolations).toFixed(0)} ms on average (${(s.isolationMs / 1_000).toFixed(1)} s in all), ` +
        `${s.isolationWrites} statements (${(s.isolationWrites / BAD).toFixed(1)} per refused row), ${s.batches} batches`,
    );
  });
});

describe('the same 50,000 good readings without a refused one (the figure to compare with)', () => {
  let run: Run;
  beforeAll(async () => {
    run = await openRun('pbase', 12, []);
    await startRunIngest(run);
  });
  afterAll(async () => closeRun(run ?? {}));

  it('stores every one once', async () => {
    const started = performance.now();
    const { prefix } = await produce(run, 50_000, 0, 24);
    await waitFor(
      () => countStored(run.db.pool, { devicePrefix: prefix }),
      (c) => c.rows >= 50_000,
      170_000,
      '50,000 rows stored',
    );
    const seconds = (performance.now() - started) / 1_000;
    expect(await countStored(run.db.pool, { devicePrefix: prefix })).toEqual({ rows: 50_000, distinct: 50_000 });
    expect(run.live.size).toBe(50_000);
    console.log(
      `baseline: 50000 records produced and processed in ${seconds.toFixed(1)} s (${Math.round(50_000 / seconds)} rows/s stored), ${run.worker!.stats.batches} batches`,
    );
  });
});

describe('a slow database (0.3 s per write statement) and a 6 s session timeout', () => {
  const GOOD = 3_000;
  const BAD = 30;
  let run: Run;
  beforeAll(async () => {
    run = await openRun('pslow', 3, [
      `CREATE FUNCTION test_slow() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(0.3); RETURN NULL; END $$`,
      `CREATE TRIGGER test_slow BEFORE INSERT ON vitals_observations FOR EACH STATEMENT EXECUTE FUNCTION test_slow()`,
    ]);
  });
  afterAll(async () => closeRun(run ?? {}));

  it("isolates a backlog's refused rows for far longer than the session timeout, and the member stays in the group", async () => {
    // A backlog first, so one fetch holds all 30 refused rows: its isolation is ~90 statements of 0.3 s.
    const { prefix } = await produce(run, GOOD, BAD, 6);
    const started = performance.now();
    await startRunIngest(run, 6_000);
    await drained(run, GOOD, BAD, prefix, 170_000);
    const seconds = (performance.now() - started) / 1_000;
    await expectExactlyOnce(run, GOOD, BAD, prefix);
    const s = run.worker!.stats;
    console.log(
      `slow database: ${s.isolations} isolations, ${s.isolationWrites} statements of ≥ 0.3 s (≥ ${(s.isolationWrites * 0.3).toFixed(0)} s of isolation against a 6 s session timeout), drained in ${seconds.toFixed(1)} s`,
    );
    expect(s.isolationWrites * 300).toBeGreaterThan(6_000); // the isolation did outlast the session timeout
  });
});
