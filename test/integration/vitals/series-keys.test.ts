/**
 * The series dictionary (migration 0037, docs/adr/0036): every row of the append log carries the
 * integer key of its (patient_id, code), and the series index is built on it.
 *  - the migration over a log that already holds rows (plain PostgreSQL; the TimescaleDB branch in
 *    test/integration/timescale/sample-steps-upgrade.test.ts): every old row gets its pair's key, the
 *    series index is (series_id, effective_at), and the history reads find the old rows;
 *  - the ingest's keys: two processes asking for the same new pairs at once get the same keys; a
 *    process asks the database once per pair; a write whose rows had no keys keys them in its own
 *    transaction and, rolled back, leaves neither the pairs nor keys on the rows; every write method
 *    (COPY, the staged redelivery, unnest) stores each row with its pair's key;
 *  - the reads use the series index by key (EXPLAIN).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, migrate, seriesAmong, seriesOf, withTransaction, type Pool } from '@vitalis/db';
import { TOPICS } from '@vitalis/kafka';
import { VITAL_CODE } from '@vitalis/schemas';
import { queryLatest, queryRaw } from '../../../apps/gateway/src/vitals/history';
import { SeriesKeys } from '../../../apps/ingest/src/series-keys';
import { writeRows, type StoredRow, type WriteMethod } from '../../../apps/ingest/src/store';
import { testEnv } from '../../helpers/env';
import { migrationsUpTo, privateDatabase, type PrivateDatabase } from '../../helpers/private-database';
import { testPool, uid } from './support';

const pool = testPool();
afterAll(() => pool.end());

const T0 = Date.now() - 3_600_000;
const HR = VITAL_CODE.heartRate;
const SPO2 = VITAL_CODE.spo2;

/** `n` numeric rows of one device, alternating heart rate and SpO2, one a second from T0. */
function rows(patient: string, n: number, firstSeq = 0): StoredRow[] {
  return Array.from({ length: n }, (_, k) => {
    const i = firstSeq + k;
    const hr = i % 2 === 0;
    return {
      patient_id: patient,
      device_id: `${patient}-dev`,
      seq: i,
      code: hr ? HR : SPO2,
      effective_at: new Date(T0 + i * 1000).toISOString(),
      value: hr ? 60 + (i % 30) : 95 + (i % 4),
      unit: hr ? '/min' : '%',
      sample_period_ms: null,
      steps: null,
      kafka_partition: 0,
      kafka_offset: String(i),
    };
  });
}

/** How many of a patient's stored rows there are, and how many carry their pair's key from the dictionary. */
async function keyedCount(db: Pool, patient: string): Promise<{ n: number; keyed: number }> {
  const { rows: r } = await db.query<{ n: number; keyed: number }>(
    `SELECT count(*)::int AS n, count(*) FILTER (WHERE series_id = (SELECT s.series_id FROM vitals_series s WHERE s.patient_id = o.patient_id AND s.code = o.code))::int AS keyed
       FROM vitals_observations o WHERE patient_id = $1`,
    [patient],
  );
  return r[0]!;
}

