-- Bulk Data Access IG 3.0 export (issue 33 item 8, docs/export.md): the resource types asked for,
-- `_elements`, `organizeOutputBy=Patient`, `allowPartialManifests`, and the messages the manifest's
-- `error` file carries (a parameter the server processed leniently, a patient it could not find).
--
-- types NULL: Observations only (a job kicked off before this migration). The resources of the
-- other types are read at kick-off through the domain services (the caller's access rules and audit,
-- as a FHIR read), in the kick-off's transaction, into export_records; the worker writes them into
-- files after (or, organized by patient, among) the Observations it streams out of the append log.
ALTER TABLE export_jobs ADD COLUMN types text[];
ALTER TABLE export_jobs ADD COLUMN elements text[];
ALTER TABLE export_jobs ADD COLUMN organize_by text CHECK (organize_by IS NULL OR organize_by = 'Patient');
ALTER TABLE export_jobs ADD COLUMN partial_manifests boolean NOT NULL DEFAULT false;
ALTER TABLE export_jobs ADD COLUMN messages jsonb NOT NULL DEFAULT '[]';

-- One resource of a job as its NDJSON line, numbered in the order the worker writes them (by type
-- then patient; organized by patient: by patient then type). Gone with the job.
CREATE TABLE export_records (
  job_id uuid NOT NULL REFERENCES export_jobs (id) ON DELETE CASCADE,
  n integer NOT NULL,
  patient_id text NOT NULL,
  type text NOT NULL,
  line text NOT NULL,
  PRIMARY KEY (job_id, n)
);
