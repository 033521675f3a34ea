-- Live replay reads a patient's on-time rows through the series index within a window of INGEST
-- time (migration 0009). So that a window can be bounded on both sides, rows whose effective_at is
-- more than 1 minute AHEAD of their ingested_at (a device clock running fast) join the late rows
-- in the partial position index: "off-time" rows, nearly none in steady state.
-- Replay (apps/gateway/src/live/replay.ts) repeats this predicate verbatim.
CREATE INDEX vitals_observations_off_time_position ON vitals_observations (patient_id, kafka_partition, kafka_offset)
  WHERE ingested_at - effective_at > interval '1 minute' OR effective_at - ingested_at > interval '1 minute';
DROP INDEX vitals_observations_late_position;
