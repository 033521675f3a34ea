/**
 * The append log's two contract indexes, alternatives measured side by side
 * (node --import tsx test/bench/indexes.bench.ts; issue 24 item 2, docs/adr/0016).
 *
 * The log needs an identity index (unique: a redelivered observation is stored once) and a series
 * index (history by patient, code and time). For each candidate design of those two, in one run on
 * one database (vitalis_bench_indexes, dropped and created afresh), this prints:
 *  - raw COPY: the candidate's rows into an index-free copy of the log's columns = the baseline,
 *    measured before and after every candidate's writes (the mean), so load swings on the shared
 *    box hit both alike;
 *  - indexed COPY: the same COPY into the log itself (partitioned, the candidate's indexes plus the
 *    log's others: 2 BRIN and the partial off-time position index);
 *  - store: the ingest's own write (apps/ingest/src/store.ts writeRows, COPY path: the log, its
 *    batch ranges and the audit row) into the log;
 *  - redelivery: a stored batch written again through writeRows (the identity conflict path: COPY
 *    aborts on the identity index, the staged INSERT ... ON CONFLICT DO NOTHING stores 0);
 *  - history: the vitals service's bucketed query (queryBuckets) for 24 h of one patient's 1 Hz
 *    heart rate in 1-minute buckets among BENCH_HISTORY_ROWS rows: the raw path (date_bin over the
 *    log through the series index) and the rollup path (what the API serves for an aligned day);
 *  - latest values: the service's latest-per-code query (queryLatest) for every numeric vital of
 *    the target, which records only heart rate (the other codes' probes find nothing: a series
 *    index without the code would walk all of the patient's rows for each);
 * every write in BENCH_BATCH-row transactions, each phase after a CHECKPOINT, ratios to raw COPY, in
 * wall-clock rows/s and in rows per CPU second of the PostgreSQL backend (read from /proc: the
 * bench needs the server on this machine), which other work on the shared cores moves far less.
 * Knobs: BENCH_HISTORY_ROWS (default 10 M; rows already in the log, yesterday), BENCH_WRITE_ROWS
 * (default 500k per write phase), BENCH_PATIENTS (500), BENCH_BATCH (5,000), BENCH_HISTORY_REQUESTS
 * (200, or BENCH_HISTORY_SECONDS per path), BENCH_CANDIDATES (comma list of names; default all),
 * BENCH_ROUNDS (1: every candidate once, in order; 2+ repeats the list, every other round backwards).
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createPool, migrate, withTransaction, type Pool, type PoolClient } from '@vitalis/db';
import { TOPICS } from '@vitalis/kafka';
import { NUMERIC_VITALS, type NumericVitalCode } from '@vitalis/schemas';
import { copyRows, writeRows, type StoredRow } from '../../apps/ingest/src/store';
import { queryBuckets, queryLatest } from '../../apps/gateway/src/vitals/history';
import { rollupPatients } from '../../apps/projector/src/rollups';
import { recreateBenchDatabase } from './database';
import { benchRows, keyed } from './rows';

const env = process.env;
const HISTORY_ROWS = Number(env.BENCH_HISTORY_ROWS ?? 10_000_000);
const WRITE_ROWS = Number(env.BENCH_WRITE_ROWS ?? 500_000);
const PATIENTS = Number(env.BENCH_PATIENTS ?? 500);
const BATCH = Number(env.BENCH_BATCH ?? 5_000);
const REDELIVERED = Math.min(20_000, WRITE_ROWS);
const HISTORY_REQUESTS = Number(env.BENCH_HISTORY_REQUESTS ?? 200);
const HISTORY_SECONDS = Number(env.BENCH_HISTORY_SECONDS ?? 20);
const ROUNDS = Number(env.BENCH_ROUNDS ?? 1);

const out = (line: string) => process.stdout.write(`${line}\n`);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/**
 * One design of the two indexes. `textCollation`: the collation of the patient_id and code columns
 * (the series index's text keys; a query uses an index only when their collations match, so "C"
 * there means the columns', not just the index's). `identity` / `series`: the CREATE INDEX tails.
 * `keepable`: false when the design breaks the contract (says why); measured to show what it costs.
 */
