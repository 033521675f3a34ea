/**
 * The bedside simulator: N patients, each with a monitor (numeric vitals at SIM_RATE_HZ per code)
 * and an ECG (lead II, 250 Hz, one chunk per second), published straight to Kafka with kafkajs
 * (JSON value, key = patient id). By default the monitor emits what bedside monitors send: one
 * frame per tick (ADR 0015) with all its numerics and the ECG chunks completed since the last one;
 * with `frames: false`, one record per observation (the v1 format; the ECG from its own device).
 * Also `burst()`: N observations as fast as possible, for benchmarks (frames or single records).
 * With traces on (OTEL_EXPORTER_OTLP_ENDPOINT), each send is a PRODUCER span, its traceparent in
 * every record's headers, as a device gateway would send them (@vitalis/kafka sendTraced).
 */
import type { Kafka, Message, Producer } from 'kafkajs';
import { must } from '@vitalis/runtime';
import { createVitalsProducer, sendTraced, TOPICS } from '@vitalis/kafka';
import { TRACING_OFF, type Tracing } from '@vitalis/tracing';
import type { Logger } from '@vitalis/log';
import {
  ECG_LEAD_II,
  encodeFrame,
  encodeObservation,
  FRAME_ENVELOPE,
  NUMERIC_VITALS,
  VITAL_CODE,
  type NumericVitalCode,
  type VitalsFrameItem,
  type VitalsObservation,
} from '@vitalis/schemas';
import { ECG_HZ, ECG_PERIOD_MS, ecgChunk, makeProfile, rng, sampleVital, trend, type PatientProfile } from '@vitalis/clinical';
import { demoPatientId, seqSeed } from './signals';

const NUMERIC_CODES = Object.keys(NUMERIC_VITALS) as NumericVitalCode[];

export interface SimulatorOptions {
  kafka: Kafka;
  logger: Logger;
  topic?: string;
  patients: number;
  rateHz: number;
  deterioratingFraction: number;
  ecg: boolean;
  /** One frame per monitor per tick (default), or one record per observation. */
  frames?: boolean;
  /** Samples per ECG chunk (250 = one second). */
  ecgChunkSamples?: number;
  seed?: number;
  /** Patient ids (default pat-0001 ...). */
  patientId?: (index: number) => string;
  /** A span per send (default off). */
  tracing?: Tracing;
}

export interface Device {
  id: string;
  seq: number;
}

export function createProducer(kafka: Kafka): Producer {
  // The vitals producer contract (libs/kafka): acks=all, idempotent, the Java-compatible partitioner.
  return createVitalsProducer(kafka, { retries: 'unbounded' });
}

interface SimPatient {
  profile: PatientProfile;
  monitor: Device;
  ecg: Device;
  random: () => number;
  ecgPhase: number;
  /** Time (ms) of the next ECG sample to publish. */
  ecgNextMs: number;
}

/** What a tick needs: the patients, the ECG chunk size (samples), and how a batch of messages is sent. */
interface SimRun {
  patients: SimPatient[];
  chunk: number;
  ecg: boolean;
  send: (messages: Message[]) => Promise<void>;
}

/** The ECG chunks of a patient whose last sample is in the past (as frame items of `device`). */
function dueEcgChunks(p: SimPatient, now: number, device: Device, chunk: number): VitalsFrameItem[] {
  const items: VitalsFrameItem[] = [];
  while (p.ecgNextMs + chunk * ECG_PERIOD_MS <= now) {
    const bpm = trend(p.profile, p.ecgNextMs)[VITAL_CODE.heartRate];
    const { samples, phase } = ecgChunk(chunk, bpm, p.ecgPhase, p.random);
    p.ecgPhase = phase;
    items.push({
      seq: device.seq++,
      effective_at: new Date(p.ecgNextMs).toISOString(),
      code: ECG_LEAD_II.code,
      unit: 'mV',
      waveform: { origin: 0, period_ms: ECG_PERIOD_MS, samples },
    });
    p.ecgNextMs += chunk * ECG_PERIOD_MS;
  }
  return items;
}

/** One frame per patient (its monitor's numeric vitals, and its due ECG chunks when on); the observations sent. */
async function tickFrames(run: SimRun): Promise<number> {
  const now = Date.now();
  const at = new Date(now).toISOString();
  const messages: Message[] = [];
  let observations = 0;
  for (const p of run.patients) {
    const items: VitalsFrameItem[] = NUMERIC_CODES.map(
      (code) =>
        ({
          seq: p.monitor.seq++,
          code,
          value: sampleVital(p.profile, code, now, p.random),
          unit: NUMERIC_VITALS[code].unit,
        }) as VitalsFrameItem,
    );
    if (run.ecg) items.push(...dueEcgChunks(p, now, p.monitor, run.chunk));
    messages.push(
      encodeFrame({
        envelope: FRAME_ENVELOPE,
        patient_id: p.profile.patientId,
        device_id: p.monitor.id,
        effective_at: at,
        observations: items,
      }),
    );
    observations += items.length;
  }
  await run.send(messages);
  return observations;
}

