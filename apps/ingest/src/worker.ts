/**
 * The vitals ingest worker: a kafkajs consumer group on vitals.observations.v1 that writes each
 * fetched batch to the append log in ONE PostgreSQL transaction and only then commits the Kafka
 * offsets (at-least-once delivery + idempotent storage = effectively exactly-once rows).
 *
 * Per batch (one partition):
 *  0. records before the partition's stored offset (vitals_ingest_offsets, read on assignment,
 *     written with the rows) are redelivered: not written again (steps 1, 2 and the live stage still run);
 *  1. decode + validate every message (JSON, zod schema): a single observation, or a frame (ADR
 *     0015) whose observations are checked one by one (a bad one dead-letters the frame, naming it);
 *  2. poison messages (undecodable, schema-invalid, or refused by the database) go to the DLQ
 *     topic with the reason and the original topic/partition/offset in headers, acknowledged by
 *     Kafka (acks=all) BEFORE the offsets are committed, so a poison message is never lost and never
 *     stalls the partition;
 *  3. the good rows are written (COPY or unnest, ON CONFLICT DO NOTHING) and committed; when the
 *     database refuses the data itself, the refused rows are isolated in ONE more transaction of a
 *     few statements per refused row (isolate.ts: COPY names the row; otherwise bisection), with a
 *     heartbeat before each statement so the group keeps this member however slow the database is;
 *     a batch with refused rows (or with only poison) has its next offset recorded once its poison
 *     is in the DLQ (step 2), so a redelivery skips it instead of isolating it again;
 *  4. the offset after the batch is resolved and committed explicitly, off the hot path
 *     (offset-committer.ts: the next fetch does not wait for it; flushed when stopping).
 * A crash anywhere before 4 lands redelivers the batch; step 3 skips what was already stored.
 * Step 3 is a group commit (group-commit.ts): the batches kafkajs hands over together, one per
 * partition, share one transaction (up to maxGroupRows rows).
 * In code, a batch is an ordered list of small steps over one context (batch/steps.ts, ADR 0023):
 * read the stored offset, decode, skip redelivered, store (batch/write.ts), poison refused rows,
 * live stage, dead-letter, record the offset of a batch without recorded rows, commit offsets, count.
 *
 * Traces (@vitalis/tracing, off by default): one CONSUMER span per record batch, linked to the
 * producers of its records (@vitalis/kafka startBatchSpan); the live stage publishes under it.
 *
 * Note on kafkajs: with autoCommit off, `commitOffsetsIfNecessary()` WITHOUT arguments never
 * commits (no interval/threshold is set), so the offsets are passed explicitly.
 */
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import type { Consumer, EachBatchPayload } from 'kafkajs';
import type { Pool } from '@vitalis/db';
import { createVitalsProducer, startBatchSpan, type VitalisKafka, type VitalsProducer } from '@vitalis/kafka';
import type { Logger } from '@vitalis/log';
import { createStallClock, readNewestObservation, type IngestMetrics } from '@vitalis/metrics';
import type { ClockLimits } from '@vitalis/schemas';
import { inSpan, TRACING_OFF, type Tracing } from '@vitalis/tracing';
import { createOffsetCommitter } from './offset-committer';
import { itemsStoredFrom, recordNextOffsets, storedOffsets, type WriteMethod } from './store';
import type { CommittedBatch } from './live/stage';
import { batchContext, type BatchEnv, type BatchInfo } from './batch/context';
import { emptyIngestStats, type IngestStats } from './batch/stats';
import { createDeadLetter } from './batch/dead-letter';
import { runBatchSteps } from './batch/steps';
import { createStoredOffsets } from './batch/stored-offsets';
import { createBatchWriter } from './batch/write';

export type { BatchInfo } from './batch/context';
export type { IngestStats } from './batch/stats';
export { DLQ_HEADERS } from './batch/dead-letter';
export { isDataError } from './batch/write';