interface Candidate {
  name: string;
  textCollation: 'default' | 'C';
  identity: string;
  series: string;
  keepable?: string;
}

const TODAY_SERIES = '(patient_id, code, effective_at)';
const CANDIDATES: Candidate[] = [
  { name: 'today', textCollation: 'default', identity: '(device_id, seq, effective_at)', series: TODAY_SERIES },
  { name: 'identity-time-first', textCollation: 'default', identity: '(effective_at, device_id, seq)', series: TODAY_SERIES },
  { name: 'identity-C', textCollation: 'default', identity: '(device_id COLLATE "C", seq, effective_at)', series: TODAY_SERIES },
  { name: 'identity-time-first-C', textCollation: 'default', identity: '(effective_at, device_id COLLATE "C", seq)', series: TODAY_SERIES },
  {
    name: 'identity-hash',
    textCollation: 'default',
    identity: '(effective_at, seq, hashtextextended(device_id, 0))',
    series: TODAY_SERIES,
    keepable: 'no: two devices whose ids hash alike (64 bits) at the same time and seq would lose an observation',
  },
  { name: 'time-first-C + series-C', textCollation: 'C', identity: '(effective_at, device_id COLLATE "C", seq)', series: TODAY_SERIES },
  {
    name: 'time-first-C + series-C, fillfactor 100',
    textCollation: 'C',
    identity: '(effective_at, device_id COLLATE "C", seq) WITH (fillfactor = 100)',
    series: `${TODAY_SERIES} WITH (fillfactor = 100)`,
  },
  {
    name: 'time-first-C + series-C, fillfactor 70',
    textCollation: 'C',
    identity: '(effective_at, device_id COLLATE "C", seq) WITH (fillfactor = 70)',
    series: `${TODAY_SERIES} WITH (fillfactor = 70)`,
  },
  {
    name: 'time-first-C + series-C, no dedup',
    textCollation: 'C',
    identity: '(effective_at, device_id COLLATE "C", seq)',
    series: `${TODAY_SERIES} WITH (deduplicate_items = off)`,
  },
  {
    name: 'time-first-C + series without code',
    textCollation: 'default',
    identity: '(effective_at, device_id COLLATE "C", seq)',
    series: '(patient_id, effective_at)',
    keepable: "no: a read of one code walks the patient's other codes too (history, and the latest value of a rare code scans back far)",
  },
  {
    name: 'time-first-C + series BRIN',
    textCollation: 'default',
    identity: '(effective_at, device_id COLLATE "C", seq)',
    series: `USING brin ${TODAY_SERIES}`,
    keepable: "no: a patient's rows are spread over every block range, so history reads the whole day",
  },
];

const CODES = Object.keys(NUMERIC_VITALS) as NumericVitalCode[];
const makeRows = (pool: Pool, n: number, prefix: string) => keyed(pool, benchRows(n, prefix, { patients: PATIENTS }));

/**
 * CPU seconds the bench's PostgreSQL backend has used (the pool has one connection; /proc of the
 * local server, clock ticks of 10 ms). On 2 cores shared with other work, wall-clock rates swing
 * with the load; the backend's CPU per row does not, so both are printed.
 */
async function backendCpu(pool: Pool): Promise<{ pid: number; seconds: number }> {
  const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const pid = rows[0]!.pid;
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return { pid, seconds: (Number(fields[11]) + Number(fields[12])) / 100 };
}

/** A rate two ways: rows per wall-clock second, and rows per CPU second of the PostgreSQL backend. */
interface Rate {
  wall: number;
  cpu: number;
}