const pairsOf = async (db: Pool, patient: string) =>
  (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM vitals_series WHERE patient_id = $1', [patient])).rows[0]!.n;

describe('migration 0037 over a log that holds rows', () => {
  let old: PrivateDatabase;
  const patient = `pat-sk-${uid()}`;
  beforeAll(async () => {
    old = await privateDatabase('series_keys', 4, await migrationsUpTo(36));
  });
  afterAll(async () => old?.drop());

  it('keys every row, builds the series index on the keys, and the history reads find the old rows', async () => {
    const before = rows(patient, 40);
    await old.pool.query(
      `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, kafka_partition, kafka_offset)
       SELECT p, d, s, c, t::timestamptz, v, u, 0, s FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::float8[], $7::text[])
           AS x(p, d, s, c, t, v, u)`,
      [
        before.map((r) => r.patient_id),
        before.map((r) => r.device_id),
        before.map((r) => r.seq),
        before.map((r) => r.code),
        before.map((r) => r.effective_at),
        before.map((r) => r.value),
        before.map((r) => r.unit),
      ],
    );
    expect(await migrate(old.pool)).toEqual([37]);

    expect(await keyedCount(old.pool, patient)).toEqual({ n: 40, keyed: 40 });
    expect(await pairsOf(old.pool, patient)).toBe(2);
    const { rows: idx } = await old.pool.query<{ indexdef: string }>(
      "SELECT indexdef FROM pg_indexes WHERE tablename = 'vitals_observations' AND indexname = 'vitals_observations_series'",
    );
    expect(idx[0]?.indexdef).toMatch(/\(series_id, effective_at\)$/);
    const { rows: nullable } = await old.pool.query<{ attnotnull: boolean }>(
      "SELECT attnotnull FROM pg_attribute WHERE attrelid = 'vitals_observations'::regclass AND attname = 'series_id'",
    );
    expect(nullable[0]?.attnotnull).toBe(true);

    const page = await queryRaw(old.pool, { patient, from: new Date(T0 - 1000).toISOString(), to: new Date().toISOString(), limit: 100 });
    expect(page.rows.map((o) => o.seq)).toEqual(before.map((r) => r.seq));
    const latest = await queryLatest(old.pool, patient, [HR, SPO2]);
    expect(latest.map((o) => [o.code, o.seq]).sort()).toEqual([
      [SPO2, 39],
      [HR, 38],
    ]);
  });
});

describe('the ingest keys', () => {
  it('two processes asking for the same new pairs at once get the same keys, and each asks once per pair', async () => {
    const patient = `pat-sk-${uid()}`;
    let statements = 0;
    const counting = { query: (text: string, values?: unknown[]) => ((statements += 1), pool.query(text, values)) } as unknown as Pool;
    const a = new SeriesKeys(counting);
    const b = new SeriesKeys(pool);
    const [ra, rb] = [rows(patient, 10), rows(patient, 10)];
    await Promise.all([a.assign(ra), b.assign(rb)]);
    expect(ra.map((r) => r.series_id)).toEqual(rb.map((r) => r.series_id));
    expect(new Set(ra.map((r) => r.series_id)).size).toBe(2);
    expect(await pairsOf(pool, patient)).toBe(2);
    expect(statements).toBe(1);
    await a.assign(rows(patient, 10, 10));
    expect(statements).toBe(1); // kept: no statement for pairs seen before
    expect(a.size).toBe(2);
  });

  it('forgets its keys at its bound and asks again', async () => {
    const keys = new SeriesKeys(pool, 2);
    const first = rows(`pat-sk-${uid()}`, 2);
    await keys.assign(first);
    expect(keys.size).toBe(2);
    const second = rows(`pat-sk-${uid()}`, 2);
    await keys.assign(second);
    expect(keys.size).toBe(2); // the first patient's keys forgotten, the second's kept
    const again = rows(first[0]!.patient_id, 2);
    await keys.assign(again);
    expect(again.map((r) => r.series_id)).toEqual(first.map((r) => r.series_id));
  });

  it('takes keys as the least-privileged app role', async () => {
    const app = createPool({ url: testEnv.APP_DATABASE_URL, max: 1 });
    try {
      const r = rows(`pat-sk-${uid()}`, 2);
      await new SeriesKeys(app).assign(r);
      expect(r.every((x) => typeof x.series_id === 'number')).toBe(true);
    } finally {
      await app.end();
    }
  });

  it('a write whose rows had no keys keys them in its transaction; rolled back, neither the pairs nor the keys remain', async () => {
    const patient = `pat-sk-${uid()}`;
    const batch = rows(patient, 6);
    const rolledBack = withTransaction(pool, async (client) => {
      expect(await writeRows(client, TOPICS.vitalsObservations, batch)).toBe(6);
      throw new Error('rolled back on purpose');
    });
    await expect(rolledBack).rejects.toThrow('rolled back on purpose');
    expect(batch.every((r) => r.series_id === undefined)).toBe(true);
    expect(await pairsOf(pool, patient)).toBe(0);
    expect(await withTransaction(pool, (client) => writeRows(client, TOPICS.vitalsObservations, batch))).toBe(6);
    expect(await keyedCount(pool, patient)).toEqual({ n: 6, keyed: 6 });
  });

  it.each<WriteMethod>(['copy', 'unnest'])('%s stores every row with its key, a redelivery overlapping new rows too', async (method) => {
    const patient = `pat-sk-${uid()}`;
    const keys = new SeriesKeys(pool);
    const first = rows(patient, 20);
    await keys.assign(first);
    await withTransaction(pool, (client) => writeRows(client, TOPICS.vitalsObservations, first, method));
    const overlapping = rows(patient, 20, 10); // 10 stored, 10 new: the COPY method takes the staged path
    await keys.assign(overlapping);
    expect(await withTransaction(pool, (client) => writeRows(client, TOPICS.vitalsObservations, overlapping, method))).toBe(10);
    expect(await keyedCount(pool, patient)).toEqual({ n: 30, keyed: 30 });
  });
});

describe('the reads', () => {
  it('find a series through the series index by its key, looked up once', async () => {
    const patient = `pat-sk-${uid()}`;
    await withTransaction(pool, (client) => writeRows(client, TOPICS.vitalsObservations, rows(patient, 20)));
    const since = new Date(T0 - 1000).toISOString();
    await withTransaction(pool, async (client) => {
      await client.query('SET LOCAL enable_seqscan = off'); // a small table: the plan the planner takes on a large one
      const plan = async (sql: string, params: unknown[]) =>
        (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params)).rows.map((r) => r['QUERY PLAN']).join('\n');
      const one = await plan(
        `SELECT seq FROM vitals_observations WHERE ${seriesOf('$1', '$2')} AND effective_at >= $3 ORDER BY effective_at DESC LIMIT 5`,
        [patient, HR, since],
      );
      expect(one).toMatch(/InitPlan 1/);
      expect(one).toMatch(/Index Cond: \(\(series_id = \$0\) AND/);
      expect(one).not.toMatch(/(^|->)\s*(Incremental )?Sort\s+\(/m); // the index gives the order: no Sort node
      const among = await plan(`SELECT count(*) FROM vitals_observations WHERE ${seriesAmong('$1', '$2::text[]')} AND effective_at >= $3`, [
        patient,
        [HR, SPO2],
        since,
      ]);
      expect(among).toMatch(/InitPlan 1/);
      expect(among).toMatch(/Index Cond: \(\(series_id = ANY \(\$0\)\) AND/);
    });
  });
});
