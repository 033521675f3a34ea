-- TimescaleDB only: the whole file is a no-op on plain PostgreSQL (the partitioned path keeps the
-- projector's rollup tables of 0004). When the extension is installed (0002 made the append log a
-- hypertable), three TimescaleDB features take over work the plain path does by hand:
--
--  * native compression of the append log, segmented by patient (every history read names one
--    patient, so a compressed batch holds one patient's rows) and ordered by (code, time), with a
--    policy that compresses chunks older than 7 days. Late rows and redeliveries still land in
--    compressed chunks (TimescaleDB checks the unique index there), only more slowly;
--  * continuous aggregates vitals_cagg_1m (over the log) and vitals_cagg_1h (hierarchical, over
--    vitals_cagg_1m), with the same columns as vitals_rollup_1m / _1h, refreshed by TimescaleDB's
--    own jobs (policies below); the history API reads them (source cagg_1m / cagg_1h) below their
--    watermark and the log above it, and the projector does not run its rollups;
--  * vitalis_vitals_cagg_horizon(view): up to where an aggregate is materialized (its watermark),
--    for the app role, which may not read TimescaleDB's catalog.
--
-- materialized_only: the history query already adds the log's tail above the watermark itself,
-- exactly as for the rollups. The refresh windows look back 7 days (as far as compression): a row
-- arriving later than that for an older bucket reaches the aggregate only by a manual
-- CALL refresh_continuous_aggregate. `last` breaks ties on effective_at arbitrarily (the rollups
-- break them by seq): two values of one code at the very same microsecond.
-- WITH NO DATA: creating a continuous aggregate WITH DATA cannot run in a transaction; the first
-- policy run fills it.
DO $migration$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'timescaledb') THEN
    RETURN;
  END IF;

  ALTER TABLE vitals_observations SET (
    timescaledb.compress,
    timescaledb.compress_segmentby = 'patient_id',
    timescaledb.compress_orderby = 'code, effective_at DESC');
  PERFORM add_compression_policy('vitals_observations', compress_after => interval '7 days');

  EXECUTE $sql$
    CREATE MATERIALIZED VIEW vitals_cagg_1m
    WITH (timescaledb.continuous, timescaledb.materialized_only = true) AS
    SELECT patient_id, code, time_bucket(interval '1 minute', effective_at) AS bucket,
           count(*)::integer AS count, sum(value) AS sum, min(value) AS min, max(value) AS max,
           last(value, effective_at) AS last_value, max(effective_at) AS last_at
      FROM vitals_observations
     WHERE value IS NOT NULL
     GROUP BY patient_id, code, time_bucket(interval '1 minute', effective_at)
    WITH NO DATA $sql$;
  EXECUTE $sql$
    CREATE MATERIALIZED VIEW vitals_cagg_1h
    WITH (timescaledb.continuous, timescaledb.materialized_only = true) AS
    SELECT patient_id, code, time_bucket(interval '1 hour', bucket) AS bucket,
           sum(count)::integer AS count, sum(sum) AS sum, min(min) AS min, max(max) AS max,
           last(last_value, last_at) AS last_value, max(last_at) AS last_at
      FROM vitals_cagg_1m
     GROUP BY patient_id, code, time_bucket(interval '1 hour', bucket)
    WITH NO DATA $sql$;
  -- A bucket is materialized once it is over (end_offset one bucket); the hour follows the minute.
  -- A day per batch: TimescaleDB 2.19+ refreshes an invalidated window one bucket per batch by
  -- default, and the first run over 7 days of minutes is then 10 080 batches (measured on the test
  -- engine: 9.8 s instead of 0.08 s; docs/adr/0013).
  PERFORM add_continuous_aggregate_policy('vitals_cagg_1m',
    start_offset => interval '7 days', end_offset => interval '1 minute', schedule_interval => interval '1 minute',
    buckets_per_batch => 1440);
  PERFORM add_continuous_aggregate_policy('vitals_cagg_1h',
    start_offset => interval '7 days', end_offset => interval '1 hour', schedule_interval => interval '5 minutes',
    buckets_per_batch => 24);

  -- The app reads the aggregates and nothing more (the default privileges of 0013 also granted writes).
  REVOKE ALL ON vitals_cagg_1m, vitals_cagg_1h FROM vitalis_app;
  GRANT SELECT ON vitals_cagg_1m, vitals_cagg_1h TO vitalis_app;

  EXECUTE $sql$
    CREATE FUNCTION vitalis_vitals_cagg_horizon(view_name text) RETURNS timestamptz
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
      SELECT _timescaledb_functions.to_timestamp(_timescaledb_functions.cagg_watermark(c.mat_hypertable_id))
        FROM _timescaledb_catalog.continuous_agg c
       WHERE c.user_view_schema = 'public' AND c.user_view_name = view_name
    $fn$ $sql$;
  REVOKE EXECUTE ON FUNCTION vitalis_vitals_cagg_horizon(text) FROM PUBLIC;
  GRANT EXECUTE ON FUNCTION vitalis_vitals_cagg_horizon(text) TO vitalis_app;
END
$migration$;
