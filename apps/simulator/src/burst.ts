/**
 * `burst()`: N observations as fast as possible (or paced to a rate), for benchmarks: single
 * records, device frames (six numerics and a 1 s ECG chunk per record, ADR 0015), or the same
 * monitor data one record per observation. A burst can be recorded to a file instead of sent
 * (`recordTo`), and a recording replayed (`replayFrom`): the device bytes as recorded, sent with the
 * same producer settings, so a bench tells the Kafka client's cost from the JSON encoding's.
 */
import { must } from '@vitalis/runtime';
import { createVitalsProducer, sendTraced, TOPICS, type VitalisKafka, type VitalsMessage } from '@vitalis/kafka';
import { TRACING_OFF, type Tracing } from '@vitalis/tracing';
import { ECG_LEAD_II, FRAME_ENVELOPE_V2, NUMERIC_VITALS, potentialStep, type NumericVitalCode } from '@vitalis/schemas';
import { ECG_HZ, ECG_PERIOD_MS, ecgChunk, makeProfile, rng, sampleVital } from '@vitalis/clinical';
import { loadRecording, recordingWriter, type RecordedBatch } from './recording';
import { seqSeed } from './signals';

const NUMERIC_CODES = Object.keys(NUMERIC_VITALS) as NumericVitalCode[];

export interface BurstOptions {
  kafka: VitalisKafka;
  topic?: string;
  /** How many observations (numeric vitals, cycling through the six codes). */
  count: number;
  /** Stop early after this many ms (sustained benchmarks), if set. */
  durationMs?: number;
  patients?: number;
  /** Prefix of the generated patient ids; device ids derive from it (unique per run = exact counts). */
  patientPrefix?: string;
  /** Messages per producer.send. */
  batchSize?: number;
  /** Concurrent sends (each a separate request). */
  concurrency?: number;
  /** effective_at = now (for lag measurement) instead of a synthetic clock. */
  realTime?: boolean;
  /** Pace the burst to this many observations per second (steady-state measurements). */
  ratePerSecond?: number;
  /**
   * One frame per record, as monitors send them (ADR 0015, the v2 envelope of ADR 0029: the ECG as
   * whole 0.1 µV steps): each patient's six numerics and a 1 s ECG chunk (250 samples) at one tick;
   * `count` still counts observations. Default: one record each.
   */
  frames?: boolean;
  /** The same monitor data as `frames` (six numerics and a 1 s ECG chunk per tick), one record per observation: the A/B for frames. */
  monitorRecords?: boolean;
  /**
   * `one`: one request in flight per broker connection, as the gateway and the simulator send
   * (libs/kafka producer.ts). Default `several`: a backlog fill pipelines its `concurrency` sends.
   */
  requestsInFlight?: 'one' | 'several';
  /** Write the batches to this file instead of Kafka (a recording, for `replayFrom`). */
  recordTo?: string;
  /** Send the batches recorded in this file (in order, from the start, as often as `count` needs) instead of building them. */
  replayFrom?: string;
  /** A span per send (default off). */
  tracing?: Tracing;
}

export interface BurstResult {
  sent: number;
  ms: number;
  perSecond: number;
}

/**
 * One burst's state, shared by its concurrent lanes (named steps, ADR 0023): `next` is the index of
 * the next observation to build, `sent` how many were acknowledged.
 */
interface BurstRun {
  readonly opts: BurstOptions;
  readonly patients: number;
  readonly prefix: string;
  readonly batchSize: number;
  readonly random: () => number;
  readonly seqBase: number;
  readonly t0: number;
  readonly deadline: number;
  /** frames: one 1 s ECG chunk, built once (the producer's cost stays the JSON of the record, as for single records) */
  readonly ecg: { code: string; unit: string; waveform: { origin: number; period_ms: number; samples: number[] } };
  /** the same chunk as a v2 frame carries it (whole 0.1 µV steps) */
  readonly ecgSteps: { code: string; unit: string; waveform: { period_ms: number; sample_steps: number[] } };
  /** replayFrom: the recorded batches, and the index of the next one. */
  readonly recorded: RecordedBatch[] | undefined;
  replayed: number;
  next: number;
  sent: number;
}

