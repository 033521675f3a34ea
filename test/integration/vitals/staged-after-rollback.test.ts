/**
 * A redelivery that rolls back must not break the next redelivery on the same connection: the
 * staged path's temporary table, created inside a transaction that rolled back, is gone with it.
 * (Seen under `make run`: a batch failed after its staged write, and every later redelivery on
 * that connection failed with "relation vitals_ingest_stage does not exist", stalling partitions.)
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createPool, withTransaction } from '@vitalis/db';
import { VITAL_CODE } from '@vitalis/schemas';
import { writeRows, type StoredRow } from '../../../apps/ingest/src/store';
import { testEnv } from '../../helpers/env';
import { uid } from './support';

// One connection, so every transaction below runs on the same session (as the ingest's pooled ones do).
const pool = createPool({ url: testEnv.DATABASE_URL, max: 1, application: 'vitalis-test-staged' });
afterAll(() => pool.end());

const T0 = Date.now() - 3_600_000;
const row = (patient: string, seq: number, offset: number): StoredRow => ({
  patient_id: patient,
  device_id: `${patient}-dev`,
  seq,
  code: VITAL_CODE.heartRate,
  effective_at: new Date(T0 + seq * 1000).toISOString(),
  value: 70 + seq,
  unit: '/min',
  sample_period_ms: null,
  steps: null,
  kafka_partition: 0,
  kafka_offset: String(offset),
});

describe('the staged (redelivery) write', () => {
  it('works on a connection whose earlier staged write was rolled back', async () => {
    const topic = `vitals.test.staged.${uid()}`;
    const p = `pat-staged-${uid()}`;
    await withTransaction(pool, (c) => writeRows(c, topic, [row(p, 1, 1)]));
    // a redelivery (row 1 again) takes the staged path; the transaction then fails and rolls back
    await expect(
      withTransaction(pool, async (c) => {
        await writeRows(c, topic, [row(p, 1, 1), row(p, 2, 2)]);
        throw new Error('a later statement of the batch failed');
      }),
    ).rejects.toThrow('a later statement');
    // the next redelivery on the same connection stores its new row
    expect(await withTransaction(pool, (c) => writeRows(c, topic, [row(p, 1, 1), row(p, 3, 3)]))).toBe(1);
    const { rows } = await pool.query('SELECT seq FROM vitals_observations WHERE patient_id = $1 ORDER BY seq', [p]);
    expect(rows.map((r) => Number(r.seq))).toEqual([1, 3]);
  });
});
