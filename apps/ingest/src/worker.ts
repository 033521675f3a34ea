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
 *
 * Traces (@vitalis/tracing, off by default): one CONSUMER span per record batch, linked to the
 * producers of its records (@vitalis/kafka startBatchSpan); the live stage publishes under it.
 *
 * Note on kafkajs: with autoCommit off, `commitOffsetsIfNecessary()` WITHOUT arguments never
 * commits (no interval/threshold is set), so the offsets are passed explicitly.
 */
import { ROOT_CONTEXT, trace, type Context } from '@opentelemetry/api';
import type { Consumer, EachBatchPayload, Kafka, KafkaMessage, Producer } from 'kafkajs';
import { withTransaction, type Pool } from '@vitalis/db';
import { createVitalsProducer, startBatchSpan } from '@vitalis/kafka';
import type { Logger } from '@vitalis/log';
import { createStallClock, readNewestObservation, type IngestMetrics } from '@vitalis/metrics';
import { decodeRecord, recordClock, type ClockLimits } from '@vitalis/schemas';
import { inSpan, TRACING_OFF, type Tracing } from '@vitalis/tracing';
import { groupCommit, mapLimit, packBySize } from './group-commit';
import { createOffsetCommitter } from './offset-committer';
import { itemsStoredFrom, recordNextOffsets, storedOffsets, toRow, writeRowsByPartition, writeRowsIsolating, type StoredRow, type WriteMethod } from './store';
import type { CommittedBatch } from './live/stage';

export interface IngestOptions {
  kafka: Kafka;
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

/** A record for the dead-letter topic: the whole record, with why (a frame: which observations and why). */
interface Poison {
  message: KafkaMessage;
  reasons: string[];
  /** A frame's bad observations (indexes); empty when the record as a whole is bad. */
  items: number[];
}

/** One partition's batch on its way to the append log. */
interface PendingBatch {
  partition: number;
  rows: StoredRow[];
  /** The offset after the batch's last record (recorded with the rows: vitals_ingest_offsets). */
  next: bigint;
  byOffset: Map<string, KafkaMessage>;
  /** Filled by the store with the rows the database refused (one entry per row). */
  refused: { row: StoredRow; reason: string }[];
  /** The consumer's heartbeat (kafkajs: a no-op until the heartbeat interval has passed). */
  heartbeat: () => Promise<void>;
}

export interface BatchInfo {
  partition: number;
  messages: number;
  stored: number;
  duplicates: number;
  deadLettered: number;
  /** Redelivered records skipped: the database already held them (vitals_ingest_offsets). */
  skipped: number;
  /** Producer timestamps (ms) of the messages in the batch. */
  timestamps: number[];
  committedAt: number;
}

export interface IngestStats {
  batches: number;
  messages: number;
  stored: number;
  duplicates: number;
  deadLettered: number;
  /** Redelivered records not written again: before their offset, the database already held them. */
  skipped: number;
  /** Partition assignments whose stored offsets were read (one per rebalance this member joined). */
  assignmentChecks: number;
  /** Writes the database refused as a whole, whose refused rows were then isolated. */
  isolations: number;
  /** Statements those isolations took (isolate.ts: 2 or 3 per refused row COPY names, up to 2·log2(rows) bisecting). */
  isolationWrites: number;
  /** Milliseconds those isolations took (their transactions). */
  isolationMs: number;
}

export interface IngestWorker {
  stats: IngestStats;
  consumer: Consumer;
  /** Finishes the in-flight batches, commits, disconnects. */
  stop: () => Promise<void>;
}

export const DLQ_HEADERS = {
  reason: 'x-dlq-reason',
  topic: 'x-dlq-source-topic',
  partition: 'x-dlq-source-partition',
  offset: 'x-dlq-source-offset',
  group: 'x-dlq-consumer-group',
  failedAt: 'x-dlq-failed-at',
  /** A frame's bad observations, by index (comma-separated); absent when the whole record is bad. */
  frameItems: 'x-dlq-frame-items',
} as const;

/**
 * SQLSTATE classes that mean "this data is wrong", not "the database is unwell": 22 (data
 * exception), 23 (integrity, but a unique violation, which the staged path handles), 54 (program
 * limit: a value too big for an index row). Erring here costs statements, never a good row:
 * isolation refuses a row only when, written alone, it is refused.
 */
export const isDataError = (err: unknown) => /^(22|23|54)/.test(String((err as { code?: string }).code ?? '')) && (err as { code?: string }).code !== '23505';

/**
 * What of a database error may be logged: its SQLSTATE only. The message can quote a value and
 * the detail or context a whole row ("Failing row contains (pat-…)"): PHI, kept out of the logs
 * (the row's reason goes with the record to the dead-letter topic, which holds the record anyway).
 */
const errorCode = (err: unknown) => String((err as { code?: string }).code ?? 'none');

/**
 * A database error as thrown on to kafkajs (which logs it): its message and SQLSTATE, without the
 * detail and context PostgreSQL adds, which quote the row (patient and device ids, values).
 */
function withoutRowData(err: unknown): unknown {
  const e = err as { code?: unknown; where?: unknown; detail?: unknown; message?: unknown };
  if (typeof e !== 'object' || e === null || (e.where === undefined && e.detail === undefined)) return err;
  return Object.assign(new Error(String(e.message)), { name: 'DatabaseError', code: e.code });
}

/** One batch's write: rows newly stored, or why it failed (the batch is then fetched again). */
type Outcome = { stored: number } | { error: unknown };

export async function ensurePartitions(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ created: number }>('SELECT vitalis_ensure_vitals_partitions() AS created');
  return rows[0]?.created ?? 0;
}

