/**
 * The TimescaleDB branch of the migrations, executed: on PGlite + TimescaleDB 2.23 (a WASM,
 * single-connection PostgreSQL 17, test/helpers/timescale.ts), the project's own migrate() makes
 * the append log a hypertable with compression segmented by patient and continuous aggregates for
 * 1 minute and 1 hour; the ingest's writer (COPY and unnest) stores observations through `pg`; a
 * compression job run by hand compresses the old chunk, which still answers reads and redeliveries
 * until the projector's retention drops it (the aggregates keep its buckets);
 * and the history query answers 1 min / 1 h / 1 d buckets from the aggregates (source cagg_*) with
 * the numbers computed from the raw rows. A WASM build runs no background workers, so jobs and
 * refreshes run by CALL here. This proves the SQL and the code paths, not performance (docs/adr/0013).
 * It needs nothing of the shared servers.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, storageMode, withTransaction, type Pool } from '@vitalis/db';
import { TOPICS } from '@vitalis/kafka';
import { writeRows, type StoredRow, type WriteMethod } from '../../../apps/ingest/src/store';
import { maintainPartitions } from '../../../apps/projector/src/maintenance';
import { projectorRunsRollups } from '../../../apps/projector/src/rollups';
import { BUCKETS, queryBuckets, queryRaw, type Bucket, type BucketRow } from '../../../apps/gateway/src/vitals/history';
import { startTimescale, type TimescaleEngine } from '../../helpers/timescale';

let engine: TimescaleEngine;
let pool: Pool;

beforeAll(async () => {
  engine = await startTimescale();
  pool = new pg.Pool({ connectionString: engine.url, max: 1 }); // one backend: one connection
  await migrate(pool);
});
afterAll(async () => {
  await pool?.end();
  await engine?.close();
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Three hours ago, floored to the hour: the recent data lies in the past, inside the refresh policies' window. */
const H0 = Math.floor((Date.now() - 3 * HOUR) / HOUR) * HOUR;
const HR = '8867-4';
const SPO2 = '59408-5';

const iso = (ms: number) => new Date(ms).toISOString();
/** PostgreSQL's rendering in the history API: microseconds. */
const pgIso = (ms: number) => iso(ms).replace('Z', '000Z');

let offset = 0;
/** One device's numeric observations, one per `stepMs` from `startMs`, integer values (exact sums). */
function series(patient: string, code: string, startMs: number, n: number, stepMs: number, value: (i: number) => number): StoredRow[] {
  return Array.from({ length: n }, (_, i) => ({
    patient_id: patient,
    device_id: `${patient}-${code}`,
    seq: Math.round((startMs + i * stepMs) / 1000),
    code,
    effective_at: iso(startMs + i * stepMs),
    value: value(i),
    unit: code === HR ? '/min' : '%',
    sample_period_ms: null,
    steps: null,
    kafka_partition: 0,
    kafka_offset: String(offset++),
  }));
}

const write = (rows: StoredRow[], method: WriteMethod = 'copy') =>
  withTransaction(pool, (c) => writeRows(c, TOPICS.vitalsObservations, rows, method));

