/**
 * The ingest's hot path in process (`make bench` phase "hot"): the CPU the ingest spends per
 * observation on its own code, with no I/O, measured to a few per cent where the drain's figure
 * moves by 15 % between neighbouring runs on this VM. For each record shape the drain produces
 * (single numeric records as the simulator's burst sends them, and v2 monitor frames: six numerics
 * and a 1 s ECG chunk), batches of Kafka records go through the ingest's own steps and functions:
 * `decode` and `skipRedelivered` (apps/ingest/src/batch/steps.ts: JSON, the checks, the rows), the
 * rows' series keys (`SeriesKeys`, kept as a running ingest keeps them), the rows' binary COPY bytes (`copyChunks`), the live stage's events with the alarm rules on
 * (`batchEvents`) and its fan-out message (`encodeBatch`). Left out, and in the drain's figure:
 * kafkajs's fetch decoding, the PostgreSQL and Redis clients' socket writes, the metrics.
 * Prints µs of CPU per observation (process.cpuUsage, the median of the rounds), each part's share
 * (wall time of a single thread with nothing to wait for), and the garbage collector's share.
 */
import { PerformanceObserver, performance } from 'node:perf_hooks';
import type { KafkaMessage } from 'kafkajs';
import { DEFAULT_ALARM_SETTINGS } from '@vitalis/clinical';
import { encodeBatch } from '@vitalis/live';
import { DEFAULT_CLOCK_LIMITS, NUMERIC_VITALS, type NumericVitalCode } from '@vitalis/schemas';
import { batchContext, type BatchEnv, type BatchPayload } from '../../apps/ingest/src/batch/context';
import { decode, skipRedelivered } from '../../apps/ingest/src/batch/steps';
import { AlertEngine } from '../../apps/ingest/src/live/rules';
import { SeriesKeys } from '../../apps/ingest/src/series-keys';
import type { Queryable } from '../../apps/ingest/src/store-records';
import { batchEvents } from '../../apps/ingest/src/live/stage';
import { copyChunks } from '../../apps/ingest/src/store-rows';
import { STABLE_READINGS } from '../../apps/simulator/src/burst';
import { RECORD_SHAPES, type RecordShape } from './figure-names';
import { loadAverage } from './proc-cpu';
import { figure, fmt, out } from './report';
import { FRAME_OBSERVATIONS, monitorFrameJson } from './rows';

const env = process.env;
const OBSERVATIONS = Number(env.BENCH_HOT_OBSERVATIONS ?? 210_000);
const ROUNDS = Number(env.BENCH_HOT_ROUNDS ?? 5);
/** Observations per batch, about what the drain's fetches hand over per partition. */
const BATCH_OBSERVATIONS = 504;
const PATIENTS = 200;
const CODES = Object.keys(NUMERIC_VITALS) as NumericVitalCode[];

interface Batch {
  partition: number;
  messages: KafkaMessage[];
  observations: number;
}

const message = (offset: number, value: string, timestamp: string): KafkaMessage =>
  ({ offset: String(offset), value: Buffer.from(value), timestamp, key: null, attributes: 0, headers: {} }) as KafkaMessage;

/** The records of `shape`, in batches: single numeric records as the burst builds them, or v2 monitor frames. */
function recordBatches(shape: RecordShape): Batch[] {
  const now = Date.now();
  const at = new Date(now).toISOString();
  const timestamp = String(now);
  const perRecord = shape === 'frames' ? FRAME_OBSERVATIONS : 1;
  const records = Math.ceil(OBSERVATIONS / perRecord);
  const perBatch = Math.round(BATCH_OBSERVATIONS / perRecord);
  const batches: Batch[] = [];
  for (let first = 0; first < records; first += perBatch) {
    const messages: KafkaMessage[] = [];
    for (let i = first; i < Math.min(first + perBatch, records); i++) {
      const patient = `hot-${i % PATIENTS}`;
      if (shape === 'frames') {
        messages.push(message(i, monitorFrameJson(patient, `${patient}-mon`, i * FRAME_OBSERVATIONS, at), timestamp));
        continue;
      }
      const code = CODES[Math.floor(i / PATIENTS) % CODES.length] as NumericVitalCode;
      const readings = STABLE_READINGS[code];
      const value = readings[i % readings.length];
      const record = {
        patient_id: patient,
        device_id: `${patient}-dev`,
        seq: i,
        effective_at: at,
        code,
        value,
        unit: NUMERIC_VITALS[code].unit,
      };
      messages.push(message(i, JSON.stringify(record), timestamp));
    }
    batches.push({ partition: batches.length % 12, messages, observations: messages.length * perRecord });
  }
  return batches;
}

