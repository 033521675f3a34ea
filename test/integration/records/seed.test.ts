/** The demo seed goes through the event store and is idempotent: a second run appends nothing. */
import { afterAll, expect, it } from 'vitest';
import { createPool } from '@vitalis/db';
import { seedRecords } from '../../../apps/gateway/src/seed-records';
import { loadPatient } from '../../../apps/gateway/src/patients/service';
import { testEnv } from '../../helpers/env';

const pool = createPool({ url: testEnv.DATABASE_URL, max: 4 });
afterAll(() => pool.end());

it('seeds pat-0001..pat-0020, slots and ED arrivals once; re-running appends no event', async () => {
  const now = new Date('2030-03-04T08:00:00Z');
  await seedRecords(pool, now);
  const count = async () =>
    (
      await pool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM events WHERE stream_id LIKE 'patient-pat-00%' OR stream_id LIKE 'slot-clin-00%' OR stream_id LIKE 'triage-pat-00%'",
      )
    ).rows[0]!.n;
  const before = await count();
  const again = await seedRecords(pool, now);
  expect(again.patients).toBe(0);
  expect(await count()).toBe(before);
  expect(await loadPatient(pool, 'pat-0001')).toMatchObject({ id: 'pat-0001', version: 1 });
  expect(await loadPatient(pool, 'pat-0020')).toMatchObject({ id: 'pat-0020' });
  const { rows } = await pool.query<{ n: number }>(
    "SELECT count(DISTINCT stream_id)::int AS n FROM events WHERE stream_id LIKE 'slot-clin-00%-203003%'",
  );
  expect(rows[0]!.n).toBe(4 * 15 * 6); // 4 clinicians x 15 weekdays x 6 half-hours
});
