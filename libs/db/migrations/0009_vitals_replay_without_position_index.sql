-- Live replay without a per-row position index.
--
-- The append log had three B-tree indexes per row: identity (idempotency), series (history) and
-- position (patient_id, kafka_partition, kafka_offset) for live-stream replay. Each B-tree insert
-- costs as much as the heap insert several times over: with all three a COPY into the log runs at
-- ~88k rows/s on the reference box, without the position index ~124k (+40%). The position index is
-- replaced by two cheap structures that let the gateway answer "patient p's rows after (k, o)"
-- as exactly:
--
-- 1. vitals_ingest_batches: one row per partition per ingest transaction (its offset range and
--    ingested_at), written in that transaction: ~1 row per thousand observations. It says when the
--    rows after a cursor were written: no row in it after (k, o) means nothing stored after it.
-- 2. The series index (patient_id, code, effective_at) then finds the patient's rows from shortly
--    before that moment: an on-time row (effective_at at most 1 minute before ingested_at) written
--    after the cursor has effective_at >= (that batch's ingested_at - 1 minute - margin).
-- 3. Late rows (ingested more than 1 minute after their effective_at: a device's buffered backlog,
--    a skewed device clock, an ingest catching up) are the exception the window cannot bound, so
--    they keep a position index entry, through a PARTIAL index (nearly empty in steady state).
-- `ingested_at - effective_at` is timestamptz - timestamptz (immutable), so it can be an index
-- predicate. apps/gateway/src/live/replay.ts repeats the predicate verbatim (the planner must match it).
-- Keyed by topic: a new topic version (offsets restart at 0) must not mix with the old ranges.
CREATE TABLE vitals_ingest_batches (
  topic text NOT NULL,
  kafka_partition integer NOT NULL,
  first_offset bigint NOT NULL,
  last_offset bigint NOT NULL,
  ingested_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (topic, kafka_partition, last_offset)
);
CREATE INDEX vitals_ingest_batches_time ON vitals_ingest_batches USING brin (ingested_at);

-- Rows already stored: each ingest transaction had one ingested_at (its now()), so grouping by it
-- rebuilds the ranges exactly (the log does not record the topic: they were the default one).
INSERT INTO vitals_ingest_batches (topic, kafka_partition, first_offset, last_offset, ingested_at)
SELECT 'vitals.observations.v1', kafka_partition, min(kafka_offset), max(kafka_offset), ingested_at
  FROM vitals_observations GROUP BY kafka_partition, ingested_at
ON CONFLICT DO NOTHING;

CREATE INDEX vitals_observations_late_position ON vitals_observations (patient_id, kafka_partition, kafka_offset)
  WHERE ingested_at - effective_at > interval '1 minute';
DROP INDEX vitals_observations_position;

-- Retention of the ranges follows the append log's (the projector calls both).
CREATE FUNCTION vitalis_drop_old_ingest_batches(retention_days integer)
RETURNS integer LANGUAGE sql AS $fn$
  WITH gone AS (DELETE FROM vitals_ingest_batches WHERE ingested_at < now() - make_interval(days => retention_days + 1) RETURNING 1)
  SELECT count(*)::integer FROM gone;
$fn$;