/** Rates of `write` over `rows` in BATCH-row transactions, after a CHECKPOINT. */
async function timed(pool: Pool, rows: StoredRow[], write: (client: PoolClient, batch: StoredRow[]) => Promise<unknown>): Promise<Rate> {
  await pool.query('CHECKPOINT');
  const cpu = await backendCpu(pool);
  const started = performance.now();
  for (let i = 0; i < rows.length; i += BATCH) await withTransaction(pool, (client) => write(client, rows.slice(i, i + BATCH)));
  const wall = rows.length / ((performance.now() - started) / 1000);
  const after = await backendCpu(pool);
  if (after.pid !== cpu.pid) throw new Error('the bench lost its database connection mid-phase');
  return { wall, cpu: rows.length / Math.max(0.01, after.seconds - cpu.seconds) };
}

// ---- the history data: one target series among HISTORY_ROWS rows, yesterday (as vitals.bench.ts) ----

const day = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) - 86_400_000);
const dayStart = day.toISOString();
const dayEnd = new Date(day.getTime() + 86_400_000).toISOString();
const TARGET = 'hist-target';

/**
 * Without the two indexes (each candidate builds its own). Every patient sends one vital at 1 Hz
 * for the day (the target: heart rate), written hour by hour with the patients interleaved, as a
 * live ingest lays rows out: a patient's rows are spread over the whole day's heap, not clustered
 * (clustered rows would flatter the series scan and make a BRIN on patient look selective).
 * ingested_at = effective_at: on-time rows, so the partial off-time index stays empty, as in life.
 */
async function generateHistory(pool: Pool) {
  const t = performance.now();
  const patients = Math.max(1, Math.round(HISTORY_ROWS / 86_400));
  for (let hour = 0; hour < 24; hour++) {
    await pool.query(
      `WITH k AS (SELECT p, id, code, vitals_series_assign(id, code) AS series_id
                    FROM generate_series(0, $3::int - 1) p,
                         LATERAL (SELECT CASE WHEN p = 0 THEN $4 ELSE 'hist-p' || p END AS id,
                                         CASE WHEN p = 0 THEN '8867-4' ELSE ($5::text[])[1 + p % 6] END AS code) x)
       INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, kafka_partition, kafka_offset, ingested_at, series_id)
       SELECT id, id || '-dev', s, code, at, CASE WHEN p = 0 THEN 60 + 20 * sin(s / 600.0) + (s % 7) ELSE 70 + (s % 13) END, '/min', p % 12, s, at, k.series_id
         FROM generate_series($2::int, $2::int + 3599) s, k,
              LATERAL (SELECT $1::timestamptz + s * interval '1 second' AS at) x
        ORDER BY s, p`,
      [dayStart, hour * 3600, patients, TARGET, CODES],
    );
  }
  await pool.query('VACUUM ANALYZE vitals_observations');
  out(
    `history data: ${fmt(patients * 86_400)} rows (${fmt(patients)} patients, one vital each at 1 Hz for 24 h, interleaved in time; the target's heart rate among them) in ${((performance.now() - t) / 1000).toFixed(0)} s`,
  );
}

// ---- one candidate ------------------------------------------------------------------------------

let collation: Candidate['textCollation'] = 'default';

async function apply(pool: Pool, c: Candidate): Promise<number> {
  await pool.query('DROP INDEX IF EXISTS vitals_observations_identity, vitals_observations_series');
  if (c.textCollation !== collation) {
    const to = c.textCollation === 'C' ? '"C"' : '"default"';
    await pool.query(
      `ALTER TABLE vitals_observations ALTER COLUMN patient_id TYPE text COLLATE ${to}, ALTER COLUMN code TYPE text COLLATE ${to}`,
    );
    collation = c.textCollation;
  }
  const t = performance.now();
  await pool.query(`CREATE UNIQUE INDEX vitals_observations_identity ON vitals_observations ${c.identity}`);
  await pool.query(`CREATE INDEX vitals_observations_series ON vitals_observations ${c.series}`);
  await pool.query('ANALYZE vitals_observations');
  return (performance.now() - t) / 1000;
}

