/**
 * A stall of the append log on purpose, for the tests that watch the pipeline report one (the
 * partition-stall test in test/integration/vitals/poison.test.ts, the data-delayed disruptive
 * test): a trigger on vitals_observations fails every write (of the devices whose id starts with
 * `devicePrefix`, when given) with a non-data error, SQLSTATE 57P03 "cannot connect now", so the
 * ingest takes the database for unwell, retries and never dead-letters.
 *
 * It is switched by a row of `test_stall_switch`, never by creating or dropping the trigger: DROP
 * TRIGGER on a hypertable takes locks on it and its chunks in an order that can deadlock with the
 * ingest's retrying INSERT (a fresh-clone run hung on exactly that).
 */
import type { Pool } from 'pg';

export interface AppendLogStall {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Installs the trigger in the (private) database of `pool`; `stalled`: whether writes fail from the start. */
export async function installAppendLogStall(pool: Pool, o: { devicePrefix?: string; stalled?: boolean } = {}): Promise<AppendLogStall> {
  const which = o.devicePrefix === undefined ? '' : `NEW.device_id LIKE '${o.devicePrefix.replace(/'/g, "''")}%' AND `;
  await pool.query(`
    CREATE TABLE test_stall_switch (on_purpose boolean PRIMARY KEY);
    CREATE FUNCTION test_stall() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF ${which}EXISTS (SELECT 1 FROM test_stall_switch) THEN RAISE EXCEPTION 'the append log is stuck on purpose' USING ERRCODE = '57P03'; END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER test_stall BEFORE INSERT ON vitals_observations FOR EACH ROW EXECUTE FUNCTION test_stall();`);
  const stall: AppendLogStall = {
    start: async () => {
      await pool.query('INSERT INTO test_stall_switch VALUES (true) ON CONFLICT DO NOTHING');
    },
    stop: async () => {
      await pool.query('DELETE FROM test_stall_switch');
    },
  };
  if (o.stalled) await stall.start();
  return stall;
}
