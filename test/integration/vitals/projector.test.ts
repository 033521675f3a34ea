/**
 * Rollups and retention against the real append log: the incremental job recomputes touched
 * buckets exactly (re-runs and late rows converge), the hour rollup follows the minute rollup,
 * the history API answers aligned bucket queries from the rollups with the same numbers as the
 * raw path, and retention drops whole old partitions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageMode, type Pool } from '@vitalis/db';
import { maintainPartitions } from '../../../apps/projector/src/maintenance';
import { runRollups } from '../../../apps/projector/src/rollups';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { authHeaders, testPool, uid, waitFor } from './support';

let pool: Pool;
let gw: RunningGateway;

beforeAll(async () => {
  pool = testPool();
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.close();
  await pool?.end();
});

/** Inserts HR rows straight into the append log, as the ingest would (ingested_at = now()). */
async function insertHr(patient: string, rows: { at: string; value: number; seq: number }[]) {
  await pool.query(
    `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, kafka_partition, kafka_offset, series_id)
     SELECT $1, $1 || '-dev', s, '8867-4', t, v, '/min', 0, s, vitals_series_assign($1, '8867-4')
       FROM unnest($2::timestamptz[], $3::float8[], $4::bigint[]) AS x(t, v, s)`,
    [patient, rows.map((r) => r.at), rows.map((r) => r.value), rows.map((r) => r.seq)],
  );
}

/**
 * Runs the incremental job until the patient's minute rollup holds `count` observations. (Other test
 * runs share the database and its watermark, and an open transaction anywhere holds the window back,
 * so one call is not always enough; the job converges.)
 */
async function rollUntil(patient: string, count: number) {
  await waitFor(
    async () => {
      await runRollups(pool, { safeLagMs: 0 });
      const { rows } = await pool.query('SELECT coalesce(sum(count), 0)::int AS n FROM vitals_rollup_1m WHERE patient_id = $1', [patient]);
      return rows[0].n as number;
    },
    (n) => n >= count,
    30_000,
    `rollup of ${count} rows`,
  );
}

const rollup = (table: string, patient: string) =>
  pool
    .query(
      `SELECT to_char(bucket AT TIME ZONE 'UTC', 'HH24:MI') AS b, count, sum, min, max, last_value FROM ${table} WHERE patient_id = $1 ORDER BY bucket`,
      [patient],
    )
    .then((r) => r.rows);

