-- Business identifiers (an MRN: system + value) belong to one patient at a time. The event store
-- cannot say so (each patient is its own stream), so registration and updates reserve their
-- identifiers here in the same transaction as the event: a second patient with the same MRN is a
-- 409, never a silent duplicate record (a classic patient-safety hazard).
CREATE TABLE patient_identifiers (
  system text NOT NULL,
  value text NOT NULL,
  patient_id text NOT NULL,
  PRIMARY KEY (system, value)
);
CREATE INDEX patient_identifiers_patient ON patient_identifiers (patient_id);

-- Existing patients: each one's current identifiers (from its latest registration or update);
-- where two patients already share one, the earlier registered keeps it.
INSERT INTO patient_identifiers (system, value, patient_id)
SELECT i->>'system', i->>'value', latest.patient_id
  FROM (SELECT DISTINCT ON (stream_id) substr(stream_id, length('patient-') + 1) AS patient_id, data, first_position
          FROM (SELECT stream_id, stream_version, data,
                       min(global_position) OVER (PARTITION BY stream_id) AS first_position
                  FROM events WHERE stream_id LIKE 'patient-%' AND type IN ('PatientRegistered', 'PatientUpdated')) e
         ORDER BY stream_id, stream_version DESC) latest
 CROSS JOIN LATERAL jsonb_array_elements(coalesce(latest.data->'identifiers', '[]'::jsonb)) i
 WHERE i->>'system' IS NOT NULL AND i->>'value' IS NOT NULL
 ORDER BY latest.first_position
ON CONFLICT DO NOTHING;
