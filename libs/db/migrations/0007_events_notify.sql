-- Wake-ups for event-store subscribers: one NOTIFY per inserting statement (PostgreSQL folds
-- identical notifications of a transaction into one and delivers them at COMMIT, so a reader woken
-- by it finds the events visible). The payload is empty: readers still read by position
-- (gap-safe), the notification only saves them a polling interval.
CREATE FUNCTION vitalis_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('vitalis_events', '');
  RETURN NULL;
END $$;
CREATE TRIGGER events_notify AFTER INSERT ON events
  FOR EACH STATEMENT EXECUTE FUNCTION vitalis_events_notify();
