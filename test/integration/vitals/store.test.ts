/**
 * The append-log writer on its own: the COPY fast path, the fallback to the staged ON CONFLICT path
 * when a batch holds rows already stored (a redelivery overlapping new rows), and the unnest method.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { withTransaction } from '@vitalis/db';
import { TOPICS } from '@vitalis/kafka';
import { writeRows, type StoredRow, type WriteMethod } from '../../../apps/ingest/src/store';
import { testPool, uid } from './support';

const pool = testPool();
afterAll(() => pool.end());

/** A device's observations: the same (device, seq) always has the same time, as on redelivery. */
const T0 = Date.now() - 3_600_000;
function rows(patient: string, from: number, to: number): StoredRow[] {
  const t0 = T0;
  return Array.from({ length: to - from }, (_, k) => {
    const i = from + k;
    return {
      patient_id: patient,
      device_id: `${patient}-dev`,
      seq: i,
      code: '8867-4',
      effective_at: new Date(t0 + i * 1000).toISOString(),
      value: 60 + (i % 30),
      unit: '/min',
      sample_period_ms: null,
      steps: null,
      kafka_partition: 0,
      kafka_offset: String(i),
    };
  });
}

const count = async (patient: string) =>
  Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM vitals_observations WHERE patient_id = $1', [patient])).rows[0]!.n);

describe.each<WriteMethod>(['copy', 'unnest'])('writeRows (%s)', (method) => {
  it('stores a fresh batch, then only the new rows of an overlapping redelivery', async () => {
    const patient = `pat-store-${uid()}`;
    expect(await withTransaction(pool, (c) => writeRows(c, TOPICS.vitalsObservations, rows(patient, 0, 300), method))).toBe(300);
    // 0..299 are stored: 200..499 overlaps by 100
    expect(await withTransaction(pool, (c) => writeRows(c, TOPICS.vitalsObservations, rows(patient, 200, 500), method))).toBe(200);
    expect(await withTransaction(pool, (c) => writeRows(c, TOPICS.vitalsObservations, rows(patient, 0, 500), method))).toBe(0);
    expect(await count(patient)).toBe(500);
  });

  it('stores a row duplicated inside one batch once', async () => {
    const patient = `pat-store-${uid()}`;
    const batch = [...rows(patient, 0, 10), ...rows(patient, 5, 6)];
    expect(await withTransaction(pool, (c) => writeRows(c, TOPICS.vitalsObservations, batch, method))).toBe(10);
    expect(await count(patient)).toBe(10);
  });

  it('keeps the transaction usable after the fallback (later statements commit)', async () => {
    const patient = `pat-store-${uid()}`;
    await withTransaction(pool, (c) => writeRows(c, TOPICS.vitalsObservations, rows(patient, 0, 5), method));
    await withTransaction(pool, async (c) => {
      await writeRows(c, TOPICS.vitalsObservations, rows(patient, 0, 10), method);
      await writeRows(c, TOPICS.vitalsObservations, rows(patient, 10, 12), method);
    });
    expect(await count(patient)).toBe(12);
  });
});
