/**
 * The two interchangeable ways to put rows into the append log (store.ts): `copy` (COPY straight
 * in, or through a temp stage with ON CONFLICT DO NOTHING when the batch holds a stored row) and
 * `unnest` (one multi-row INSERT ... ON CONFLICT DO NOTHING). Each returns the new rows' positions.
 */
import type { PoolClient } from '@vitalis/db';
import { sampleStepsLiteral } from '@vitalis/live';
import { COLUMNS, copyRows, RETURNING, type StoredPosition, type StoredRow } from './store-rows';

/**
 * The session's stage table, created if missing in every staged write: not remembered per
 * connection, since a transaction that rolls back takes a table it created with it (a remembered
 * "exists" then fails every later redelivery on that connection). The staged path is the rare one.
 */
async function ensureStage(client: PoolClient): Promise<void> {
  await client.query(`CREATE TEMP TABLE IF NOT EXISTS vitals_ingest_stage (
      patient_id text, device_id text, seq bigint, code text, effective_at timestamptz, value double precision,
      unit text, sample_period_ms real, sample_steps bytea, kafka_partition integer, kafka_offset bigint, record_item smallint,
      series_id integer
    ) ON COMMIT DELETE ROWS`);
}

/**
 * The fast path: COPY straight into the append log. A redelivered batch (the only way a row can
 * already exist) violates the identity index, which aborts the COPY as a whole; the savepoint
 * undoes it and the batch takes the staged ON CONFLICT path. Redeliveries are rare (a crash or a
 * rebalance), so the common case pays one write per row instead of two.
 */
export async function writeCopy(client: PoolClient, rows: StoredRow[]): Promise<StoredPosition[]> {
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

/** The staged path: COPY into the session's stage, then INSERT ... SELECT ... ON CONFLICT DO NOTHING into the log. */
export async function writeStaged(client: PoolClient, rows: StoredRow[]): Promise<StoredPosition[]> {
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

/** The `unnest` method: the rows as one array per column, in one INSERT ... SELECT FROM unnest(...) ON CONFLICT DO NOTHING. */
export async function writeUnnest(client: PoolClient, rows: StoredRow[]): Promise<StoredPosition[]> {
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
    steps: new Array<string | null>(n),
    partition: new Array<number>(n),
    offset: new Array<string>(n),
    item: new Array<number>(n),
    series: new Array<number | null>(n),
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
    cols.steps[i] = r.steps ? sampleStepsLiteral(r.steps) : null;
    cols.partition[i] = r.kafka_partition;
    cols.offset[i] = r.kafka_offset;
    cols.item[i] = r.record_item ?? 0;
    cols.series[i] = r.series_id ?? null;
  });
  const result = await client.query<StoredPosition>(
    `INSERT INTO vitals_observations (${COLUMNS})
     SELECT p, d, s, c, t, v, u, sp, smp::bytea, kp, ko, ri, si
     FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::timestamptz[], $6::float8[], $7::text[], $8::real[], $9::text[], $10::int[], $11::bigint[], $12::smallint[], $13::int[])
       AS x(p, d, s, c, t, v, u, sp, smp, kp, ko, ri, si)
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
      cols.steps,
      cols.partition,
      cols.offset,
      cols.item,
      cols.series,
    ],
  );
  return result.rows;
}
