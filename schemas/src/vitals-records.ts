/**
 * The records of the observations topic (`vitals.observations.v1`, key = patient id): a single
 * observation (./vitals.ts, the v1 format) or a device frame in a versioned envelope (ADR 0015),
 * and the one decoder the ingest runs on every record.
 *
 * Device frames: one device's observations at one tick (what an HL7 v2 ORU with its OBX segments
 * or an IEEE 11073 SDC metric report carries), as ONE Kafka record on the same topic as single
 * observations, told apart by `envelope`. The frame names patient and device once; each
 * observation keeps its own `seq` (the idempotency key stays (device_id, seq, effective_at)) and
 * takes the frame's `effective_at` unless it names its own (an ECG chunk: its first sample).
 *  - `vitals.frame.v1`: an ECG chunk as a single observation has it, decimal mV relative to an
 *    `origin` (`samples`);
 *  - `vitals.frame.v2` (ADR 0029): an ECG chunk's samples as whole 0.1 µV steps, absolute
 *    (`sample_steps`): the form the append log stores (`sample_steps bytea`, ADR 0028), so nothing
 *    is parsed as a decimal or folded on the way in. Numerics are the same in both versions.
 * A record without `envelope` is a single observation (the v1 format, unchanged).
 */
import { z } from 'zod';
import {
  DEFAULT_CLOCK_LIMITS,
  effectiveAtProblem,
  instantEpochMs,
  judgeEffectiveAt,
  recordNow,
  type ClockLimits,
  type JudgedInstant,
} from './clock';
import { FRAME_ENVELOPE, FRAME_ENVELOPE_V2, MAX_FRAME_OBSERVATIONS } from './frame-envelope';
import { isPlainFrameHead, isPlainNumericFrameItem, isPlainNumericObservation, isPlainStepsChunk } from './plain-records';
import { MAX_SAMPLE_STEPS, stepPotentials, waveformSteps } from './stored-form';
import {
  CLOCK_RULE,
  ecgVariant,
  instant,
  isEcg,
  MAX_WAVEFORM_SAMPLES,
  numericVariants,
  observationIdentityShape,
  parseRecordValue,
  parseWithSamples,
  periodMsSchema,
  seqSchema,
  singleObservation,
  unknownCode,
  variants,
  type ObservationProblem,
  type VitalsObservation,
} from './vitals';

export { FRAME_ENVELOPE, FRAME_ENVELOPE_V2, MAX_FRAME_OBSERVATIONS };
/** Why a record's `envelope` is refused: it names neither frame version. */
const ENVELOPE_REFUSED = `must be ${FRAME_ENVELOPE} or ${FRAME_ENVELOPE_V2}`;
/** Most frames one POST /api/v1/vitals batch may carry. */
export const MAX_FRAMES_PER_BATCH = 500;

/** An observation inside a frame: the frame carries patient and device; the time defaults to the frame's tick. */
const frameItemBaseShape = {
  seq: seqSchema,
  effective_at: instant
    .optional()
    .describe(`When the observation was made, when not the frame's effective_at (an ECG chunk: its first sample). ${CLOCK_RULE}`),
};

export const vitalsFrameItemSchema = z.discriminatedUnion('code', variants(frameItemBaseShape), unknownCode).meta({
  id: 'VitalsFrameObservation',
  title: 'Observation in a vitals frame',
  description:
    "One measurement or ECG chunk of a frame: a VitalsObservation without patient_id and device_id (the frame's), effective_at optional (default: the frame's).",
});
export type VitalsFrameItem = z.infer<typeof vitalsFrameItemSchema>;

const stepRange = `must be a whole number of 0.1 µV steps between ${-MAX_SAMPLE_STEPS} and ${MAX_SAMPLE_STEPS} (±20 mV)`;

/** A v2 frame's ECG chunk: absolute potentials as whole 0.1 µV steps, no origin. */
export const stepsWaveformSchema = z
  .object({
    period_ms: periodMsSchema,
    sample_steps: z
      .array(z.number().int(stepRange).min(-MAX_SAMPLE_STEPS, stepRange).max(MAX_SAMPLE_STEPS, stepRange))
      .min(1, 'must have at least one sample')
      .max(MAX_WAVEFORM_SAMPLES, `must have at most ${MAX_WAVEFORM_SAMPLES} samples`)
      .describe(
        `Absolute potentials as whole numbers of 0.1 µV steps (the potential in mV is step / 10,000), each ${-MAX_SAMPLE_STEPS} to ${MAX_SAMPLE_STEPS} (±20 mV: every potential the append log holds). Stored as sent (the log keeps these steps) and read back on every output as decimal mV, step / 10,000 (e.g. 12345 reads back as 1.2345, origin 0).`,
      ),
  })
  .strict();

