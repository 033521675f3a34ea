/**
 * The stored form (@vitalis/live observation.ts) against PostgreSQL itself: the conversions the
 * live path applies in JS (float4 for periods, timestamptz in UTC microseconds, the origin folded
 * into ECG samples at 0.1 µV, stored as `sample_steps`) give exactly what the append log reads
 * back. Rows are written through the ingest's own store function (both write methods) and read back
 * with the replay's own SQL and rebuild; a row of the older `real[]` form reads back the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction, type Pool } from '@vitalis/db';
import {
  eventJson,
  float4,
  observationFromRow,
  SAMPLE_STEPS_PER_MV,
  sampleStepsLiteral,
  STORED_INSTANT_SQL,
  STORED_SAMPLES_SQL,
  storedInstant,
  storedObservation,
  type ObservationRow,
} from '@vitalis/live';
import { ECG_LEAD_II, instantEpochMs, MIN_PERIOD_MS, vitalsObservationSchema, type VitalsObservation } from '@vitalis/schemas';
import { COLUMNS, copyRows, toRow, writeRows, type StoredRow, type WriteMethod } from '../../../apps/ingest/src/store';
import { testPool, uid } from '../vitals/support';

/** Instants at the edges of PostgreSQL's reading: offsets, missing seconds, fractions of every length (rounded to the µs), day and year rollover. */
const INSTANTS = [
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

/** Past the instants above: the first and last years, around both epochs, past ±285 years of 2000 (µs beyond 2^53) in toISOString's form. */
const FAR_INSTANTS = [
  '0001-01-01T00:00:00.000Z',
  '0001-01-01T00:00:00Z',
  '0001-01-01T00:30:00+01:00',
  '1600-02-29T12:00:00.5+01:00',
  '1969-12-31T23:59:59.9999995Z',
  '1999-12-31T23:59:59.999Z',
  '2000-01-01T00:00:00.000Z',
  '2285-06-01T00:00:00.000Z',
  '9999-12-31T23:59:59.999999-15:59',
  '9999-12-31T23:59:59.9999995+15:59',
];

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
    const { rows } = await pool.query<{ at: string }>(
      `SELECT ${STORED_INSTANT_SQL} AS at FROM unnest($1::timestamptz[]) AS t(effective_at)`,
      [[...INSTANTS, ...FAR_INSTANTS]],
    );
    expect([...INSTANTS, ...FAR_INSTANTS].map(storedInstant)).toEqual(rows.map((r) => r.at));
  });
});

