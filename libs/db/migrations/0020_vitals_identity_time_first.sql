-- The append log's identity index, time first (issue 24 item 2; measured in
-- test/bench/indexes.bench.ts, docs/adr/0016).
--
-- The key is the same triple, so the contract is unchanged: a redelivered observation (same
-- device, seq and effective time) is stored once, and ON CONFLICT DO NOTHING / the COPY path's
-- 23505 still see it. Only the column order and the collation of device_id change:
--  * effective_at first: the ingest writes rows in about time order, so each new key goes to the
--    right-hand end of the B-tree (one hot leaf, like a sequence) instead of into one place per
--    device; most comparisons on the way down are one int8 comparison instead of a text one;
--  * device_id COLLATE "C": when two keys tie on time (devices sample on the same instant) the ids
--    are compared bytewise (memcmp) instead of through the locale's strcoll. Equality is the same
--    for every deterministic collation, so the same rows are duplicates; no query reads this index
--    by device (it exists for uniqueness), so its order does not have to match any query's.
-- Both branches of 0002: on plain PostgreSQL the partitioned index is built on every partition
-- (and on those attached later by vitalis_ensure_vitals_partitions); on TimescaleDB on every chunk,
-- compressed ones included. The new index is built before the old one is dropped, so the log is
-- never without its unique key; on a big log the build holds writes back for its duration.
CREATE UNIQUE INDEX vitals_observations_identity_time_first ON vitals_observations (effective_at, device_id COLLATE "C", seq);
DROP INDEX vitals_observations_identity;
ALTER INDEX vitals_observations_identity_time_first RENAME TO vitals_observations_identity;
