/**
 * Live vitals benchmark (plain script: node --import tsx test/bench/live.bench.ts). One run:
 *  - a private 12-partition topic and a database of its own (dropped afterwards); the ingest
 *    (child process, live stage on: alerts + Redis fan-out) and ONE gateway (child process);
 *  - BENCH_SSE (2,000) SSE subscribers and BENCH_WS (500) WebSocket subscribers, one patient each,
 *    in BENCH_CLIENT_THREADS (2) worker threads (live-subscribers.ts), off the producer's loop;
 *  - BENCH_LIVE_SCENARIO=ward instead: clinicians, each subscribed to a ward of 16-32 patients
 *    (overlapping wards; BENCH_SSE (200) over SSE, BENCH_WS (50) over WebSocket) out of
 *    BENCH_PATIENTS (2,500) patients: a batch then brings a subscriber several events, the case
 *    the gateway's one-write-per-subscriber-per-batch is for (SSE events per read are printed);
 *  - BENCH_RATE (20,000) observations/s produced in ticks of BENCH_TICK_MS (50), effective_at =
 *    send time: BENCH_WARMUP_SECONDS (5) not recorded, then BENCH_SECONDS (30) measured.
 * Prints: delivery latency device -> subscriber p50/p99 and the baselines measured in the same run,
 * device -> append log (ingested_at - effective_at: what any consumer of the log must wait) and
 * device -> fan-out message (a plain Redis subscriber), as ratios; messages/s delivered; gateway
 * RSS (peak); delivered/expected (every watcher of each produced observation; must be 1.0), duplicates and out-of-order deliveries; where the
 * machine's CPU went (apps, bench, PostgreSQL, Kafka, Redis). Never asserts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { CompressionTypes, type Admin } from 'kafkajs';
import { createPool, migrate } from '@vitalis/db';
import { createKafka } from '@vitalis/kafka';
import { createLogger } from '@vitalis/log';
import { decodeBatch, liveChannel } from '@vitalis/live';
import { createRedis } from '@vitalis/redis';
import { clientCredentialsToken, registerClient } from '../helpers/auth';
import { freePort } from '../helpers/processes';
import type { FromParent, SubscriberShare, ToParent } from './live-subscribers';
import { cpuOf, cpuUsedBetween, loadAverage, machineCpu, rssOf, serversCpu, type ServerName } from './proc-cpu';
import { cpuFigures, figure } from './report';
import { profileFlags } from './pipeline';
import { FRAME_OBSERVATIONS, monitorFrameJson } from './rows';

const env = process.env;
const SCENARIO = env.BENCH_LIVE_SCENARIO === 'ward' ? 'ward' : 'single';
const WARD = SCENARIO === 'ward';
const SSE = Number(env.BENCH_SSE ?? (WARD ? 200 : 2_000));
const WS = Number(env.BENCH_WS ?? (WARD ? 50 : 500));
/** Patients produced for: one per subscriber, or BENCH_PATIENTS shared by the wards. */
const PATIENTS = WARD ? Number(env.BENCH_PATIENTS ?? 2_500) : SSE + WS;
const RATE = Number(env.BENCH_RATE ?? 20_000);
const SECONDS = Number(env.BENCH_SECONDS ?? 30);
const BROKERS = (env.KAFKA_BROKERS ?? '127.0.0.1:59092').split(',');
/**
 * A database of the run's own, dropped afterwards: the figures must not depend on what earlier
 * runs left (a 28 M-row partition from vitals.bench.ts gets an autovacuum pass in the middle of
 * one run and not the next). The log at scale is what vitals.bench.ts measures.
 */
