/**
 * Incremental 1-minute and 1-hour rollups of numeric vitals (count, sum, min, max, last value and
 * time) per (patient, code, bucket).
 *
 * Each run, in one transaction (the state row is locked, so several projectors never interleave):
 *  1. window = rows ingested in (watermark, now - safe lag], capped to `maxWindowMs` of ingestion time;
 *  2. every (patient, code, minute) touched by the window is RECOMPUTED from the append log and
 *     upserted, then every touched hour is recomputed from the minute rollup;
 *  3. the watermark moves to the window's end.
 * Recomputing (rather than adding deltas) makes a re-run, a crash mid-way, a redelivered observation
 * or a late observation for an old bucket all converge to the exact aggregate.
 * Rows carry ingested_at = their transaction's start and become visible only at commit, so the
 * window's end is held below the start of every transaction still open in the database (no row
 * can appear later behind the watermark); the safe lag is an extra margin.
 * On TimescaleDB the continuous aggregates of migration 0018 replace the rollups (TimescaleDB's jobs
 * refresh them, the history API reads them): the projector does not run this job there.
 */
import { must } from '@vitalis/runtime';
import { seriesOfPatients, storageMode, withTransaction, type Pool, type PoolClient } from '@vitalis/db';

/** Whether this database needs the projector's rollups: not on TimescaleDB, whose continuous aggregates stand in. */
export async function projectorRunsRollups(pool: Pool): Promise<boolean> {
  return (await storageMode(pool)) === 'partitioned';
}

export interface RollupOptions {
  safeLagMs: number;
  /** Most ingestion time one run covers (bounds the transaction). */
  maxWindowMs?: number;
}

export interface RollupResult {
  from: string;
  to: string;
  minutes: number;
  hours: number;
}

const UPSERT_SET = `count = EXCLUDED.count, sum = EXCLUDED.sum, min = EXCLUDED.min, max = EXCLUDED.max,
  last_value = EXCLUDED.last_value, last_at = EXCLUDED.last_at`;

/** Recomputes the minute and hour buckets listed in temp table `touched (series_id, patient_id, code, bucket)`. */
async function recomputeTouched(client: PoolClient): Promise<{ minutes: number; hours: number }> {
  const minutes = await client.query(`
    INSERT INTO vitals_rollup_1m (patient_id, code, bucket, count, sum, min, max, last_value, last_at)
    SELECT t.patient_id, t.code, t.bucket, count(*), sum(o.value), min(o.value), max(o.value),
           (array_agg(o.value ORDER BY o.effective_at DESC, o.seq DESC))[1], max(o.effective_at)
      FROM touched t
      JOIN vitals_observations o
        ON o.series_id = t.series_id
       AND o.effective_at >= t.bucket AND o.effective_at < t.bucket + interval '1 minute'
     WHERE o.value IS NOT NULL
     GROUP BY t.patient_id, t.code, t.bucket
    ON CONFLICT (patient_id, code, bucket) DO UPDATE SET ${UPSERT_SET}`);
  const hours = await client.query(`
    INSERT INTO vitals_rollup_1h (patient_id, code, bucket, count, sum, min, max, last_value, last_at)
    SELECT h.patient_id, h.code, h.bucket, sum(r.count), sum(r.sum), min(r.min), max(r.max),
           (array_agg(r.last_value ORDER BY r.last_at DESC))[1], max(r.last_at)
      FROM (SELECT DISTINCT patient_id, code, date_bin('1 hour', bucket, 'epoch') AS bucket FROM touched) h
      JOIN vitals_rollup_1m r
        ON r.patient_id = h.patient_id AND r.code = h.code
       AND r.bucket >= h.bucket AND r.bucket < h.bucket + interval '1 hour'
     GROUP BY h.patient_id, h.code, h.bucket
    ON CONFLICT (patient_id, code, bucket) DO UPDATE SET ${UPSERT_SET}`);
  return { minutes: minutes.rowCount ?? 0, hours: hours.rowCount ?? 0 };
}

/** One incremental run. Returns undefined when there was nothing new. */
export async function runRollups(pool: Pool, opts: RollupOptions): Promise<RollupResult | undefined> {
  return withTransaction(pool, async (client) => {
    // Lock first (several projectors never interleave), then read the clock and the open transactions.
    const locked = await client.query(`SELECT 1 FROM vitals_rollup_state WHERE name = 'rollup_1m' FOR UPDATE`);
    if (locked.rowCount === 0) throw new Error('vitals_rollup_state is missing its rollup_1m row (migration 0004)');
    // A row becomes visible at its commit but carries ingested_at = its transaction's START. So the
    // window never goes past the start of any transaction still open in this database (it may yet
    // commit rows stamped earlier); the safe lag is a second margin on top. (Seeing other sessions'
    // xact_start needs the same role or pg_read_all_stats.)
    const { rows } = await client.query<{ wm: Date | string; upto: Date }>(
      `SELECT s.processed_upto AS wm,
              LEAST(
                CASE WHEN s.processed_upto = '-infinity' THEN now() - $1::interval
                     ELSE LEAST(now() - $1::interval, s.processed_upto + $2::interval) END,
                (SELECT min(a.xact_start) FROM pg_stat_activity a
                  WHERE a.datname = current_database() AND a.pid <> pg_backend_pid() AND a.xact_start IS NOT NULL)
              ) AS upto
         FROM vitals_rollup_state s WHERE s.name = 'rollup_1m'`,
      [`${opts.safeLagMs} milliseconds`, `${opts.maxWindowMs ?? 3_600_000} milliseconds`],
    );
    const state = must(rows[0], "vitals_rollup_state's rollup_1m row (a migration inserts it)");
    if (state.wm instanceof Date && state.wm >= state.upto) return undefined;
    await client.query(
      `CREATE TEMP TABLE touched ON COMMIT DROP AS
       SELECT DISTINCT series_id, patient_id, code, date_bin('1 minute', effective_at, 'epoch') AS bucket
         FROM vitals_observations
        WHERE ingested_at > $1 AND ingested_at <= $2 AND value IS NOT NULL`,
      [state.wm, state.upto],
    );
    const counts = await recomputeTouched(client);
    await client.query(
      `UPDATE vitals_rollup_state SET processed_upto = $1, complete_before = $1, updated_at = now() WHERE name IN ('rollup_1m', 'rollup_1h')`,
      [state.upto],
    );
    return { from: state.wm instanceof Date ? state.wm.toISOString() : String(state.wm), to: state.upto.toISOString(), ...counts };
  });
}

/** Recomputes the rollups of some patients over an effective-time range (backfills, benchmarks). */
export async function rollupPatients(
  pool: Pool,
  patients: string[],
  from: string,
  to: string,
): Promise<{ minutes: number; hours: number }> {
  return withTransaction(pool, async (client) => {
    await client.query(
      `CREATE TEMP TABLE touched ON COMMIT DROP AS
       SELECT DISTINCT series_id, patient_id, code, date_bin('1 minute', effective_at, 'epoch') AS bucket
         FROM vitals_observations
        WHERE ${seriesOfPatients('$1::text[]')} AND effective_at >= $2 AND effective_at < $3 AND value IS NOT NULL`,
      [patients, from, to],
    );
    return recomputeTouched(client);
  });
}
