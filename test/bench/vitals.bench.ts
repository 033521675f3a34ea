/**
 * Vitals pipeline research benchmark (plain script: node --import tsx test/bench/vitals.bench.ts;
 * `make bench-research` runs it). The figures of record for the ingest (production configuration,
 * CPU per component) are make bench's: copy.bench.ts and ingest.bench.ts. This one keeps the
 * in-process studies: write methods, the unpaced burst, traces overhead, frames A/B and history.
 * Prints, from one run on this machine:
 *  1. baseline: plain COPY of N observations into a fresh scratch table (no indexes) = the ceiling;
 *     and the two append-log write methods (COPY->stage->INSERT ON CONFLICT vs unnest INSERT) with
 *     the real indexes, in ingest-sized transactions;
 *  2. end to end: simulator --burst (child process) -> Kafka (12 partitions) -> ingest worker
 *     (in process) -> committed rows, sustained for BENCH_SECONDS; lag p50/p99 (commit time minus
 *     produce time); ratio to the COPY baseline; RSS of the ingest process over the run;
 *  2b. ingest capacity: a backlog of BENCH_BACKLOG observations produced first, then drained by the
 *     ingest alone (on 2 shared cores the live burst is bounded by the producer too);
 *  2c. frames (BENCH_FRAMES=1, the default): 2 and 2b again with device frames as monitors send them
 *     (ADR 0015: one record per device per tick, six numerics and a 1 s 250 Hz ECG chunk), and 2b
 *     with the same monitor data one record per observation (the A/B: what frames change);
 *  2d. traces (BENCH_TRACES observations, BENCH_ONLY=traces runs it alone): the same backlog drain
 *     with its live stage, traces off, then with a traceparent on every record only, then on (the
 *     simulator's sends and the ingest's batches and publishes exported over OTLP/HTTP to a local
 *     sink standing in for a collector), alternated over BENCH_TRACES_ROUNDS rounds: the drain rate
 *     and the ingest's CPU per observation (the steadier figure on shared cores);
 *  3. history: a 24 h 1 Hz series (86,400 rows) of one patient among BENCH_HISTORY_ROWS rows,
 *     bucketed to 1 minute through the REST API, raw path (date_bin) and rollup path: p50/p99 ms.
 * Uses its own database (vitalis_bench) and its own Kafka topic; it never touches shared data.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createPool, migrate, withTransaction, type Pool } from '@vitalis/db';
import { createKafka, TOPICS } from '@vitalis/kafka';
import { createLogger } from '@vitalis/log';
import { copyRows, writeRows, type WriteMethod } from '../../apps/ingest/src/store';
import { startIngest } from '../../apps/ingest/src/worker';
import { createLiveStage } from '../../apps/ingest/src/live/stage';
import { createRedis } from '@vitalis/redis';
import { createTracing, TRACING_OFF } from '@vitalis/tracing';
import { rollupPatients } from '../../apps/projector/src/rollups';
import { authHeaders } from '../helpers/auth';
import { startGateway } from '../helpers/gateway';
import { benchTopic, simulate } from './pipeline';
import { benchRows, keyed } from './rows';

const env = process.env;
const SECONDS = Number(env.BENCH_SECONDS ?? 60);
const HISTORY_ROWS = Number(env.BENCH_HISTORY_ROWS ?? 10_000_000);
const BASELINE_ROWS = Number(env.BENCH_BASELINE_ROWS ?? 200_000);
/** Observations produced before the ingest starts, to measure its drain rate alone (0 skips). */
const BACKLOG = Number(env.BENCH_BACKLOG ?? 3_000_000);
/** Partitions the ingest processes at once (INGEST_CONCURRENCY); its batches are group-committed. */
const CONCURRENCY = Number(env.INGEST_CONCURRENCY ?? 12);
const BROKERS = (env.KAFKA_BROKERS ?? '127.0.0.1:59092').split(',');
const ADMIN_URL = env.BENCH_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres';
const DB_NAME = env.BENCH_DATABASE ?? 'vitalis_bench';
const DB_URL = ADMIN_URL.replace(/\/[^/]*$/, `/${DB_NAME}`);
/** Enough requests that the p99 is not just the slowest one. */
const HISTORY_REQUESTS = Number(env.BENCH_HISTORY_REQUESTS ?? 300);
/** Run the frames scenario (2c) as well (BENCH_FRAMES=0 skips it). */
const FRAMES = env.BENCH_FRAMES !== '0';
/** Observations per run of the traces phase (off vs on), and its rounds (0 skips it). */
const TRACES = Number(env.BENCH_TRACES ?? 300_000);
const TRACES_ROUNDS = Number(env.BENCH_TRACES_ROUNDS ?? 2);
/** BENCH_ONLY=history runs the history phase alone (it reuses the rows generated earlier that day); BENCH_ONLY=frames the frames A/B drains alone, alternated twice; BENCH_ONLY=traces the traces phase alone. */
const ONLY = env.BENCH_ONLY;

