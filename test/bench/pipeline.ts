/**
 * The pieces the pipeline benches (ingest.bench.ts) drive, as a hospital runs them: a private
 * 12-partition topic, the simulator as a child process (a JSON-encoding producer, or a replay of
 * recorded device bytes), and the ingest's own main (apps/ingest/src/main.ts) as a child process in
 * its production configuration: live stage (Redis fan-out), alert rules and metrics on. Progress is
 * read from the consumer group's committed offsets, lag from the ingest's own Prometheus histogram
 * of device -> live publication.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { Admin } from 'kafkajs';
import type { KafkaClient } from './figure-names';
import { METRIC } from '@vitalis/metrics';
import { exited, freePort } from '../helpers/processes';

export const PARTITIONS = 12;
const env = process.env;
export const BROKERS = (env.KAFKA_BROKERS ?? '127.0.0.1:59092').split(',');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A fresh topic of the run (and its dead-letter topic); `drop` deletes both. */
export async function benchTopic(admin: Admin, label: string) {
  const topic = `vitals.bench.${label}.${randomUUID().slice(0, 8)}`;
  await admin.createTopics({
    waitForLeaders: true,
    topics: [
      { topic, numPartitions: PARTITIONS, replicationFactor: 1 },
      { topic: `${topic}.dlq`, numPartitions: 1, replicationFactor: 1 },
    ],
  });
  let dropped: Promise<void> | undefined;
  // once: deleting a topic that is gone makes kafkajs retry for half a minute
  const drop = () => (dropped ??= admin.deleteTopics({ topics: [topic, `${topic}.dlq`] }).catch(() => {}));
  return { topic, dlq: `${topic}.dlq`, drop };
}

export interface ProducerRun {
  sent: number;
  ms: number;
  perSecond: number;
  /** The producer process's own CPU seconds over the burst (getrusage, reported by it). */
  cpuSeconds: number;
}

/**
 * Runs the simulator's burst (apps/simulator/src/burst.ts) with `args` against `topic`; resolves
 * with its report. Traces off unless `extraEnv` sets OTEL_EXPORTER_OTLP_ENDPOINT; `onStart` gets
 * the child as soon as it is spawned (to meter it).
 */
export function simulate(
  topic: string,
  args: string[],
  { onStart, extraEnv = {} }: { onStart?: (child: ChildProcess) => void; extraEnv?: Record<string, string> } = {},
): Promise<ProducerRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/simulator/src/main.ts', ...args], {
    env: { ...env, SIM_TOPIC: topic, LOG_LEVEL: 'error', KAFKA_BROKERS: BROKERS.join(','), OTEL_EXPORTER_OTLP_ENDPOINT: '', ...extraEnv },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  onStart?.(child);
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  return exited(child).then(({ code }) => {
    if (code !== 0) throw new Error(`simulator ${args.join(' ')} exited with ${code}`);
    return JSON.parse(output.trim().split('\n').pop() ?? '{}') as ProducerRun;
  });
}

/** What kafka-consume.ts reports: the records and value bytes read, and the ms and its own CPU seconds from the first record to the last. */
export interface ConsumeRun {
  records: number;
  bytes: number;
  ms: number;
  cpuSeconds: number;
}