export const vitalsFrameV2ItemSchema = z
  .discriminatedUnion(
    'code',
    [...numericVariants(frameItemBaseShape), ecgVariant(frameItemBaseShape, stepsWaveformSchema, 'with samples as whole 0.1 µV steps')],
    unknownCode,
  )
  .meta({
    id: 'VitalsFrameV2Observation',
    title: 'Observation in a vitals frame v2',
    description:
      "One measurement or ECG chunk of a v2 frame: as in a v1 frame (VitalsFrameObservation), except that an ECG chunk's waveform carries sample_steps (whole 0.1 µV steps) instead of origin and samples.",
  });
export type VitalsFrameV2Item = z.infer<typeof vitalsFrameV2ItemSchema>;

const frameHeadShape = {
  ...observationIdentityShape,
  effective_at: instant.describe('The tick: when the device sampled the parameters of this frame'),
};

/** Each seq once per frame (an observation is (device_id, seq, effective_at): a twin would be dropped as a duplicate). */
function repeatedSeqs(items: readonly { seq: number }[]): number[] {
  const seen = new Set<number>();
  const repeated: number[] = [];
  items.forEach((item, i) => {
    if (seen.has(item.seq)) repeated.push(i);
    seen.add(item.seq);
  });
  return repeated;
}

/** A frame of one envelope version over its item schema: at most MAX_FRAME_OBSERVATIONS items, each seq once. */
function frameSchema<E extends string, I extends z.ZodType<{ seq: number }>>(envelope: E, item: I) {
  return z
    .object({
      envelope: z.literal(envelope).describe('Marks a frame record and its version (a record without it is a single VitalsObservation)'),
      ...frameHeadShape,
      observations: z
        .array(item)
        .min(1, 'must have at least one observation')
        .max(MAX_FRAME_OBSERVATIONS, `must have at most ${MAX_FRAME_OBSERVATIONS} observations`),
    })
    .strict()
    .superRefine((frame, ctx) => {
      for (const i of repeatedSeqs(frame.observations))
        ctx.addIssue({ code: 'custom', path: ['observations', i, 'seq'], message: 'must not repeat a seq of the same frame' });
    });
}

export const vitalsFrameSchema = frameSchema(FRAME_ENVELOPE, vitalsFrameItemSchema).meta({
  id: 'VitalsFrame',
  title: 'Vitals frame',
  description: "One device's observations at one tick (numerics and ECG chunks): one Kafka record, envelope vitals.frame.v1.",
});
export type VitalsFrame = z.infer<typeof vitalsFrameSchema>;

export const vitalsFrameV2Schema = frameSchema(FRAME_ENVELOPE_V2, vitalsFrameV2ItemSchema).meta({
  id: 'VitalsFrameV2',
  title: 'Vitals frame v2',
  description:
    "One device's observations at one tick, ECG chunks as whole 0.1 µV steps (sample_steps): one Kafka record, envelope vitals.frame.v2.",
});
export type VitalsFrameV2 = z.infer<typeof vitalsFrameV2Schema>;

/** A frame of either version. */
export type AnyVitalsFrame = VitalsFrame | VitalsFrameV2;

/** A frame of either version, told apart by `envelope` (what POST /api/v1/vitals accepts as a frame). */
export const anyVitalsFrameSchema = z.discriminatedUnion('envelope', [vitalsFrameSchema, vitalsFrameV2Schema], {
  error: (issue: { code?: string }) => (issue.code === 'invalid_union' ? ENVELOPE_REFUSED : undefined),
});

/** The head of a frame with its observations unchecked: the ingest checks them one by one (a bad one is dead-lettered alone). */
export const frameHeadSchema = z
  .object({
    envelope: z.enum([FRAME_ENVELOPE, FRAME_ENVELOPE_V2], { error: ENVELOPE_REFUSED }),
    ...frameHeadShape,
    observations: z
      .array(z.unknown())
      .min(1, 'must have at least one observation')
      .max(MAX_FRAME_OBSERVATIONS, `must have at most ${MAX_FRAME_OBSERVATIONS} observations`),
  })
  .strict();

type FrameHeadData = z.infer<typeof frameHeadSchema>;
type FrameHead = { patient_id: string; device_id: string; effective_at: string };