const logger = createLogger('bench', 'error');
const out = (line: string) => process.stdout.write(`${line}\n`);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const mb = (bytes: number) => `${Math.round(bytes / 1_048_576)} MB`;

async function ensureDatabase(): Promise<Pool> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${DB_NAME}`);
  await admin.end();
  const pool = createPool({ url: DB_URL, max: 8, application: 'vitalis-bench' });
  await migrate(pool);
  await pool.query('SELECT vitalis_ensure_vitals_partitions()');
  return pool;
}

const makeRows = (pool: Pool, n: number, prefix: string, lateMs = 0) => keyed(pool, benchRows(n, prefix, { lateMs }));

// ---- 1. baseline and write methods ----------------------------------------------------------------

async function baseline(pool: Pool) {
  const rows = await makeRows(pool, BASELINE_ROWS, `base-${randomUUID().slice(0, 6)}`);
  await pool.query('DROP TABLE IF EXISTS bench_copy_baseline');
  await pool.query('CREATE TABLE bench_copy_baseline (LIKE vitals_observations INCLUDING DEFAULTS)');
  const started = performance.now();
  await withTransaction(pool, (client) => copyRows(client, 'bench_copy_baseline', rows));
  const copyRate = rows.length / ((performance.now() - started) / 1000);
  await pool.query('DROP TABLE bench_copy_baseline');
  out(`baseline: plain COPY of ${fmt(rows.length)} observations into a fresh table: ${fmt(copyRate)} rows/s`);
  // where the gap goes: the same COPY into a plain table carrying the append log's indexes
  // (identity + series B-trees, 2 BRIN, and the partial off-time position index)
  for (const [label, lateMs] of [
    ['on-time rows', 0],
    ['late rows (1 h old: the partial off-time index takes them)', 3_600_000],
  ] as const) {
    const indexedRows = await makeRows(pool, BASELINE_ROWS, `idx-${randomUUID().slice(0, 6)}`, lateMs);
    await pool.query('DROP TABLE IF EXISTS bench_copy_indexed');
    await pool.query('CREATE TABLE bench_copy_indexed (LIKE vitals_observations INCLUDING DEFAULTS INCLUDING INDEXES)');
    const indexedStarted = performance.now();
    for (let i = 0; i < indexedRows.length; i += 5_000) {
      await withTransaction(pool, (client) => copyRows(client, 'bench_copy_indexed', indexedRows.slice(i, i + 5_000)));
    }
    const indexedRate = indexedRows.length / ((performance.now() - indexedStarted) / 1000);
    await pool.query('DROP TABLE bench_copy_indexed');
    out(
      `  same COPY into an unpartitioned table with the append log's indexes, 5,000-row transactions, ${label}: ${fmt(indexedRate)} rows/s`,
    );
  }

  const methods: Record<WriteMethod, number> = { copy: 0, unnest: 0 };
  const BATCH = 5_000;
  // alternate the methods in rounds so cache warm-up and checkpoints hit both alike
  for (let round = 0; round < 2; round++) {
    for (const method of ['copy', 'unnest'] as WriteMethod[]) {
      const batchRows = await makeRows(pool, BASELINE_ROWS / 2, `m-${method}-${randomUUID().slice(0, 6)}`);
      const t = performance.now();
      for (let i = 0; i < batchRows.length; i += BATCH) {
        await withTransaction(pool, (client) => writeRows(client, TOPICS.vitalsObservations, batchRows.slice(i, i + BATCH), method));
      }
      methods[method] += batchRows.length / ((performance.now() - t) / 1000) / 2;
    }
  }
  out(
    `append log (partitioned, 2 B-tree + partial off-time index + 2 BRIN, ON CONFLICT DO NOTHING, on-time rows, ${fmt(BATCH)}-row transactions): copy+stage ${fmt(methods.copy)} rows/s, unnest INSERT ${fmt(methods.unnest)} rows/s -> ${methods.copy >= methods.unnest ? 'copy' : 'unnest'} is faster`,
  );
  // a redelivery of the same rows costs a conflict check per row
  const dup = await makeRows(pool, 20_000, `dup-${randomUUID().slice(0, 6)}`);
  await withTransaction(pool, (client) => writeRows(client, TOPICS.vitalsObservations, dup, 'copy'));
  const t = performance.now();
  const stored = await withTransaction(pool, (client) => writeRows(client, TOPICS.vitalsObservations, dup, 'copy'));
  out(`redelivered batch of ${fmt(dup.length)}: ${stored} stored, ${fmt(dup.length / ((performance.now() - t) / 1000))} rows/s`);
  return {
    copyRate,
    appendRate: Math.max(methods.copy, methods.unnest),
    best: (methods.copy >= methods.unnest ? 'copy' : 'unnest') as WriteMethod,
  };
}