describe("the ingest's binary COPY stores what PostgreSQL's text input stores", () => {
  /** Rows with every column at its edges (the ECG rows' steps at ±20 mV), each as the decoder's row (its ms read) and without it. */
  function edgeRows(): StoredRow[] {
    const patient = `pat-${'x'.repeat(56)}`; // a 64-character id
    const numerics: [number, string][] = [
      [-0, '/min'],
      [5e-324, '%'],
      [-1.7976931348623157e308, 'mm[Hg]'],
      [0.1 + 0.2, 'µV'],
    ];
    const offsets = ['0', '9007199254740993', '9223372036854775807'];
    const rows: StoredRow[] = [];
    [...INSTANTS, ...FAR_INSTANTS].forEach((at, i) => {
      const [value, unit] = numerics[i % numerics.length]!;
      const ecg = i % 3 === 2;
      const o = {
        patient_id: patient,
        device_id: `dev-${i}`,
        seq: [0, 1, Number.MAX_SAFE_INTEGER][i % 3]!,
        code: ecg ? ECG_LEAD_II.code : '8867-4',
        effective_at: at,
        unit: ecg ? 'mV' : unit,
        ...(ecg ? { waveform: { origin: 0, period_ms: [1000, 0.25, MIN_PERIOD_MS][i % 3]!, samples: [-20, -0.0001, 0, 20] } } : { value }),
      } as VitalsObservation;
      for (const ms of [instantEpochMs(at), undefined]) {
        const row = toRow(o, [0, 2_147_483_647][i % 2]!, offsets[i % 3]!, [0, 32_767][i % 2], undefined, ms);
        rows.push({ ...row, seq: row.seq + (ms === undefined ? 0 : 1) });
      }
    });
    return rows;
  }

  it('every column of rows at their edges: instants of every form and year, floats, 64-bit integers, non-ASCII text, steps', async () => {
    const rows = edgeRows();
    // series keys (migration 0037) at the int4 edges the dictionary's identity can reach, and between
    const keyEdges = [1, 255, 65_536, 2_147_483_647];
    rows.forEach((r, i) => (r.series_id = keyEdges[i % keyEdges.length]));
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        'CREATE TEMP TABLE bin (LIKE vitals_observations INCLUDING DEFAULTS) ON COMMIT DROP; CREATE TEMP TABLE txt (LIKE bin INCLUDING DEFAULTS) ON COMMIT DROP',
      );
      await copyRows(client, 'bin', rows);
      for (const r of rows) {
        await client.query(
          `INSERT INTO txt (${COLUMNS}) VALUES ($1, $2, $3::bigint, $4, $5::timestamptz, $6::float8, $7, $8::real, $9::bytea, $10::int, $11::bigint, $12::smallint, $13::int)`,
          [
            r.patient_id,
            r.device_id,
            String(r.seq),
            r.code,
            r.effective_at,
            r.value === null ? null : String(r.value),
            r.unit,
            r.sample_period_ms === null ? null : String(r.sample_period_ms),
            r.steps ? sampleStepsLiteral(r.steps) : null,
            String(r.kafka_partition),
            r.kafka_offset,
            String(r.record_item ?? 0),
            String(r.series_id),
          ],
        );
      }
      const read = async (table: string) =>
        (
          await client.query<{ row: string }>(
            `SELECT concat_ws(' | ', patient_id, device_id, seq, code, ${STORED_INSTANT_SQL}, value::text, unit, sample_period_ms::text,
                    encode(sample_steps, 'hex'), kafka_partition, kafka_offset, record_item, series_id) AS row
               FROM ${table} ORDER BY kafka_offset, seq, device_id`,
          )
        ).rows.map((r) => r.row);
      const [binary, text] = [await read('bin'), await read('txt')];
      expect(binary.length).toBe(rows.length);
      expect(binary).toEqual(text);
      // the instants as storedInstant prints them (the live path's reading), the rows in `read`'s order
      const inOrder = [...rows].sort(byPosition);
      expect(binary.filter((line, i) => !line.includes(storedInstant(inOrder[i]!.effective_at)))).toEqual([]);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});

/** The order `read` lists rows in: Kafka offset (as a number), seq, device. */
const byPosition = (a: StoredRow, b: StoredRow) =>
  Number(BigInt(a.kafka_offset) - BigInt(b.kafka_offset)) ||
  a.seq - b.seq ||
  (a.device_id < b.device_id ? -1 : a.device_id > b.device_id ? 1 : 0);

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
      `SELECT patient_id, device_id, seq, code, ${STORED_INSTANT_SQL} AS at, value, unit, sample_period_ms, ${STORED_SAMPLES_SQL} FROM vitals_observations WHERE patient_id = $1 ORDER BY seq`,
      [patient],
    );
    expect(rows.map((r) => JSON.stringify(observationFromRow(r.patient_id, r)))).toEqual(
      observations.map((o) => JSON.stringify(storedObservation(o))),
    );
  });
});