/**
 * A frame's observation as a whole observation (patient, device and default time from the frame;
 * a v2 ECG chunk with origin 0 and its steps as mV, `steps`). One object literal per variant, no
 * spread: the ingest runs this for every observation of every frame (the items are strict objects).
 */
function observationOfItem(head: FrameHead, item: VitalsFrameItem | VitalsFrameV2Item, steps: Int32Array | null): VitalsObservation {
  const effective_at = item.effective_at ?? head.effective_at;
  if ('waveform' in item) {
    return {
      patient_id: head.patient_id,
      device_id: head.device_id,
      seq: item.seq,
      effective_at,
      code: item.code,
      unit: item.unit,
      waveform:
        'sample_steps' in item.waveform
          ? { origin: 0, period_ms: item.waveform.period_ms, samples: stepPotentials(steps ?? item.waveform.sample_steps) }
          : item.waveform,
    };
  }
  const { code, value, unit } = item as { code: string; value: number; unit: string };
  return { patient_id: head.patient_id, device_id: head.device_id, seq: item.seq, effective_at, code, value, unit } as VitalsObservation;
}

/** An item's stored ECG potentials as whole 0.1 µV steps (a v2 chunk's as sent, a v1 chunk's folded once); null for a numeric. */
function itemSteps(item: VitalsFrameItem | VitalsFrameV2Item): Int32Array | null {
  if (!('waveform' in item)) return null;
  return 'sample_steps' in item.waveform ? Int32Array.from(item.waveform.sample_steps) : waveformSteps(item.waveform);
}

/** A frame's observations (either version) as whole observations, in frame order. */
export function frameObservations(frame: AnyVitalsFrame): VitalsObservation[] {
  return (frame.observations as (VitalsFrameItem | VitalsFrameV2Item)[]).map((item) => observationOfItem(frame, item, null));
}

/** Kafka encoding of a frame: JSON value, key = patient id (the same partition as the patient's single observations). */
export function encodeFrame(frame: AnyVitalsFrame): { key: string; value: string } {
  return { key: frame.patient_id, value: JSON.stringify(frame) };
}

const problemText = (prefix: string, issues: readonly { path: PropertyKey[]; message: string }[]) =>
  issues.map((issue) => `${[prefix, ...issue.path.map(String)].filter(Boolean).join('.') || '(root)'}: ${issue.message}`).join('; ');

/** The clock a record is judged by (./clock.ts): `now` from `recordNow` (the record's timestamp), and the limits. */
export interface RecordClock {
  now: number;
  limits: ClockLimits;
}

/** The clock the ingest judges a Kafka record by: its timestamp (`recordNow`), the wall clock only when that is missing or itself ahead. */
export function recordClock(
  timestamp: string | number | undefined,
  limits: ClockLimits = DEFAULT_CLOCK_LIMITS,
  wallNow = Date.now(),
): RecordClock {
  return { now: recordNow(timestamp, wallNow, limits), limits };
}

/** An observation's effective time out of bounds at `clock.now`, as a problem on `effective_at`; or none. */
export function observationClockProblems(o: { effective_at: string }, clock: RecordClock): ObservationProblem[] {
  const message = effectiveAtProblem(o.effective_at, clock.now, clock.limits);
  return message ? [{ path: 'effective_at', message }] : [];
}

/**
 * A frame's effective times out of bounds at `clock.now`: the tick (`effective_at`; the default of
 * every observation without its own) and each observation's own (`observations.<i>.effective_at`).
 */
export function frameClockProblems(
  frame: { effective_at: string; observations: readonly unknown[] },
  clock: RecordClock,
): ObservationProblem[] {
  const problems = observationClockProblems(frame, clock);
  frame.observations.forEach((item, i) => {
    const at = (item as { effective_at?: unknown } | null)?.effective_at;
    if (typeof at !== 'string') return;
    const message = effectiveAtProblem(at, clock.now, clock.limits);
    if (message) problems.push({ path: `observations.${i}.effective_at`, message });
  });
  return problems;
}

/** One good observation of a decoded record. */
export interface DecodedObservation {
  /** Its index in the record (a frame's observation index; 0 for a single observation). */
  item: number;
  observation: VitalsObservation;
  /**
   * An ECG chunk's stored potentials as whole 0.1 µV steps, derived once here (a v2 chunk's as
   * sent, a v1 chunk's origin + samples folded: `waveformSteps`); the ingest writes the stored bytes
   * and the live text from them. Null for a numeric.
   */
  steps: Int32Array | null;
  /** Its effective time as whole ms since the epoch, read once by the decoder (the clock check, the alarm timing, the latency). */
  effectiveMs: number;
}

