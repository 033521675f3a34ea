-- ECG chunks stored compact (issue 34 item 2; measured in test/bench/copy.bench.ts).
--
-- sample_steps: a chunk's potentials (origin folded in, as `samples` held them) as whole numbers
-- of 0.1 µV steps, each a 32-bit little-endian integer (@vitalis/live `encodeSampleSteps`). The
-- values are the same ones `samples real[]` held (every potential within ±20 mV is an exact number
-- of steps, and the `real` held each exactly), so every reader returns the same bytes; what changes
-- is the cost of a row: PostgreSQL parsed each sample of a `real[]` from text (`array_in`, about 65 µs
-- of backend CPU for a 250-sample chunk in the copy bench) and decodes hex for `bytea` (about 25 µs),
-- and the stored chunk is 1,000 bytes of data instead of a float4 array with its header.
--
-- The ingest writes sample_steps from this migration on; rows stored before keep `samples` (readers
-- take whichever a row has: @vitalis/live `storedSamples`), and age out of the log with retention.
ALTER TABLE vitals_observations ADD COLUMN sample_steps bytea;

-- A row is one numeric value or one waveform, in exactly one of its two forms. The old check
-- ((value IS NOT NULL) <> (samples IS NOT NULL)) implies this one for every row it admitted (the new
-- column is NULL on all of them), so the new check is added NOT VALID: no scan of the whole log
-- under this migration's lock. It holds for every row written from now on; VALIDATE CONSTRAINT can
-- confirm the old rows later with a lock that lets writes through.
ALTER TABLE vitals_observations DROP CONSTRAINT vitals_observations_check;
ALTER TABLE vitals_observations
  ADD CONSTRAINT vitals_observations_one_measure CHECK (num_nonnulls(value, samples, sample_steps) = 1) NOT VALID;
