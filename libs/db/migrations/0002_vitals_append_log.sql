-- The vitals append log. One row per observation (numeric vitals) or per waveform chunk (ECG:
-- a run of samples at a fixed period, stored as one real[] so 250 Hz is one row per chunk,
-- not one row per sample).
--
-- Storage engine: a TimescaleDB hypertable when the extension is available (docker-compose
-- path), otherwise native daily range partitions plus a BRIN index on time (Debian path).
-- Both paths have the same columns and the same unique key, so the code above never cares.
--
-- Idempotency: (device_id, seq, effective_at) is unique; a redelivered observation is the same
-- triple and is stored once (INSERT ... ON CONFLICT DO NOTHING). effective_at is part of the key
-- because a unique index on a partitioned table must include the partition column.
-- kafka_partition/kafka_offset record where the row came from: the topic is keyed by patient,
-- so per patient the offset is a gap-free, monotonic position for stream resumption.
DO $migration$
DECLARE
  has_timescale boolean := EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'timescaledb');
  columns text := $cols$
    patient_id text NOT NULL,
    device_id text NOT NULL,
    seq bigint NOT NULL,
    code text NOT NULL,
    effective_at timestamptz NOT NULL,
    value double precision,
    unit text,
    sample_period_ms real,
    samples real[],
    kafka_partition integer NOT NULL,
    kafka_offset bigint NOT NULL,
    ingested_at timestamptz NOT NULL DEFAULT now(),
    CHECK ((value IS NOT NULL) <> (samples IS NOT NULL))
  $cols$;
BEGIN
  IF has_timescale THEN
    CREATE EXTENSION IF NOT EXISTS timescaledb;
    EXECUTE format('CREATE TABLE vitals_observations (%s)', columns);
    PERFORM create_hypertable('vitals_observations', 'effective_at', chunk_time_interval => interval '1 day');
  ELSE
    EXECUTE format('CREATE TABLE vitals_observations (%s) PARTITION BY RANGE (effective_at)', columns);
    -- Rows outside every daily partition land here instead of failing: nothing is lost.
    CREATE TABLE vitals_observations_default PARTITION OF vitals_observations DEFAULT;
    CREATE INDEX vitals_observations_time_brin ON vitals_observations USING brin (effective_at);
  END IF;
END
$migration$;

CREATE UNIQUE INDEX vitals_observations_identity ON vitals_observations (device_id, seq, effective_at);
CREATE INDEX vitals_observations_series ON vitals_observations (patient_id, code, effective_at);
CREATE INDEX vitals_observations_position ON vitals_observations (patient_id, kafka_partition, kafka_offset);

-- Creates the daily partitions for [today - days_back, today + days_ahead] (no-op on
-- TimescaleDB, which makes chunks itself). Rows already parked in the default partition for a
-- day are moved into the new partition in the same transaction. Returns partitions created.
CREATE FUNCTION vitalis_ensure_vitals_partitions(days_back integer DEFAULT 2, days_ahead integer DEFAULT 7)
RETURNS integer LANGUAGE plpgsql AS $fn$
DECLARE
  day date;
  name text;
  created integer := 0;
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'timescaledb') THEN
    RETURN 0;
  END IF;
  FOR day IN SELECT generate_series(current_date - days_back, current_date + days_ahead, interval '1 day')::date LOOP
    name := format('vitals_observations_%s', to_char(day, 'YYYYMMDD'));
    CONTINUE WHEN to_regclass(name) IS NOT NULL;
    -- Serialise with concurrent callers (every ingest instance runs this at start).
    PERFORM pg_advisory_xact_lock(hashtext(name));
    CONTINUE WHEN to_regclass(name) IS NOT NULL;
    EXECUTE format('CREATE TABLE %I (LIKE vitals_observations INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', name);
    EXECUTE format(
      'WITH moved AS (DELETE FROM vitals_observations_default WHERE effective_at >= %L AND effective_at < %L RETURNING *) INSERT INTO %I SELECT * FROM moved',
      day, day + 1, name);
    EXECUTE format('ALTER TABLE vitals_observations ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', name, day, day + 1);
    created := created + 1;
  END LOOP;
  RETURN created;
END
$fn$;

SELECT vitalis_ensure_vitals_partitions();
