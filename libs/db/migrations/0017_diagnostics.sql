-- Diagnostic workflows (issue 21): orders (FHIR ServiceRequest) and reports (DiagnosticReport with
-- Observations and critical results) are event streams; these are their read models, kept by the
-- projector (rebuildable from the log), and the filler-identifier reservation that makes a
-- re-posted report a no-op.

-- A filler identifier (DiagnosticReport.identifier, system + value) names one report: reserved in
-- the transaction that appends the report, so a redelivered result is stored once.
CREATE TABLE diagnostic_report_identifiers (
  system text NOT NULL,
  value text NOT NULL,
  report_id text NOT NULL,
  reserved_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (system, value)
);

-- Orders, one row per serviceRequest-<id> stream.
CREATE TABLE rm_service_requests (
  request_id text PRIMARY KEY,
  version integer NOT NULL,
  patient_id text NOT NULL,
  status text NOT NULL,
  intent text NOT NULL,
  priority text NOT NULL,
  code text NOT NULL,
  requester text NOT NULL,
  performer text NOT NULL,
  reason text,
  authored_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  last_position bigint NOT NULL
);
CREATE INDEX rm_service_requests_patient_idx ON rm_service_requests (patient_id, status, authored_at);
CREATE INDEX rm_service_requests_status_idx ON rm_service_requests (status, authored_at);

-- Reports, one row per diagnosticReport-<id> stream, with the state of its latest critical result.
CREATE TABLE rm_diagnostic_reports (
  report_id text PRIMARY KEY,
  version integer NOT NULL,
  patient_id text NOT NULL,
  order_id text NOT NULL,
  code text NOT NULL,
  status text NOT NULL,
  issued_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  critical_id text,
  critical_state text CHECK (critical_state IN ('open', 'escalated', 'acknowledged')),
  critical_results jsonb,
  critical_raised_at timestamptz,
  critical_due_at timestamptz,
  critical_escalated_at timestamptz,
  critical_acknowledged_at timestamptz,
  critical_acknowledged_by text,
  last_position bigint NOT NULL
);
CREATE INDEX rm_diagnostic_reports_patient_idx ON rm_diagnostic_reports (patient_id, issued_at);
-- The escalator's scan: open critical results by due time (a durable due time that survives any restart).
CREATE INDEX rm_diagnostic_reports_due_idx ON rm_diagnostic_reports (critical_due_at) WHERE critical_state = 'open';
-- The board: unacknowledged critical results by patient.
CREATE INDEX rm_diagnostic_reports_unacked_idx ON rm_diagnostic_reports (patient_id) WHERE critical_state IN ('open', 'escalated');