/** Runs a bench's client script (test/bench/<script>.ts) in a process of its own against the brokers; resolves with the JSON line it prints last. */
async function clientScript<T>(script: string, args: string[]): Promise<T> {
  const child = spawn(process.execPath, ['--import', 'tsx', `test/bench/${script}.ts`, ...args], {
    env: { ...env, KAFKA_BROKERS: BROKERS.join(',') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  const { code } = await exited(child);
  if (code !== 0) throw new Error(`${script} ${args[0] ?? ''} exited with ${code}`);
  return JSON.parse(output.trim().split('\n').pop() ?? '{}') as T;
}

/**
 * Consumes `records` records of `topic` from its beginning with `client` (test/bench/kafka-consume.ts:
 * the ingest's fetch sizes, a consumer group of its own named after `label`), in a process of its own.
 */
export function consumeTopic(client: KafkaClient, topic: string, records: number, label: string): Promise<ConsumeRun> {
  const group = `vitalis-bench-${label}-${client}-${randomUUID().slice(0, 8)}`;
  return clientScript<ConsumeRun>('kafka-consume', [client, topic, String(records), group]);
}

/** What kafka-produce.ts reports: the observations sent, and the ms and its own CPU seconds from the first send to the last acknowledgement. */
export interface ProduceRun {
  observations: number;
  ms: number;
  cpuSeconds: number;
}

/** Produces `observations` of the recording `file` to `topic` with `client` (test/bench/kafka-produce.ts), in a process of its own. */
export function produceRecording(client: KafkaClient, topic: string, file: string, observations: number): Promise<ProduceRun> {
  return clientScript<ProduceRun>('kafka-produce', [client, topic, file, String(observations)]);
}

export interface IngestProcess {
  child: ChildProcess;
  metricsUrl: string;
  stop(): Promise<void>;
}

/**
 * The V8 profiles an app started by a bench writes when it exits: BENCH_CPU_PROF=<dir> a CPU profile
 * (where the time goes), BENCH_HEAP_PROF=<dir> a sampling heap profile (what allocates: the garbage
 * collector's work, ./heap-sampling.ts). Neither is on in a measured run.
 */
export function profileFlags(): string[] {
  const cpu = env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${env.BENCH_CPU_PROF}`] : [];
  const heap = env.BENCH_HEAP_PROF ? ['--import', 'tsx', '--import', './test/bench/heap-sampling.ts'] : [];
  return [...cpu, ...heap];
}

/** The ingest's main as a child process, production configuration (live stage, alerts, metrics), consuming `topic` as `groupId`. */
export async function startIngestProcess(databaseUrl: string, topic: string, groupId: string): Promise<IngestProcess> {
  const metricsPort = await freePort();
  const child = spawn(process.execPath, [...profileFlags(), '--import', 'tsx', 'apps/ingest/src/main.ts'], {
    env: {
      ...env,
      DATABASE_URL: databaseUrl,
      KAFKA_BROKERS: BROKERS.join(','),
      INGEST_TOPIC: topic,
      INGEST_DLQ_TOPIC: `${topic}.dlq`,
      INGEST_GROUP_ID: groupId,
      INGEST_ALERTS: 'true',
      METRICS_ENABLED: 'true',
      METRICS_PORT: String(metricsPort),
      PROBE_PORT: String(await freePort()),
      OTEL_EXPORTER_OTLP_ENDPOINT: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  for (
    let i = 0;
    !(await fetch(metricsUrl).then(
      (r) => r.ok,
      () => false,
    ));
    i++
  ) {
    if (child.exitCode !== null) throw new Error(`the ingest exited with ${child.exitCode}`);
    if (i > 300) throw new Error('the ingest did not start');
    await sleep(100);
  }
  return {
    child,
    metricsUrl,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited(child);
    },
  };
}

/** Messages the group has committed and the topic holds, over all partitions. */
export async function groupProgress(admin: Admin, topic: string, groupId: string): Promise<{ committed: number; end: number }> {
  const [ends, groups] = await Promise.all([admin.fetchTopicOffsets(topic), admin.fetchOffsets({ groupId, topics: [topic] })]);
  const end = ends.reduce((s, p) => s + Number(p.high), 0);
  const committed = (groups[0]?.partitions ?? []).reduce((s, p) => s + Math.max(0, Number(p.offset)), 0);
  return { committed, end };
}

/**
 * Polls the group until it has committed every message of the topic (or `timeoutMs`); `onFirst`
 * runs at the first poll that sees progress (where a drain's measured window starts).
 */
export async function waitCaughtUp(
  admin: Admin,
  topic: string,
  groupId: string,
  { timeoutMs, onFirst }: { timeoutMs: number; onFirst?: () => void },
): Promise<{ caughtUp: boolean; firstAt: number; at: number }> {
  const deadline = Date.now() + timeoutMs;
  let firstAt = 0;
  for (;;) {
    const { committed, end } = await groupProgress(admin, topic, groupId);
    if (committed > 0 && !firstAt) {
      firstAt = Date.now();
      onFirst?.();
    }
    if (end > 0 && committed >= end) return { caughtUp: true, firstAt, at: Date.now() };
    if (Date.now() > deadline) return { caughtUp: false, firstAt, at: Date.now() };
    await sleep(250);
  }
}

// prom-client adds the registry's default label (app) beside le
const PUBLISH_BUCKET = new RegExp(`^${METRIC.ingestDeviceToPublish}_bucket\\{[^}]*\\ble="([^"]+)"[^}]*\\} (\\S+)$`);
const PUBLISH_COUNT = new RegExp(`^${METRIC.ingestDeviceToPublish}_count(?:\\{[^}]*\\})? (\\S+)$`);

/** The ingest's histogram of device -> live publication seconds: cumulative counts by upper bound, and the total. */
export async function publishLatency(metricsUrl: string): Promise<{ buckets: Map<number, number>; count: number }> {
  const text = await (await fetch(metricsUrl)).text();
  const buckets = new Map<number, number>();
  let count = 0;
  for (const line of text.split('\n')) {
    const bucket = PUBLISH_BUCKET.exec(line);
    if (bucket) buckets.set(bucket[1] === '+Inf' ? Infinity : Number(bucket[1]), Number(bucket[2]));
    const total = PUBLISH_COUNT.exec(line);
    if (total) count = Number(total[1]);
  }
  return { buckets, count };
}

/**
 * Between two readings: the share of observations published within `limit` seconds (a bucket
 * bound), and the smallest bound the 99th percentile is within ("p99 <= x s").
 */
export function latencyBetween(
  a: Awaited<ReturnType<typeof publishLatency>>,
  b: Awaited<ReturnType<typeof publishLatency>>,
  limit: number,
) {
  const count = b.count - a.count;
  const within = (le: number) => ((b.buckets.get(le) ?? 0) - (a.buckets.get(le) ?? 0)) / Math.max(1, count);
  const bounds = [...b.buckets.keys()].sort((x, y) => x - y);
  const p99Bound = bounds.find((le) => within(le) >= 0.99) ?? Infinity;
  return { count, withinLimit: within(limit), p99Bound };
}