// ---- 2. end to end ------------------------------------------------------------------------------

async function endToEnd(
  pool: Pool,
  rates: { copyRate: number; appendRate: number },
  method: WriteMethod,
  seconds: number,
  rate?: number,
  frames = false,
) {
  const kafka = createKafka({ brokers: BROKERS, clientId: 'vitalis-bench', logger });
  const admin = kafka.admin();
  await admin.connect();
  const { topic, drop } = await benchTopic(admin, 'e2e');

  // lag samples: reservoir of 200k (fixed memory, so RSS reflects the worker, not the bench)
  const RESERVOIR = 200_000;
  const lags: number[] = [];
  let seen = 0;
  let stored = 0;
  let firstCommit = 0;
  let lastCommit = 0;
  const worker = await startIngest({
    kafka,
    pool,
    logger,
    groupId: `vitalis-bench-${randomUUID().slice(0, 8)}`,
    topic,
    dlqTopic: `${topic}.dlq`,
    writeMethod: method,
    concurrency: CONCURRENCY,
    maxWaitTimeInMs: 100,
    onBatchCommitted: (info) => {
      stored += info.stored;
      if (!firstCommit) firstCommit = info.committedAt;
      lastCommit = info.committedAt;
      for (const ts of info.timestamps) {
        seen++;
        const lag = info.committedAt - ts;
        if (lags.length < RESERVOIR) lags.push(lag);
        else {
          const j = Math.floor(Math.random() * seen);
          if (j < RESERVOIR) lags[j] = lag;
        }
      }
    },
  });
  const rss: number[] = [];
  const rssTimer = setInterval(() => rss.push(process.memoryUsage().rss), 1_000);

  const prefix = `e2e-${randomUUID().slice(0, 6)}`;
  const started = Date.now();
  const produced = await simulate(topic, [
    '--burst',
    '1000000000',
    '--seconds',
    String(seconds),
    '--prefix',
    prefix,
    '--real-time',
    ...(rate ? ['--rate', String(rate)] : []),
    ...(frames ? ['--frames'] : []),
  ]);
  const storedAtProducerEnd = stored;
  // drain: wait until everything produced is committed (or 5 minutes)
  const drainDeadline = Date.now() + 300_000;
  while (stored < produced.sent && Date.now() < drainDeadline) await new Promise((r) => setTimeout(r, 200));
  clearInterval(rssTimer);
  await worker.stop();
  await drop();
  await admin.disconnect();

  const e2eRate = stored / ((lastCommit - started) / 1000);
  const windowRate = storedAtProducerEnd / ((produced.ms || seconds * 1000) / 1000);
  lags.sort((a, b) => a - b);
  const shape = frames ? 'frames of 6 numerics + a 1 s ECG chunk' : 'one observation per record';
  out(
    rate
      ? `steady state (${shape}, producer paced at ${fmt(rate)} obs/s for ${seconds} s, write=${method}):`
      : `end to end (${shape}, ${seconds} s burst as fast as the simulator can, 12 partitions, ingest concurrency ${CONCURRENCY}, write=${method}):`,
  );
  out(`  produced ${fmt(produced.sent)} (${fmt(produced.perSecond)} obs/s by the simulator), committed ${fmt(stored)}`);
  out(
    `  committed during the producing window: ${fmt(windowRate)} obs/s; overall first produce -> last commit: ${fmt(e2eRate)} obs/s (drain after producer stopped: ${((lastCommit - started) / 1000 - produced.ms / 1000).toFixed(1)} s)`,
  );
  if (!rate) {
    out(
      `  ratio to plain COPY baseline: ${((e2eRate / rates.copyRate) * 100).toFixed(0)}% (a research figure: the goals of record are make bench's, test/bench/run.ts)`,
    );
    out(`  ratio to the append-log write alone (same indexes, no Kafka): ${((e2eRate / rates.appendRate) * 100).toFixed(0)}%`);
  }
  out(
    `  ingest lag (commit - produce time, per record): p50 ${fmt(pct(lags, 50))} ms, p99 ${fmt(pct(lags, 99))} ms (${fmt(lags.length)} samples)`,
  );
  if (rss.length > 0) {
    const third = Math.max(1, Math.floor(rss.length / 3));
    const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    out(
      `  ingest process RSS: start ${mb(rss[0]!)}, min ${mb(Math.min(...rss))}, max ${mb(Math.max(...rss))}, first third avg ${mb(avg(rss.slice(0, third)))}, last third avg ${mb(avg(rss.slice(-third)))} (${rss.length} samples)`,
    );
  }
  return e2eRate;
}

