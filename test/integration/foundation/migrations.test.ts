import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createPool, migrate, readMigrations, storageMode } from '@vitalis/db';
import { testEnv } from '../../helpers/env';

const pool = createPool({ url: testEnv.DATABASE_URL, max: 4 });
afterAll(async () => pool.end());

describe('migrations', () => {
  it('are recorded once each, with checksums, and re-running applies nothing', async () => {
    const files = await readMigrations();
    expect(await migrate(pool)).toEqual([]);
    const { rows } = await pool.query('SELECT version, checksum FROM schema_migrations ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual(files.map((f) => f.version));
    expect(rows.map((r) => r.checksum)).toEqual(files.map((f) => f.checksum));
  });

  it('concurrent starters apply each migration once (advisory lock)', async () => {
    const results = await Promise.all([migrate(pool), migrate(pool), migrate(pool)]);
    expect(results.flat()).toEqual([]);
  });

  it('picks the storage engine by what the server has', async () => {
    const { rows } = await pool.query("SELECT count(*)::int AS n FROM pg_available_extensions WHERE name = 'timescaledb'");
    expect(await storageMode(pool)).toBe(rows[0].n > 0 ? 'timescaledb' : 'partitioned');
  });
});

describe('vitals append log storage (plain PostgreSQL path)', () => {
  it('has daily partitions around today and a BRIN index on time', async (ctx) => {
    if ((await storageMode(pool)) === 'timescaledb') ctx.skip(); // hypertable path: chunks are Timescale's job
    const { rows } = await pool.query(`
      SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'vitals_observations'::regclass ORDER BY 1`);
    const today = new Date().toISOString().slice(0, 10).replaceAll('-', '');
    expect(rows.map((r) => r.relname)).toContain(`vitals_observations_${today}`);
    expect(rows.map((r) => r.relname)).toContain('vitals_observations_default');
    const idx = await pool.query(
      "SELECT indexdef FROM pg_indexes WHERE tablename = 'vitals_observations' AND indexdef ILIKE '%USING brin (effective_at)%'",
    );
    expect(idx.rowCount).toBe(1);
  });

  it('never loses a row outside the partitions: it parks in default and moves when its day is created', async (ctx) => {
    if ((await storageMode(pool)) === 'timescaledb') ctx.skip();
    const device = `dev-${randomUUID()}`;
    // 400 days ago: far outside any partition that exists.
    const when = new Date(Date.now() - 400 * 86_400_000);
    const day = when.toISOString().slice(0, 10).replaceAll('-', '');
    await pool.query(
      `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, kafka_partition, kafka_offset, series_id)
       VALUES ('pat-test', $1, 1, '8867-4', $2, 72, '/min', 0, 0, vitals_series_assign('pat-test', '8867-4'))`,
      [device, when],
    );
    const parked = await pool.query('SELECT count(*)::int AS n FROM vitals_observations_default WHERE device_id = $1', [device]);
    expect(parked.rows[0].n).toBe(1);

    const partitions = async () =>
      new Set(
        (
          await pool.query("SELECT inhrelid::regclass::text AS name FROM pg_inherits WHERE inhparent = 'vitals_observations'::regclass")
        ).rows.map((r) => r.name as string),
      );
    const before = await partitions();
    await pool.query('SELECT vitalis_ensure_vitals_partitions(401, 0)');
    try {
      const moved = await pool.query(`SELECT count(*)::int AS n FROM vitals_observations_${day} WHERE device_id = $1`, [device]);
      expect(moved.rows[0].n).toBe(1);
      const total = await pool.query('SELECT count(*)::int AS n FROM vitals_observations WHERE device_id = $1', [device]);
      expect(total.rows[0].n).toBe(1);
    } finally {
      // Drop the year of partitions this test made, so the next run parks its row in default again.
      for (const name of await partitions()) if (!before.has(name)) await pool.query(`DROP TABLE ${name}`);
    }
  });

  it('stores a redelivered observation once (device, seq, time)', async () => {
    const device = `dev-${randomUUID()}`;
    const insert = `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, kafka_partition, kafka_offset, series_id)
      VALUES ('pat-test', $1, 7, '59408-5', '2026-01-01T00:00:00Z', 97, '%', 0, 1, vitals_series_assign('pat-test', '59408-5')) ON CONFLICT DO NOTHING`;
    await pool.query(insert, [device]);
    await pool.query(insert, [device]);
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM vitals_observations WHERE device_id = $1', [device]);
    expect(rows[0].n).toBe(1);
  });

  it('keys the identity on (time, device, seq), time first (0020): the same triple is stored once, any other is a row of its own', async () => {
    const { rows: defs } = await pool.query<{ def: string; unique: boolean }>(
      "SELECT pg_get_indexdef(indexrelid) AS def, indisunique AS unique FROM pg_index WHERE indexrelid = 'vitals_observations_identity'::regclass",
    );
    expect(defs[0]!.unique).toBe(true);
    expect(defs[0]!.def).toMatch(/\(effective_at, device_id COLLATE "C", seq\)$/);
    const [a, b] = [`dev-${randomUUID()}`, `dev-${randomUUID()}`];
    const at = '2026-01-02T00:00:00Z';
    const insert = (device: string, seq: number, when: string) =>
      pool.query(
        `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, kafka_partition, kafka_offset, series_id)
         VALUES ('pat-test', $1, $2, '8867-4', $3, 70, '/min', 0, 1, vitals_series_assign('pat-test', '8867-4')) ON CONFLICT DO NOTHING`,
        [device, seq, when],
      );
    expect((await insert(a, 1, at)).rowCount).toBe(1);
    expect((await insert(a, 1, at)).rowCount).toBe(0); // the redelivery
    expect((await insert(b, 1, at)).rowCount).toBe(1); // another device, same seq and instant
    expect((await insert(a, 2, at)).rowCount).toBe(1); // same device and instant, next seq
    expect((await insert(a, 1, '2026-01-02T00:00:01Z')).rowCount).toBe(1); // same seq later: the key holds the time
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM vitals_observations WHERE device_id = ANY($1)', [[a, b]]);
    expect(rows[0].n).toBe(4);
  });

  it('the event store and audit trail are append-only', async () => {
    await pool.query("INSERT INTO audit_events (action, outcome, detail) VALUES ('test.append-only', 'success', '{}')");
    await expect(pool.query("DELETE FROM audit_events WHERE action = 'test.append-only'")).rejects.toThrow(/append-only/);
    await expect(pool.query("UPDATE events SET type = 'x' WHERE false")).resolves.toBeTruthy(); // no row, no trigger
  });
});