/** The partitions the write phases filled (today's), emptied between candidates. */
async function clearWrites(pool: Pool) {
  const { rows } = await pool.query<{ p: string }>(
    "SELECT DISTINCT tableoid::regclass::text AS p FROM vitals_observations WHERE effective_at > now() - interval '6 hours'",
  );
  for (const { p } of rows) await pool.query(`TRUNCATE ${p}`);
  await pool.query('TRUNCATE vitals_ingest_batches');
}

/** Index bytes per row written, on the partition(s) the writes filled: what inserts (not a build) leave. */
async function bytesPerRow(pool: Pool, index: string, rowsWritten: number): Promise<number> {
  const { rows } = await pool.query<{ b: string }>(
    `SELECT coalesce(sum(pg_relation_size(t.relid)), 0)::text AS b
       FROM pg_partition_tree($1::regclass) t JOIN pg_index i ON i.indexrelid = t.relid
      WHERE t.isleaf AND EXISTS (SELECT 1 FROM vitals_observations v WHERE v.tableoid = i.indrelid AND v.effective_at > now() - interval '6 hours' LIMIT 1)`,
    [index],
  );
  return Number(rows[0]!.b) / rowsWritten;
}

interface Latency {
  p50: number;
  p99: number;
  n: number;
  buckets: number;
  source: string;
  /** Mean CPU of the backend per request (parallel workers, if any, not counted). */
  cpuMs: number;
}

/** The vitals service's bucketed history query, 24 h of the target's heart rate in 1-minute buckets from `from`. */
const bucketsOfDay = (pool: Pool, from: string) =>
  queryBuckets(pool, { patient: TARGET, code: '8867-4', from, to: dayEnd, bucket: '1m', limit: 5_000 });
/** The latest value of every numeric vital (the target records only heart rate: the other codes are probes that find nothing). */
const latestValues = async (pool: Pool) => ({ rows: await queryLatest(pool, TARGET, CODES), source: 'log' });

async function latency(pool: Pool, request: () => Promise<{ rows: unknown[]; source: string }>): Promise<Latency> {
  const times: number[] = [];
  let cpu = 0;
  let page = { rows: [] as unknown[], source: '' };
  const deadline = performance.now() + HISTORY_SECONDS * 1000;
  for (let i = 0; i < HISTORY_REQUESTS + 3 && (i < 23 || performance.now() < deadline); i++) {
    if (i === 3) cpu = (await backendCpu(pool)).seconds;
    const t = performance.now();
    page = await request();
    if (i >= 3) times.push(performance.now() - t); // 3 warm-up requests
  }
  const cpuMs = (((await backendCpu(pool)).seconds - cpu) * 1000) / times.length;
  times.sort((a, b) => a - b);
  return { p50: pct(times, 50), p99: pct(times, 99), n: times.length, buckets: page.rows.length, source: page.source, cpuMs };
}

interface Result {
  name: string;
  build: number;
  raw: Rate;
  indexed: Rate;
  store: Rate;
  redelivery: Rate;
  redeliveredStored: number;
  identityBytes: number;
  seriesBytes: number;
  historyRaw: Latency;
  historyRollup: Latency;
  latest: Latency;
}

/** The baseline: COPY into an index-free table with the log's columns, same rows and transactions. */
async function rawCopy(pool: Pool, tag: string): Promise<Rate> {
  await pool.query('DROP TABLE IF EXISTS bench_raw_copy');
  await pool.query('CREATE TABLE bench_raw_copy (LIKE vitals_observations INCLUDING DEFAULTS)');
  const rate = await timed(pool, await makeRows(pool, WRITE_ROWS, `raw-${tag}`), (client, batch) =>
    copyRows(client, 'bench_raw_copy', batch),
  );
  await pool.query('DROP TABLE bench_raw_copy');
  return rate;
}