/** One message per numeric vital of every patient's monitor; the observations sent. */
async function tickNumeric(run: SimRun): Promise<number> {
  const now = Date.now();
  const at = new Date(now).toISOString();
  const messages: Message[] = [];
  for (const p of run.patients) {
    for (const code of NUMERIC_CODES) {
      const o: VitalsObservation = {
        patient_id: p.profile.patientId,
        device_id: p.monitor.id,
        seq: p.monitor.seq++,
        effective_at: at,
        code,
        value: sampleVital(p.profile, code, now, p.random),
        unit: NUMERIC_VITALS[code].unit,
      } as VitalsObservation;
      messages.push(encodeObservation(o));
    }
  }
  await run.send(messages);
  return messages.length;
}

/** One message per due ECG chunk of every patient's ECG device (every whole chunk whose last sample is in the past); the observations sent. */
async function tickEcg(run: SimRun): Promise<number> {
  const now = Date.now();
  const messages: Message[] = [];
  for (const p of run.patients) {
    for (const item of dueEcgChunks(p, now, p.ecg, run.chunk)) {
      const o = { patient_id: p.profile.patientId, device_id: p.ecg.id, ...item } as VitalsObservation;
      messages.push(encodeObservation(o));
    }
  }
  if (messages.length > 0) await run.send(messages);
  return messages.length;
}

/** Runs until stop(); returns a handle with counters. */
export async function runSimulator(opts: SimulatorOptions): Promise<{ stop: () => Promise<void>; sent: () => number }> {
  const topic = opts.topic ?? TOPICS.vitalsObservations;
  const producer = createProducer(opts.kafka);
  await producer.connect();
  const start = Date.now();
  const idOf = opts.patientId ?? demoPatientId;
  const deteriorating = Math.round(opts.patients * opts.deterioratingFraction);
  const patients: SimPatient[] = Array.from({ length: opts.patients }, (_, i) => {
    const id = idOf(i);
    return {
      profile: makeProfile(id, (opts.seed ?? 42) + i, i < deteriorating, start),
      monitor: { id: `${id}-monitor`, seq: seqSeed(start) },
      ecg: { id: `${id}-ecg`, seq: seqSeed(start) },
      random: rng((opts.seed ?? 42) * 7919 + i),
      ecgPhase: 0,
      ecgNextMs: start,
    };
  });
  opts.logger.info({ patients: opts.patients, deteriorating, rateHz: opts.rateHz, ecg: opts.ecg }, 'simulator running');
  const run: SimRun = {
    patients,
    chunk: opts.ecgChunkSamples ?? ECG_HZ,
    ecg: opts.ecg,
    send: (messages) => sendTraced(producer, { topic, acks: -1, messages }, opts.tracing ?? TRACING_OFF).then(() => undefined),
  };

  let sent = 0;
  let stopped = false;
  let inFlight: Promise<unknown> = Promise.resolve();
  const guard = (what: string, tick: (run: SimRun) => Promise<number>) => () => {
    if (stopped) return;
    inFlight = tick(run)
      .then((n) => void (sent += n))
      .catch((err) => opts.logger.error({ err }, `${what} publish failed`));
  };
  const frames = opts.frames ?? true;
  const numericTimer = setInterval(guard('vitals', frames ? tickFrames : tickNumeric), Math.max(1, Math.round(1000 / opts.rateHz)));
  const ecgTimer = opts.ecg && !frames ? setInterval(guard('ecg', tickEcg), 200) : undefined;

  return {
    sent: () => sent,
    stop: async () => {
      stopped = true;
      clearInterval(numericTimer);
      if (ecgTimer) clearInterval(ecgTimer);
      await inFlight;
      await producer.disconnect();
    },
  };
}

export interface BurstOptions {
  kafka: Kafka;
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
  /** Concurrent sends in flight (each a separate request; the idempotent producer keeps order per partition). */
  concurrency?: number;
  /** effective_at = now (for lag measurement) instead of a synthetic clock. */
  realTime?: boolean;
  /** Pace the burst to this many observations per second (steady-state measurements). */
  ratePerSecond?: number;
  /**
   * One frame per record, as monitors send them (ADR 0015): each patient's six numerics and a 1 s
   * ECG chunk (250 samples) at one tick; `count` still counts observations. Default: one record each.
   */
  frames?: boolean;
  /** The same monitor data as `frames` (six numerics and a 1 s ECG chunk per tick), one record per observation: the A/B for frames. */
  monitorRecords?: boolean;
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
  next: number;
  sent: number;
}

