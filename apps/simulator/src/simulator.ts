/**
 * The bedside simulator: N patients, each with a monitor (numeric vitals at SIM_RATE_HZ per code)
 * and an ECG (lead II, 250 Hz, one chunk per second), published straight to Kafka with kafkajs
 * (JSON value, key = patient id). Also `burst()`: N observations as fast as possible, for benchmarks.
 * With traces on (OTEL_EXPORTER_OTLP_ENDPOINT), each send is a PRODUCER span, its traceparent in
 * every record's headers, as a device gateway would send them (@vitalis/kafka sendTraced).
 */
import type { Kafka, Message, Producer } from 'kafkajs';
import { createVitalsProducer, sendTraced, TOPICS } from '@vitalis/kafka';
import { TRACING_OFF, type Tracing } from '@vitalis/tracing';
import type { Logger } from '@vitalis/log';
import { ECG_LEAD_II, encodeObservation, NUMERIC_VITALS, VITAL_CODE, type NumericVitalCode, type VitalsObservation } from '@vitalis/schemas';
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

/** Runs until stop(); returns a handle with counters. */
export async function runSimulator(opts: SimulatorOptions): Promise<{ stop: () => Promise<void>; sent: () => number }> {
  const topic = opts.topic ?? TOPICS.vitalsObservations;
  const producer = createProducer(opts.kafka);
  await producer.connect();
  const start = Date.now();
  const chunk = opts.ecgChunkSamples ?? ECG_HZ;
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

  let sent = 0;
  let stopped = false;
  let inFlight: Promise<unknown> = Promise.resolve();

  const tickNumeric = async () => {
    const now = Date.now();
    const at = new Date(now).toISOString();
    const messages: Message[] = [];
    for (const p of patients) {
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
    await sendTraced(producer, { topic, acks: -1, messages }, opts.tracing ?? TRACING_OFF);
    sent += messages.length;
  };

  const tickEcg = async () => {
    const now = Date.now();
    const messages: Message[] = [];
    for (const p of patients) {
      // publish every whole chunk whose last sample is in the past
      while (p.ecgNextMs + chunk * ECG_PERIOD_MS <= now) {
        const bpm = trend(p.profile, p.ecgNextMs)[VITAL_CODE.heartRate];
        const { samples, phase } = ecgChunk(chunk, bpm, p.ecgPhase, p.random);
        p.ecgPhase = phase;
        const o: VitalsObservation = {
          patient_id: p.profile.patientId,
          device_id: p.ecg.id,
          seq: p.ecg.seq++,
          effective_at: new Date(p.ecgNextMs).toISOString(),
          code: ECG_LEAD_II.code,
          unit: 'mV',
          waveform: { origin: 0, period_ms: ECG_PERIOD_MS, samples },
        };
        messages.push(encodeObservation(o));
        p.ecgNextMs += chunk * ECG_PERIOD_MS;
      }
    }
    if (messages.length > 0) {
      await sendTraced(producer, { topic, acks: -1, messages }, opts.tracing ?? TRACING_OFF);
      sent += messages.length;
    }
  };

  const guard = (what: string, fn: () => Promise<void>) => () => {
    if (stopped) return;
    inFlight = fn().catch((err) => opts.logger.error({ err }, `${what} publish failed`));
  };
  const numericTimer = setInterval(guard('vitals', tickNumeric), Math.max(1, Math.round(1000 / opts.rateHz)));
  const ecgTimer = opts.ecg ? setInterval(guard('ecg', tickEcg), 200) : undefined;

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
  /** A span per send (default off). */
  tracing?: Tracing;
}

export interface BurstResult {
  sent: number;
  ms: number;
  perSecond: number;
}

/** Produces `count` observations as fast as possible (or until durationMs); returns the rate. */
export async function burst(opts: BurstOptions): Promise<BurstResult> {
  const topic = opts.topic ?? TOPICS.vitalsObservations;
  const patients = opts.patients ?? 200;
  const prefix = opts.patientPrefix ?? `burst-${Date.now().toString(36)}`;
  const batchSize = opts.batchSize ?? 2_000;
  // The burst producer is not idempotent so several requests may be in flight at once (kafkajs
  // allows only one for the idempotent producer); acks=all still holds, and a retried duplicate
  // would be absorbed by the idempotent append log anyway.
  const producer = createVitalsProducer(opts.kafka, { retries: 'unbounded', idempotent: false });
  await producer.connect();
  const random = rng(7);
  const seqBase = seqSeed();
  const t0 = Date.now();
  const deadline = opts.durationMs ? t0 + opts.durationMs : Infinity;
  let next = 0;
  let sent = 0;
  const makeBatch = (): Message[] => {
    const n = Math.min(batchSize, opts.count - next);
    const out = new Array<Message>(n);
    const now = Date.now();
    const at = new Date(now).toISOString();
    for (let k = 0; k < n; k++) {
      const i = next++;
      const patient = i % patients;
      const code = NUMERIC_CODES[Math.floor(i / patients) % NUMERIC_CODES.length]!;
      const def = NUMERIC_VITALS[code];
      const patientId = `${prefix}-${patient}`;
      const value = Math.round(def.min + (def.max - def.min) * (0.3 + 0.4 * random()));
      const effectiveAt = opts.realTime ? at : new Date(t0 + i).toISOString();
      out[k] = {
        key: patientId,
        value: JSON.stringify({ patient_id: patientId, device_id: `${patientId}-dev`, seq: seqBase + i, effective_at: effectiveAt, code, value, unit: def.unit }),
      };
    }
    return out;
  };
  const lane = async () => {
    while (next < opts.count && Date.now() < deadline) {
      if (opts.ratePerSecond) {
        const due = t0 + (next / opts.ratePerSecond) * 1000;
        if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
        if (next >= opts.count || Date.now() >= deadline) break;
      }
      const messages = makeBatch();
      await sendTraced(producer, { topic, acks: -1, messages }, opts.tracing ?? TRACING_OFF);
      sent += messages.length;
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 4 }, lane));
  await producer.disconnect();
  const ms = Date.now() - t0;
  return { sent, ms, perSecond: Math.round((sent * 1000) / Math.max(ms, 1)) };
}
