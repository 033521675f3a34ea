/**
 * The stored form (@vitalis/live observation.ts) against PostgreSQL itself: the conversions the
 * live path applies in JS (float4 for ECG samples and periods, timestamptz in UTC microseconds,
 * the origin folded in) give exactly what the append log reads back. Rows are written through the
 * ingest's own store function and read back with the replay's own SQL and rebuild.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction, type Pool } from '@vitalis/db';
import { float4, observationFromRow, STORED_INSTANT_SQL, storedInstant, storedObservation, type ObservationRow } from '@vitalis/live';
import { vitalsObservationSchema, type VitalsObservation } from '@vitalis/schemas';
import { toRow, writeRows } from '../../../apps/ingest/src/store';
import { testPool, uid } from '../vitals/support';

let pool: Pool;
beforeAll(() => {
  pool = testPool();
});
afterAll(async () => pool?.end());

describe('float4: a real column reads back as the JS emulation says', () => {
  it('for 40 000 values: random, rounded, sums with an origin, powers of two', async () => {
    const values: number[] = [];
    for (let i = 0; i < 10_000; i++) {
      values.push(
        Math.random() * 20 - 10,
        Math.round((Math.random() * 20 - 10) * 1000) / 1000,
        Math.round(Math.random() * 2000 - 1000) / 1000 + 0.3,
        (i % 2 ? -1 : 1) * 2 ** -(i % 40),
      );
    }
    const { rows } = await pool.query<{ v: number }>('SELECT unnest($1::real[]) AS v', [`{${values.join(',')}}`]);
    const mismatches = rows.map((r, i) => [values[i], r.v, float4(values[i]!)]).filter(([, pg, js]) => pg !== js);
    expect(mismatches.slice(0, 5)).toEqual([]);
  });
});

describe('storedInstant: a timestamptz reads back as the JS emulation says', () => {
  it('offsets, missing seconds, fractions of every length (rounded to the microsecond), day and year rollover', async () => {
    const inputs = [
      '2026-11-25T17:00:00Z',
      '2026-11-25T17:00:00.1Z',
      '2026-11-25T17:00:00.123456Z',
      '2026-11-25T17:00:00.1234565Z',
      '2026-11-25T17:00:00.1234575Z',
      '2026-11-25T17:00:00.9999996Z',
      '2026-11-25T17:00:00.123+02:00',
      '2026-11-25T01:30:00.5-05:30',
      '2026-11-25T23:59:59.9999999+00:00',
      '2026-12-31T23:30:00.000001-01:00',
      '2026-11-25T17:00+0100',
      '2026-11-25T17:00:00.25+01',
      '2026-03-01T00:00:00.000000001+14:00',
      '2028-02-29T12:00:00.5Z',
    ];
    const { rows } = await pool.query<{ at: string }>(
      `SELECT ${STORED_INSTANT_SQL} AS at FROM unnest($1::timestamptz[]) AS t(effective_at)`,
      [inputs],
    );
    expect(inputs.map(storedInstant)).toEqual(rows.map((r) => r.at));
  });
});

describe('storedObservation: an observation as its append-log row reads back', () => {
  it('ECG chunks with an origin, numeric observations with offsets', async () => {
    const patient = `pat-stored-${uid()}`;
    const device = `${patient}-dev`;
    const now = Date.now();
    const raw = [
      {
        patient_id: patient,
        device_id: device,
        seq: 1,
        effective_at: new Date(now).toISOString().replace('Z', '+00:00'),
        code: '8867-4',
        value: 72.5,
        unit: '/min',
      },
      {
        patient_id: patient,
        device_id: device,
        seq: 2,
        effective_at: new Date(now + 1).toISOString(),
        code: '8310-5',
        value: 36.6 + 0.1,
        unit: 'Cel',
      },
      {
        patient_id: patient,
        device_id: device,
        seq: 3,
        effective_at: `${new Date(now + 2).toISOString().slice(0, 23)}4567Z`,
        code: '131330',
        unit: 'mV',
        waveform: { origin: -1.1, period_ms: 4, samples: Array.from({ length: 250 }, (_, i) => Math.sin(i / 10) * 1.5) },
      },
      {
        patient_id: patient,
        device_id: device,
        seq: 4,
        effective_at: new Date(now + 3).toISOString(),
        code: '131330',
        unit: 'mV',
        waveform: { period_ms: 2.7, samples: [0.1, 0.2, 0.3] },
      },
    ];
    const observations = raw.map((o) => vitalsObservationSchema.parse(o)) as VitalsObservation[];
    const topic = `vitals.test.stored.${uid()}`;
    await withTransaction(pool, (c) =>
      writeRows(
        c,
        topic,
        observations.map((o, i) => toRow(o, 0, String(i))),
      ),
    );
    const { rows } = await pool.query<ObservationRow & { patient_id: string }>(
      `SELECT patient_id, device_id, seq, code, ${STORED_INSTANT_SQL} AS at, value, unit, sample_period_ms, samples FROM vitals_observations WHERE patient_id = $1 ORDER BY seq`,
      [patient],
    );
    expect(rows.map((r) => JSON.stringify(observationFromRow(r.patient_id, r)))).toEqual(
      observations.map((o) => JSON.stringify(storedObservation(o))),
    );
  });
});
