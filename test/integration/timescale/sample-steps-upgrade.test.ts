/**
 * Migrations 0036 (ECG samples as `sample_steps` bytea) and 0037 (the series keys) on a log that
 * already holds data, on the TimescaleDB engine (PGlite + TimescaleDB, test/helpers/timescale.ts):
 * the log is migrated up to 0035, holds ECG chunks in the `real[]` form, one of them in a compressed
 * chunk, and 0036 and 0037 then apply. Afterwards every old row carries its series' key and reads
 * back as before, the ingest stores new chunks in the compact form (into the compressed chunk too, a
 * late row), and both forms read back through the history query as the same observations the live
 * path publishes. The plain-PostgreSQL branch is exercised by every other test
 * (test/integration/live/stored-form.test.ts for the forms, test/integration/vitals/series-keys.test.ts
 * for the keys).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, withTransaction, type Pool } from '@vitalis/db';
import { TOPICS } from '@vitalis/kafka';
import { eventJson, storedObservation } from '@vitalis/live';
import { ECG_LEAD_II, type VitalsObservation } from '@vitalis/schemas';
import { toRow, writeRows } from '../../../apps/ingest/src/store';
import { queryRaw } from '../../../apps/gateway/src/vitals/history';
import { migrationsUpTo } from '../../helpers/private-database';
import { startTimescale, type TimescaleEngine } from '../../helpers/timescale';

let engine: TimescaleEngine;
let pool: Pool;

const DAY = 86_400_000;
const patient = 'pat-ts-upgrade';
const device = `${patient}-mon`;
const oldAt = Date.now() - 10 * DAY; // past the 7-day compression policy
const recentAt = Date.now() - 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

const chunk = (seq: number, at: number, samples: number[], origin = 0): VitalsObservation => ({
  patient_id: patient,
  device_id: device,
  seq,
  code: ECG_LEAD_II.code,
  unit: ECG_LEAD_II.unit,
  effective_at: iso(at),
  waveform: { origin, period_ms: 4, samples },
});

beforeAll(async () => {
  engine = await startTimescale();
  pool = new pg.Pool({ connectionString: engine.url, max: 1 }); // one backend: one connection
  await migrate(pool, await migrationsUpTo(35));
});
afterAll(async () => {
  await pool?.end();
  await engine?.close();
});

describe('migrations 0036 and 0037 on a TimescaleDB log with real[] chunks, one of them compressed', () => {
  const legacy = [chunk(1, oldAt, [-10, -0.0001, 0, 0.1234, 10]), chunk(2, recentAt, [1.5, -1.5, 0.0007])];

  it('applies over the old form and a compressed chunk', async () => {
    for (const o of legacy) {
      const w = (o as { waveform: { samples: number[] } }).waveform;
      await pool.query(
        `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, unit, sample_period_ms, samples, kafka_partition, kafka_offset)
         VALUES ($1, $2, $3, $4, $5, $6, 4, $7::real[], 0, $3)`,
        [o.patient_id, o.device_id, o.seq, o.code, o.effective_at, o.unit, `{${w.samples.join(',')}}`],
      );
    }
    const job = await pool.query<{ job_id: number }>(
      "SELECT job_id FROM timescaledb_information.jobs WHERE proc_name = 'policy_compression'",
    );
    await pool.query(`CALL run_job(${job.rows[0]!.job_id})`);
    const compressed = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM timescaledb_information.chunks WHERE hypertable_name = 'vitals_observations' AND is_compressed",
    );
    expect(compressed.rows[0]!.n).toBe(1);

    expect(await migrate(pool)).toEqual(expect.arrayContaining([36, 37]));
    const { rows } = await pool.query<{ conname: string; convalidated: boolean }>(
      "SELECT conname, convalidated FROM pg_constraint WHERE conrelid = 'vitals_observations'::regclass AND contype = 'c'",
    );
    expect(rows.map((r) => r.conname)).toEqual(['vitals_observations_one_measure']);
    // 0037: both rows, the compressed one too, carry their series' key from the dictionary
    const keys = await pool.query<{ n: number; keyed: number }>(
      'SELECT count(*)::int AS n, count(*) FILTER (WHERE series_id = (SELECT s.series_id FROM vitals_series s WHERE s.patient_id = o.patient_id AND s.code = o.code))::int AS keyed FROM vitals_observations o',
    );
    expect(keys.rows[0]).toEqual({ n: 2, keyed: 2 });
  });

  it('stores new chunks as sample_steps (a late one into the compressed chunk) and reads both forms back alike', async () => {
    const fresh = [chunk(3, oldAt + 4_000, [0.25, -0.25], 0.5), chunk(4, recentAt + 4_000, [-9.9999, 9.9999])];
    const stored = await withTransaction(pool, (c) =>
      writeRows(
        c,
        TOPICS.vitalsObservations,
        fresh.map((o, i) => toRow(o, 0, String(100 + i))),
      ),
    );
    expect(stored).toBe(2);
    const forms = await pool.query<{ seq: string; legacy: boolean; steps: number | null }>(
      'SELECT seq, samples IS NOT NULL AS legacy, length(sample_steps) AS steps FROM vitals_observations WHERE patient_id = $1 ORDER BY seq',
      [patient],
    );
    expect(forms.rows.map((r) => [Number(r.seq), r.legacy, r.steps])).toEqual([
      [1, true, null],
      [2, true, null],
      [3, false, 8],
      [4, false, 8],
    ]);
    const page = await queryRaw(pool, { patient, from: iso(oldAt - DAY), to: iso(Date.now() + DAY), limit: 100 });
    const bySeq = (a: VitalsObservation, b: VitalsObservation) => a.seq - b.seq;
    expect(page.rows.sort(bySeq).map(eventJson)).toEqual([...legacy, ...fresh].map((o) => eventJson(storedObservation(o))));
  });
});