describe('sample_steps: the ±10 mV grid through PostgreSQL, both write methods', () => {
  /** Every 0.1 µV step of ±10 mV as 250-sample chunks of one patient, written with `method`. */
  async function storeGrid(method: WriteMethod): Promise<{ patient: string; sent: VitalsObservation[] }> {
    const patient = `pat-grid-${method}-${uid()}`;
    const limit = 10 * SAMPLE_STEPS_PER_MV;
    const sent: VitalsObservation[] = [];
    const start = Date.now();
    for (let from = -limit, seq = 1; from <= limit; from += 250, seq++) {
      const samples = Array.from({ length: Math.min(250, limit - from + 1) }, (_, i) => (from + i) / SAMPLE_STEPS_PER_MV);
      sent.push({
        patient_id: patient,
        device_id: `${patient}-dev`,
        seq,
        code: ECG_LEAD_II.code,
        unit: ECG_LEAD_II.unit,
        effective_at: new Date(start + seq).toISOString(),
        waveform: { origin: 0, period_ms: 4, samples },
      });
    }
    const rows = sent.map((o, i) => toRow(o, 0, String(i)));
    await withTransaction(pool, (c) => writeRows(c, `vitals.test.grid.${uid()}`, rows, method));
    return { patient, sent };
  }

  for (const method of ['copy', 'unnest'] as const) {
    it(`${method}: stored as 4-byte steps, read back as the live path published them, sample for sample`, async () => {
      const { patient, sent } = await storeGrid(method);
      const { rows } = await pool.query<ObservationRow & { patient_id: string; steps: number; legacy: boolean }>(
        `SELECT patient_id, device_id, seq, code, ${STORED_INSTANT_SQL} AS at, value, unit, sample_period_ms, ${STORED_SAMPLES_SQL},
                length(sample_steps) AS steps, samples IS NOT NULL AS legacy
           FROM vitals_observations WHERE patient_id = $1 ORDER BY seq`,
        [patient],
      );
      expect(rows.length).toBe(sent.length);
      expect(
        rows.every((r, i) => r.steps === 4 * (sent[i] as { waveform: { samples: number[] } }).waveform.samples.length && !r.legacy),
      ).toBe(true);
      const mismatched = rows.filter((r, i) => eventJson(observationFromRow(r.patient_id, r)) !== eventJson(storedObservation(sent[i]!)));
      expect(mismatched.map((r) => r.seq)).toEqual([]);
      // PostgreSQL's own reading of the bytes: the step count, a little-endian 32-bit integer (-100,000 = 2^32 - 100,000 unsigned)
      const { rows: first } = await pool.query<{ k: string }>(
        `SELECT get_byte(sample_steps, 0)::bigint + get_byte(sample_steps, 1)::bigint * 256
                + get_byte(sample_steps, 2)::bigint * 65536 + get_byte(sample_steps, 3)::bigint * 16777216 AS k
           FROM vitals_observations WHERE patient_id = $1 AND seq = 1`,
        [patient],
      );
      expect(Number(first[0]?.k)).toBe(2 ** 32 - 10 * SAMPLE_STEPS_PER_MV);
    });
  }

  it('a row stored before migration 0036 (real[]) reads back as the same observation', async () => {
    const patient = `pat-legacy-${uid()}`;
    const samples = [-10, -0.0001, 0, 0.1234, 9.9999, 10];
    const at = new Date().toISOString();
    await pool.query(
      `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, unit, sample_period_ms, samples, kafka_partition, kafka_offset, series_id)
       VALUES ($1, $2, 1, $3, $4, 'mV', 4, $5::real[], 0, 0, vitals_series_assign($1, $3))`,
      [patient, `${patient}-dev`, ECG_LEAD_II.code, at, `{${samples.join(',')}}`],
    );
    const { rows } = await pool.query<ObservationRow & { patient_id: string }>(
      `SELECT patient_id, device_id, seq, code, ${STORED_INSTANT_SQL} AS at, value, unit, sample_period_ms, ${STORED_SAMPLES_SQL} FROM vitals_observations WHERE patient_id = $1`,
      [patient],
    );
    const sent = {
      patient_id: patient,
      device_id: `${patient}-dev`,
      seq: 1,
      code: ECG_LEAD_II.code,
      unit: 'mV',
      effective_at: at,
      waveform: { origin: 0, period_ms: 4, samples },
    };
    expect(eventJson(observationFromRow(patient, rows[0]!))).toBe(eventJson(storedObservation(sent as VitalsObservation)));
  });

  it('refuses a row with no measure or two (the one-measure check)', async () => {
    const insert = (value: string, samples: string, steps: string) =>
      pool.query(
        `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, samples, sample_steps, kafka_partition, kafka_offset, series_id)
         VALUES ('pat-check', 'dev-check-${uid()}', 1, '131330', now(), ${value}, 'mV', ${samples}, ${steps}, 0, 0, vitals_series_assign('pat-check', '131330'))`,
      );
    await expect(insert('NULL', 'NULL', 'NULL')).rejects.toMatchObject({ code: '23514' });
    await expect(insert('1', 'NULL', "'\\x00000000'::bytea")).rejects.toMatchObject({ code: '23514' });
    await expect(insert('NULL', "'{1}'::real[]", "'\\x00000000'::bytea")).rejects.toMatchObject({ code: '23514' });
  });
});
