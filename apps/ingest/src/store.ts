/**
 * Writes decoded observations to the append log (`vitals_observations`), idempotently: a row whose
 * (device_id, seq, effective_at) is already stored is skipped (ON CONFLICT DO NOTHING), so Kafka
 * redelivery after a crash stores nothing twice. Two interchangeable methods, measured by
 * test/bench/vitals.bench.ts:
 *  - `copy`:   COPY straight into the log; when the batch holds an already stored row (a redelivery),
 *              COPY into a per-connection temp staging table, then INSERT ... SELECT ... ON CONFLICT DO NOTHING;
 *  - `unnest`: one multi-row INSERT ... SELECT FROM unnest($1::text[], ...) ON CONFLICT DO NOTHING.
 * Both run inside the caller's transaction, which also records each partition's next offset in
 * `vitals_ingest_offsets` (migration 0021: a redelivered range is skipped before it is written),
 * each partition's offset range in
 * `vitals_ingest_batches` (when the rows after a live-stream cursor were written: see migration
 * 0009; live replay needs it, so every writer of the log goes through here) and one `vitals.ingest`
 * audit row for the batch.
 *
 * The rows and their COPY encoding are in store-rows.ts, the two methods in store-methods.ts, what
 * is recorded beside the rows in store-records.ts; this module is the ingest's entry to all three.
 */
import type { PoolClient } from '@vitalis/db';
import { copyLineOf, isolate } from './isolate';
import { writeCopy, writeStaged, writeUnnest } from './store-methods';
import { withSeriesKeys } from './series-keys';
import { nextOffsetsOf, record, recordOffsets, type Queryable } from './store-records';
import { copyRows, type StoredPosition, type StoredRow, type WriteMethod } from './store-rows';

export { COLUMNS, copyTuple, copyRows, toRow, type StoredRow, type WriteMethod } from './store-rows';
export { storedOffsets } from './store-records';

/**
 * Writes the rows (those without a series key get theirs first, in this transaction:
 * series-keys.ts), records the ranges of the new ones and each partition's next offset, and audits
 * the batch; returns the new rows' positions. The audit row is the transaction's last statement
 * (it holds the audit chain's lock until COMMIT). `ends`: per partition, the offset after the last
 * record the batch read (poison records included); without it, the offset after the last row.
 */
async function write(
  client: PoolClient,
  topic: string,
  rows: StoredRow[],
  method: WriteMethod,
  ends?: ReadonlyMap<number, bigint>,
): Promise<StoredPosition[]> {
  const inserted = await withSeriesKeys(client, rows, () => insert(client, rows, method));
  return record(client, topic, rows, inserted, ends ?? nextOffsetsOf(rows));
}

const insert = (client: PoolClient, rows: StoredRow[], method: WriteMethod) =>
  method === 'copy' ? writeCopy(client, rows) : writeUnnest(client, rows);

export interface IsolatedWrite {
  /** Per partition, how many rows were new. */
  counts: Map<number, number>;
  /** The rows the database refused, each with its own error. */
  refused: { row: StoredRow; err: unknown }[];
  /** Writes it took (isolate.ts). */
  attempts: number;
}

/**
 * As writeRowsByPartition, for rows the database refused as a whole with `failure` (in a
 * transaction that rolled back): isolates the refused rows (isolate.ts) in ONE transaction, each
 * write in a savepoint, so the good rows cost a few statements and one commit, not one transaction
 * each. `ends` is recorded only for the partitions none of whose rows was refused: a refused row
 * must be written (and refused) again on a redelivery until it is dead-lettered (the worker records
 * those partitions' offsets after the dead-letter topic acknowledged, recordNextOffsets).
 */