async function measure(pool: Pool, c: Candidate): Promise<Result> {
  await clearWrites(pool);
  const build = await apply(pool, c);
  const tag = randomUUID().slice(0, 6);

  const rawBefore = await rawCopy(pool, tag);
  const indexed = await timed(pool, await makeRows(pool, WRITE_ROWS, `cp-${tag}`), (client, batch) =>
    copyRows(client, 'vitals_observations', batch),
  );
  const storeRows = await makeRows(pool, WRITE_ROWS, `st-${tag}`);
  const store = await timed(pool, storeRows, (client, batch) => writeRows(client, TOPICS.vitalsObservations, batch, 'copy'));
  let redeliveredStored = 0;
  const redelivery = await timed(pool, storeRows.slice(-REDELIVERED), async (client, batch) => {
    redeliveredStored += await writeRows(client, TOPICS.vitalsObservations, batch, 'copy');
  });
  const rawAfter = await rawCopy(pool, tag);
  const raw = { wall: (rawBefore.wall + rawAfter.wall) / 2, cpu: (rawBefore.cpu + rawAfter.cpu) / 2 };
  const identityBytes = await bytesPerRow(pool, 'vitals_observations_identity', 2 * WRITE_ROWS);
  const seriesBytes = await bytesPerRow(pool, 'vitals_observations_series', 2 * WRITE_ROWS);

  const historyRaw = await latency(pool, () => bucketsOfDay(pool, new Date(day.getTime() + 1).toISOString())); // unaligned: the raw path
  const historyRollup = await latency(pool, () => bucketsOfDay(pool, dayStart));
  const latest = await latency(pool, () => latestValues(pool));
  return {
    name: c.name,
    build,
    raw,
    indexed,
    store,
    redelivery,
    redeliveredStored,
    identityBytes,
    seriesBytes,
    historyRaw,
    historyRollup,
    latest,
  };
}

// ---- the run --------------------------------------------------------------------------------------

const chosen = env.BENCH_CANDIDATES ? env.BENCH_CANDIDATES.split(',').map((s) => s.trim()) : undefined;
const candidates = chosen ? CANDIDATES.filter((c) => chosen.includes(c.name)) : CANDIDATES;
if (candidates.length === 0) throw new Error(`BENCH_CANDIDATES matched none of: ${CANDIDATES.map((c) => c.name).join(', ')}`);

