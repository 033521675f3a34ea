/**
 * One fetched record batch, start to offset commit, as ordered steps over one context
 * (context.ts), in the style of node-oidc-provider's actions: each step does one thing, reads what
 * the steps before it found and adds what it finds or does. The order is the ingest's guarantees
 * (worker.ts): rows committed before the live stage, the live stage and the dead-letter topic
 * acknowledged before any offset is recorded or committed, a heartbeat after the commit.
 * A step that throws fails the batch: nothing after it runs, and kafkajs fetches the batch again.
 */
import type { Batch } from 'kafkajs';
import { must } from '@vitalis/runtime';
import { decodeRecord, recordClock } from '@vitalis/schemas';
import { toRow } from '../store';
import type { BatchContext, BatchEnv, BatchStep } from './context';

/** The offset of the batch's last record (kafkajs never hands over an empty batch here). */
const lastOffset = (batch: Batch) => must(batch.messages.at(-1), "the batch's last message").offset;

/** A row's or an item's key for the live stage's filters: `offset/item`. */
const itemKey = (offset: string | number, item: number | undefined) => `${offset}/${item ?? 0}`;

/** Where the log's rows of this partition end (stored-offsets.ts): the records before it are redelivered. */
export const readStoredOffset: BatchStep = async (b, env) => {
  const { batch } = b.payload;
  b.skipBefore = await env.storedOffsets.nextOf(batch.partition, batch.highWatermark);
};

/**
 * Decodes and validates every record (JSON, zod schema, the device clock judged at the record's
 * timestamp): a single observation, or a frame (ADR 0015) whose observations are checked one by one.
 * An undecodable record is poison; so is a frame with bad observations (naming them), whose good
 * observations are still stored.
 */
export const decode: BatchStep = (b, env) => {
  for (const message of b.payload.batch.messages) {
    const decoded = decodeRecord(message.value, recordClock(message.timestamp, env.clockLimits));
    if (!decoded.ok) {
      b.poison.set(message.offset, { message, reasons: [decoded.reason], items: [] });
      continue;
    }
    if (decoded.frame) b.frames.add(message.offset);
    if (decoded.invalid.length > 0) {
      b.poison.set(message.offset, { message, reasons: decoded.invalid.map((i) => i.reason), items: decoded.invalid.map((i) => i.item) });
    }
    b.decoded.push({ message, observations: decoded.observations });
  }
};

/**
 * The rows to write: a redelivered record (before the stored offset) is not written again, only
 * re-checked for the DLQ and the live stage, which are idempotent; its rows are kept aside for the
 * live stage, which publishes those the log holds from it.
 */
export const skipRedelivered: BatchStep = (b, env) => {
  const { partition } = b.payload.batch;
  // Offsets ascend: from the first record at or past the stored offset on, none is redelivered.
  let redelivered = true;
  for (const { message, observations } of b.decoded) {
    if (redelivered) redelivered = BigInt(message.offset) < b.skipBefore;
    if (redelivered) b.skipped += 1;
    const offset = Number(message.offset);
    for (const { item, observation, steps, effectiveMs } of observations) {
      if (redelivered && !env.afterCommit) continue;
      const row = toRow(observation, partition, message.offset, item, steps, effectiveMs);
      (redelivered ? b.notWritten : b.rows).push(row);
      // the live stage publishes the samples as stored: the row's steps, derived once by the decoder
      if (env.afterCommit) b.good.push({ offset, item, observation, steps: row.steps, effectiveMs });
    }
    if (!redelivered && observations.length > 0) {
      b.byOffset.set(message.offset, message);
      b.timestamps.push(Number(message.timestamp));
    }
  }
};

/**
 * Writes the rows and commits them (write.ts: a group commit with the other partitions of the
 * fetch; refused rows isolated with a heartbeat before each statement), the batch's next offset with them.
 */
export const store: BatchStep = async (b, env) => {
  const { partition } = b.payload.batch;
  const { rows, next, refused } = b;
  if (rows.length > 0) b.stored = await env.write({ partition, rows, next, refused, heartbeat: b.payload.heartbeat });
  // The batch's next offset went into the database with its rows, unless the database refused
  // some (recorded by recordOffsetWithoutRows, once they are dead-lettered) or there were no rows to write.
  b.recorded = b.rows.length > 0 && b.refused.length === 0;
  // What this member stored is skipped if Kafka hands it out again (a failed batch is fetched again).
  if (b.recorded) env.storedOffsets.advance(partition, b.next);
  b.duplicates = b.rows.length - b.stored - b.refused.length;
};

/** The rows the database refused join their record's poison (a frame's: named by observation index). */
export const poisonRefusedRows: BatchStep = (b) => {
  for (const { row, reason } of b.refused) {
    const entry = b.poison.get(row.kafka_offset) ?? {
      message: must(b.byOffset.get(row.kafka_offset), `the message at offset ${row.kafka_offset} of a refused row`),
      reasons: [],
      items: [],
    };
    const item = row.record_item ?? 0;
    const frame = b.frames.has(row.kafka_offset);
    entry.reasons.push(frame ? `observations.${item} ${reason}` : reason);
    if (frame) entry.items.push(item);
    b.poison.set(row.kafka_offset, entry);
  }
};

