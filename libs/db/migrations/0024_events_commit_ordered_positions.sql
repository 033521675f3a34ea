-- Commit-ordered global positions (ADR 0017). Every statement that inserts into `events` first
-- takes one transaction-scoped advisory lock, before any row takes its position (a BEFORE
-- STATEMENT trigger fires before the INSERT's rows, and so their identity defaults, are
-- computed), and holds it until its transaction ends. PostgreSQL makes a committed transaction
-- visible before it releases its locks, so when a writer takes position n, every writer that took a
-- lower position has already committed (visibly) or rolled back: a reader that sees position n sees
-- every committed position below it, and may move its checkpoint to n. Readers no longer wait for
-- the server-wide xid horizon (pg_snapshot_xmin), which any long transaction in any database of the
-- server held back, freezing every projection for as long as it ran.
--
-- The cost: event-store writers serialise from their first append to their commit. Appends are
-- short transactions at hundreds per second (the vitals log is a different table); keep them short.
-- The key is an arbitrary constant that no other advisory lock of Vitalis uses (advisory locks are
-- per database, so test databases on the same server never share it).
CREATE FUNCTION vitalis_events_position_lock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7461023570314551296);
  RETURN NULL;
END $$;
CREATE TRIGGER events_position_lock BEFORE INSERT ON events
  FOR EACH STATEMENT EXECUTE FUNCTION vitalis_events_position_lock();

-- transaction_id stays (who wrote together, for operators), but no reader filters by it any more.
DROP INDEX events_transaction_idx;
