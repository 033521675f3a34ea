-- Downsampled vitals (numeric only; ECG chunks are not aggregated) and retention, maintained by
-- apps/projector. Plain-PostgreSQL path: the projector recomputes every (patient, code, bucket)
-- touched by rows ingested since its watermark and upserts it, so a re-run or a redelivered
-- observation never double-counts. (On TimescaleDB the same tables and job work unchanged;
-- continuous aggregates cannot be created inside a migration transaction.)
CREATE TABLE vitals_rollup_1m (
  patient_id text NOT NULL,
  code text NOT NULL,
  bucket timestamptz NOT NULL,
  count integer NOT NULL,
  sum double precision NOT NULL,
  min double precision NOT NULL,
  max double precision NOT NULL,
  last_value double precision NOT NULL,
  last_at timestamptz NOT NULL,
  PRIMARY KEY (patient_id, code, bucket)
);

CREATE TABLE vitals_rollup_1h (LIKE vitals_rollup_1m INCLUDING ALL);

-- One row per rollup: rows ingested up to processed_upto are rolled up; complete_before is the
-- effective time before which the rollup is trusted by the history API (newer buckets are
-- computed from the append log at query time).
CREATE TABLE vitals_rollup_state (
  name text PRIMARY KEY,
  processed_upto timestamptz NOT NULL,
  complete_before timestamptz NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO vitals_rollup_state (name, processed_upto, complete_before)
VALUES ('rollup_1m', '-infinity', '-infinity'), ('rollup_1h', '-infinity', '-infinity');

-- The rollup job scans by ingestion time; within a daily partition rows are physically in
-- ingestion order, so a BRIN index answers "ingested since the watermark" cheaply.
CREATE INDEX vitals_observations_ingested_brin ON vitals_observations USING brin (ingested_at);

-- Retention: drops whole daily partitions (or TimescaleDB chunks) older than `retention_days`
-- and deletes parked rows that old from the default partition. Returns partitions dropped.
CREATE FUNCTION vitalis_drop_old_vitals_partitions(retention_days integer)
RETURNS integer LANGUAGE plpgsql AS $fn$
DECLARE
  cutoff date := current_date - retention_days;
  part record;
  dropped integer := 0;
BEGIN
  IF retention_days < 1 THEN
    RAISE EXCEPTION 'retention_days must be at least 1';
  END IF;
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'timescaledb') THEN
    EXECUTE 'SELECT count(*) FROM drop_chunks(''vitals_observations'', older_than => $1::timestamptz)' INTO dropped USING cutoff;
    RETURN dropped;
  END IF;
  FOR part IN
    SELECT c.relname
      FROM pg_inherits i
      JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'vitals_observations'::regclass
       AND c.relname ~ '^vitals_observations_\d{8}$'
       AND to_date(right(c.relname, 8), 'YYYYMMDD') < cutoff
     ORDER BY c.relname
  LOOP
    PERFORM pg_advisory_xact_lock(hashtext(part.relname));
    EXECUTE format('ALTER TABLE vitals_observations DETACH PARTITION %I', part.relname);
    EXECUTE format('DROP TABLE %I', part.relname);
    dropped := dropped + 1;
  END LOOP;
  DELETE FROM vitals_observations_default WHERE effective_at < cutoff;
  RETURN dropped;
END
$fn$;
