-- The series index keyed by an integer from an exact dictionary (issue 34 item 4; measured in
-- docs/benchmarks.md, "What a numeric row's indexes cost", and docs/adr/0036).
--
-- A series is one patient's one code. The series index was (patient_id, code, effective_at): every
-- row's insert walked it comparing two texts per level through the locale's strcoll, about 4 µs of a
-- numeric row's 7 µs of backend CPU. It is now (series_id, effective_at): one int4 and one int8
-- comparison per level, and a series' rows land next to each other.
--
--  * vitals_series: the dictionary. (patient_id, code) -> series_id, one row per pair, never
--    changed or deleted (retention drops observations, not series), so a writer may cache it.
--  * vitals_series_assign(patients[], codes[]): the one way a writer gets keys. It adds the pairs
--    not seen yet (ON CONFLICT DO NOTHING: two writers adding the same pair at once get the one row)
--    and returns every pair's key. The ingest calls it in its own committed statement before the
--    batch's transaction, and caches what it returns; its single-pair form serves hand-written rows.
--  * readers look a series' key up in the dictionary (@vitalis/db `seriesOf`: a subquery run once per
--    scan) and name the series by the key alone.
--
-- Every row keeps its patient_id and code (the export, the rollups, the aggregates and every
-- response read them). On TimescaleDB, chunks compressed from now on are segmented by the key
-- (a read names no patient any more, so segments found by patient would all be decompressed);
-- chunks compressed before keep their segments by patient until retention drops them.
--
-- Existing rows get their keys here: one UPDATE of the whole log (on a big log it writes every row
-- again and holds writes back for its duration; run it in a maintenance window). Both branches of
-- 0002: on plain PostgreSQL the partitioned index is built on every partition (and on those attached
-- later by vitalis_ensure_vitals_partitions); on TimescaleDB on every chunk.
CREATE TABLE vitals_series (
  series_id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  patient_id text NOT NULL,
  code text NOT NULL,
  UNIQUE (patient_id, code)
);
-- A pair's key never changes: the app role may add pairs and read them, nothing else.
REVOKE UPDATE, DELETE, TRUNCATE ON vitals_series FROM vitalis_app;

CREATE FUNCTION vitals_series_assign(patients text[], codes text[])
RETURNS TABLE (patient_id text, code text, series_id integer) LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
  -- In key order: two writers adding overlapping pairs take their row locks in the same order.
  INSERT INTO vitals_series AS s (patient_id, code)
  SELECT DISTINCT k.p, k.c FROM unnest(patients, codes) AS k(p, c) ORDER BY k.p, k.c
  ON CONFLICT DO NOTHING;
  -- A new statement: under READ COMMITTED it sees a pair another writer committed while this one
  -- waited on its row.
  RETURN QUERY
  SELECT s.patient_id, s.code, s.series_id
    FROM vitals_series s
   WHERE (s.patient_id, s.code) IN (SELECT k.p, k.c FROM unnest(patients, codes) AS k(p, c));
END
$fn$;

CREATE FUNCTION vitals_series_assign(patient text, code text) RETURNS integer LANGUAGE sql AS $fn$
  SELECT a.series_id FROM vitals_series_assign(ARRAY[$1], ARRAY[$2]) AS a
$fn$;

ALTER TABLE vitals_observations ADD COLUMN series_id integer;

INSERT INTO vitals_series (patient_id, code)
SELECT patient_id, code FROM vitals_observations GROUP BY patient_id, code ORDER BY min(effective_at), patient_id, code;
UPDATE vitals_observations o
   SET series_id = s.series_id
  FROM vitals_series s
 WHERE s.patient_id = o.patient_id AND s.code = o.code;

ALTER TABLE vitals_observations ALTER COLUMN series_id SET NOT NULL;

CREATE INDEX vitals_observations_series_key ON vitals_observations (series_id, effective_at);
DROP INDEX vitals_observations_series;
ALTER INDEX vitals_observations_series_key RENAME TO vitals_observations_series;

DO $migration$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'timescaledb') THEN
    ALTER TABLE vitals_observations SET (
      timescaledb.compress_segmentby = 'series_id',
      timescaledb.compress_orderby = 'effective_at DESC');
  END IF;
END
$migration$;
