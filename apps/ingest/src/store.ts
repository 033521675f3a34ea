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
 */
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import copyStreams from 'pg-copy-streams';
import { recordAudit } from '@vitalis/audit';
import type { Pool, PoolClient } from '@vitalis/db';

type Queryable = Pick<Pool, 'query'>;
import { foldedSamples, foldedSamplesText } from '@vitalis/live';
import { isEcg, type VitalsObservation } from '@vitalis/schemas';
import { copyLineOf, isolate } from './isolate';

export interface StoredRow {
  patient_id: string;
  device_id: string;
  seq: number;
  code: string;
  effective_at: string;
  value: number | null;
  unit: string;
  sample_period_ms: number | null;
  /** Absolute potentials (origin already added, @vitalis/live `foldedSamples`): the stored waveform has origin 0. */
  samples: number[] | null;
  kafka_partition: number;
  kafka_offset: string;
  /** The observation's index in its Kafka record (a frame's observation index; absent or 0 for a single observation). */
  record_item?: number;
}

export type WriteMethod = 'copy' | 'unnest';

export function toRow(o: VitalsObservation, partition: number, offset: string, item = 0): StoredRow {
  // One object literal of a fixed shape (no spread): this runs once per observation on the hot path.
  const ecg = isEcg(o) ? o.waveform : undefined;
  return {
    patient_id: o.patient_id,
    device_id: o.device_id,
    seq: o.seq,
    code: o.code,
    effective_at: o.effective_at,
    value: ecg ? null : (o as { value: number }).value,
    unit: o.unit,
    sample_period_ms: ecg ? ecg.period_ms : null,
    samples: ecg ? foldedSamples(ecg) : null,
    kafka_partition: partition,
    kafka_offset: offset,
    record_item: item,
  };
}

const COLUMNS =
  'patient_id, device_id, seq, code, effective_at, value, unit, sample_period_ms, samples, kafka_partition, kafka_offset, record_item';

/** COPY text format: escape the few characters that matter (ids are validated, this is defence in depth). */
function text(value: string): string {
  return /[\\\t\n\r]/.test(value) ? value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r') : value;
}

const arrayLiteral = (samples: number[]) => `{${foldedSamplesText(samples)}}`;

export function copyLine(r: StoredRow): string {
  return `${text(r.patient_id)}\t${text(r.device_id)}\t${r.seq}\t${text(r.code)}\t${text(r.effective_at)}\t${r.value ?? '\\N'}\t${text(r.unit)}\t${
    r.sample_period_ms ?? '\\N'
  }\t${r.samples ? arrayLiteral(r.samples) : '\\N'}\t${r.kafka_partition}\t${r.kafka_offset}\t${r.record_item ?? 0}\n`;
}

/**
 * The session's stage table, created if missing in every staged write: not remembered per
 * connection, since a transaction that rolls back takes a table it created with it (a remembered
 * "exists" then fails every later redelivery on that connection). The staged path is the rare one.
 */
async function ensureStage(client: PoolClient): Promise<void> {
  await client.query(`CREATE TEMP TABLE IF NOT EXISTS vitals_ingest_stage (
      patient_id text, device_id text, seq bigint, code text, effective_at timestamptz, value double precision,
      unit text, sample_period_ms real, samples real[], kafka_partition integer, kafka_offset bigint, record_item smallint
    ) ON COMMIT DELETE ROWS`);
}

/** Streams `rows` into `table` with COPY FROM STDIN (text format). */
export async function copyRows(client: PoolClient, table: string, rows: StoredRow[]): Promise<void> {
  const stream = client.query(copyStreams.from(`COPY ${table} (${COLUMNS}) FROM STDIN`));
  const CHUNK = 500;
  async function* lines() {
    for (let i = 0; i < rows.length; i += CHUNK) {
      let chunk = '';
      for (const row of rows.slice(i, i + CHUNK)) chunk += copyLine(row);
      yield chunk;
    }
  }
  await pipeline(Readable.from(lines()), stream);
}

/**
 * The fast path: COPY straight into the append log. A redelivered batch (the only way a row can
 * already exist) violates the identity index, which aborts the COPY as a whole; the savepoint
 * undoes it and the batch takes the staged ON CONFLICT path. Redeliveries are rare (a crash or a
 * rebalance), so the common case pays one write per row instead of two.
 */