/** Where a burst's batches go: Kafka, or a recording. */
interface BurstSink {
  send(messages: VitalsMessage[], observations: number): Promise<unknown>;
  close(): Promise<void>;
}

async function kafkaSink(opts: BurstOptions): Promise<BurstSink> {
  const topic = opts.topic ?? TOPICS.vitalsObservations;
  const producer = createVitalsProducer(opts.kafka, { retries: 'unbounded', requestsInFlight: opts.requestsInFlight ?? 'several' });
  await producer.connect();
  return {
    send: (messages) => sendTraced(producer, { topic, acks: -1, messages }, opts.tracing ?? TRACING_OFF),
    close: () => producer.disconnect(),
  };
}

/** Produces `count` observations as fast as possible (or until durationMs, or paced); returns the rate. */
export async function burst(opts: BurstOptions): Promise<BurstResult> {
  const prefix = opts.patientPrefix ?? `burst-${Date.now().toString(36)}`;
  const sink = opts.recordTo ? recordingWriter(opts.recordTo) : await kafkaSink(opts);
  const recorded = opts.replayFrom ? loadRecording(opts.replayFrom) : undefined;
  if (recorded?.length === 0) throw new Error(`${opts.replayFrom}: the recording holds no batch`);
  const t0 = Date.now();
  const chunk = ecgChunk(ECG_HZ, 72, 0, rng(3)).samples;
  const run: BurstRun = {
    opts,
    patients: opts.patients ?? 200,
    prefix,
    // paced: batches of 50 ms worth (as a device gateway forwards), so the pace is smooth
    batchSize: opts.batchSize ?? (opts.ratePerSecond ? Math.max(7, Math.min(2_000, Math.round(opts.ratePerSecond / 20))) : 2_000),
    random: rng(7),
    seqBase: seqSeed(),
    t0,
    deadline: opts.durationMs ? t0 + opts.durationMs : Infinity,
    ecg: { code: ECG_LEAD_II.code, unit: 'mV', waveform: { origin: 0, period_ms: ECG_PERIOD_MS, samples: chunk } },
    ecgSteps: {
      code: ECG_LEAD_II.code,
      unit: 'mV',
      waveform: { period_ms: ECG_PERIOD_MS, sample_steps: chunk.map((s) => potentialStep(0, s)) },
    },
    recorded,
    replayed: 0,
    next: 0,
    sent: 0,
  };
  // A recording is written in order: one lane.
  await Promise.all(Array.from({ length: opts.recordTo ? 1 : (opts.concurrency ?? 4) }, () => burstLane(run, sink)));
  await sink.close();
  const ms = Date.now() - t0;
  return { sent: run.sent, ms, perSecond: Math.round((run.sent * 1000) / Math.max(ms, 1)) };
}

/** One lane: builds and sends batches (paced to ratePerSecond, if set) until the count or the deadline is reached. */
async function burstLane(run: BurstRun, sink: BurstSink): Promise<void> {
  const { opts, t0, deadline } = run;
  while (run.next < opts.count && Date.now() < deadline) {
    if (opts.ratePerSecond) {
      // Due again after each wait: another lane may have taken the batch this one waited for (the
      // lanes share `next`), and sending it anyway would send lanes' batches at once, in bursts.
      for (let due = t0 + (run.next / opts.ratePerSecond) * 1000; due > Date.now(); due = t0 + (run.next / opts.ratePerSecond) * 1000)
        await new Promise((r) => setTimeout(r, due - Date.now()));
      if (run.next >= opts.count || Date.now() >= deadline) break;
    }
    const before = run.next;
    const messages = burstBatch(run);
    const observations = run.next - before; // before the await: the other lanes move `next` meanwhile
    await sink.send(messages, observations);
    run.sent += observations;
  }
}

/** Readings drawn per code for the table below. */
const READINGS = 256;