export interface IngestOptions {
  kafka: VitalisKafka;
  pool: Pool;
  logger: Logger;
  groupId: string;
  topic: string;
  dlqTopic: string;
  concurrency?: number;
  maxBytesPerPartition?: number;
  maxBytes?: number;
  maxWaitTimeInMs?: number;
  writeMethod?: WriteMethod;
  /** Batches fetched together share one transaction up to this many rows (default 5,000). */
  maxGroupRows?: number;
  /** Transactions written at once when a fetch holds more than maxGroupRows rows (default 4). */
  writers?: number;
  /** Start a brand-new group at the earliest offset (default true: nothing retained is skipped). */
  fromBeginning?: boolean;
  partitionCheckMs?: number;
  sessionTimeoutMs?: number;
  /** Bounded device clocks (@vitalis/schemas clock.ts; default 300 s ahead, 30 days behind): a record is judged at its timestamp. */
  clockLimits?: ClockLimits;
  /**
   * Awaited after a batch's rows are committed to PostgreSQL and BEFORE its Kafka offsets are
   * committed (live stage: alerts + fan-out). A throw fails the batch, which is then redelivered.
   */
  afterCommit?: (batch: CommittedBatch) => Promise<void>;
  /** Called after each batch is committed (DB and Kafka): for metrics and benchmarks. */
  onBatchCommitted?: (info: BatchInfo) => void;
  /** Prometheus series (batches, rows, transaction time, consumer lag). */
  metrics?: IngestMetrics;
  /** How often the group's lag is read from the brokers, so a stalled consumer still shows it growing (default 15 s). */
  lagPollMs?: number;
  /** One span per record batch, linked to the records' producers (off by default). */
  tracing?: Tracing;
}

export interface IngestWorker {
  stats: IngestStats;
  consumer: Consumer;
  /** Finishes the in-flight batches, commits, disconnects. */
  stop: () => Promise<void>;
}

export async function ensurePartitions(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ created: number }>('SELECT vitalis_ensure_vitals_partitions() AS created');
  return rows[0]?.created ?? 0;
}

/** Creates the coming days' partitions now and then every `everyMs` (a failure is logged; the next check retries). */
async function keepPartitionsAhead(pool: Pool, logger: Logger, everyMs: number): Promise<NodeJS.Timeout> {
  await ensurePartitions(pool);
  const timer = setInterval(() => {
    ensurePartitions(pool).then(
      (created) => created > 0 && logger.info({ created }, 'vitals partitions created'),
      (err) => logger.error({ err }, 'ensuring vitals partitions failed'),
    );
  }, everyMs);
  timer.unref();
  return timer;
}

/** Starts the worker: the partitions kept ahead, the DLQ producer, the consumer group running the batch steps, the lag poll. */
export async function startIngest(opts: IngestOptions): Promise<IngestWorker> {
  const { kafka, pool, logger, groupId, topic } = opts;
  const tracing = opts.tracing ?? TRACING_OFF;
  const stats = emptyIngestStats();
  const partitionTimer = await keepPartitionsAhead(pool, logger, opts.partitionCheckMs ?? 3_600_000);

  // Retries without limit: while Kafka is down nothing can be committed anyway, and a shutdown is bounded by the runtime's grace period.
  const dlq: VitalsProducer = createVitalsProducer(kafka, { retries: 'unbounded' });
  await dlq.connect();

  const consumer = kafka.consumer({
    groupId,
    maxBytesPerPartition: opts.maxBytesPerPartition ?? 1_048_576,
    maxBytes: opts.maxBytes ?? 10_485_760,
    maxWaitTimeInMs: opts.maxWaitTimeInMs ?? 500,
    sessionTimeout: opts.sessionTimeoutMs ?? 30_000,
    heartbeatInterval: Math.min(3_000, Math.floor((opts.sessionTimeoutMs ?? 30_000) / 3)),
  });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: opts.fromBeginning ?? true });

  const env = batchEnv(opts, stats, dlq);
  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => env.storedOffsets.assigned(payload.memberAssignment[topic] ?? []));

  // One fetched record batch, start to offset commit: batch/steps.ts, under its span with tracing on.
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    partitionsConsumedConcurrently: opts.concurrency ?? 4,
    eachBatch: async (payload: EachBatchPayload) => {
      const { batch, isRunning, isStale } = payload;
      if (batch.messages.length === 0 || !isRunning() || isStale()) return;
      const span = startBatchSpan(tracing, batch);
      if (!span) return runBatchSteps(batchContext(payload, undefined), env);
      return inSpan(span, () => runBatchSteps(batchContext(payload, trace.setSpan(ROOT_CONTEXT, span)), env));
    },
  });

  const lagPoll = opts.metrics ? pollConsumerLag(kafka, pool, groupId, topic, opts.metrics, opts.lagPollMs ?? 15_000, logger) : undefined;

  let stopping: Promise<void> | undefined;
  return {
    stats,
    consumer,
    stop: () =>
      (stopping ??= (async () => {
        clearInterval(partitionTimer);
        await lagPoll?.stop();
        await env.offsets.flush();
        await consumer.disconnect(); // waits for the in-flight batches to finish and commit
        await env.offsets.flush();
        await dlq.disconnect();
      })()),
  };
}