async function writeCopy(client: PoolClient, rows: StoredRow[]): Promise<StoredPosition[]> {
  await client.query('SAVEPOINT vitals_copy');
  try {
    await copyRows(client, 'vitals_observations', rows);
    // No RELEASE: the commit releases the savepoint, and a round trip fewer is latency for every
    // live subscriber.
    return rows; // every row was new, and a StoredRow carries its position
  } catch (err) {
    await client.query('ROLLBACK TO SAVEPOINT vitals_copy');
    if ((err as { code?: string }).code !== '23505') throw err;
    return writeStaged(client, rows);
  }
}

async function writeStaged(client: PoolClient, rows: StoredRow[]): Promise<StoredPosition[]> {
  await ensureStage(client);
  // Several staged writes can share a transaction (isolating refused rows): start from an empty stage.
  await client.query('DELETE FROM vitals_ingest_stage');
  await copyRows(client, 'vitals_ingest_stage', rows);
  const result = await client.query<StoredPosition>(
    `INSERT INTO vitals_observations (${COLUMNS}) SELECT ${COLUMNS} FROM vitals_ingest_stage ON CONFLICT DO NOTHING ${RETURNING}`,
  );
  // ON COMMIT DELETE ROWS empties the stage at commit; a caller that rolls back empties it too.
  return result.rows;
}

async function writeUnnest(client: PoolClient, rows: StoredRow[]): Promise<StoredPosition[]> {
  const n = rows.length;
  const cols = {
    patient: new Array<string>(n),
    device: new Array<string>(n),
    seq: new Array<number>(n),
    code: new Array<string>(n),
    at: new Array<string>(n),
    value: new Array<number | null>(n),
    unit: new Array<string>(n),
    period: new Array<number | null>(n),
    samples: new Array<string | null>(n),
    partition: new Array<number>(n),
    offset: new Array<string>(n),
    item: new Array<number>(n),
  };
  rows.forEach((r, i) => {
    cols.patient[i] = r.patient_id;
    cols.device[i] = r.device_id;
    cols.seq[i] = r.seq;
    cols.code[i] = r.code;
    cols.at[i] = r.effective_at;
    cols.value[i] = r.value;
    cols.unit[i] = r.unit;
    cols.period[i] = r.sample_period_ms;
    cols.samples[i] = r.samples ? arrayLiteral(r.samples) : null;
    cols.partition[i] = r.kafka_partition;
    cols.offset[i] = r.kafka_offset;
    cols.item[i] = r.record_item ?? 0;
  });
  const result = await client.query<StoredPosition>(
    `INSERT INTO vitals_observations (${COLUMNS})
     SELECT p, d, s, c, t, v, u, sp, smp::real[], kp, ko, ri
     FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::timestamptz[], $6::float8[], $7::text[], $8::real[], $9::text[], $10::int[], $11::bigint[], $12::smallint[])
       AS x(p, d, s, c, t, v, u, sp, smp, kp, ko, ri)
     ON CONFLICT DO NOTHING ${RETURNING}`,
    [
      cols.patient,
      cols.device,
      cols.seq,
      cols.code,
      cols.at,
      cols.value,
      cols.unit,
      cols.period,
      cols.samples,
      cols.partition,
      cols.offset,
      cols.item,
    ],
  );
  return result.rows;
}

/** Where a stored row came from; the write paths return those of the rows that were new. */
interface StoredPosition {
  kafka_partition: number;
  kafka_offset: string;
}
const RETURNING = 'RETURNING kafka_partition, kafka_offset';

/**
 * Writes the rows, records the ranges of the new ones and each partition's next offset, and audits
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
  const inserted = await insert(client, rows, method);
  return record(client, topic, rows, inserted, ends ?? nextOffsetsOf(rows));
}

const insert = (client: PoolClient, rows: StoredRow[], method: WriteMethod) =>
  method === 'copy' ? writeCopy(client, rows) : writeUnnest(client, rows);

/** After the rows: the partitions' next offsets, the new rows' ranges and the audit row. */
async function record(
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
  const { refused, attempts } = await isolate(rows, steps.failure, {
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

/** Per partition, the offset after the last of the rows. */
function nextOffsetsOf(rows: StoredRow[]): Map<number, bigint> {
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
async function recordOffsets(client: Queryable, topic: string, next: ReadonlyMap<number, bigint>): Promise<void> {
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