/**
 * A Kafka record decoded: its good observations with their index in the record and the frame's bad
 * observations, each named by index with its reason; or, when the record as a whole is unusable,
 * the reason. Never throws.
 */
export type DecodedRecord =
  | { ok: true; frame: boolean; observations: DecodedObservation[]; invalid: { item: number; reason: string }[] }
  | { ok: false; reason: string };

/**
 * With `clock` (the ingest passes the record's: `recordNow`), an effective time out of its bounds
 * (./clock.ts) makes a single observation or a frame's tick unusable (`clock-out-of-bounds: …`,
 * `frame-invalid: effective_at: …`) and a frame's observation with its own time invalid alone.
 */
export function decodeRecord(value: Buffer | string | null | undefined, clock?: RecordClock): DecodedRecord {
  const json = parseRecordValue(value);
  if (!json.ok) return json;
  const { parsed } = json;
  if (parsed === null || typeof parsed !== 'object' || !Object.hasOwn(parsed, 'envelope')) return decodeSingle(parsed, clock);
  // The compiled checks (./plain-records.ts) take what zod would accept unchanged; zod explains the rest.
  const head = isPlainFrameHead(parsed) ? { success: true as const, data: parsed as FrameHeadData } : frameHeadSchema.safeParse(parsed);
  if (!head.success) return { ok: false, reason: `frame-invalid: ${problemText('', head.error.issues)}` };
  const tick = judged(head.data.effective_at, clock);
  if (tick.problem) return { ok: false, reason: `frame-invalid: effective_at: ${tick.problem}` };
  const v2 = head.data.envelope === FRAME_ENVELOPE_V2;
  const itemSchema = v2 ? vitalsFrameV2ItemSchema : vitalsFrameItemSchema;
  const observations: DecodedObservation[] = [];
  const invalid: { item: number; reason: string }[] = [];
  const seqs = new Set<number>();
  head.data.observations.forEach((raw, item) => {
    const result =
      isPlainNumericFrameItem(raw) || (v2 && isPlainStepsChunk(raw))
        ? { success: true as const, data: raw as VitalsFrameItem | VitalsFrameV2Item }
        : parseWithSamples<VitalsFrameItem | VitalsFrameV2Item>(itemSchema, raw);
    if (!result.success) {
      invalid.push({ item, reason: `observations.${item} schema-invalid: ${problemText(`observations.${item}`, result.error.issues)}` });
      return;
    }
    const own = result.data.effective_at === undefined ? tick : judged(result.data.effective_at, clock);
    if (own.problem)
      invalid.push({ item, reason: `observations.${item} clock-out-of-bounds: observations.${item}.effective_at: ${own.problem}` });
    else if (seqs.has(result.data.seq)) invalid.push({ item, reason: `observations.${item}.seq: must not repeat a seq of the same frame` });
    else {
      seqs.add(result.data.seq);
      const steps = itemSteps(result.data);
      observations.push({ item, observation: observationOfItem(head.data, result.data, steps), steps, effectiveMs: own.ms });
    }
  });
  return { ok: true, frame: true, observations, invalid };
}

/** An effective time judged by the record's clock (`judgeEffectiveAt`), or only read without one. */
function judged(effectiveAt: string, clock: RecordClock | undefined): JudgedInstant {
  return clock ? judgeEffectiveAt(effectiveAt, clock.now, clock.limits) : { ms: instantEpochMs(effectiveAt), problem: undefined };
}

/** A record without an envelope: one v1 observation, judged by the clock as a whole. */
function decodeSingle(parsed: unknown, clock: RecordClock | undefined): DecodedRecord {
  const single = isPlainNumericObservation(parsed)
    ? { ok: true as const, observation: parsed as VitalsObservation }
    : singleObservation(parsed);
  if (!single.ok) return single;
  const { observation } = single;
  const at = judged(observation.effective_at, clock);
  if (at.problem) return { ok: false, reason: `clock-out-of-bounds: effective_at: ${at.problem}` };
  return {
    ok: true,
    frame: false,
    observations: [{ item: 0, observation, steps: isEcg(observation) ? waveformSteps(observation.waveform) : null, effectiveMs: at.ms }],
    invalid: [],
  };
}