/** The worker's parts the batch steps use: the writer, the stored offsets, the DLQ, the offset committer, the counters. */
function batchEnv(opts: IngestOptions, stats: IngestStats, dlq: VitalsProducer): BatchEnv {
  const { pool, logger, groupId, topic, dlqTopic } = opts;
  return {
    clockLimits: opts.clockLimits,
    storedOffsets: createStoredOffsets({
      read: (partitions) => storedOffsets(pool, topic, partitions),
      logger,
      onAssignmentChecked: () => {
        stats.assignmentChecks += 1;
        opts.metrics?.assignmentChecked();
      },
    }),
    write: createBatchWriter({
      pool,
      topic,
      logger,
      stats,
      writeMethod: opts.writeMethod ?? 'copy',
      maxGroupRows: opts.maxGroupRows ?? 5_000,
      writers: opts.writers ?? 4,
      metrics: opts.metrics,
    }),
    recordNext: (partition, next) => recordNextOffsets(pool, topic, new Map([[partition, next]])),
    storedFrom: (partition, rows) => itemsStoredFrom(pool, partition, rows),
    afterCommit: opts.afterCommit,
    deadLetter: createDeadLetter(dlq, { topic, groupId, dlqTopic, logger }),
    offsets: createOffsetCommitter(logger),
    stats,
    metrics: opts.metrics,
    onBatchCommitted: opts.onBatchCommitted,
  };
}

/**
 * The group's lag per partition from the brokers (high watermark minus committed offset), every
 * `everyMs`: the per-batch figure stops moving when the consumer stalls, this one keeps growing.
 * With it, per partition, the seconds the committed offset has not moved while the lag is above 0
 * (vitalis_ingest_partition_stalled_seconds): group-wide, so every member reports every partition,
 * its own or not (the alert takes the max). And the newest stored observation's effective time
 * (vitalis_vitals_newest_observation_age_seconds: @vitalis/metrics readNewestObservation, the same
 * reading as the gateway's health), so an alert can tell "messages wait and nothing recent is stored".
 */
function pollConsumerLag(
  kafka: VitalisKafka,
  pool: Pool,
  groupId: string,
  topic: string,
  metrics: IngestMetrics,
  everyMs: number,
  logger: Logger,
): { stop: () => Promise<void> } {
  const admin = kafka.admin();
  let connected: Promise<void> | undefined;
  let running: Promise<void> | undefined;
  // Per partition, since when the group's committed offset has not moved while messages wait.
  const stall = createStallClock();
  // The newest stored observation, read apart from the brokers: a database that does not answer
  // neither holds the lag reading back nor piles up readings (one at a time).
  let reading: Promise<void> | undefined;
  const readNewest = () => {
    reading ??= readNewestObservation(pool)
      .then(
        (n) => metrics.newestObservation(n.at),
        (err: unknown) => logger.warn({ err }, 'reading the newest stored observation failed; the next poll retries'),
      )
      .finally(() => (reading = undefined));
  };
  const poll = async () => {
    readNewest();
    await (connected ??= admin.connect());
    const [ends, committed] = await Promise.all([admin.fetchTopicOffsets(topic), admin.fetchOffsets({ groupId, topics: [topic] })]);
    const done = new Map((committed[0]?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
    const now = Date.now();
    for (const end of ends) {
      const at = done.get(end.partition) ?? -1;
      // -1: nothing committed yet; the group starts from the earliest retained offset.
      const lag = Number(end.high) - (at < 0 ? Number(end.low) : at);
      metrics.consumerLag(topic, end.partition, lag);
      metrics.partitionStalled(topic, end.partition, stall.observe(end.partition, at, lag, now) / 1_000);
    }
  };
  const timer = setInterval(() => {
    running ??= poll()
      .catch((err) => {
        connected = undefined; // reconnect on the next poll
        logger.warn({ err }, 'reading the consumer lag failed; the next poll retries');
      })
      .finally(() => (running = undefined));
  }, everyMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
      await reading;
      if (connected)
        await connected.then(
          () => admin.disconnect(),
          () => {},
        );
    },
  };
}
