/**
 * The ingest's write path: the batches of one fetch, one per partition, written to the append log
 * in group commits (group-commit.ts, ADR 0004), the refused rows isolated when the database refuses
 * the data itself, and a group that failed for another reason written again partition by partition.
 */
import { must } from '@vitalis/runtime';
import { withTransaction, type Pool, type PoolClient } from '@vitalis/db';
import type { Logger } from '@vitalis/log';
import type { IngestMetrics } from '@vitalis/metrics';
import { groupCommit, mapLimit, packBySize } from '../group-commit';
import { SeriesKeys } from '../series-keys';
import { writeRowsByPartition, writeRowsIsolating, type StoredRow, type WriteMethod } from '../store';
import type { IngestStats } from './stats';

/** One partition's batch on its way to the append log. */
export interface PendingBatch {
  partition: number;
  rows: StoredRow[];
  /** The offset after the batch's last record (recorded with the rows: vitals_ingest_offsets). */
  next: bigint;
  /** Filled by the store with the rows the database refused (one entry per row). */
  refused: { row: StoredRow; reason: string }[];
  /** The consumer's heartbeat (kafkajs: a no-op until the heartbeat interval has passed). */
  heartbeat: () => Promise<void>;
}

/**
 * SQLSTATE classes that mean "this data is wrong", not "the database is unwell": 22 (data
 * exception), 23 (integrity, but a unique violation, which the staged path handles), 54 (program
 * limit: a value too big for an index row). Erring here costs statements, never a good row:
 * isolation refuses a row only when, written alone, it is refused.
 */
export const isDataError = (err: unknown) =>
  /^(22|23|54)/.test(String((err as { code?: string }).code ?? '')) && (err as { code?: string }).code !== '23505';

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
export function withoutRowData(err: unknown): unknown {
  const e = err as { code?: unknown; where?: unknown; detail?: unknown; message?: unknown };
  if (typeof e !== 'object' || e === null || (e.where === undefined && e.detail === undefined)) return err;
  return Object.assign(new Error(String(e.message)), { name: 'DatabaseError', code: e.code });
}

/** One batch's write: rows newly stored, or why it failed (the batch is then fetched again). */
type Outcome = { stored: number } | { error: unknown };

export interface BatchWriterOptions {
  pool: Pool;
  topic: string;
  logger: Logger;
  writeMethod: WriteMethod;
  /** Batches fetched together share one transaction up to this many rows. */
  maxGroupRows: number;
  /** Transactions written at once when a fetch holds more than maxGroupRows rows. */
  writers: number;
  /** Isolations are counted here (isolations, isolationWrites, isolationMs). */
  stats: IngestStats;
  metrics?: IngestMetrics;
}

/** Writes one partition's batch (with the others of its fetch): the rows newly stored; refused rows land in `batch.refused`. */
export type BatchWriter = (batch: PendingBatch) => Promise<number>;

export function createBatchWriter(opts: BatchWriterOptions): BatchWriter {
  const { logger } = opts;
  const writeGroup = groupWriter(opts);

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
      const partitions = group.map((b) => b.partition);
      logger.warn({ code: errorCode(err), partitions }, 'group write failed; writing its partitions one by one');
      return Promise.all(
        group.map((b) =>
          writeGroup([b]).then(
            ([stored]) => ({ stored: stored ?? 0 }),
            (error: unknown) => ({ error }),
          ),
        ),
      );
    }
  };

  // The batches of one fetch arrive together (one per partition, never two of one partition):
  // small ones share a transaction; big ones (a backlog) keep one each, `writers` at a time.
  const groupStore = groupCommit<PendingBatch, Outcome>(async (batches) => {
    const groups = packBySize(batches, (b) => b.rows.length, opts.maxGroupRows);
    return (await mapLimit(groups, opts.writers, storeGroup)).flat();
  });
  return async (batch) => {
    const outcome = await groupStore(batch);
    if ('error' in outcome) throw withoutRowData(outcome.error);
    return outcome.stored;
  };
}

/**
 * One transaction for the batches of one or more partitions. When the database refuses the data
 * itself, ONE more transaction isolates the refused rows across all of them (isolate.ts: 3
 * statements per refused row COPY names, 2·log2(rows) at worst by bisection), heartbeating before
 * each statement: bounded time whatever the load, the other partitions' rows written in it.
 */
function groupWriter(opts: BatchWriterOptions): (group: PendingBatch[]) => Promise<number[]> {
  const { pool, topic, logger, writeMethod, stats, metrics } = opts;
  const seriesKeys = new SeriesKeys(pool);
  /** One write transaction, timed for the metrics. */
  const transaction = async <T>(fn: (client: PoolClient) => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await withTransaction(pool, fn);
    } finally {
      metrics?.transaction((performance.now() - started) / 1_000);
    }
  };

  return async (group) => {
    const ends = new Map(group.map((b) => [b.partition, b.next]));
    const [only] = group;
    const rows = only && group.length === 1 ? only.rows : group.flatMap((b) => b.rows);
    // Every row's series key, before the transaction: a key asked for is committed by then.
    await seriesKeys.assign(rows);
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
          await must(group[0], "the group's first batch").heartbeat();
        } catch (hbErr) {
          // A rebalance under way: the isolation (bounded) finishes; the batch's own heartbeat
          // after its offsets rethrows it to kafkajs, which rejoins.
          if (!heartbeatFailed) logger.warn({ err: hbErr }, 'heartbeat failed while isolating refused rows');
          heartbeatFailed = true;
        }
      };
      const isolation = { failure: err, isRefusal: isDataError, between };
      const result = await transaction((client) => writeRowsIsolating(client, topic, rows, writeMethod, ends, isolation));
      const byPartition = new Map(group.map((b) => [b.partition, b]));
      for (const { row, err: rowErr } of result.refused) {
        const batch = must(byPartition.get(row.kafka_partition), `the batch of partition ${row.kafka_partition} of a refused row`);
        batch.refused.push({ row, reason: `refused by the database: ${(rowErr as Error).message}` });
      }
      const ms = performance.now() - started;
      stats.isolations += 1;
      stats.isolationWrites += result.attempts;
      stats.isolationMs += ms;
      metrics?.isolated(result.refused.length, result.attempts);
      logger.info(
        { partitions, rows: rows.length, refused: result.refused.length, statements: result.attempts, ms: Math.round(ms) },
        'refused rows isolated',
      );
      return group.map((b) => result.counts.get(b.partition) ?? 0);
    }
  };
}
