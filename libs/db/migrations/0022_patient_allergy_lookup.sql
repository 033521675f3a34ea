-- FHIR AllergyIntolerance/{id} (issue 22 item 2): an allergy's id names no patient, so the read
-- finds its patient in the projection by containment (allergies @> '[{"id": ...}]'); this index
-- makes that a lookup instead of a scan of every patient.
CREATE INDEX rm_patients_allergies_idx ON rm_patients USING gin (allergies jsonb_path_ops);