export async function writeRowsIsolating(
  client: PoolClient,
  topic: string,
  rows: StoredRow[],
  method: WriteMethod,
  ends: ReadonlyMap<number, bigint>,
  steps: { failure: unknown; isRefusal: (err: unknown) => boolean; between?: () => Promise<void> },
): Promise<IsolatedWrite> {
  const inserted: StoredPosition[] = [];
  // One savepoint, moved along: established before a write (released and taken again after a write
  // that went in, kept as it is after one rolled back to it), so a write costs 2 round trips.
  let savepoint: 'none' | 'clean' | 'used' = 'none';
  const mark = async () => {
    if (savepoint === 'none') await client.query('SAVEPOINT vitals_isolate');
    else if (savepoint === 'used') await client.query('RELEASE SAVEPOINT vitals_isolate; SAVEPOINT vitals_isolate');
    savepoint = 'clean';
  };
  const rollback = async () => {
    await client.query('ROLLBACK TO SAVEPOINT vitals_isolate');
    savepoint = 'clean';
  };
  const writePart = async (part: StoredRow[]): Promise<StoredPosition[]> => {
    if (method === 'unnest') return writeUnnest(client, part);
    try {
      await copyRows(client, 'vitals_observations', part);
      return part;
    } catch (err) {
      if ((err as { code?: string }).code !== '23505') throw err;
      await rollback(); // a redelivery: some rows are stored already
      return writeStaged(client, part);
    }
  };
  const isolating = () =>
    isolate(rows, steps.failure, {
      attempt: async (part) => {
        await mark();
        try {
          inserted.push(...(await writePart(part)));
          savepoint = 'used';
        } catch (err) {
          await rollback();
          throw err;
        }
      },
      isRefusal: steps.isRefusal,
      culprit: (err) => copyLineOf(err, COPY_TABLES),
      certain: refusedByItsRow,
      ...(steps.between ? { between: steps.between } : {}),
    });
  // Keyed before the first savepoint: a write rolled back to it keeps the pairs added for the rows.
  const { refused, attempts } = await withSeriesKeys(client, rows, isolating);
  const dirty = new Set(refused.map(({ item }) => item.kafka_partition));
  const clean = new Map([...ends].filter(([partition]) => !dirty.has(partition)));
  await record(client, topic, rows, inserted, clean);
  const counts = new Map<number, number>();
  for (const r of inserted) counts.set(r.kafka_partition, (counts.get(r.kafka_partition) ?? 0) + 1);
  return { counts, refused: refused.map(({ item, err }) => ({ row: item, err })), attempts };
}

const COPY_TABLES = ['vitals_observations', 'vitals_ingest_stage'] as const;

/**
 * Errors COPY raises while it reads or checks one line, about that line alone: a malformed or out
 * of range value (class 22), a NOT NULL or CHECK constraint, a row outside every partition. Not a
 * unique, exclusion or foreign key violation (checked when rows are flushed, or at the statement's
 * end, about a pair of rows): for those the named row is proven alone.
 */
const refusedByItsRow = (err: unknown) => /^(22|23502|23514)/.test(String((err as { code?: string }).code ?? ''));

/**
 * Records partitions' next offsets outside a write (never moved back): a batch whose refused rows
 * (or all of whose records) went to the dead-letter topic is done, and is skipped when Kafka hands
 * it out again (a lost offset commit, a restart, a rebalance) instead of being isolated again.
 */
export async function recordNextOffsets(db: Queryable, topic: string, next: ReadonlyMap<number, bigint>): Promise<void> {
  await recordOffsets(db, topic, next);
}

/** Inserts `rows` read from Kafka topic `topic` (inside the caller's transaction); returns how many were new. */
export async function writeRows(
  client: PoolClient,
  topic: string,
  rows: StoredRow[],
  method: WriteMethod = 'copy',
  ends?: ReadonlyMap<number, bigint>,
): Promise<number> {
  if (rows.length === 0) return 0;
  return (await write(client, topic, rows, method, ends)).length;
}

/** As writeRows, for rows of several Kafka partitions: how many were new in each partition. */
export async function writeRowsByPartition(
  client: PoolClient,
  topic: string,
  rows: StoredRow[],
  method: WriteMethod = 'copy',
  ends?: ReadonlyMap<number, bigint>,
): Promise<Map<number, number>> {
  if (rows.length === 0) return new Map();
  const counts = new Map<number, number>();
  for (const r of await write(client, topic, rows, method, ends)) counts.set(r.kafka_partition, (counts.get(r.kafka_partition) ?? 0) + 1);
  return counts;
}

/**
 * Of `rows` (one Kafka partition's, after their transaction committed), the items (`offset/item`)
 * whose message IS the stored row. A row that was not new is either a redelivery of that same message (a crash
 * or a rebalance: stored from this offset) or another message carrying an observation stored
 * earlier from another offset (a device that re-sent a batch whose answer it never got: Kafka holds
 * it twice, the log once). The live fan-out publishes only the former: the replay reads the log, so
 * a subscriber must see the observation at the one position the log gives it. One indexed lookup,
 * and only for a batch that held rows already stored (the rare path).
 */
export async function itemsStoredFrom(pool: Queryable, partition: number, rows: StoredRow[]): Promise<Set<string>> {
  const { rows: found } = await pool.query<{ key: string }>(
    `SELECT v.kafka_offset::text || '/' || coalesce(v.record_item, 0)::text AS key
       FROM unnest($1::text[], $2::bigint[], $3::timestamptz[], $4::bigint[]) AS k(device_id, seq, effective_at, kafka_offset)
       JOIN vitals_observations v ON v.device_id = k.device_id AND v.seq = k.seq AND v.effective_at = k.effective_at
      WHERE v.kafka_partition = $5 AND v.kafka_offset = k.kafka_offset`,
    [rows.map((r) => r.device_id), rows.map((r) => r.seq), rows.map((r) => r.effective_at), rows.map((r) => r.kafka_offset), partition],
  );
  return new Set(found.map((r) => r.key));
}