/** What the steps read from the worker: the clock limits, and a live stage being there (the rows' items are kept for it). */
const STEP_ENV = { clockLimits: DEFAULT_CLOCK_LIMITS, afterCommit: () => Promise.resolve() } as unknown as BatchEnv;

const PARTS = ['decode and rows', 'COPY bytes', 'live events and alarm rules', 'live message'] as const;
type Part = (typeof PARTS)[number];

/**
 * The series dictionary's statement (vitals_series_assign) answered in process, since the bench
 * leaves I/O out: keys in the order pairs are first asked for, as the database hands them out. The
 * warm pass asks once per pair; the rounds then measure the keys kept, as a running ingest has them.
 */
function inProcessDictionary(): Queryable {
  const keys = new Map<string, number>();
  const query = async (_sql: string, values: [string[], string[]]) => ({
    rows: values[0].map((patient, i) => {
      const code = values[1][i] as string;
      const pair = `${patient}\u0000${code}`;
      let key = keys.get(pair);
      if (key === undefined) keys.set(pair, (key = keys.size + 1));
      return { patient_id: patient, code, series_id: key };
    }),
  });
  return { query } as unknown as Queryable;
}

/** One pass over the batches; adds each part's wall time (ms) to `parts`; returns the bytes made (so nothing is optimised away). */
async function pass(batches: Batch[], engine: AlertEngine, keys: SeriesKeys, parts: Record<Part, number>): Promise<number> {
  let bytes = 0;
  for (const batch of batches) {
    const t0 = performance.now();
    const b = batchContext(
      { batch: { partition: batch.partition, messages: batch.messages, highWatermark: '0' } } as unknown as BatchPayload,
      undefined,
    );
    decode(b, STEP_ENV);
    skipRedelivered(b, STEP_ENV);
    if (b.poison.size > 0) throw new Error(`the bench's records were refused: ${[...b.poison.values()][0]?.reasons.join('; ')}`);
    await keys.assign(b.rows);
    const t1 = performance.now();
    for (const chunk of copyChunks(b.rows)) bytes += chunk.length;
    const t2 = performance.now();
    const first = Number(batch.messages[0]?.offset);
    const last = Number(batch.messages.at(-1)?.offset);
    const { events } = batchEvents(engine, DEFAULT_ALARM_SETTINGS, { partition: batch.partition, first, last, items: b.good }, true);
    const t3 = performance.now();
    bytes += encodeBatch({ v: 1, partition: batch.partition, first, last, events }).length;
    const t4 = performance.now();
    parts['decode and rows'] += t1 - t0;
    parts['COPY bytes'] += t2 - t1;
    parts['live events and alarm rules'] += t3 - t2;
    parts['live message'] += t4 - t3;
  }
  return bytes;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcMs += e.duration;
}).observe({ entryTypes: ['gc'] });

for (const shape of Object.keys(RECORD_SHAPES) as RecordShape[]) {
  const label = `ingest hot path in process, ${RECORD_SHAPES[shape].label}`;
  const batches = recordBatches(shape);
  const observations = batches.reduce((n, b) => n + b.observations, 0);
  const engine = new AlertEngine(DEFAULT_ALARM_SETTINGS);
  const load = loadAverage();
  const zero = () => Object.fromEntries(PARTS.map((p) => [p, 0])) as Record<Part, number>;
  const keys = new SeriesKeys(inProcessDictionary());
  await pass(batches, engine, keys, zero()); // warm: compiled, every patient known to the rules, every pair's key kept
  const cpu: number[] = [];
  const gc: number[] = [];
  const parts = zero();
  for (let r = 0; r < ROUNDS; r++) {
    const gcBefore = gcMs;
    const before = process.cpuUsage();
    const wallBefore = performance.now();
    await pass(batches, engine, keys, parts);
    const used = process.cpuUsage(before);
    await new Promise((resolve) => setImmediate(resolve)); // the gc entries of the round are delivered
    cpu.push((used.user + used.system) / observations);
    gc.push((100 * (gcMs - gcBefore)) / (performance.now() - wallBefore));
  }
  out(`${label}: ${fmt(observations)} observations in ${batches.length} batches, ${ROUNDS} rounds`);
  figure({ phase: 'hot', name: `${label}: CPU per observation`, value: median(cpu), unit: 'µs', load });
  const total = PARTS.reduce((n, p) => n + parts[p], 0);
  for (const p of PARTS)
    figure({ phase: 'hot', name: `${label}: ${p}, share of the time`, value: (100 * parts[p]) / total, unit: '%', load });
  figure({ phase: 'hot', name: `${label}: garbage collector, share of the time`, value: median(gc), unit: '%', load });
}
