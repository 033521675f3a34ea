/**
 * The bedside simulator: N patients, each with a monitor (numeric vitals at SIM_RATE_HZ per code)
 * and an ECG (lead II, 250 Hz, one chunk per second), published straight to Kafka by the vitals
 * producer (@vitalis/kafka `createVitalsProducer`; JSON value, key = patient id). By default the
 * monitor emits what bedside monitors send: one frame per tick (ADR 0015) with all its numerics and
 * the ECG chunks completed since the last one, in the v2 envelope (ADR 0029: a chunk's samples as
 * whole 0.1 µV steps, as a front end's ADC counts them); with `frames: false`, one record per
 * observation (the v1 format; the ECG from its own device).
 * The benchmarks' bursts (as fast as possible, paced, recorded, replayed) are in burst.ts.
 * With traces on (OTEL_EXPORTER_OTLP_ENDPOINT), each send is a PRODUCER span, its traceparent in
 * every record's headers, as a device gateway would send them (@vitalis/kafka sendTraced).
 */
import { createVitalsProducer, sendTraced, TOPICS, type VitalisKafka, type VitalsMessage, type VitalsProducer } from '@vitalis/kafka';
import { TRACING_OFF, type Tracing } from '@vitalis/tracing';
import type { Logger } from '@vitalis/log';
import {
  ECG_LEAD_II,
  encodeFrame,
  encodeObservation,
  FRAME_ENVELOPE_V2,
  NUMERIC_VITALS,
  potentialStep,
  VITAL_CODE,
  type NumericVitalCode,
  type VitalsFrameV2Item,
  type VitalsObservation,
} from '@vitalis/schemas';
import { ECG_HZ, ECG_PERIOD_MS, ecgChunk, makeProfile, rng, sampleVital, trend, type PatientProfile } from '@vitalis/clinical';
import { demoPatientId, seqSeed } from './signals';

const NUMERIC_CODES = Object.keys(NUMERIC_VITALS) as NumericVitalCode[];

export interface SimulatorOptions {
  kafka: VitalisKafka;
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

export function createProducer(kafka: VitalisKafka): VitalsProducer {
  // The vitals producer contract (libs/kafka): acks=all, one request in flight, the Java-compatible partitioner.
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
  send: (messages: VitalsMessage[]) => Promise<void>;
}

/** The ECG chunks of a patient whose last sample is in the past (as frame items of `device`). */
function dueEcgChunks(p: SimPatient, now: number, device: Device, chunk: number): VitalsFrameV2Item[] {
  const items: VitalsFrameV2Item[] = [];
  while (p.ecgNextMs + chunk * ECG_PERIOD_MS <= now) {
    const bpm = trend(p.profile, p.ecgNextMs)[VITAL_CODE.heartRate];
    const { samples, phase } = ecgChunk(chunk, bpm, p.ecgPhase, p.random);
    p.ecgPhase = phase;
    items.push({
      seq: device.seq++,
      effective_at: new Date(p.ecgNextMs).toISOString(),
      code: ECG_LEAD_II.code,
      unit: 'mV',
      waveform: { period_ms: ECG_PERIOD_MS, sample_steps: samples.map((s) => potentialStep(0, s)) },
    });
    p.ecgNextMs += chunk * ECG_PERIOD_MS;
  }
  return items;
}

/** One frame per patient (its monitor's numeric vitals, and its due ECG chunks when on); the observations sent. */
async function tickFrames(run: SimRun): Promise<number> {
  const now = Date.now();
  const at = new Date(now).toISOString();
  const messages: VitalsMessage[] = [];
  let observations = 0;
  for (const p of run.patients) {
    const items: VitalsFrameV2Item[] = NUMERIC_CODES.map(
      (code) =>
        ({
          seq: p.monitor.seq++,
          code,
          value: sampleVital(p.profile, code, now, p.random),
          unit: NUMERIC_VITALS[code].unit,
        }) as VitalsFrameV2Item,
    );
    if (run.ecg) items.push(...dueEcgChunks(p, now, p.monitor, run.chunk));
    messages.push(
      encodeFrame({
        envelope: FRAME_ENVELOPE_V2,
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
  const messages: VitalsMessage[] = [];
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
  const messages: VitalsMessage[] = [];
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
