/**
 * Append-log maintenance: daily partitions are created ahead of time (ingest does it too, at
 * start and hourly) and partitions older than VITALS_RETENTION_DAYS are dropped whole (DETACH +
 * DROP: no row-by-row DELETE, no bloat). On TimescaleDB the same calls create nothing and drop chunks.
 * The ingest's batch ranges (vitals_ingest_batches, what live replay reads) and the FHIR subscriptions'
 * numbered events (the vitals they carry) follow the same retention.
 */
import type { Pool } from '@vitalis/db';

export async function maintainPartitions(
  pool: Pool,
  opts: { retentionDays: number; daysAhead: number },
): Promise<{ created: number; dropped: number }> {
  const created = await pool.query<{ n: number }>('SELECT vitalis_ensure_vitals_partitions(0, $1) AS n', [opts.daysAhead]);
  const dropped = await pool.query<{ n: number }>('SELECT vitalis_drop_old_vitals_partitions($1) AS n', [opts.retentionDays]);
  await pool.query('SELECT vitalis_drop_old_ingest_batches($1)', [opts.retentionDays]);
  // FHIR subscription events carry the vitals they are about: they go with the vitals (migration 0023)
  await pool.query('DELETE FROM fhir_subscription_events WHERE occurred_at < now() - make_interval(days => $1)', [opts.retentionDays]);
  return { created: created.rows[0]?.n ?? 0, dropped: dropped.rows[0]?.n ?? 0 };
}
