/**
 * What the ingest records beside the rows it stores, in the rows' own transaction (store.ts): each
 * partition's next offset (`vitals_ingest_offsets`, migration 0021), the new rows' offset ranges
 * (`vitals_ingest_batches`, migration 0009) and one `vitals.ingest` audit row per batch.
 */
import { recordAudit } from '@vitalis/audit';
import type { Pool, PoolClient } from '@vitalis/db';
import type { StoredPosition, StoredRow } from './store-rows';

/** Anything that runs a query: a pool or a client in a transaction. */
export type Queryable = Pick<Pool, 'query'>;

/** After the rows: the partitions' next offsets, the new rows' ranges and the audit row. */
export async function record(
  client: PoolClient,
  topic: string,
  rows: StoredRow[],
  inserted: StoredPosition[],
  ends: ReadonlyMap<number, bigint>,
): Promise<StoredPosition[]> {
  await recordOffsets(client, topic, ends);
  if (inserted.length === 0) return inserted; // a redelivery: nothing stored, nothing to record
  const ranges = rangesOf(inserted);
  await recordRanges(client, topic, ranges);
  await auditBatch(client, topic, ranges, rows);
  return inserted;
}

/** Per partition, the offset after the last of the rows. */
export function nextOffsetsOf(rows: StoredRow[]): Map<number, bigint> {
  const next = new Map<number, bigint>();
  for (const r of rows) {
    const after = BigInt(r.kafka_offset) + 1n;
    if (after > (next.get(r.kafka_partition) ?? -1n)) next.set(r.kafka_partition, after);
  }
  return next;
}

/**
 * Per partition, the offset after what this transaction stored (never moved back), in the rows'
 * transaction (migration 0021): whoever is handed the partition next reads it and skips a range
 * already stored. Partitions in order, so two transactions (an overlap in a rebalance) lock them
 * in one order.
 */
export async function recordOffsets(client: Queryable, topic: string, next: ReadonlyMap<number, bigint>): Promise<void> {
  const ordered = [...next].sort(([a], [b]) => a - b);
  if (ordered.length === 0) return;
  const partitions = ordered.map(([p]) => p);
  await client.query(
    `INSERT INTO vitals_ingest_offsets AS o (topic, kafka_partition, next_offset)
     SELECT $1, p, n FROM unnest($2::int[], $3::bigint[]) AS x(p, n) ORDER BY p
     ON CONFLICT (topic, kafka_partition) DO UPDATE SET next_offset = GREATEST(o.next_offset, EXCLUDED.next_offset), updated_at = now()`,
    [topic, partitions, ordered.map(([, n]) => String(n))],
  );
}

/** Per partition of `topic`, the offset after the last record stored (partitions never stored are absent). */
export async function storedOffsets(
  db: Pick<PoolClient, 'query'>,
  topic: string,
  partitions: readonly number[],
): Promise<Map<number, bigint>> {
  const { rows } = await db.query<{ p: number; n: string }>(
    'SELECT kafka_partition AS p, next_offset::text AS n FROM vitals_ingest_offsets WHERE topic = $1 AND kafka_partition = ANY($2::int[])',
    [topic, partitions],
  );
  return new Map(rows.map((r) => [r.p, BigInt(r.n)]));
}

type Ranges = Map<number, { first: bigint; last: bigint; rows: number }>;

/** Per Kafka partition: the offset range and count of the rows stored. */
function rangesOf(rows: StoredPosition[]): Ranges {
  const ranges: Ranges = new Map();
  for (const r of rows) {
    const offset = BigInt(r.kafka_offset);
    const range = ranges.get(r.kafka_partition);
    if (!range) ranges.set(r.kafka_partition, { first: offset, last: offset, rows: 1 });
    else {
      range.rows++;
      if (offset < range.first) range.first = offset;
      else if (offset > range.last) range.last = offset;
    }
  }
  return ranges;
}

/**
 * One `vitals.ingest` audit row per stored batch (= per transaction, however many partitions it
 * holds), in the batch's own transaction: observations that devices published straight to Kafka
 * reach the trail too. Ids and counts only (topic, partitions, offset ranges, rows, patients), never values.
 */
async function auditBatch(client: PoolClient, topic: string, ranges: Ranges, rows: StoredRow[]): Promise<void> {
  const partitions = [...ranges]
    .sort(([a], [b]) => a - b)
    .map(([partition, r]) => ({ partition, first_offset: String(r.first), last_offset: String(r.last), rows: r.rows }));
  const stored = partitions.reduce((n, p) => n + p.rows, 0);
  await recordAudit(client, {
    action: 'vitals.ingest',
    outcome: 'success',
    subject: 'vitalis-ingest',
    resourceType: 'Observation',
    detail: { topic, partitions, rows: stored, received: rows.length, patients: new Set(rows.map((r) => r.patient_id)).size },
  });
}

/**
 * One row per Kafka partition: the offset range of the rows this transaction stored, stamped with
 * its now() (their ingested_at). Only NEW rows count: a redelivery stores nothing again, and a
 * range must never claim a later time for rows written earlier (replay would start too late).
 */
async function recordRanges(client: PoolClient, topic: string, ranges: Ranges): Promise<void> {
  const entries = [...ranges];
  await client.query(
    `INSERT INTO vitals_ingest_batches (topic, kafka_partition, first_offset, last_offset)
     SELECT $1, * FROM unnest($2::int[], $3::bigint[], $4::bigint[]) ON CONFLICT DO NOTHING`,
    [topic, entries.map(([p]) => p), entries.map(([, r]) => String(r.first)), entries.map(([, r]) => String(r.last))],
  );
}