/**
 * The numerics a burst sends: readings of stable adult patients (the simulator's own profiles, no
 * deterioration: heart rate about 64-84, SpO2 96-99, NEWS2 mostly 0), drawn once, so the ingest's
 * alarm rules run as they do on a ward, rarely firing. Until 2026-11-30 a burst drew each value
 * from 30-70 % of its code's device range (SpO2 30-70 %, heart rate 105-245 /min): every patient
 * in alarm on every record, an alarm storm in every measurement (docs/benchmarks.md, run 4).
 */
export const STABLE_READINGS: Readonly<Record<NumericVitalCode, readonly number[]>> = (() => {
  const random = rng(11);
  const profiles = Array.from({ length: 16 }, (_, i) => makeProfile(`stable-${i}`, 1_000 + i, false, 0));
  const table = {} as Record<NumericVitalCode, number[]>;
  for (const code of NUMERIC_CODES)
    table[code] = Array.from({ length: READINGS }, (_, i) =>
      sampleVital(must(profiles[i % profiles.length], 'a profile'), code, i * 1_000, random),
    );
  return table;
})();

/** One stable patient's reading of `code` (STABLE_READINGS). */
const stableReading = (code: NumericVitalCode, random: () => number): number =>
  must(STABLE_READINGS[code][Math.floor(random() * READINGS)], 'a reading (the index is below READINGS)');

/** The next batch: a recorded one, frames (or their observations one record each), or single numeric records cycling through the codes. */
function burstBatch(run: BurstRun): VitalsMessage[] {
  const { opts, batchSize, patients, prefix, random, seqBase, t0 } = run;
  if (run.recorded) {
    const batch = must(run.recorded[run.replayed++ % run.recorded.length], 'a recorded batch (the index is modulo their count)');
    run.next += batch.observations;
    return batch.messages;
  }
  if (opts.frames || opts.monitorRecords) return burstFrames(run);
  const n = Math.min(batchSize, opts.count - run.next);
  const out = new Array<VitalsMessage>(n);
  const now = Date.now();
  const at = new Date(now).toISOString();
  for (let k = 0; k < n; k++) {
    const i = run.next++;
    const patient = i % patients;
    const code = must(
      NUMERIC_CODES[Math.floor(i / patients) % NUMERIC_CODES.length],
      'a numeric vital code (the index is modulo their count)',
    );
    const def = NUMERIC_VITALS[code];
    const patientId = `${prefix}-${patient}`;
    const value = stableReading(code, random);
    const effectiveAt = opts.realTime ? at : new Date(t0 + i).toISOString();
    out[k] = {
      key: patientId,
      value: JSON.stringify({
        patient_id: patientId,
        device_id: `${patientId}-dev`,
        seq: seqBase + i,
        effective_at: effectiveAt,
        code,
        value,
        unit: def.unit,
      }),
    };
  }
  return out;
}

/** A batch of monitor frames (six numerics and the ECG chunk per tick), or the same observations as one record each (monitorRecords). */
function burstFrames(run: BurstRun): VitalsMessage[] {
  const { opts, batchSize, patients, prefix, random, seqBase, t0, ecg, ecgSteps } = run;
  const frameSize = NUMERIC_CODES.length + 1;
  const frames = Math.max(1, Math.floor(Math.min(batchSize, opts.count - run.next) / frameSize));
  const out: VitalsMessage[] = [];
  const now = Date.now();
  for (let f = 0; f < frames; f++) {
    const i = run.next;
    run.next += frameSize;
    const patientId = `${prefix}-${(i / frameSize) % patients}`;
    const at = new Date(opts.realTime ? now : t0 + i).toISOString();
    const observations = NUMERIC_CODES.map((code, k) => ({
      seq: seqBase + i + k,
      code,
      value: stableReading(code, random),
      unit: NUMERIC_VITALS[code].unit,
    }));
    observations.push({ seq: seqBase + i + NUMERIC_CODES.length, ...(opts.monitorRecords ? ecg : ecgSteps) } as never);
    const head = { patient_id: patientId, device_id: `${patientId}-dev`, effective_at: at };
    if (opts.monitorRecords) for (const o of observations) out.push({ key: patientId, value: JSON.stringify({ ...head, ...o }) });
    else out.push({ key: patientId, value: JSON.stringify({ envelope: FRAME_ENVELOPE_V2, ...head, observations }) });
  }
  return out;
}
