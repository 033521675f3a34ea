/**
 * Live vitals benchmark (plain script: node --import tsx test/bench/live.bench.ts). One run:
 *  - a private 12-partition topic; the ingest (child process, live stage on: alerts + Redis fan-out)
 *    and ONE gateway (child process) serving it;
 *  - BENCH_SSE (2,000) SSE subscribers and BENCH_WS (500) WebSocket subscribers, one patient each;
 *  - BENCH_RATE (20,000) observations/s produced for BENCH_SECONDS (30), effective_at = send time.
 * Prints: delivery latency device -> subscriber p50/p99 and the baseline measured in the same run,
 * device -> append log (ingested_at - effective_at: what any consumer of the log must wait), as a
 * ratio; messages/s delivered; gateway RSS (peak); delivered/produced (must be 1.0), duplicates.
 * Never asserts. Database: DATABASE_URL (default vitalis_bench); the topic is deleted afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import WebSocket from 'ws';
import pg from 'pg';
import { CompressionTypes } from 'kafkajs';
import { createPool } from '@vitalis/db';
import { createKafka } from '@vitalis/kafka';
import { createLogger } from '@vitalis/log';
import { decodeBatch, liveChannel } from '@vitalis/live';
import { createRedis } from '@vitalis/redis';
import { clientCredentialsToken, registerClient } from '../helpers/auth';

const env = process.env;
const SSE = Number(env.BENCH_SSE ?? 2_000);
const WS = Number(env.BENCH_WS ?? 500);
const RATE = Number(env.BENCH_RATE ?? 20_000);
const SECONDS = Number(env.BENCH_SECONDS ?? 30);
const BROKERS = (env.KAFKA_BROKERS ?? '127.0.0.1:59092').split(',');
const DB_URL = env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/vitalis_bench';

/** The bench database may not exist yet (make bench runs this before vitals.bench.ts creates it). */
async function ensureDatabase(): Promise<void> {
  const name = new URL(DB_URL).pathname.slice(1);
  const admin = new pg.Client({ connectionString: DB_URL.replace(/\/[^/]*$/, '/postgres') });
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (exists.rowCount === 0 && /^[a-z0-9_]+$/.test(name)) await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
}
const TICK_MS = Number(env.BENCH_TICK_MS ?? 50);

const out = (line: string) => process.stdout.write(`${line}\n`);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const pct = (sorted: Float64Array, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function startChild(name: string, script: string, extra: Record<string, string>): ChildProcess {
  // BENCH_CPU_PROF=<dir>: V8 CPU profiles of the gateway and the ingest (written when they exit).
  const prof = env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...prof, '--import', 'tsx', script], {
    env: { ...env, DATABASE_URL: DB_URL, LOG_LEVEL: 'warn', KAFKA_BROKERS: BROKERS.join(','), ...extra },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.once('exit', (code) => code !== 0 && code !== null && out(`${name} exited with ${code}`));
  return child;
}

const rssOf = (pid: number) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
};

/** CPU seconds (user + system) a process has used so far. */
const cpuOf = (pid: number | 'self') => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
};

/** Machine-wide CPU jiffies (busy, total) from /proc/stat: how saturated the whole box was. */
const machineCpu = () => {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = (f[3] ?? 0) + (f[4] ?? 0); // idle + iowait
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0); // guest time is already in user
  return { busy: total - idle, total };
};

/** Per-run counters, shared by all subscribers. */
const latencies = new Float64Array(RATE * (SECONDS + 30));
let nLat = 0;
let delivered = 0;
let duplicates = 0;
let lagged = 0;
const seen: Set<number>[] = [];
let measuring = false;

function onObservation(i: number, json: string) {
  const now = Date.now();
  const o = JSON.parse(json) as { seq: number; effective_at: string };
  if (seen[i]!.has(o.seq)) {
    duplicates++;
    return;
  }
  seen[i]!.add(o.seq);
  delivered++;
  if (measuring && nLat < latencies.length) latencies[nLat++] = now - Date.parse(o.effective_at);
}

function openSse(port: number, token: string, i: number, patient: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: `/api/v1/vitals/stream?patient=${patient}&alerts=false`, agent: false, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } });
    req.once('error', reject);
    req.once('response', (res) => {
      if (res.statusCode !== 200) return reject(new Error(`SSE ${res.statusCode}`));
      res.setEncoding('utf8');
      let buf = '';
      res.on('data', (chunk: string) => {
        buf += chunk;
        let end: number;
        while ((end = buf.indexOf('\n\n')) >= 0) {
          const frame = buf.slice(0, end);
          buf = buf.slice(end + 2);
          if (frame.includes('event: observation')) onObservation(i, frame.slice(frame.indexOf('data: ') + 6));
          else if (frame.includes('event: lagged')) lagged++;
          else if (frame.includes('vitalis live vitals')) resolve();
        }
      });
    });
    req.end();
  });
}