export async function startIngest(opts: IngestOptions): Promise<IngestWorker> {
  const { kafka, pool, logger, groupId, topic, dlqTopic } = opts;
  const writeMethod = opts.writeMethod ?? 'copy';
  const tracing = opts.tracing ?? TRACING_OFF;
  const stats: IngestStats = { batches: 0, messages: 0, stored: 0, duplicates: 0, deadLettered: 0, skipped: 0, assignmentChecks: 0, isolations: 0, isolationWrites: 0, isolationMs: 0 };

  await ensurePartitions(pool);
  const partitionTimer = setInterval(() => {
    ensurePartitions(pool).then(
      (created) => created > 0 && logger.info({ created }, 'vitals partitions created'),
      (err) => logger.error({ err }, 'ensuring vitals partitions failed'),
    );
  }, opts.partitionCheckMs ?? 3_600_000);
  partitionTimer.unref();

  // Retries without limit (what the idempotent producer needs): while Kafka is down nothing can be
  // committed anyway, and a shutdown is bounded by the runtime's grace period.
  const dlq: Producer = createVitalsProducer(kafka, { retries: 'unbounded' });
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

  const deadLetter = async (partition: number, items: Poison[]) => {
    if (items.length === 0) return;
    const failedAt = new Date().toISOString();
    await dlq.send({
      topic: dlqTopic,
      acks: -1,
      messages: items.map(({ message, reasons, items: bad }) => ({
        key: message.key,
        value: message.value,
        headers: {
          ...message.headers,
          [DLQ_HEADERS.reason]: reasons.join('; ').slice(0, 2_000),
          [DLQ_HEADERS.topic]: topic,
          [DLQ_HEADERS.partition]: String(partition),
          [DLQ_HEADERS.offset]: message.offset,
          [DLQ_HEADERS.group]: groupId,
          [DLQ_HEADERS.failedAt]: failedAt,
          ...(bad.length > 0 ? { [DLQ_HEADERS.frameItems]: bad.join(',') } : {}),
        },
      })),
    });
    logger.warn({ partition, count: items.length, first: items[0]?.reasons[0] }, 'messages sent to the dead-letter topic');
  };

  /** One write transaction, timed for the metrics. */
  const transaction = async <T>(fn: (client: import('@vitalis/db').PoolClient) => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await withTransaction(pool, fn);
    } finally {
      opts.metrics?.transaction((performance.now() - started) / 1_000);
    }
  };

  /**
   * One transaction for the batches of one or more partitions. When the database refuses the data
   * itself, ONE more transaction isolates the refused rows across all of them (isolate.ts: 3
   * statements per refused row COPY names, 2·log2(rows) at worst by bisection), heartbeating before
   * each statement: bounded time whatever the load, the other partitions' rows written in it.
   */
  const writeGroup = async (group: PendingBatch[]): Promise<number[]> => {
    const ends = new Map(group.map((b) => [b.partition, b.next]));
    const rows = group.length === 1 ? group[0]!.rows : group.flatMap((b) => b.rows);
    try {
      const counts = await transaction((client) => writeRowsByPartition(client, topic, rows, writeMethod, ends));
      return group.map((b) => counts.get(b.partition) ?? 0);
    } catch (err) {
      if (!isDataError(err)) throw err;
      const partitions = group.map((b) => b.partition);
      logger.warn({ code: errorCode(err), partitions, rows: rows.length }, 'batch refused by the database, isolating rows');
      const started = performance.now();
      let heartbeatFailed = false;
      const between = async () => {
        try {
          await group[0]!.heartbeat();
        } catch (hbErr) {
          // A rebalance under way: the isolation (bounded) finishes; the batch's own heartbeat
          // after its offsets rethrows it to kafkajs, which rejoins.
          if (!heartbeatFailed) logger.warn({ err: hbErr }, 'heartbeat failed while isolating refused rows');
          heartbeatFailed = true;
        }
      };
      const result = await transaction((client) => writeRowsIsolating(client, topic, rows, writeMethod, ends, { failure: err, isRefusal: isDataError, between }));
      const byPartition = new Map(group.map((b) => [b.partition, b]));
      for (const { row, err: rowErr } of result.refused) {
        byPartition.get(row.kafka_partition)!.refused.push({ row, reason: `refused by the database: ${(rowErr as Error).message}` });
      }
      const ms = performance.now() - started;
      stats.isolations += 1;
      stats.isolationWrites += result.attempts;
      stats.isolationMs += ms;
      opts.metrics?.isolated(result.refused.length, result.attempts);
      logger.info(
        { partitions, rows: rows.length, refused: result.refused.length, statements: result.attempts, ms: Math.round(ms) },
        'refused rows isolated',
      );
      return group.map((b) => result.counts.get(b.partition) ?? 0);
    }
  };

  /**
   * A group whose transaction failed for another reason (the database unwell, or unwell for one
   * partition's rows only: a trigger, a lock) is written again partition by partition, so one
   * partition's failure fails its own batch (kafkajs fetches it again), not its neighbours'.
   */
  const storeGroup = async (group: PendingBatch[]): Promise<Outcome[]> => {
    try {
      return (await writeGroup(group)).map((stored) => ({ stored }));
    } catch (err) {
      if (group.length === 1) return [{ error: err }];
      logger.warn({ code: errorCode(err), partitions: group.map((b) => b.partition) }, 'group write failed; writing its partitions one by one');
      return Promise.all(
        group.map((b) =>
          writeGroup([b]).then(
            ([stored]) => ({ stored: stored! }),
            (error: unknown) => ({ error }),
          ),
        ),
      );
    }
  };

  // The batches of one fetch arrive together (one per partition, never two of one partition):
  // small ones share a transaction; big ones (a backlog) keep one each, `writers` at a time.
  const maxGroupRows = opts.maxGroupRows ?? 5_000;
  const writers = opts.writers ?? 4;
  const groupStore = groupCommit<PendingBatch, Outcome>(async (batches) => {
    const groups = packBySize(batches, (b) => b.rows.length, maxGroupRows);
    return (await mapLimit(groups, writers, storeGroup)).flat();
  });
  const store = async (batch: PendingBatch): Promise<number> => {
    const outcome = await groupStore(batch);
    if ('error' in outcome) throw withoutRowData(outcome.error);
    return outcome.stored;
  };

  const offsets = createOffsetCommitter(logger);

  // Per partition of `topic`: the offset after the last record the database holds (-1: none),
  // read on every assignment (a rebalance, a join) and moved on by this member's own commits. A
  // record before it is redelivered (a Kafka offset commit lost to a crash or rebalance): it is not
  // written again (no COPY aborted at the identity index, no staged path), only re-checked for the
  // DLQ and the live stage, which are idempotent. Stale-low is safe (the identity index still
  // dedups); a value beyond the partition's high watermark means the topic was recreated, and is ignored.
  const storedNext = new Map<number, bigint>();
  let assignment: Promise<void> = Promise.resolve();
  const loadStored = async (partitions: number[]) => {
    const found = await storedOffsets(pool, topic, partitions);
    for (const p of partitions) storedNext.set(p, found.get(p) ?? -1n);
  };
  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
    const partitions = payload.memberAssignment[topic] ?? [];
    storedNext.clear();
    assignment = loadStored(partitions).then(
      () => {
        stats.assignmentChecks += 1;
        opts.metrics?.assignmentChecked();
      },
      (err) => logger.warn({ err }, 'reading the stored offsets on assignment failed; the first batch of each partition reads them'),
    );
  });
  const storedNextOf = async (partition: number, highWatermark: string): Promise<bigint> => {
    await assignment;
    if (!storedNext.has(partition)) await loadStored([partition]);
    const next = storedNext.get(partition)!;
    if (next > BigInt(highWatermark)) {
      logger.warn({ partition, next: String(next), highWatermark }, 'stored offset beyond the partition end (topic recreated?): not skipping');
      storedNext.set(partition, -1n);
      return -1n;
    }
    return next;
  };

  /** One fetched record batch, start to offset commit; `traceContext`: its span's, with tracing on. */
  const handleBatch = async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning }: EachBatchPayload, traceContext: Context | undefined) => {
    const skipBefore = await storedNextOf(batch.partition, batch.highWatermark);
    const rows: StoredRow[] = [];
    const byOffset = new Map<string, KafkaMessage>();
    const poison = new Map<string, Poison>();
    const timestamps: number[] = [];
    const good: CommittedBatch['items'] = [];
    const frames = new Set<string>();
    let skipped = 0;
    /** Rows of redelivered records, not written: the live stage gets those the log holds from here. */
    const notWritten: StoredRow[] = [];
    for (const message of batch.messages) {
      const decoded = decodeRecord(message.value, recordClock(message.timestamp, opts.clockLimits));
      if (!decoded.ok) {
        poison.set(message.offset, { message, reasons: [decoded.reason], items: [] });
        continue;
      }
      if (decoded.frame) frames.add(message.offset);
      if (decoded.invalid.length > 0) {
        poison.set(message.offset, { message, reasons: decoded.invalid.map((i) => i.reason), items: decoded.invalid.map((i) => i.item) });
      }
      const redelivered = BigInt(message.offset) < skipBefore;
      if (redelivered) skipped += 1;
      for (const { item, observation } of decoded.observations) {
        if (!redelivered) rows.push(toRow(observation, batch.partition, message.offset, item));
        else if (opts.afterCommit) notWritten.push(toRow(observation, batch.partition, message.offset, item));
        if (opts.afterCommit) good.push({ offset: Number(message.offset), item, observation });
      }
      if (!redelivered && decoded.observations.length > 0) {
        byOffset.set(message.offset, message);
        timestamps.push(Number(message.timestamp));
      }
    }
    const last = batch.messages[batch.messages.length - 1]!.offset;
    const refused: PendingBatch['refused'] = [];
    const next = BigInt(last) + 1n;
    const stored = rows.length > 0 ? await store({ partition: batch.partition, rows, next, byOffset, refused, heartbeat }) : 0;
    // The batch's next offset went into the database with its rows, unless the database refused
    // some (recorded below, once they are dead-lettered) or there were no rows to write.
    const recorded = rows.length > 0 && refused.length === 0;
    // What this member stored is skipped if Kafka hands it out again (a failed batch is fetched again).
    if (recorded && next > (storedNext.get(batch.partition) ?? -1n)) storedNext.set(batch.partition, next);
    for (const { row, reason } of refused) {
      const entry = poison.get(row.kafka_offset) ?? { message: byOffset.get(row.kafka_offset)!, reasons: [], items: [] };
      const item = row.record_item ?? 0;
      const frame = frames.has(row.kafka_offset);
      entry.reasons.push(frame ? `observations.${item} ${reason}` : reason);
      if (frame) entry.items.push(item);
      poison.set(row.kafka_offset, entry);
    }
    const duplicates = rows.length - stored - refused.length;
    if (opts.afterCommit) {
      const refusedAt = new Set(refused.map(({ row }) => `${row.kafka_offset}/${row.record_item ?? 0}`));
      let items = refusedAt.size === 0 ? good : good.filter((g) => !refusedAt.has(`${g.offset}/${g.item ?? 0}`));
      // Rows stored before: publish a redelivered message again (gateways drop what a subscriber
      // has by position; a skipped record is one), never a second message of an observation
      // stored from another offset (a device that re-sent a batch whose answer it lost).
      // A redelivered record (skipped) is published only for the rows the log holds from it: not
      // a row the database refused (its record is in the DLQ, its offset recorded after it).
      const unsure = duplicates > 0 ? [...notWritten, ...rows] : notWritten;
      if (unsure.length > 0) {
        const own = await itemsStoredFrom(pool, batch.partition, unsure);
        const checked = new Set(unsure.map((r) => `${r.kafka_offset}/${r.record_item ?? 0}`));
        items = items.filter((g) => !checked.has(`${g.offset}/${g.item ?? 0}`) || own.has(`${g.offset}/${g.item ?? 0}`));
      }
      await opts.afterCommit({
        partition: batch.partition,
        first: Number(batch.messages[0]!.offset),
        last: Number(last),
        items,
        ...(traceContext ? { trace: traceContext } : {}),
      });
    }
    // DLQ after the rows are committed, before the offsets: either order is safe (both are
    // redone on redelivery); this one lets the database isolate rows it refused.
    const deadLettered = [...poison.values()].sort((a, b) => Number(BigInt(a.message.offset) - BigInt(b.message.offset)));
    await deadLetter(batch.partition, deadLettered);
    // Its poison acknowledged by the DLQ, the batch is done: recorded, a redelivery (a lost offset
    // commit, a restart, a rebalance) skips it instead of isolating the same rows and dead-lettering
    // them again (and the stall signals see the partition move). A crash before this line
    // redelivers it: isolated again, its poison dead-lettered a second time (at least once).
    if (!recorded && next > skipBefore) {
      await recordNextOffsets(pool, topic, new Map([[batch.partition, next]]));
      if (next > (storedNext.get(batch.partition) ?? -1n)) storedNext.set(batch.partition, next);
    }
    resolveOffset(last);
    offsets.commit({ topic: batch.topic, partition: batch.partition, offset: String(BigInt(last) + 1n) }, commitOffsetsIfNecessary);
    // Stopping: the offsets go out before the group is left (kafkajs waits for this batch).
    if (!isRunning()) await offsets.flush();
    await heartbeat();

    stats.batches += 1;
    stats.messages += batch.messages.length;
    stats.stored += stored;
    stats.duplicates += duplicates;
    stats.deadLettered += deadLettered.length;
    stats.skipped += skipped;
    opts.metrics?.batchCommitted({ messages: batch.messages.length, stored, duplicates, deadLettered: deadLettered.length, skipped });
    opts.metrics?.consumerLag(batch.topic, batch.partition, Number(batch.offsetLag()));
    opts.onBatchCommitted?.({
      partition: batch.partition,
      messages: batch.messages.length,
      stored,
      duplicates,
      deadLettered: deadLettered.length,
      skipped,
      timestamps,
      committedAt: Date.now(),
    });
  };

  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    partitionsConsumedConcurrently: opts.concurrency ?? 4,
    eachBatch: async (payload) => {
      const { batch, isRunning, isStale } = payload;
      if (batch.messages.length === 0 || !isRunning() || isStale()) return;
      const span = startBatchSpan(tracing, batch);
      return span ? inSpan(span, () => handleBatch(payload, trace.setSpan(ROOT_CONTEXT, span))) : handleBatch(payload, undefined);
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
        await offsets.flush();
        await consumer.disconnect(); // waits for the in-flight batches to finish and commit
        await offsets.flush();
        await dlq.disconnect();
      })()),
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
function pollConsumerLag(kafka: Kafka, pool: Pool, groupId: string, topic: string, metrics: IngestMetrics, everyMs: number, logger: Logger): { stop: () => Promise<void> } {
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
      if (connected) await connected.then(() => admin.disconnect(), () => {});
    },
  };
}