const RUN_ID = randomUUID().slice(0, 8);
const ADMIN_URL = (env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/vitalis_bench').replace(/\/[^/]*$/, '/postgres');
const DB_NAME = `vitalis_bench_live_${RUN_ID}`;
const DB_URL = ADMIN_URL.replace(/\/postgres$/, `/${DB_NAME}`);

/** Runs `fn` on a connection to the server's `postgres` database (to create and drop databases). */
async function withAdminDb<T>(fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}
const PARTITIONS = 12;
/**
 * BENCH_LIVE_FRAMES=1: device frames as monitors send them (ADR 0015), each six numerics and a 1 s
 * 250 Hz ECG chunk (the simulator's waveform), BENCH_RATE observations/s in all, ECG included.
 */
const FRAMES = env.BENCH_LIVE_FRAMES === '1';
/**
 * BENCH_LIVE_ALARMS=storm (frames only): every frame's numerics in alarm (rows.ts monitorFrameJson
 * 'storm'), so all patients raise several alarms in the first seconds: what an alarm storm costs
 * the live path. Default: a ward's stable readings.
 */
const READINGS = env.BENCH_LIVE_ALARMS === 'storm' ? 'storm' : 'ward';
const TICK_MS = Number(env.BENCH_TICK_MS ?? 50);
const WARMUP = Number(env.BENCH_WARMUP_SECONDS ?? 5);

const out = (line: string) => process.stdout.write(`${line}\n`);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const pct = (sorted: Float64Array, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The apps this run started: stopped whenever the bench exits, also on an error. */
const children: ChildProcess[] = [];
process.on('exit', () => children.forEach((c) => c.exitCode === null && c.signalCode === null && c.kill('SIGTERM')));

function startChild(name: string, script: string, extra: Record<string, string>): ChildProcess {
  // BENCH_CPU_PROF / BENCH_HEAP_PROF=<dir>: V8 profiles of the gateway and the ingest (pipeline.ts profileFlags).
  const child = spawn(process.execPath, [...profileFlags(), '--import', 'tsx', script], {
    env: { ...env, DATABASE_URL: DB_URL, LOG_LEVEL: 'warn', KAFKA_BROKERS: BROKERS.join(','), ...extra },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.once('exit', (code) => code !== 0 && code !== null && out(`${name} exited with ${code}`));
  children.push(child);
  return child;
}

/** Subscribers run in BENCH_CLIENT_THREADS worker threads (live-subscribers.ts), never on the producer's loop. */
const CLIENT_THREADS = Math.max(1, Number(env.BENCH_CLIENT_THREADS ?? 2));

interface ClientThread {
  worker: Worker;
  delivered: number;
}

/**
 * What each subscriber watches: patient i alone (single), or clinician i's ward: 16-32 consecutive
 * patients from i * 24 (wards overlap, as clinicians of one unit share patients).
 */
function subscriberPatients(patients: string[]): string[][] {
  if (!WARD) return patients.map((p) => [p]);
  return Array.from({ length: SSE + WS }, (_, i) => {
    const size = 16 + ((i * 7) % 17);
    return Array.from({ length: Math.min(size, patients.length) }, (_, k) => patients[(i * 24 + k) % patients.length]!);
  });
}

function startClients(port: number, token: string, watched: string[][], fanOut: number): Promise<ClientThread[]> {
  const threads: Promise<ClientThread>[] = [];
  for (let t = 0; t < CLIENT_THREADS; t++) {
    // Subscribers 0 .. SSE-1 are SSE, the rest WebSocket; thread t takes every CLIENT_THREADS-th.
    const mine = (from: number, to: number) => watched.slice(from, to).filter((_, i) => (from + i) % CLIENT_THREADS === t);
    const share: SubscriberShare = {
      port,
      token,
      sse: mine(0, SSE),
      ws: mine(SSE, watched.length),
      capacity: Math.ceil((RATE * (SECONDS + 30) * fanOut) / CLIENT_THREADS) + 1_000,
    };
    // tsx's loader does not reach worker threads by itself (Node 20): the worker imports through it.
    const url = JSON.stringify(new URL('./live-subscribers.ts', import.meta.url).href);
    const worker = new Worker(`import('tsx/esm/api').then(({ tsImport }) => tsImport(${url}, ${url}))`, { eval: true, workerData: share });
    const thread: ClientThread = { worker, delivered: 0 };
    threads.push(
      new Promise((resolve, reject) => {
        worker.once('error', reject);
        worker.on('message', (m: ToParent) => {
          if (m.type === 'ready') resolve(thread);
          else if (m.type === 'error') reject(new Error(m.message));
          else if (m.type === 'progress') thread.delivered = m.delivered;
        });
      }),
    );
  }
  return Promise.all(threads);
}

const tell = (threads: ClientThread[], m: FromParent) => threads.forEach((t) => t.worker.postMessage(m));

function collect(thread: ClientThread): Promise<Extract<ToParent, { type: 'report' }>> {
  return new Promise((resolve) => {
    const onMessage = (m: ToParent) => {
      if (m.type !== 'report') return;
      thread.worker.off('message', onMessage);
      resolve(m);
    };
    thread.worker.on('message', onMessage);
    thread.worker.postMessage({ type: 'report' } satisfies FromParent);
  });
}

async function main() {
  const liveDatabases = await dropLeftoverDatabases();
  await withAdminDb((admin) => admin.query(`CREATE DATABASE ${DB_NAME}`));
  // the apps refuse to start on an unmigrated database (they never migrate it themselves)
  const owner = createPool({ url: DB_URL, max: 1, application: 'vitalis-bench-live-migrate' });
  await migrate(owner);
  await owner.end();
  const logger = createLogger('bench', 'error');
  const kafka = createKafka({ brokers: BROKERS, clientId: 'vitalis-bench-live', logger });
  const admin = kafka.admin();
  await admin.connect();
  await deleteLeftoverTopics(admin, liveDatabases);
  const id = RUN_ID;
  const topic = `vitals.bench.live.${id}`;
  await admin.createTopics({
    waitForLeaders: true,
    topics: [
      { topic, numPartitions: PARTITIONS, replicationFactor: 1 },
      { topic: `${topic}.dlq`, numPartitions: 1, replicationFactor: 1 },
    ],
  });

  const port = await freePort();
  // metrics on, as in production, each app on a port of its own (not the defaults a running demo holds)
  const gateway = startChild('gateway', 'apps/gateway/src/main.ts', {
    PORT: String(port),
    METRICS_PORT: String(await freePort()),
    LIVE_TOPIC: topic,
    DATABASE_POOL_MAX: '20',
  });
  // BENCH_INGESTS (1) ingest instances in one consumer group share the topic's partitions.
  const metricsPorts = await Promise.all(Array.from({ length: Math.max(1, Number(env.BENCH_INGESTS ?? 1)) }, () => freePort()));
  const ingests = metricsPorts.map((metricsPort) =>
    startChild('ingest', 'apps/ingest/src/main.ts', {
      METRICS_PORT: String(metricsPort),
      PROBE_PORT: '0',
      INGEST_TOPIC: topic,
      INGEST_DLQ_TOPIC: `${topic}.dlq`,
      INGEST_GROUP_ID: `vitalis-bench-live-${id}`,
      INGEST_MAX_WAIT_MS: '20',
      INGEST_CONCURRENCY: env.BENCH_INGEST_CONCURRENCY ?? String(PARTITIONS),
    }),
  );
  const ingestCpu = () => ingests.reduce((sum, c) => sum + cpuOf(c.pid!), 0);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (
      await fetch(`${base}/api/v1/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 300) throw new Error('gateway did not start');
    await sleep(200);
  }
  const client = await registerClient(base, ['read:vitals'], 'vitalis-bench-live', 'system', DB_URL);
  const token = await clientCredentialsToken(base, client);

  const n = PATIENTS;
  const patients = Array.from({ length: n }, (_, i) => `bench-live-${id}-${i}`);
  const watched = subscriberPatients(patients);
  // how many subscribers receive each patient's observations (what delivered must add up to)
  const index = new Map(patients.map((p, i) => [p, i]));
  const watchers = new Int32Array(n);
  for (const list of watched) for (const p of list) watchers[index.get(p)!]! += 1;
  const fanOut = watchers.reduce((a, b) => a + b, 0) / n;
  const t0 = Date.now();
  const clients = await startClients(port, token, watched, fanOut);
  const deliveredSoFar = () => clients.reduce((sum, t) => sum + t.delivered, 0);
  await sleep(1_000); // every subscription has finished its initial read of the log
  const rssIdle = rssOf(gateway.pid!);
  const who = WARD
    ? `clinicians (ward scenario: ${fmt(n)} patients, 16-32 per clinician, ${fanOut.toFixed(2)} subscribers per patient)`
    : 'subscribers (one patient each)';
  out(
    `${fmt(SSE)} SSE + ${fmt(WS)} WebSocket ${who} on one gateway, connected in ${((Date.now() - t0) / 1000).toFixed(1)} s; gateway RSS idle with subscribers: ${Math.round(rssIdle / 1_048_576)} MB`,
  );

  // second baseline: the fan-out message itself (committed + published), seen by a plain Redis subscriber
  const published = new Float64Array(RATE * (SECONDS + 30));
  let nPub = 0;
  let measuring = false;
  const tap = createRedis({ url: env.REDIS_URL ?? 'redis://127.0.0.1:56379', name: 'vitalis-bench-live-tap' });
  await tap.connect();
  tap.on('message', (_c: string, raw: string) => {
    const now = Date.now();
    const b = decodeBatch(raw);
    if (!measuring || !b) return;
    for (const e of b.events)
      if (e.kind === 'observation' && nPub < published.length) published[nPub++] = now - Date.parse(e.data.effective_at);
  });
  await tap.subscribe(liveChannel(topic));

  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  const rss: number[] = [];
  const rssTimer = setInterval(() => rss.push(rssOf(gateway.pid!)), 1_000);
  const seq = new Int32Array(n);
  let produced = 0;
  /** Deliveries owed: each produced observation times its patient's watchers. */
  let expected = 0;
  // The producer and the Redis tap share this thread: its event-loop delay stamps observations late
  // (counted in every latency) and delays the tap's clock, so it is printed next to them.
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
  const usage = () => ({
    at: Date.now(),
    gateway: cpuOf(gateway.pid!),
    ingest: ingestCpu(),
    bench: cpuOf('self'),
    servers: serversCpu(),
    machine: machineCpu(),
  });
  let cpu0 = usage();
  let producedAtMeasure = 0;
  let loadAtMeasure = loadAverage();
  const started = Date.now();
  const perTick = Math.round((RATE * TICK_MS) / 1000);
  let next = started;
  let cursor = 0;
  // Warm-up first (same rate, not recorded): the first seconds of a cold process measure V8's JIT
  // and empty caches, not the steady state a ward sees all day.
  while (Date.now() - started < (WARMUP + SECONDS) * 1000) {
    if (!measuring && Date.now() - started >= WARMUP * 1000) {
      measuring = true;
      tell(clients, { type: 'measure', on: true });
      loopDelay.reset();
      cpu0 = usage();
      producedAtMeasure = produced;
      loadAtMeasure = loadAverage();
    }
    const at = new Date().toISOString();
    const messages: { key: string; partition: number; value: string }[] = [];
    for (let k = 0; k < perTick; k += FRAMES ? FRAME_OBSERVATIONS : 1) {
      const i = cursor++ % n;
      const p = patients[i]!;
      // The partition named outright (patient i -> i mod 12): the same one-partition-per-patient rule
      // as the key hash, without hashing every message on the producer's loop.
      if (FRAMES) {
        expected += watchers[i]! * FRAME_OBSERVATIONS;
        messages.push({ key: p, partition: i % PARTITIONS, value: monitorFrameJson(p, `${p}-d`, seq[i]!, at, 2, READINGS) });
        seq[i]! += FRAME_OBSERVATIONS;
        produced += FRAME_OBSERVATIONS;
        continue;
      }
      expected += watchers[i]!;
      messages.push({
        key: p,
        partition: i % PARTITIONS,
        value: `{"patient_id":"${p}","device_id":"${p}-d","seq":${seq[i]!++},"effective_at":"${at}","code":"8867-4","value":${60 + (k % 40)},"unit":"/min"}`,
      });
      produced += 1;
    }
    await producer.send({ topic, acks: 1, compression: CompressionTypes.None, messages });
    next += TICK_MS;
    const wait = next - Date.now();
    if (wait > 0) await sleep(wait);
  }
  const producingMs = Date.now() - started;
  // drain: until everything produced was delivered, or nothing moved for 15 s
  let last = -1;
  let still = Date.now();
  while (deliveredSoFar() < expected && Date.now() - still < 15_000) {
    if (deliveredSoFar() !== last) {
      last = deliveredSoFar();
      still = Date.now();
    }
    await sleep(200);
  }
  const drainMs = Date.now() - started - producingMs;
  const wall = (Date.now() - cpu0.at) / 1000;
  // one reading of every component's CPU over the measured window: the line below and the figures share it
  const machine = machineCpu();
  const busyShare = (machine.busy - cpu0.machine.busy) / Math.max(1, machine.total - cpu0.machine.total);
  const cpuSeconds: Record<string, number> = {
    gateway: cpuOf(gateway.pid!) - cpu0.gateway,
    ingest: ingestCpu() - cpu0.ingest,
    'bench (producer and subscribers)': cpuOf('self') - cpu0.bench,
  };
  for (const [name, after] of Object.entries(serversCpu())) cpuSeconds[name] = cpuUsedBetween(cpu0.servers[name as ServerName], after);
  const measured = produced - producedAtMeasure;
  const cpuLine = `CPU over the run (100% = one core): ${Object.entries(cpuSeconds)
    .map(([name, seconds]) => `${name} ${Math.round((seconds / wall) * 100)}%`)
    .join(', ')}; the whole machine (${cpus().length} cores, PostgreSQL, Kafka and Redis included) ${Math.round(busyShare * 100)}% busy`;
  measuring = false;
  tell(clients, { type: 'measure', on: false });
  clearInterval(rssTimer);
  const reports = await Promise.all(clients.map(collect));
  const sum = (k: 'delivered' | 'duplicates' | 'outOfOrder' | 'lagged' | 'sseEvents' | 'sseReads') =>
    reports.reduce((acc, r) => acc + r[k], 0);
  const delivered = sum('delivered');
  const lat = new Float64Array(reports.reduce((acc, r) => acc + r.latencies.length, 0));
  reports.reduce((at, r) => (lat.set(r.latencies, at), at + r.latencies.length), 0);
  lat.sort();

  // baseline from the same run: device -> append log (when the ingest's transaction wrote the row)
  const pool = createPool({ url: DB_URL, max: 2, application: 'vitalis-bench-live' });
  const { rows } = await pool.query<{ p50: number; p99: number; stored: number }>(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY ms) AS p99, (SELECT count(*)::int FROM vitals_observations WHERE patient_id LIKE $1 AND effective_at >= $3) AS stored
       FROM (SELECT extract(epoch FROM ingested_at - effective_at) * 1000 AS ms FROM vitals_observations
              WHERE patient_id LIKE $1 AND effective_at >= $2) x`,
    [`bench-live-${id}-%`, new Date(cpu0.at).toISOString(), new Date(started - 60_000).toISOString()],
  );
  await pool.end();

  const p50 = pct(lat, 50);
  const p99 = pct(lat, 99);
  const baseP50 = rows[0]?.p50 ?? NaN;
  const baseP99 = rows[0]?.p99 ?? NaN;
  out(
    `produced ${fmt(produced)} observations in ${(producingMs / 1000).toFixed(1)} s = ${fmt(produced / (producingMs / 1000))} obs/s (target ${fmt(RATE)}); stored ${fmt(rows[0]?.stored ?? 0)}; the first ${WARMUP} s were warm-up (not in the figures below)`,
  );
  out(`baseline device -> append log (ingest commit): p50 ${baseP50.toFixed(0)} ms, p99 ${baseP99.toFixed(0)} ms`);
  const pub = published.subarray(0, nPub).sort();
  out(
    `baseline device -> fan-out message (committed, alerts evaluated, published): p50 ${pct(pub, 50).toFixed(0)} ms, p99 ${pct(pub, 99).toFixed(0)} ms`,
  );
  out(
    `  the gateway hop (fan-out message -> subscriber) adds p50 ${(p50 - pct(pub, 50)).toFixed(0)} ms, p99 ${(p99 - pct(pub, 99)).toFixed(0)} ms`,
  );
  out(
    `delivery latency device -> subscriber: p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms (goal p99 < 100 ms: ${p99 < 100 ? 'met' : 'not met'}); ratio to baseline p50 ${(p50 / baseP50).toFixed(2)}x, p99 ${(p99 / baseP99).toFixed(2)}x`,
  );
  out(
    `delivered ${fmt(delivered)} messages = ${fmt(delivered / ((producingMs + drainMs) / 1000))} msg/s over the run (drain after the producer stopped: ${(drainMs / 1000).toFixed(1)} s)`,
  );
  out(
    `delivered / expected = ${(delivered / expected).toFixed(4)} (must be 1.0; expected = ${fmt(expected)}, each observation to each of its watchers); SSE events per socket read ${(sum('sseEvents') / Math.max(1, sum('sseReads'))).toFixed(2)}; duplicates ${fmt(sum('duplicates'))}; out of order ${fmt(sum('outOfOrder'))}; lagged notices ${fmt(sum('lagged'))}`,
  );
  out(
    `gateway RSS: idle with subscribers ${Math.round(rssIdle / 1_048_576)} MB, peak under load ${Math.round(Math.max(...rss, 0) / 1_048_576)} MB`,
  );

  out(cpuLine);
  const what = `${fmt(SSE)} SSE + ${fmt(WS)} WS ${WARD ? 'clinicians (wards)' : 'subscribers'} at ${fmt(RATE)} obs/s, ${FRAMES ? 'frames with ECG' : 'v1 records'}${FRAMES && READINGS === 'storm' ? ', an alarm storm' : ''}`;
  figure({ phase: 'live', name: `delivery p99, ${what}`, value: p99, unit: 'ms', load: loadAtMeasure, goal: { op: '<', target: 100 } });
  figure({ phase: 'live', name: `delivery p50, ${what}`, value: p50, unit: 'ms', load: loadAtMeasure });
  figure({
    phase: 'live',
    name: `delivered / expected, ${what}`,
    value: delivered / expected,
    unit: '',
    load: loadAtMeasure,
    goal: { op: '>=', target: 1 },
  });
  cpuFigures(
    'live',
    what,
    { us: Object.fromEntries(Object.entries(cpuSeconds).map(([k, v]) => [k, (v * 1e6) / Math.max(1, measured)])), busy: busyShare },
    loadAtMeasure,
  );
  out(
    `event-loop delay of the bench thread that produces and taps (adds to the latencies above): p50 ${(loopDelay.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms`,
  );

  tap.disconnect();
  tell(clients, { type: 'close' });
  await producer.disconnect();
  await stopApps();
  await admin.deleteTopics({ topics: [topic, `${topic}.dlq`] }).catch(() => {});
  await admin.disconnect();
  await dropDatabase();
  process.exit(0);
}

async function stopApps(): Promise<void> {
  const running = children.filter((c) => c.exitCode === null && c.signalCode === null);
  await Promise.all(running.map((c) => new Promise((r) => (c.once('exit', r), c.kill('SIGTERM')))));
}

/**
 * The databases of earlier runs that were killed before they could drop theirs (a SIGKILL, a host
 * restart), if nobody is connected to them: a run still in progress keeps its own.
 */
async function dropLeftoverDatabases(): Promise<Set<string>> {
  return withAdminDb(async (admin) => {
    const { rows } = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database d
        WHERE datname LIKE 'vitalis\\_bench\\_live\\_%' AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.datname = d.datname)`,
    );
    for (const { datname } of rows) {
      // Without FORCE: if a run connects meanwhile, its database stays.
      await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(datname)}`).then(
        () => out(`dropped ${datname}, left by an earlier run that was killed`),
        () => undefined,
      );
    }
    const { rows: live } = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE 'vitalis\\_bench\\_live\\_%'`,
    );
    return new Set(live.map((r) => r.datname));
  });
}

/** The topics of earlier runs whose database is gone (created after it, deleted before it): killed runs. */
async function deleteLeftoverTopics(admin: Admin, liveDatabases: Set<string>): Promise<void> {
  const leftover = (await admin.listTopics()).filter((t) => {
    const run = /^vitals\.bench\.live\.([0-9a-f]{8})(\.dlq)?$/.exec(t)?.[1];
    return run !== undefined && run !== RUN_ID && !liveDatabases.has(`vitalis_bench_live_${run}`);
  });
  if (leftover.length === 0) return;
  await admin.deleteTopics({ topics: leftover });
  out(`deleted ${leftover.length} topics left by earlier runs that were killed`);
}

/** Drops the run's database (after the apps, which hold connections to it, are stopped). */
async function dropDatabase(): Promise<void> {
  await stopApps();
  await withAdminDb((admin) => admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`)).catch((err: Error) =>
    out(`could not drop ${DB_NAME}: ${err.message}`),
  );
}

main().catch(async (err) => {
  console.error(err);
  await dropDatabase();
  process.exit(1);
});