function openWs(port: number, token: string, i: number, patient: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/v1/vitals/ws`, { headers: { authorization: `Bearer ${token}` } });
    ws.once('error', reject);
    ws.on('message', (raw) => {
      const text = raw.toString();
      if (text.startsWith('{"type":"observation"')) onObservation(i, text.slice(text.indexOf('"data":') + 7, -1));
      else if (text.startsWith('{"type":"subscribed"')) resolve(ws);
      else if (text.startsWith('{"type":"lagged"')) lagged++;
    });
    ws.once('open', () => ws.send(JSON.stringify({ type: 'subscribe', sub: 's', patients: [patient], alerts: false })));
  });
}

async function main() {
  await ensureDatabase();
  const logger = createLogger('bench', 'error');
  const kafka = createKafka({ brokers: BROKERS, clientId: 'vitalis-bench-live', logger });
  const admin = kafka.admin();
  await admin.connect();
  const id = randomUUID().slice(0, 8);
  const topic = `vitals.bench.live.${id}`;
  await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 12, replicationFactor: 1 }, { topic: `${topic}.dlq`, numPartitions: 1, replicationFactor: 1 }] });

  const port = await freePort();
  const gateway = startChild('gateway', 'apps/gateway/src/main.ts', { PORT: String(port), LIVE_TOPIC: topic, DATABASE_POOL_MAX: '20' });
  const ingest = startChild('ingest', 'apps/ingest/src/main.ts', { INGEST_TOPIC: topic, INGEST_DLQ_TOPIC: `${topic}.dlq`, INGEST_GROUP_ID: `vitalis-bench-live-${id}`, INGEST_MAX_WAIT_MS: '20', INGEST_CONCURRENCY: env.BENCH_INGEST_CONCURRENCY ?? '12' });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (await fetch(`${base}/api/v1/health`).then((r) => r.ok, () => false)) break;
    if (i > 300) throw new Error('gateway did not start');
    await sleep(200);
  }
  const client = await registerClient(base, ['read:vitals'], 'vitalis-bench-live');
  const token = await clientCredentialsToken(base, client);

  const n = SSE + WS;
  const patients = Array.from({ length: n }, (_, i) => `bench-live-${id}-${i}`);
  for (let i = 0; i < n; i++) seen.push(new Set());
  const t0 = Date.now();
  const sockets: WebSocket[] = [];
  for (let i = 0; i < n; i += 100) {
    await Promise.all(
      patients.slice(i, i + 100).map((p, j) => (i + j < SSE ? openSse(port, token, i + j, p) : openWs(port, token, i + j, p).then((ws) => void sockets.push(ws)))),
    );
  }
  await sleep(1_000); // every subscription has finished its initial read of the log
  const rssIdle = rssOf(gateway.pid!);
  out(`subscribers: ${fmt(SSE)} SSE + ${fmt(WS)} WebSocket on one gateway, connected in ${((Date.now() - t0) / 1000).toFixed(1)} s; gateway RSS idle with subscribers: ${Math.round(rssIdle / 1_048_576)} MB`);

  // second baseline: the fan-out message itself (committed + published), seen by a plain Redis subscriber
  const published = new Float64Array(RATE * (SECONDS + 30));
  let nPub = 0;
  const tap = createRedis({ url: env.REDIS_URL ?? 'redis://127.0.0.1:56379', name: 'vitalis-bench-live-tap' });
  await tap.connect();
  tap.on('message', (_c: string, raw: string) => {
    const now = Date.now();
    const b = decodeBatch(raw);
    if (!measuring || !b) return;
    for (const e of b.events) if (e.kind === 'observation' && nPub < published.length) published[nPub++] = now - Date.parse(e.data.effective_at);
  });
  await tap.subscribe(liveChannel(topic));

  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  const rss: number[] = [];
  const rssTimer = setInterval(() => rss.push(rssOf(gateway.pid!)), 1_000);
  const seq = new Int32Array(n);
  let produced = 0;
  measuring = true;
  // The subscribers and the producer share this process: its own event-loop delay inflates every
  // latency measured here, so it is printed next to them.
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
  const cpu0 = { gateway: cpuOf(gateway.pid!), ingest: cpuOf(ingest.pid!), bench: cpuOf('self'), machine: machineCpu() };
  const started = Date.now();
  const perTick = Math.round((RATE * TICK_MS) / 1000);
  let next = started;
  let cursor = 0;
  while (Date.now() - started < SECONDS * 1000) {
    const at = new Date().toISOString();
    const byPartitionKey: { key: string; value: string }[] = [];
    for (let k = 0; k < perTick; k++) {
      const i = cursor++ % n;
      const p = patients[i]!;
      byPartitionKey.push({ key: p, value: `{"patient_id":"${p}","device_id":"${p}-d","seq":${seq[i]!++},"effective_at":"${at}","code":"8867-4","value":${60 + (k % 40)},"unit":"/min"}` });
    }
    await producer.send({ topic, acks: 1, compression: CompressionTypes.None, messages: byPartitionKey });
    produced += perTick;
    next += TICK_MS;
    const wait = next - Date.now();
    if (wait > 0) await sleep(wait);
  }
  const producingMs = Date.now() - started;
  // drain: until everything produced was delivered, or nothing moved for 15 s
  let last = -1;
  let still = Date.now();
  while (delivered < produced && Date.now() - still < 15_000) {
    if (delivered !== last) {
      last = delivered;
      still = Date.now();
    }
    await sleep(200);
  }
  const drainMs = Date.now() - started - producingMs;
  const wall = (producingMs + drainMs) / 1000;
  const machineBusy = () => {
    const m = machineCpu();
    return Math.round(((m.busy - cpu0.machine.busy) / Math.max(1, m.total - cpu0.machine.total)) * 100);
  };
  const cpuShare = (now: number, before: number) => `${Math.round(((now - before) / wall) * 100)}%`;
  const cpuLine = `CPU over the run (100% = one core): gateway ${cpuShare(cpuOf(gateway.pid!), cpu0.gateway)}, ingest ${cpuShare(cpuOf(ingest.pid!), cpu0.ingest)}, bench clients + producer ${cpuShare(cpuOf('self'), cpu0.bench)}; the whole machine (${cpus().length} cores, PostgreSQL, Kafka and Redis included) ${machineBusy()}% busy`;
  measuring = false;
  clearInterval(rssTimer);

  // baseline from the same run: device -> append log (when the ingest's transaction wrote the row)
  const pool = createPool({ url: DB_URL, max: 2, application: 'vitalis-bench-live' });
  const { rows } = await pool.query<{ p50: number; p99: number; n: number }>(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY ms) AS p99, count(*)::int AS n
       FROM (SELECT extract(epoch FROM ingested_at - effective_at) * 1000 AS ms FROM vitals_observations
              WHERE patient_id LIKE $1 AND effective_at > now() - interval '1 hour') x`,
    [`bench-live-${id}-%`],
  );
  await pool.end();

  const lat = latencies.subarray(0, nLat).sort();
  const p50 = pct(lat, 50);
  const p99 = pct(lat, 99);
  const baseP50 = rows[0]?.p50 ?? NaN;
  const baseP99 = rows[0]?.p99 ?? NaN;
  out(`produced ${fmt(produced)} observations in ${(producingMs / 1000).toFixed(1)} s = ${fmt(produced / (producingMs / 1000))} obs/s (target ${fmt(RATE)}); stored ${fmt(rows[0]?.n ?? 0)}`);
  out(`baseline device -> append log (ingest commit): p50 ${baseP50.toFixed(0)} ms, p99 ${baseP99.toFixed(0)} ms`);
  const pub = published.subarray(0, nPub).sort();
  out(`baseline device -> fan-out message (committed, alerts evaluated, published): p50 ${pct(pub, 50).toFixed(0)} ms, p99 ${pct(pub, 99).toFixed(0)} ms`);
  out(`  the gateway hop (fan-out message -> subscriber) adds p50 ${(p50 - pct(pub, 50)).toFixed(0)} ms, p99 ${(p99 - pct(pub, 99)).toFixed(0)} ms`);
  out(`delivery latency device -> subscriber: p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms (goal p99 < 100 ms: ${p99 < 100 ? 'met' : 'not met'}); ratio to baseline p50 ${(p50 / baseP50).toFixed(2)}x, p99 ${(p99 / baseP99).toFixed(2)}x`);
  out(`delivered ${fmt(delivered)} messages = ${fmt(delivered / ((producingMs + drainMs) / 1000))} msg/s over the run (drain after the producer stopped: ${(drainMs / 1000).toFixed(1)} s)`);
  out(`delivered / produced = ${(delivered / produced).toFixed(4)} (must be 1.0); duplicates ${fmt(duplicates)}; lagged notices ${fmt(lagged)}`);
  out(`gateway RSS: idle with subscribers ${Math.round(rssIdle / 1_048_576)} MB, peak under load ${Math.round(Math.max(...rss, 0) / 1_048_576)} MB`);

  out(cpuLine);
  out(`bench process event-loop delay (adds to every latency above): p50 ${(loopDelay.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms`);

  tap.disconnect();
  for (const ws of sockets) ws.terminate();
  await producer.disconnect();
  gateway.kill('SIGTERM');
  ingest.kill('SIGTERM');
  await Promise.all([gateway, ingest].map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
  await admin.deleteTopics({ topics: [topic, `${topic}.dlq`] }).catch(() => {});
  await admin.disconnect();
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
