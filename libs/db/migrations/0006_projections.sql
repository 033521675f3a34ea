-- Read models built by apps/projector from the `events` table (issue 5), and their checkpoints.
-- Every projection writes its rows and its checkpoint in ONE transaction, so a crash between
-- the two is impossible: an event is applied exactly once. Rebuild replays from position 0 into
-- <table>_rebuild copies (CREATE TABLE ... LIKE) and swaps them in by rename, atomically.
CREATE TABLE projection_checkpoints (
  name text PRIMARY KEY,
  position bigint NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Patients: demographics, identifiers and allergies (FHIR Patient / AllergyIntolerance material).
-- Latest vitals and NEWS2 are read from vitals_observations at query time (the vitals append log is
-- not an event stream; i6 owns it).
CREATE TABLE rm_patients (
  patient_id text PRIMARY KEY,
  version integer NOT NULL,
  family text NOT NULL,
  given text[] NOT NULL DEFAULT '{}',
  name_search text NOT NULL,            -- lower-cased "given family" for search
  birth_date date,
  gender text,
  identifiers jsonb NOT NULL DEFAULT '[]'::jsonb,   -- [{system, value}]
  telecom jsonb NOT NULL DEFAULT '[]'::jsonb,
  allergies jsonb NOT NULL DEFAULT '[]'::jsonb,     -- [{id, substance, criticality, reaction, recordedAt}]
  registered_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  last_position bigint NOT NULL
);
CREATE INDEX rm_patients_name_idx ON rm_patients (family, patient_id);
CREATE INDEX rm_patients_birth_idx ON rm_patients (birth_date);
CREATE INDEX rm_patients_identifiers_idx ON rm_patients USING gin (identifiers jsonb_path_ops);

-- Appointment slots and their bookings (one row per slot; a slot is its own event stream).
CREATE TABLE rm_slots (
  slot_id text PRIMARY KEY,
  version integer NOT NULL,
  clinician_id text NOT NULL,
  appointment_type text NOT NULL,
  start_at timestamptz NOT NULL,
  end_at timestamptz NOT NULL,
  status text NOT NULL,                 -- free | busy
  appointment_id text,
  patient_id text,
  reason text,
  booked_at timestamptz,
  last_position bigint NOT NULL
);
CREATE INDEX rm_slots_start_idx ON rm_slots (start_at, slot_id);
CREATE INDEX rm_slots_clinician_idx ON rm_slots (clinician_id, start_at);
CREATE INDEX rm_slots_patient_idx ON rm_slots (patient_id, start_at);
CREATE UNIQUE INDEX rm_slots_appointment_idx ON rm_slots (appointment_id);

-- The ED triage board: one row per patient currently in the department.
CREATE TABLE rm_triage (
  patient_id text PRIMARY KEY,
  version integer NOT NULL,
  esi smallint NOT NULL CHECK (esi BETWEEN 1 AND 5),
  complaint text NOT NULL,
  arrived_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  last_alert jsonb,
  last_position bigint NOT NULL
);
CREATE INDEX rm_triage_esi_idx ON rm_triage (esi, arrived_at);
