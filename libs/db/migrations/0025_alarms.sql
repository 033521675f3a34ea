-- Bedside alarms with a lifecycle (issue 31): the read model of the patients' alert streams
-- (`patientAlerts-<patientId>`, @vitalis/records alarm.ts), kept by the projector's `alarms`
-- projection (rebuildable from the log: `main.ts rebuild alarms`), one row per alarm (alert_id).
-- The gateway lists active alarms from it, the projector's escalator scans it for unacknowledged
-- alarms past their due time, and the alarm metrics count it.
--
-- The state is derived by the records fold (raised, acknowledged, latched, resolved), never by SQL.
-- The projection folds only each batch's events onto the rows it reads back (incremental, see
-- apps/projector/src/projections/definitions.ts); `open` keeps the rest of the fold's state: the
-- alarm is its rule's open alarm, the one the rule's next clear closes (the latest raise of the
-- rule, while no clear followed it). Not the same as "condition_ended_at is null": a rule raised
-- twice without a clear leaves the first alarm raised and no longer open.
CREATE TABLE rm_alarms (
  alarm_id text PRIMARY KEY,
  patient_id text NOT NULL,
  rule text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('physiological', 'technical')),
  priority text NOT NULL CHECK (priority IN ('high', 'medium', 'low')),
  latching boolean NOT NULL,
  state text NOT NULL CHECK (state IN ('raised', 'acknowledged', 'latched', 'resolved')),
  message text NOT NULL,
  value double precision NOT NULL,
  device_id text NOT NULL,
  raised_at timestamptz NOT NULL,            -- the confirming observation's effective time (device clock)
  due_at timestamptz,                        -- escalates unacknowledged at this time (null: never)
  condition_ended_at timestamptz,            -- the clear's effective time (null: condition present)
  acknowledged_at timestamptz,
  acknowledged_by jsonb,                     -- {user, name, client_id}
  note text,                                 -- the acknowledger's note
  escalated_at timestamptz,
  escalated_to text,
  resolved_at timestamptz,
  open boolean NOT NULL,                     -- its rule's open alarm in the fold (see above)
  version integer NOT NULL,                  -- stream version of the last event that changed the alarm
  last_position bigint NOT NULL              -- global position of that last event
);
-- A patient's alarms, newest first (history lists).
CREATE INDEX rm_alarms_patient_idx ON rm_alarms (patient_id, raised_at);
-- Active alarms of these patients (the cards, GET /alarms, the board, the watchdog's open
-- disconnect alarms): small, since resolved alarms leave it.
CREATE INDEX rm_alarms_active_idx ON rm_alarms (patient_id, rule) WHERE state IN ('raised', 'acknowledged', 'latched');
-- The projection's read of a patient's open alarms (at most one per rule), whatever the stay's length.
CREATE INDEX rm_alarms_open_idx ON rm_alarms (patient_id) WHERE open;
-- The escalator's scan: unacknowledged, not escalated, by due time (durable across restarts).
CREATE INDEX rm_alarms_due_idx ON rm_alarms (due_at) WHERE state IN ('raised', 'latched') AND escalated_at IS NULL;
-- Alarms raised in the last hour (vitalis_alarms_per_bed_hour).
CREATE INDEX rm_alarms_raised_idx ON rm_alarms (raised_at);