// ---- 2b. ingest capacity: drain a backlog ------------------------------------------------------
// On a 2-core machine the simulator, Kafka, PostgreSQL and the ingest share the CPU, so the burst
// above is bounded by the producer as much as by the ingest. Here the observations are produced
// first, with no consumer running, and the ingest then drains them alone: its own capacity.

type Shape = 'numerics' | 'frames' | 'monitor-records';
const SHAPES: Record<Shape, { args: string[]; label: string }> = {
  numerics: { args: [], label: 'one numeric observation per record' },
  frames: { args: ['--frames'], label: 'frames of 6 numerics + a 1 s ECG chunk' },
  'monitor-records': {
    args: ['--monitor-records'],
    label: 'the same monitor data (6 numerics + a 1 s ECG chunk), one record per observation',
  },
};

/** The simulator (a child process) produces `count` observations to `topic` as fast as it can, and says how fast. */
function produceBacklog(topic: string, count: number, prefix: string, extraEnv: Record<string, string> = {}, args: string[] = []) {
  return simulate(topic, ['--burst', String(count), '--prefix', `${prefix}-${randomUUID().slice(0, 6)}`, '--real-time', ...args], {
    extraEnv,
  });
}

async function backlogDrain(
  pool: Pool,
  rates: { copyRate: number; appendRate: number },
  method: WriteMethod,
  count: number,
  shape: Shape = 'numerics',
) {
  const kafka = createKafka({ brokers: BROKERS, clientId: 'vitalis-bench', logger });
  const admin = kafka.admin();
  await admin.connect();
  const { topic, drop } = await benchTopic(admin, 'drain');
  const produced = await produceBacklog(topic, count, 'e2e', {}, SHAPES[shape].args);

  let stored = 0;
  let firstCommit = 0;
  let lastCommit = 0;
  const rss: number[] = [];
  const started = Date.now();
  const worker = await startIngest({
    kafka,
    pool,
    logger,
    groupId: `vitalis-bench-${randomUUID().slice(0, 8)}`,
    topic,
    dlqTopic: `${topic}.dlq`,
    writeMethod: method,
    concurrency: CONCURRENCY,
    maxWaitTimeInMs: 100,
    onBatchCommitted: (info) => {
      if (!firstCommit) firstCommit = info.committedAt;
      stored += info.stored;
      lastCommit = info.committedAt;
    },
  });
  const rssTimer = setInterval(() => rss.push(process.memoryUsage().rss), 1_000);
  const deadline = Date.now() + 600_000;
  while (stored < produced.sent && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  clearInterval(rssTimer);
  await worker.stop();
  await drop();
  await admin.disconnect();
  const rate = stored / ((lastCommit - started) / 1000);
  out(
    `ingest capacity (${SHAPES[shape].label}: backlog of ${fmt(produced.sent)} observations produced first at ${fmt(produced.perSecond)} obs/s, then drained by the ingest alone, write=${method}):`,
  );
  const steady = stored / ((lastCommit - firstCommit) / 1000);
  out(
    `  committed ${fmt(stored)} in ${((lastCommit - started) / 1000).toFixed(1)} s: ${fmt(rate)} obs/s including the group join (${((firstCommit - started) / 1000).toFixed(1)} s), ${fmt(steady)} obs/s from the first commit`,
  );
  if (Number.isFinite(rates.copyRate))
    out(
      `  ratio to plain COPY baseline: ${((rate / rates.copyRate) * 100).toFixed(0)}%; to the append-log write alone (same indexes, no Kafka, no JSON): ${((rate / rates.appendRate) * 100).toFixed(0)}%`,
    );
  if (rss.length > 0) out(`  ingest process RSS: min ${mb(Math.min(...rss))}, max ${mb(Math.max(...rss))} (${rss.length} samples)`);
}

// ---- 2c. traces: the ingest with traces off vs on -------------------------------------------------

/** off: no traces; headers: the simulator's records carry a traceparent, the ingest does not trace; on: both trace. */
type Mode = 'off' | 'headers' | 'on';

async function tracesOverhead(pool: Pool, method: WriteMethod, count: number, rounds: number) {
  // A local OTLP/HTTP sink standing in for a collector: takes every export, counts the bytes.
  const { createServer } = await import('node:http');
  let exports = 0;
  let exportedBytes = 0;
  const sink = createServer((req, res) => {
    req.on('data', (c: Buffer) => (exportedBytes += c.length));
    req.on('end', () => {
      exports += 1;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(sink.address() as import('node:net').AddressInfo).port}`;
  const redis = createRedis({ url: env.REDIS_URL ?? 'redis://127.0.0.1:56379', name: 'vitalis-bench' });
  await redis.connect();
  const rates: Record<Mode, number[]> = { off: [], headers: [], on: [] };
  // CPU of this process (the ingest) per observation drained: less swayed by the shared cores than the rate
  const cpu: Record<Mode, number[]> = { off: [], headers: [], on: [] };
  try {
    for (let round = 0; round < rounds; round++) {
      for (const mode of ['off', 'headers', 'on'] as const) {
        const kafka = createKafka({ brokers: BROKERS, clientId: 'vitalis-bench', logger });
        const admin = kafka.admin();
        await admin.connect();
        const { topic, drop } = await benchTopic(admin, 'traces');
        const traced = mode === 'off' ? {} : { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint };
        const produced = await produceBacklog(topic, count, 'tr', { OTEL_EXPORTER_OTLP_ENDPOINT: '', ...traced });
        const tracing = mode === 'on' ? createTracing(traced, { app: 'ingest' }) : TRACING_OFF;
        const live = createLiveStage({ pool, redis, topic, logger, alerts: false, tracing });
        let stored = 0;
        let firstCommit = 0;
        let lastCommit = 0;
        const cpuStart = process.cpuUsage();
        const worker = await startIngest({
          kafka,
          pool,
          logger,
          groupId: `vitalis-bench-${randomUUID().slice(0, 8)}`,
          topic,
          dlqTopic: `${topic}.dlq`,
          writeMethod: method,
          concurrency: CONCURRENCY,
          maxWaitTimeInMs: 100,
          afterCommit: live.afterCommit,
          tracing,
          onBatchCommitted: (info) => {
            if (!firstCommit) firstCommit = info.committedAt;
            stored += info.stored;
            lastCommit = info.committedAt;
          },
        });
        const deadline = Date.now() + 600_000;
        while (stored < produced.sent && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
        await worker.stop();
        live.stop();
        await tracing.shutdown(); // the last export counts too
        const used = process.cpuUsage(cpuStart);
        cpu[mode].push((used.user + used.system) / stored);
        await drop();
        await admin.disconnect();
        rates[mode].push(stored / ((lastCommit - firstCommit) / 1000));
      }
    }
  } finally {
    redis.disconnect();
    sink.close();
  }
  const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  out(
    `traces overhead (backlog of ${fmt(count)} drained by the ingest with its live stage, alerts off, write=${method}, ${rounds} alternated rounds; headers = the simulator's records carry a traceparent, the ingest does not trace; on = simulator sends, ingest batches and publishes exported over OTLP/HTTP to a local sink):`,
  );
  const line = (label: string, xs: Record<Mode, number[]>, show: (x: number) => string, unit: string, better: 'higher' | 'lower') => {
    const base = avg(xs.off);
    const parts = (['off', 'headers', 'on'] as const).map((m) => {
      const a = avg(xs[m]);
      const change = m === 'off' ? '' : ` (${(((better === 'higher' ? base - a : a - base) / base) * 100).toFixed(1)}% overhead)`;
      return `${m} ${xs[m].map(show).join(', ')} ${unit}, avg ${show(a)}${change}`;
    });
    out(`  ${label}: ${parts.join('; ')}`);
  };
  line('drain rate', rates, fmt, 'obs/s', 'higher');
  line('ingest CPU per observation', cpu, (c) => c.toFixed(2), 'µs', 'lower');
  out(`  exported: ${fmt(exports)} OTLP requests, ${fmt(exportedBytes / 1024)} KiB`);
}

// ---- 3. history -----------------------------------------------------------------------------------

async function history(pool: Pool) {
  const day = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) - 86_400_000);
  const dayStart = day.toISOString();
  const dayEnd = new Date(day.getTime() + 86_400_000).toISOString();
  const tag = `${dayStart.slice(0, 10).replaceAll('-', '')}-${HISTORY_ROWS}`;
  const target = `hist-${tag}-target`;
  const { rows: have } = await pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM vitals_observations WHERE patient_id LIKE 'hist-' || $1 || '-%'",
    [tag],
  );
  if (have[0]!.n !== HISTORY_ROWS) {
    out(
      `history: generating ${fmt(HISTORY_ROWS)} rows (one 24 h 1 Hz target series + ${fmt(HISTORY_ROWS - 86_400)} rows of other patients) ...`,
    );
    await pool.query("DELETE FROM vitals_observations WHERE patient_id LIKE 'hist-%'");
    const t = performance.now();
    await pool.query(
      `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, kafka_partition, kafka_offset, series_id)
       SELECT $1, $1 || '-dev', s, '8867-4', $2::timestamptz + s * interval '1 second', 60 + 20 * sin(s / 600.0) + (s % 7), '/min', 0, s, (SELECT vitals_series_assign($1, '8867-4'))
         FROM generate_series(0, 86399) s`,
      [target, dayStart],
    );
    const noise = HISTORY_ROWS - 86_400;
    const noisePatients = Math.ceil(noise / 86_400);
    const STEP = 10; // patients per statement: progress and bounded transactions
    for (let p = 0; p < noisePatients; p += STEP) {
      const upto = Math.min(noisePatients, p + STEP);
      const left = noise - p * 86_400;
      await pool.query(
        `WITH k AS (SELECT p, vitals_series_assign('hist-' || $1 || '-p' || p, '8867-4') AS series_id FROM generate_series($3::int, $4::int - 1) p)
         INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, kafka_partition, kafka_offset, series_id)
         SELECT 'hist-' || $1 || '-p' || p, 'hist-' || $1 || '-p' || p || '-dev', s, '8867-4', $2::timestamptz + s * interval '1 second', 70 + (s % 13), '/min', p % 12, s, k.series_id
           FROM k, generate_series(0, 86399) s
          WHERE (p - $3) * 86400 + s < $5`,
        [tag, dayStart, p, upto, left],
      );
    }
    await pool.query('ANALYZE vitals_observations');
    out(`  generated in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  } else {
    out(`history: reusing ${fmt(HISTORY_ROWS)} rows generated earlier for ${dayStart.slice(0, 10)}`);
  }
  // rollups for the target only (the projector would do all patients; here the query is what is measured)
  await rollupPatients(pool, [target], dayStart, dayEnd);
  await pool.query(
    "UPDATE vitals_rollup_state SET complete_before = greatest(complete_before, now()) WHERE name IN ('rollup_1m', 'rollup_1h')",
  );

  const gw = await startGateway({ DATABASE_URL: DB_URL, LOG_LEVEL: 'error' });
  try {
    const headers = await authHeaders(gw.url, ['read:vitals'], DB_URL);
    const measure = async (label: string, from: string, to: string) => {
      const times: number[] = [];
      let buckets = 0;
      let source = '';
      for (let i = 0; i < HISTORY_REQUESTS + 3; i++) {
        const t = performance.now();
        const res = await fetch(
          `${gw.url}/api/v1/vitals?patient=${target}&from=${from}&to=${to}&code=8867-4&bucket=1m&agg=avg,min,max,count,last&limit=5000`,
          { headers },
        );
        const body = (await res.json()) as { data: unknown[]; source: string };
        if (res.status !== 200) throw new Error(`history request failed: ${res.status} ${JSON.stringify(body)}`);
        if (i >= 3) times.push(performance.now() - t); // 3 warm-up requests
        buckets = body.data.length;
        source = body.source;
      }
      times.sort((a, b) => a - b);
      out(
        `  ${label}: ${buckets} one-minute buckets (source ${source}): p50 ${pct(times, 50).toFixed(1)} ms, p99 ${pct(times, 99).toFixed(1)} ms over ${times.length} requests`,
      );
    };
    out(`history API: 24 h of 1 Hz heart rate (86,400 rows) among ${fmt(HISTORY_ROWS)} rows, bucket=1m via GET /api/v1/vitals:`);
    await measure('rollup path (aligned range)', dayStart, dayEnd);
    await measure('raw path (unaligned range, date_bin over the append log)', new Date(day.getTime() + 1).toISOString(), dayEnd);
  } finally {
    await gw.close();
  }
}

const pool = await ensureDatabase();
out(
  `vitals bench: ${new Date().toISOString()}, BENCH_SECONDS=${SECONDS}, BENCH_HISTORY_ROWS=${HISTORY_ROWS}, database ${DB_NAME}, cores ${(await import('node:os')).availableParallelism()}`,
);
try {
  if (ONLY !== undefined && ONLY !== 'history' && ONLY !== 'frames' && ONLY !== 'traces')
    throw new Error(`BENCH_ONLY=${ONLY}: only "history", "frames" or "traces" can run alone`);
  if (ONLY === undefined) await ingestPhases(pool);
  if (ONLY === 'frames') await framesAb(pool);
  if ((ONLY === undefined || ONLY === 'traces') && TRACES > 0 && TRACES_ROUNDS > 0)
    await tracesOverhead(pool, (env.INGEST_WRITE_METHOD as WriteMethod | undefined) ?? 'copy', TRACES, TRACES_ROUNDS);
  if (HISTORY_ROWS > 0 && ONLY !== 'frames' && ONLY !== 'traces') await history(pool);
} finally {
  await pool.end();
}
process.exit(0);

/** The same monitor data as frames and as one record per observation, drained alternately (ABAB: load swings hit both). */
async function framesAb(pool: Pool) {
  const rates = { copyRate: NaN, appendRate: NaN };
  for (let round = 0; round < 2; round++) {
    await backlogDrain(pool, rates, 'copy', BACKLOG, 'frames');
    await backlogDrain(pool, rates, 'copy', BACKLOG, 'monitor-records');
  }
  await pool.query("DELETE FROM vitals_observations WHERE patient_id LIKE 'e2e-%'");
}

async function ingestPhases(pool: Pool) {
  const { copyRate, appendRate, best } = await baseline(pool);
  const method = (env.INGEST_WRITE_METHOD as WriteMethod | undefined) ?? best;
  const sustained = await endToEnd(pool, { copyRate, appendRate }, method, SECONDS);
  // lag without a backlog: the producer paced at 60% of the sustained rate
  const steadyRate = Number(env.BENCH_STEADY_RATE ?? Math.round((sustained * 0.6) / 1000) * 1000);
  if (steadyRate > 0) await endToEnd(pool, { copyRate, appendRate }, method, Math.min(SECONDS, 30), steadyRate);
  if (BACKLOG > 0) await backlogDrain(pool, { copyRate, appendRate }, method, BACKLOG);
  if (FRAMES) {
    await endToEnd(pool, { copyRate, appendRate }, method, SECONDS, undefined, true);
    if (BACKLOG > 0) {
      await backlogDrain(pool, { copyRate, appendRate }, method, BACKLOG, 'frames');
      await backlogDrain(pool, { copyRate, appendRate }, method, BACKLOG, 'monitor-records');
    }
  }
  // the e2e rows are only needed for counting: drop them so reruns stay comparable
  await pool.query(
    "DELETE FROM vitals_observations WHERE patient_id LIKE 'e2e-%' OR patient_id LIKE 'base-%' OR patient_id LIKE 'm-%' OR patient_id LIKE 'dup-%'",
  );
}
