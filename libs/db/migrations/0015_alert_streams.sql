-- Alert streams move from `patient-alerts-<patientId>` to `patientAlerts-<patientId>`. The old
-- name was also the name of patient `alerts-<patientId>`'s record stream (category `patient`, the
-- part before the first `-`); categories hold no `-` now (libs/eventstore/src/streams.ts), so no
-- two categories can share a stream name. Only the ingest's alert events move (by type): should a
-- patient `alerts-...` exist, its own events stay where they are. Versions are kept (a moved
-- stream that shared its old name has gaps, which appends and folds accept); global positions are
-- kept, so no projection checkpoint moves.
--
-- Events are append-only (trigger events_append_only); this one-off rename is the exception, done
-- with the trigger off inside this migration's transaction. Stop every ingest of the old release
-- before migrating, or it may append under the old name afterwards.
ALTER TABLE events DISABLE TRIGGER events_append_only;
UPDATE events
   SET stream_id = 'patientAlerts-' || substr(stream_id, length('patient-alerts-') + 1)
 WHERE stream_id LIKE 'patient-alerts-%'
   AND type IN ('VitalsAlertRaised', 'VitalsAlertCleared');
ALTER TABLE events ENABLE TRIGGER events_append_only;