/**
 * The live stage (alerts, fan-out: live/stage.ts), after the rows are committed and before the
 * offsets: the batch's good observations whose message is the stored row. A throw fails the batch.
 */
export const publishLive: BatchStep = async (b, env) => {
  if (!env.afterCommit) return;
  const { batch } = b.payload;
  const refusedAt = new Set(b.refused.map(({ row }) => itemKey(row.kafka_offset, row.record_item)));
  let items = refusedAt.size === 0 ? b.good : b.good.filter((g) => !refusedAt.has(itemKey(g.offset, g.item)));
  // Rows stored before: publish a redelivered message again (gateways drop what a subscriber
  // has by position; a skipped record is one), never a second message of an observation
  // stored from another offset (a device that re-sent a batch whose answer it lost).
  // A redelivered record (skipped) is published only for the rows the log holds from it: not
  // a row the database refused (its record is in the DLQ, its offset recorded after it).
  const unsure = b.duplicates > 0 ? [...b.notWritten, ...b.rows] : b.notWritten;
  if (unsure.length > 0) {
    const own = await env.storedFrom(batch.partition, unsure);
    const checked = new Set(unsure.map((r) => itemKey(r.kafka_offset, r.record_item)));
    items = items.filter((g) => !checked.has(itemKey(g.offset, g.item)) || own.has(itemKey(g.offset, g.item)));
  }
  await env.afterCommit({
    partition: batch.partition,
    first: Number(must(batch.messages[0], "the batch's first message").offset),
    last: Number(lastOffset(batch)),
    items,
    ...(b.trace ? { trace: b.trace } : {}),
  });
};

/** Sends the batch's poison, in offset order, to the dead-letter topic and waits for its acknowledgement. */
export const deadLetterPoison: BatchStep = async (b, env) => {
  // DLQ after the rows are committed, before the offsets: either order is safe (both are
  // redone on redelivery); this one lets the database isolate rows it refused.
  const poison = [...b.poison.values()].sort((x, y) => Number(BigInt(x.message.offset) - BigInt(y.message.offset)));
  await env.deadLetter(b.payload.batch.partition, poison);
  b.deadLettered = poison.length;
};

/** Records the next offset of a batch whose rows did not record it (refused rows, only poison, only redelivered records). */
export const recordOffsetWithoutRows: BatchStep = async (b, env) => {
  // Its poison acknowledged by the DLQ, the batch is done: recorded, a redelivery (a lost offset
  // commit, a restart, a rebalance) skips it instead of isolating the same rows and dead-lettering
  // them again (and the stall signals see the partition move). A crash before this line
  // redelivers it: isolated again, its poison dead-lettered a second time (at least once).
  if (!b.recorded && b.next > b.skipBefore) {
    const { partition } = b.payload.batch;
    await env.recordNext(partition, b.next);
    env.storedOffsets.advance(partition, b.next);
  }
};

/** Resolves the batch's last offset and hands the next one to the committer (offset-committer.ts: off the hot path). */
export const commitOffsets: BatchStep = async (b, env) => {
  const { batch, resolveOffset, commitOffsetsIfNecessary, isRunning, heartbeat } = b.payload;
  const last = lastOffset(batch);
  resolveOffset(last);
  env.offsets.commit({ topic: batch.topic, partition: batch.partition, offset: String(BigInt(last) + 1n) }, commitOffsetsIfNecessary);
  // Stopping: the offsets go out before the group is left (kafkajs waits for this batch).
  if (!isRunning()) await env.offsets.flush();
  await heartbeat();
};

/** Counts the batch: the worker's stats, the Prometheus series, the onBatchCommitted callback. */
export const countBatch: BatchStep = (b, env) => {
  const { batch } = b.payload;
  const { stored, duplicates, deadLettered, skipped } = b;
  const messages = batch.messages.length;
  env.stats.batches += 1;
  env.stats.messages += messages;
  env.stats.stored += stored;
  env.stats.duplicates += duplicates;
  env.stats.deadLettered += deadLettered;
  env.stats.skipped += skipped;
  env.metrics?.batchCommitted({ messages, stored, duplicates, deadLettered, skipped });
  env.metrics?.consumerLag(batch.topic, batch.partition, Number(batch.offsetLag()));
  env.onBatchCommitted?.({
    partition: batch.partition,
    messages,
    stored,
    duplicates,
    deadLettered,
    skipped,
    timestamps: b.timestamps,
    committedAt: Date.now(),
  });
};

/** A batch's steps, in the order that keeps the ingest's guarantees (see each step). */
export const BATCH_STEPS: readonly BatchStep[] = [
  readStoredOffset,
  decode,
  skipRedelivered,
  store,
  poisonRefusedRows,
  publishLive,
  deadLetterPoison,
  recordOffsetWithoutRows,
  commitOffsets,
  countBatch,
];

/** Runs the steps in order over one batch; a step's promise is awaited, a synchronous step runs on in the same turn. */
export async function runBatchSteps(b: BatchContext, env: BatchEnv, steps: readonly BatchStep[] = BATCH_STEPS): Promise<void> {
  for (const step of steps) {
    const done = step(b, env);
    if (done instanceof Promise) await done;
  }
}