describe('vitals rollups (projector job)', () => {
  const patient = `pat-roll-${uid()}`;
  const base = Date.UTC(2026, 1, 3, 10, 0, 0);
  const at = (s: number) => new Date(base + s * 1000).toISOString();

  it('rolls up touched minutes and hours exactly, idempotently, including late rows', async () => {
    await insertHr(patient, [
      { at: at(0), value: 60, seq: 1 },
      { at: at(30), value: 80, seq: 2 },
      { at: at(61), value: 100, seq: 3 },
    ]);
    await rollUntil(patient, 3);
    expect(await rollup('vitals_rollup_1m', patient)).toEqual([
      { b: '10:00', count: 2, sum: 140, min: 60, max: 80, last_value: 80 },
      { b: '10:01', count: 1, sum: 100, min: 100, max: 100, last_value: 100 },
    ]);
    expect(await rollup('vitals_rollup_1h', patient)).toEqual([{ b: '10:00', count: 3, sum: 240, min: 60, max: 100, last_value: 100 }]);

    // a re-run changes nothing; a late row for an old minute is folded in exactly
    await runRollups(pool, { safeLagMs: 0 });
    await insertHr(patient, [{ at: at(10), value: 50, seq: 4 }]);
    await rollUntil(patient, 4);
    expect(await rollup('vitals_rollup_1m', patient)).toEqual([
      { b: '10:00', count: 3, sum: 190, min: 50, max: 80, last_value: 80 },
      { b: '10:01', count: 1, sum: 100, min: 100, max: 100, last_value: 100 },
    ]);
    expect(await rollup('vitals_rollup_1h', patient)).toEqual([{ b: '10:00', count: 4, sum: 290, min: 50, max: 100, last_value: 100 }]);
  });

  it('the history API answers aligned buckets from the rollups, with the same numbers as the raw path', async (ctx) => {
    // On TimescaleDB the continuous aggregates answer instead (test/integration/timescale).
    if ((await storageMode(pool)) === 'timescaledb') ctx.skip();
    const headers = await authHeaders(gw.url, ['read:vitals']);
    const q = (from: string, to: string, bucket: string) =>
      fetch(`${gw.url}/api/v1/vitals?patient=${patient}&from=${from}&to=${to}&bucket=${bucket}&agg=count,min,max,avg,last`, {
        headers,
      }).then(
        (r) =>
          r.json() as Promise<{
            source: string;
            data: { bucket: string; count: number; min: number; max: number; avg: number; last: number }[];
          }>,
      );
    const aligned = await q(at(0), at(3600), '1m');
    const unaligned = await q(at(-1), at(3599), '1m');
    expect(aligned.source).toBe('rollup_1m');
    expect(unaligned.source).toBe('raw');
    const strip = (d: { data: Record<string, unknown>[] }) => d.data.map(({ last_at: _ignored, ...rest }) => rest);
    expect(strip(aligned)).toEqual(strip(unaligned));
    expect(aligned.data[0]).toMatchObject({ count: 3, min: 50, max: 80, last: 80 });

    // the rollup read straight by primary key pages with the same cursors
    const paged: unknown[] = [];
    let url: string | null =
      `${gw.url}/api/v1/vitals?patient=${patient}&from=${at(0)}&to=${at(3600)}&bucket=1m&agg=count,min,max,avg,last&limit=1`;
    while (url) {
      const page = (await fetch(url, { headers }).then((r) => r.json())) as { source: string; data: unknown[]; next: string | null };
      expect(page.source).toBe('rollup_1m');
      paged.push(...page.data);
      url = page.next;
    }
    expect(paged).toEqual(aligned.data);

    const hourly = await q(at(0), at(2 * 3600), '1h');
    expect(hourly.source).toBe('rollup_1h');
    expect(hourly.data).toEqual([expect.objectContaining({ count: 4, min: 50, max: 100, avg: 72.5, last: 100 })]);
    const daily = await q(new Date(Date.UTC(2026, 1, 3)).toISOString(), new Date(Date.UTC(2026, 1, 4)).toISOString(), '1d');
    expect(daily.source).toBe('rollup_1h');
    expect(daily.data).toEqual([expect.objectContaining({ count: 4, avg: 72.5 })]);
  });
});

describe('vitals retention (projector maintenance)', () => {
  it('drops daily partitions older than the retention, keeps the rest, creates partitions ahead', async () => {
    // a private, very old day: 1000 days ago, with one row in it
    const day = new Date(Date.now() - 1000 * 86_400_000);
    const ymd = day.toISOString().slice(0, 10);
    const name = `vitals_observations_${ymd.replaceAll('-', '')}`;
    const next = new Date(Date.parse(ymd) + 86_400_000).toISOString().slice(0, 10);
    await pool.query(`CREATE TABLE IF NOT EXISTS ${name} PARTITION OF vitals_observations FOR VALUES FROM ('${ymd}') TO ('${next}')`);
    const patient = `pat-ret-${uid()}`;
    await insertHr(patient, [{ at: `${ymd}T12:00:00Z`, value: 70, seq: 1 }]);

    const result = await maintainPartitions(pool, { retentionDays: 900, daysAhead: 7 });
    expect(result.dropped).toBeGreaterThanOrEqual(1);
    const { rows } = await pool.query('SELECT to_regclass($1) AS t', [name]);
    expect(rows[0].t).toBeNull();
    expect((await pool.query('SELECT count(*)::int AS n FROM vitals_observations WHERE patient_id = $1', [patient])).rows[0].n).toBe(0);
    const ahead = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');
    expect((await pool.query('SELECT to_regclass($1) AS t', [`vitals_observations_${ahead}`])).rows[0].t).not.toBeNull();
  });

  it("prunes the ingest's offset ranges (what live replay reads) with the same retention", async () => {
    const topic = `retention-${uid()}`;
    await pool.query(
      `INSERT INTO vitals_ingest_batches (topic, kafka_partition, first_offset, last_offset, ingested_at)
       VALUES ($1, 0, 0, 9, now() - interval '1000 days'), ($1, 0, 10, 19, now() - interval '2 days'), ($1, 0, 20, 29, now())`,
      [topic],
    );
    await maintainPartitions(pool, { retentionDays: 900, daysAhead: 7 });
    const { rows } = await pool.query('SELECT last_offset::int AS o FROM vitals_ingest_batches WHERE topic = $1 ORDER BY 1', [topic]);
    expect(rows.map((r) => r.o)).toEqual([19, 29]);
  });
});
