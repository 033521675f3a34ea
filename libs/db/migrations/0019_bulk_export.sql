-- FHIR Bulk Data export (issue 23, docs/export.md, ADR 0014).
--
-- The snapshot bound: every append-log row records the id of the transaction that wrote it
-- (ingest_xid, xid8: never wraps). A kick-off records pg_current_snapshot(): the set of
-- transactions committed at that instant. An export holds exactly the rows whose transaction is
-- visible in its snapshot, whatever their effective time or Kafka position, so a row committed
-- after the kick-off (even with an older effective time) is in no file, and the next `_since`
-- export (rows visible now but NOT in the earlier snapshot) picks it up. Rows written before this
-- migration have no xid (NULL): committed before every snapshot, visible to all of them.
-- ADD COLUMN without a default is instant; SET DEFAULT afterwards only applies to new rows (a
-- volatile default in ADD COLUMN would rewrite the whole log). Every writer (COPY, the staged
-- INSERT ... SELECT, unnest) names its columns, so the default fills the xid of each new row.
ALTER TABLE vitals_observations ADD COLUMN ingest_xid xid8;
ALTER TABLE vitals_observations ALTER COLUMN ingest_xid SET DEFAULT pg_current_xact_id();

-- Every kick-off's snapshot by its transactionTime: `_since=T` / `_until=T` mean "the snapshot of
-- the latest kick-off at or before T" (exact for a transactionTime this server answered). Kept
-- when the jobs expire (a few dozen bytes per export).
CREATE TABLE export_snapshots (
  transaction_time timestamptz PRIMARY KEY,
  snapshot pg_snapshot NOT NULL
);

-- An export job: what was asked (and by whom: only that client and subject see it), its snapshot,
-- and how far the worker got. `cursor` is the append-log key (device_id, seq, effective_at) of the
-- last row in the last COMMITTED file: a worker that dies resumes after it (the files part of a
-- run not yet committed are written again, under the same names), so no row is written twice and
-- no committed work is redone. The lease keeps two workers off one job.
CREATE TABLE export_jobs (
  id uuid PRIMARY KEY,
  client_id text NOT NULL,
  subject text NOT NULL,
  request text NOT NULL,
  -- the selection: patients (NULL: every patient), _typeFilter clauses, _since/_until bounds
  patients text[],
  filters jsonb NOT NULL DEFAULT '[]',
  since_snapshot pg_snapshot,
  since_at timestamptz,
  until_snapshot pg_snapshot,
  until_at timestamptz,
  snapshot pg_snapshot NOT NULL,
  transaction_time timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'completed', 'failed')),
  cursor jsonb,
  exported bigint NOT NULL DEFAULT 0,
  -- runs that ended in an error (a database restart, a full disk): retried from the cursor, failed at the third
  attempts integer NOT NULL DEFAULT 0,
  error text,
  lease_owner text,
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  expires_at timestamptz
);
CREATE INDEX export_jobs_client ON export_jobs (client_id, status);
CREATE INDEX export_jobs_pending ON export_jobs (created_at) WHERE status IN ('queued', 'running');

-- The committed files of a job, in order.
CREATE TABLE export_files (
  job_id uuid NOT NULL REFERENCES export_jobs (id) ON DELETE CASCADE,
  part integer NOT NULL,
  type text NOT NULL,
  storage_key text NOT NULL,
  count bigint NOT NULL,
  bytes bigint NOT NULL,
  PRIMARY KEY (job_id, part)
);

-- A Group (FHIR) of patients to export: a ward or a cohort, kept by operators (docs/export.md).
CREATE TABLE export_groups (
  id text PRIMARY KEY,
  name text NOT NULL,
  members text[] NOT NULL
);
