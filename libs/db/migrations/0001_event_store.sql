-- The event store: every change to a patient, appointment or triage entry is an event.
-- global_position orders events for subscribers; transaction_id lets readers avoid the
-- sequence-gap problem (a transaction that took a lower position but commits later): a reader
-- only consumes events whose transaction is older than the oldest still-running one
-- (pg_snapshot_xmin(pg_current_snapshot())), so nothing is skipped.
CREATE TABLE events (
  global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  event_id uuid NOT NULL UNIQUE,
  stream_id text NOT NULL,
  stream_version integer NOT NULL CHECK (stream_version >= 1),
  type text NOT NULL,
  schema_version smallint NOT NULL DEFAULT 1,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  recorded_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  UNIQUE (stream_id, stream_version)
);
CREATE INDEX events_transaction_idx ON events (transaction_id, global_position);
CREATE INDEX events_type_idx ON events (type, global_position);

-- Append-only: events are facts. Corrections are new events.
CREATE FUNCTION vitalis_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
  FOR EACH ROW EXECUTE FUNCTION vitalis_refuse_change();

-- The audit trail: who did what to which record, when, and under which scope. One row per
-- security-relevant act (token issued/refused/revoked, patient data read or written).
-- Separate from `events` so a busy read path never contends on event-stream versions.
CREATE TABLE audit_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  occurred_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  action text NOT NULL,              -- e.g. token.issued, token.refused, patient.read
  outcome text NOT NULL CHECK (outcome IN ('success', 'failure')),
  actor_client_id text,              -- OAuth client
  actor_subject text,                -- user or client the token speaks for
  scope text,                        -- the scope that authorised (or was missing)
  resource_type text,                -- e.g. Patient, Token
  resource_id text,
  request_id text,
  ip inet,
  detail jsonb NOT NULL DEFAULT '{}'::jsonb  -- never secrets, never PHI: ids and reasons only
);
CREATE INDEX audit_events_time_idx ON audit_events USING brin (occurred_at);
CREATE INDEX audit_events_resource_idx ON audit_events (resource_type, resource_id, occurred_at);
CREATE INDEX audit_events_actor_idx ON audit_events (actor_client_id, occurred_at);
CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION vitalis_refuse_change();