/** The oracle: buckets computed in JavaScript from the rows written, as the history API renders them. */
function expectedBuckets(rows: StoredRow[], bucket: Bucket, from: number, to: number): BucketRow[] {
  const size = BUCKETS[bucket];
  const groups = new Map<string, StoredRow[]>();
  for (const r of rows) {
    const at = Date.parse(r.effective_at);
    if (at < from || at >= to) continue;
    const key = `${String(Math.floor(at / size) * size).padStart(15, '0')}|${r.code}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.keys()].sort().map((key) => {
    const g = groups.get(key)!;
    const values = g.map((r) => r.value!);
    const last = g.reduce((a, b) => (Date.parse(b.effective_at) > Date.parse(a.effective_at) ? b : a));
    const sum = values.reduce((a, b) => a + b, 0);
    return {
      code: g[0]!.code,
      bucket: pgIso(Number(key.split('|')[0])),
      count: g.length,
      avg: sum / g.length,
      min: Math.min(...values),
      max: Math.max(...values),
      last: last.value!,
      last_at: pgIso(Date.parse(last.effective_at)),
    };
  });
}

const buckets = (patient: string, bucket: Bucket, from: number, to: number) =>
  queryBuckets(pool, { patient, bucket, from: iso(from), to: iso(to), limit: 10_000 });

describe('the TimescaleDB branch of the migrations', () => {
  it('makes the append log a hypertable of daily chunks, not native partitions', async () => {
    expect(await storageMode(pool)).toBe('timescaledb');
    const { rows } = await pool.query(
      `SELECT d.time_interval::text AS chunk FROM timescaledb_information.hypertables h
         JOIN timescaledb_information.dimensions d USING (hypertable_schema, hypertable_name)
        WHERE h.hypertable_name = 'vitals_observations'`,
    );
    expect(rows).toEqual([{ chunk: '1 day' }]);
    const plain = await pool.query("SELECT to_regclass('vitals_observations_default') AS t");
    expect(plain.rows[0].t).toBeNull();
    const applied = await pool.query('SELECT max(version)::int AS v FROM schema_migrations');
    expect(applied.rows[0].v).toBeGreaterThanOrEqual(18);
  });

  it('keys the identity on (time, device, seq), time first (0020), on the hypertable', async () => {
    const { rows } = await pool.query<{ def: string; unique: boolean }>(
      "SELECT pg_get_indexdef(indexrelid) AS def, indisunique AS unique FROM pg_index WHERE indexrelid = 'vitals_observations_identity'::regclass",
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.unique).toBe(true);
    expect(rows[0]!.def).toMatch(/\(effective_at, device_id COLLATE "C", seq\)$/);
  });

  it('compresses chunks segmented by series key and ordered by time (migration 0037; by patient, code and time before), under a 7-day policy', async () => {
    const settings = await pool.query(
      `SELECT attname, segmentby_column_index AS segment, orderby_column_index AS ord, orderby_asc AS asc
         FROM timescaledb_information.compression_settings WHERE hypertable_name = 'vitals_observations'
        ORDER BY segmentby_column_index NULLS LAST, orderby_column_index`,
    );
    expect(settings.rows).toEqual([
      { attname: 'series_id', segment: 1, ord: null, asc: null },
      { attname: 'effective_at', segment: null, ord: 1, asc: false },
    ]);
    const jobs = await pool.query(
      "SELECT config->>'compress_after' AS after FROM timescaledb_information.jobs WHERE proc_name = 'policy_compression' AND hypertable_name = 'vitals_observations'",
    );
    expect(jobs.rows).toEqual([{ after: '7 days' }]);
  });

  it('has continuous aggregates for 1 minute (over the log) and 1 hour (over the minutes), each with a refresh policy', async () => {
    const { rows } = await pool.query(
      `SELECT a.view_name, coalesce(over.view_name, a.hypertable_name) AS over, a.materialized_only,
              j.config->>'start_offset' AS start, j.config->>'end_offset' AS "end", (j.config->>'buckets_per_batch')::int AS batch
         FROM timescaledb_information.continuous_aggregates a
         -- a hierarchical aggregate's hypertable is the materialization of the aggregate below it
         LEFT JOIN timescaledb_information.continuous_aggregates over ON over.materialization_hypertable_name = a.hypertable_name
         JOIN timescaledb_information.jobs j ON j.proc_name = 'policy_refresh_continuous_aggregate' AND j.hypertable_name = a.view_name
        ORDER BY a.view_name`,
    );
    expect(rows).toEqual([
      { view_name: 'vitals_cagg_1h', over: 'vitals_cagg_1m', materialized_only: true, start: '7 days', end: '01:00:00', batch: 24 },
      { view_name: 'vitals_cagg_1m', over: 'vitals_observations', materialized_only: true, start: '7 days', end: '00:01:00', batch: 1440 },
    ]);
  });

  it('gives the app role read-only access to the aggregates and their horizon', async () => {
    const { rows } = await pool.query(
      `SELECT has_table_privilege('vitalis_app', 'vitals_cagg_1m', 'SELECT') AS read_1m, has_table_privilege('vitalis_app', 'vitals_cagg_1h', 'SELECT') AS read_1h,
              has_table_privilege('vitalis_app', 'vitals_cagg_1m', 'INSERT') AS write_1m,
              has_function_privilege('vitalis_app', 'vitalis_vitals_cagg_horizon(text)', 'EXECUTE') AS horizon`,
    );
    expect(rows[0]).toEqual({ read_1m: true, read_1h: true, write_1m: false, horizon: true });
  });

  it('turns the projector rollups off (the aggregates stand in)', async () => {
    expect(await projectorRunsRollups(pool)).toBe(false);
  });
});

describe('compression and retention on the TimescaleDB engine', () => {
  const patient = `pat-ts-${randomUUID().slice(0, 8)}`;
  const oldStart = H0 - 10 * DAY;

  it('a compression job run by hand compresses the old chunk; reads, redeliveries and late rows still work there', async () => {
    const old = [
      ...series(patient, HR, oldStart, 120, 30_000, (i) => 60 + (i % 20)),
      ...series(patient, SPO2, oldStart, 120, 30_000, (i) => 90 + (i % 9)),
    ];
    const recent = series(patient, HR, H0 + 10_000, 30, 60_000, (i) => 70 + i);
    expect(await write(old, 'copy')).toBe(240);
    expect(await write(recent, 'unnest')).toBe(30);

    const job = await pool.query<{ job_id: number }>(
      "SELECT job_id FROM timescaledb_information.jobs WHERE proc_name = 'policy_compression'",
    );
    await pool.query(`CALL run_job(${job.rows[0]!.job_id})`);
    const chunkOf = async (at: number) =>
      (
        await pool.query<{ is_compressed: boolean }>(
          "SELECT is_compressed FROM timescaledb_information.chunks WHERE hypertable_name = 'vitals_observations' AND range_start <= $1 AND range_end > $1",
          [iso(at)],
        )
      ).rows[0]?.is_compressed;
    expect(await chunkOf(oldStart)).toBe(true);
    expect(await chunkOf(H0 + 10_000)).toBe(false);

    // The compressed chunk answers the history API's raw read, every row and value.
    const page = await queryRaw(pool, { patient, from: iso(oldStart), to: iso(oldStart + DAY), limit: 1000 });
    expect(page.rows).toHaveLength(240);
    expect(page.rows.filter((r) => r.code === HR).map((r) => (r as { value: number }).value)).toEqual(
      old.filter((r) => r.code === HR).map((r) => r.value),
    );

    // A redelivery into the compressed chunk stores nothing (COPY hits the unique index, the staged
    // ON CONFLICT path skips); a late new row lands there.
    expect(await write(old.slice(0, 50), 'copy')).toBe(0);
    expect(await write(old.slice(50, 60), 'unnest')).toBe(0);
    expect(
      await write(
        series(patient, HR, oldStart + 15_000, 1, 1, () => 61),
        'copy',
      ),
    ).toBe(1);
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM vitals_observations WHERE patient_id = $1', [patient]);
    expect(rows[0].n).toBe(271);
  });

  it("the projector's retention drops the old compressed chunk; the aggregates keep its buckets", async () => {
    await pool.query(`CALL refresh_continuous_aggregate('vitals_cagg_1m', $1::timestamptz, $2::timestamptz)`, [
      iso(oldStart),
      iso(oldStart + DAY),
    ]);
    const kept = await pool.query('SELECT count(*)::int AS n, sum(count)::int AS rows FROM vitals_cagg_1m WHERE patient_id = $1', [
      patient,
    ]);
    expect(kept.rows[0].rows).toBe(241); // the old rows and the late one; the recent ones are not refreshed here
    const { dropped } = await maintainPartitions(pool, { retentionDays: 9, daysAhead: 2 });
    expect(dropped).toBeGreaterThanOrEqual(1);
    const raw = await pool.query('SELECT count(*)::int AS n FROM vitals_observations WHERE patient_id = $1 AND effective_at < $2', [
      patient,
      iso(H0),
    ]);
    expect(raw.rows[0].n).toBe(0);
    const after = await pool.query('SELECT count(*)::int AS n, sum(count)::int AS rows FROM vitals_cagg_1m WHERE patient_id = $1', [
      patient,
    ]);
    expect(after.rows[0]).toEqual(kept.rows[0]);
  });
});

describe('history buckets from the continuous aggregates', () => {
  const patient = `pat-ts-${randomUUID().slice(0, 8)}`;
  // Two hours of HR every 20 s and SpO2 every 45 s, starting 10 s into the hour.
  const rows = [
    ...series(patient, HR, H0 + 10_000, 360, 20_000, (i) => 60 + ((i * 7) % 41)),
    ...series(patient, SPO2, H0 + 10_000, 160, 45_000, (i) => 88 + ((i * 5) % 12)),
  ];
  const late = series(patient, HR, H0 + 2 * HOUR + 5_000, 20, 30_000, (i) => 100 + i); // after the first refresh
  const all = () => [...rows, ...late];

  beforeAll(async () => {
    expect(await write(rows.slice(0, 300), 'copy')).toBe(300);
    expect(await write(rows.slice(300), 'unnest')).toBe(rows.length - 300);
    await pool.query(`CALL refresh_continuous_aggregate('vitals_cagg_1m', $1::timestamptz, $2::timestamptz)`, [
      iso(H0),
      iso(H0 + 2 * HOUR),
    ]);
    await pool.query(`CALL refresh_continuous_aggregate('vitals_cagg_1h', $1::timestamptz, $2::timestamptz)`, [
      iso(H0),
      iso(H0 + 2 * HOUR),
    ]);
  });

  it('the aggregates hold the raw numbers', async () => {
    const { rows: cagg } = await pool.query(
      `SELECT sum(count)::int AS n, sum(sum)::float8 AS s FROM vitals_cagg_1h WHERE patient_id = $1`,
      [patient],
    );
    expect(cagg[0]).toEqual({ n: rows.length, s: rows.reduce((a, r) => a + r.value!, 0) });
  });

  it.each<[Bucket, string]>([
    ['1m', 'cagg_1m'],
    ['1h', 'cagg_1h'],
  ])('answers %s buckets over a refreshed range from the aggregate (source %s), equal to the raw rows', async (bucket, source) => {
    const page = await buckets(patient, bucket, H0, H0 + 2 * HOUR);
    expect(page.source).toBe(source);
    expect(page.rows).toEqual(expectedBuckets(rows, bucket, H0, H0 + 2 * HOUR));
    // The same buckets from the append log alone (a range not aligned to the minute is answered raw).
    const raw = await queryBuckets(pool, { patient, bucket, from: iso(H0 + 1), to: iso(H0 + 2 * HOUR), limit: 10_000 });
    expect(raw.source).toBe('raw');
    expect(raw.rows).toEqual(page.rows);
  });

  it('pages through aggregate buckets with the cursor', async () => {
    const first = await queryBuckets(pool, { patient, bucket: '1m', from: iso(H0), to: iso(H0 + 2 * HOUR), limit: 50 });
    expect(first.more).toBe(true);
    const lastRow = first.rows.at(-1)!;
    const second = await queryBuckets(pool, {
      patient,
      bucket: '1m',
      from: iso(H0),
      to: iso(H0 + 2 * HOUR),
      limit: 10_000,
      after: { b: lastRow.bucket, c: lastRow.code },
    });
    expect(second.source).toBe('cagg_1m');
    expect([...first.rows, ...second.rows]).toEqual(expectedBuckets(rows, '1m', H0, H0 + 2 * HOUR));
  });

  it('adds the rows newer than the watermark from the log, then serves them from the aggregates once the policies have run', async () => {
    expect(await write(late, 'copy')).toBe(late.length);
    const to = H0 + 3 * HOUR;
    for (const bucket of ['1m', '1h', '1d'] as const) {
      const from = bucket === '1d' ? Math.floor(H0 / DAY) * DAY : H0;
      const until = bucket === '1d' ? from + DAY : to;
      const page = await buckets(patient, bucket, from, until);
      expect(page.source).toBe(bucket === '1m' ? 'cagg_1m' : 'cagg_1h');
      expect(page.rows).toEqual(expectedBuckets(all(), bucket, from, until));
    }
    // The refresh policies, run by hand (no background workers in WASM): minute first, then hour.
    const jobs = await pool.query<{ job_id: number; view: string }>(
      "SELECT job_id, hypertable_name AS view FROM timescaledb_information.jobs WHERE proc_name = 'policy_refresh_continuous_aggregate' ORDER BY hypertable_name DESC",
    );
    expect(jobs.rows.map((j) => j.view)).toEqual(['vitals_cagg_1m', 'vitals_cagg_1h']);
    for (const job of jobs.rows) await pool.query(`CALL run_job(${job.job_id})`);
    const { rows: materialized } = await pool.query(
      'SELECT count(*)::int AS n FROM vitals_cagg_1m WHERE patient_id = $1 AND bucket >= $2',
      [patient, iso(H0 + 2 * HOUR)],
    );
    expect(materialized[0].n).toBe(expectedBuckets(late, '1m', H0, to).length);
    for (const bucket of ['1m', '1h'] as const) {
      const page = await buckets(patient, bucket, H0, to);
      expect(page.source).toBe(bucket === '1m' ? 'cagg_1m' : 'cagg_1h');
      expect(page.rows).toEqual(expectedBuckets(all(), bucket, H0, to));
    }
  });
});
