-- A latched alarm is one alarm until a clinician acknowledges it (issue 31, found in the demo: a
-- systolic pressure hovering at its limit opened six `sys-low` alarms, five of them latched). The
-- records fold now re-activates a rule's latched alarm when its condition comes back instead of
-- opening another (@vitalis/records alarm.ts); the alarm keeps its id, raise time, due time and
-- escalation, and these two columns keep the rest of the fold's state:
--   condition_since  the effective time of the raise that made the condition present now
--                    (raised_at, or the latest recurrence); the device watchdog clears a
--                    disconnect alarm only on a reading after it
--   recurrences      how many times the condition came back while the alarm was latched
-- The `latched` part of the fold's state (per rule, the alarm the next raise re-activates) is the
-- row whose state is 'latched' (rm_alarms_active_idx reads it).
ALTER TABLE rm_alarms ADD COLUMN condition_since timestamptz;
UPDATE rm_alarms SET condition_since = raised_at;
ALTER TABLE rm_alarms ALTER COLUMN condition_since SET NOT NULL;
ALTER TABLE rm_alarms ADD COLUMN recurrences integer NOT NULL DEFAULT 0;
