-- FHIR topic-based subscriptions (Subscriptions R5 Backport on R4, issue 22 item 4): what a client
-- subscribed to, and the numbered events of each subscription. The numbers are the IG's event
-- numbers (1, 2, 3 … per subscription, no gap); each maps to the live stream id of the event it
-- numbers (`live_id`), so a number resumes exactly where a `Last-Event-ID` would. Owned by the client
-- (and the user) that created it; nobody else sees it.
CREATE TABLE fhir_subscriptions (
  id text PRIMARY KEY,
  owner_client text NOT NULL,
  owner_subject text NOT NULL,
  patient_id text NOT NULL,
  topic text NOT NULL CHECK (topic IN ('vitals', 'alerts')),
  codes text[],
  status text NOT NULL CHECK (status IN ('active', 'off', 'error')),
  channel_type text NOT NULL,
  payload_content text NOT NULL CHECK (payload_content IN ('empty', 'id-only', 'full-resource')),
  heartbeat_seconds integer,
  reason text NOT NULL,
  -- the Kafka topic of the live stream the positions below belong to (a position means nothing in another)
  live_topic text NOT NULL,
  -- the live stream position numbering started after (a stream id; '' = the patient had no row yet)
  start_id text NOT NULL,
  last_event_number bigint NOT NULL DEFAULT 0,
  -- the live stream id of event `last_event_number` (null before the first)
  last_event_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX fhir_subscriptions_owner_idx ON fhir_subscriptions (owner_client, owner_subject, created_at);
CREATE INDEX fhir_subscriptions_active_idx ON fhir_subscriptions (live_topic) WHERE status = 'active';

-- One row per numbered event: its live stream id and the resource it is about (the focus: an
-- Observation or a Flag), kept so `$events` answers without re-reading the append log. Bounded per
-- subscription (the oldest numbers are pruned) and by age: vitals data, dropped with the vitals
-- after VITALS_RETENTION_DAYS (the projector's maintenance; see docs/fhir.md).
CREATE TABLE fhir_subscription_events (
  subscription_id text NOT NULL REFERENCES fhir_subscriptions (id) ON DELETE CASCADE,
  event_number bigint NOT NULL,
  live_id text NOT NULL,
  occurred_at timestamptz NOT NULL DEFAULT now(),
  focus jsonb NOT NULL,
  PRIMARY KEY (subscription_id, event_number),
  UNIQUE (subscription_id, live_id)
);
CREATE INDEX fhir_subscription_events_age_idx ON fhir_subscription_events (occurred_at);
