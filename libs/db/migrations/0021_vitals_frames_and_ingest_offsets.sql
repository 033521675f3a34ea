-- Device frames and offsets in the ingest transaction (issue 24 items 1 and 3).
--
-- 1. record_item: the observation's index inside its Kafka record. A frame record (one device's
--    observations at one tick, ADR 0015) holds several observations at ONE (partition, offset), so
--    the live position of a row is (partition, offset, record_item); a single-observation record
--    (the v1 format) is item 0, which every row stored before this migration is. A constant
--    default: no table rewrite, existing rows read back as 0.
ALTER TABLE vitals_observations ADD COLUMN record_item smallint NOT NULL DEFAULT 0;

-- 2. vitals_ingest_offsets: per topic partition, the offset after the last record the ingest
--    stored, upserted in the SAME transaction as the rows. After a rebalance (or a Kafka offset
--    commit lost to a crash), Kafka can hand a consumer a range the database already holds; the
--    ingest reads this on assignment and skips such a range before it reaches the identity index
--    (the staged ON CONFLICT path stays as the safety net). Kafka's committed offset stays the
--    source of where the group reads from; this table only says what is already stored.
CREATE TABLE vitals_ingest_offsets (
  topic text NOT NULL,
  kafka_partition integer NOT NULL,
  next_offset bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (topic, kafka_partition)
);