/** Produces `count` observations as fast as possible (or until durationMs); returns the rate. */
export async function burst(opts: BurstOptions): Promise<BurstResult> {
  const topic = opts.topic ?? TOPICS.vitalsObservations;
  // The burst producer is not idempotent so several requests may be in flight at once (kafkajs
  // allows only one for the idempotent producer); acks=all still holds, and a retried duplicate
  // would be absorbed by the idempotent append log anyway.
  const prefix = opts.patientPrefix ?? `burst-${Date.now().toString(36)}`;
  const producer = createVitalsProducer(opts.kafka, { retries: 'unbounded', idempotent: false });
  await producer.connect();
  const t0 = Date.now();
  const run: BurstRun = {
    opts,
    patients: opts.patients ?? 200,
    prefix,
    batchSize: opts.batchSize ?? 2_000,
    random: rng(7),
    seqBase: seqSeed(),
    t0,
    deadline: opts.durationMs ? t0 + opts.durationMs : Infinity,
    ecg: {
      code: ECG_LEAD_II.code,
      unit: 'mV',
      waveform: { origin: 0, period_ms: ECG_PERIOD_MS, samples: ecgChunk(ECG_HZ, 72, 0, rng(3)).samples },
    },
    next: 0,
    sent: 0,
  };
  const send = (messages: Message[]) => sendTraced(producer, { topic, acks: -1, messages }, opts.tracing ?? TRACING_OFF);
  await Promise.all(Array.from({ length: opts.concurrency ?? 4 }, () => burstLane(run, send)));
  await producer.disconnect();
  const ms = Date.now() - t0;
  return { sent: run.sent, ms, perSecond: Math.round((run.sent * 1000) / Math.max(ms, 1)) };
}

/** One lane: builds and sends batches (paced to ratePerSecond, if set) until the count or the deadline is reached. */
async function burstLane(run: BurstRun, send: (messages: Message[]) => Promise<unknown>): Promise<void> {
  const { opts, t0, deadline } = run;
  while (run.next < opts.count && Date.now() < deadline) {
    if (opts.ratePerSecond) {
      const due = t0 + (run.next / opts.ratePerSecond) * 1000;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      if (run.next >= opts.count || Date.now() >= deadline) break;
    }
    const before = run.next;
    const messages = burstBatch(run);
    const observations = run.next - before; // before the await: the other lanes move `next` meanwhile
    await send(messages);
    run.sent += observations;
  }
}

/** The next batch: frames (or their observations one record each), or single numeric records cycling through the codes. */
function burstBatch(run: BurstRun): Message[] {
  const { opts, batchSize, patients, prefix, random, seqBase, t0 } = run;
  if (opts.frames || opts.monitorRecords) return burstFrames(run);
  const n = Math.min(batchSize, opts.count - run.next);
  const out = new Array<Message>(n);
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
    const value = Math.round(def.min + (def.max - def.min) * (0.3 + 0.4 * random()));
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
function burstFrames(run: BurstRun): Message[] {
  const { opts, batchSize, patients, prefix, random, seqBase, t0, ecg } = run;
  const frameSize = NUMERIC_CODES.length + 1;
  const frames = Math.max(1, Math.floor(Math.min(batchSize, opts.count - run.next) / frameSize));
  const out: Message[] = [];
  const now = Date.now();
  for (let f = 0; f < frames; f++) {
    const i = run.next;
    run.next += frameSize;
    const patientId = `${prefix}-${(i / frameSize) % patients}`;
    const at = new Date(opts.realTime ? now : t0 + i).toISOString();
    const observations = NUMERIC_CODES.map((code, k) => {
      const def = NUMERIC_VITALS[code];
      return { seq: seqBase + i + k, code, value: Math.round(def.min + (def.max - def.min) * (0.3 + 0.4 * random())), unit: def.unit };
    });
    observations.push({ seq: seqBase + i + NUMERIC_CODES.length, ...ecg } as never);
    const head = { patient_id: patientId, device_id: `${patientId}-dev`, effective_at: at };
    if (opts.monitorRecords) for (const o of observations) out.push({ key: patientId, value: JSON.stringify({ ...head, ...o }) });
    else out.push({ key: patientId, value: JSON.stringify({ envelope: FRAME_ENVELOPE, ...head, observations }) });
  }
  return out;
}