// One connection: every phase runs on one backend, whose CPU time is read from /proc.
const pool = createPool({ url: await recreateBenchDatabase('vitalis_bench_indexes'), max: 1, application: 'vitalis-bench-indexes' });
try {
  await migrate(pool);
  await pool.query('SELECT vitalis_ensure_vitals_partitions()');
  out(
    `indexes bench: ${new Date().toISOString()}, cores ${availableParallelism()}, ${fmt(HISTORY_ROWS)} rows in the log, ${fmt(WRITE_ROWS)} rows per write phase, ${PATIENTS} patients, ${fmt(BATCH)}-row transactions`,
  );
  await pool.query('DROP INDEX IF EXISTS vitals_observations_identity, vitals_observations_series');
  // The columns as 0002 made them (a later migration may have changed their collation).
  await pool.query(
    'ALTER TABLE vitals_observations ALTER COLUMN patient_id TYPE text COLLATE "default", ALTER COLUMN code TYPE text COLLATE "default"',
  );
  await generateHistory(pool);
  // Rollups for the target (the projector would do every patient; here the query is what is measured).
  await pool.query(`CREATE INDEX bench_rollup_source ON vitals_observations ${TODAY_SERIES}`);
  await rollupPatients(pool, [TARGET], dayStart, dayEnd);
  await pool.query('DROP INDEX bench_rollup_source');
  await pool.query(
    "UPDATE vitals_rollup_state SET complete_before = greatest(complete_before, now()) WHERE name IN ('rollup_1m', 'rollup_1h')",
  );

  await rawCopy(pool, 'warm-up'); // V8 compiles the COPY encoder before any candidate is timed
  const results: Result[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // odd rounds run the list backwards, so a drift in the machine's load does not favour one end
    for (const c of round % 2 === 0 ? candidates : [...candidates].reverse()) {
      const r = await measure(pool, c);
      results.push(r);
      const pc = (a: Rate, b: Rate) => `${((a.wall / b.wall) * 100).toFixed(0)}% wall, ${((a.cpu / b.cpu) * 100).toFixed(0)}% CPU`;
      out(
        `${c.name}: build ${r.build.toFixed(1)} s; raw COPY ${fmt(r.raw.wall)} rows/s (${fmt(r.raw.cpu)} per backend CPU-s), indexed COPY ${fmt(r.indexed.wall)} (${pc(r.indexed, r.raw)}), store ${fmt(r.store.wall)} (${pc(r.store, r.raw)}; of indexed: ${pc(r.store, r.indexed)}), redelivery ${fmt(r.redelivery.wall)} (${r.redeliveredStored} stored); history raw p50/p99 ${r.historyRaw.p50.toFixed(1)}/${r.historyRaw.p99.toFixed(1)} ms, ${r.historyRaw.cpuMs.toFixed(1)} ms CPU (${r.historyRaw.buckets} buckets, ${r.historyRaw.n} requests), rollup ${r.historyRollup.p50.toFixed(1)}/${r.historyRollup.p99.toFixed(1)} ms (${r.historyRollup.source}); latest values p50/p99 ${r.latest.p50.toFixed(1)}/${r.latest.p99.toFixed(1)} ms, ${r.latest.cpuMs.toFixed(1)} ms CPU`,
      );
    }
  }
  out('');
  out(
    'Ratios: wall-clock rows/s, then rows per CPU second of the PostgreSQL backend (steadier under load). Index sizes: bytes per row on the partition the writes filled.',
  );
  out(
    '| candidate | identity | series | raw COPY rows/s (wall / per CPU-s) | backend CPU µs/row: raw / indexed COPY / store | indexed COPY ÷ raw | store ÷ raw | store ÷ indexed COPY | redelivery rows/s (stored) | identity / series B/row | history raw p50 / p99 (CPU/req) | history rollup p99 | latest values p50 / p99 (CPU/req) | keep? |',
  );
  out('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  const us = (a: Rate) => (1e6 / a.cpu).toFixed(1);
  const r2 = (a: Rate, b: Rate) => `${(a.wall / b.wall).toFixed(2)} / ${(a.cpu / b.cpu).toFixed(2)}`;
  for (const r of results) {
    const c = CANDIDATES.find((x) => x.name === r.name)!;
    const cols = c.textCollation === 'C' ? ', columns patient_id and code COLLATE "C"' : '';
    out(
      `| ${r.name} | \`${c.identity}\` | \`${c.series}\`${cols} | ${fmt(r.raw.wall)} / ${fmt(r.raw.cpu)} | ${us(r.raw)} / ${us(r.indexed)} / ${us(r.store)} | ${r2(r.indexed, r.raw)} | ${r2(r.store, r.raw)} | ${r2(r.store, r.indexed)} | ${fmt(r.redelivery.wall)} (${r.redeliveredStored}) | ${r.identityBytes.toFixed(0)} / ${r.seriesBytes.toFixed(0)} | ${r.historyRaw.p50.toFixed(1)} / ${r.historyRaw.p99.toFixed(1)} ms (${r.historyRaw.cpuMs.toFixed(1)} ms) | ${r.historyRollup.p99.toFixed(1)} ms | ${r.latest.p50.toFixed(1)} / ${r.latest.p99.toFixed(1)} ms (${r.latest.cpuMs.toFixed(1)} ms) | ${c.keepable ?? 'yes'} |`,
    );
  }
} finally {
  await pool.end();
}
process.exit(0);
