/**
 * The vitals observation: one measurement (or one ECG waveform chunk) from one device about one
 * patient. This is the wire format on Kafka (`vitals.observations.v1`, JSON value, key = patient id)
 * and the item format of `POST /api/v1/vitals`. Shaped after FHIR R4 vital signs; `toFhirObservation`
 * (./fhir.ts) maps it to an R4 `Observation` resource.
 *
 * Codes:
 * - Numeric vital signs use the LOINC codes of the FHIR R4 vital signs profiles, each with exactly
 *   one UCUM unit (a wrong unit for a code is invalid, not converted) and a plausible
 *   physiological range (values outside it are device faults or typos, refused, never clamped).
 * - The ECG uses ISO/IEEE 11073-10101 (MDC) 131330 `MDC_ECG_ELEC_POTL_II`, lead II potential in mV,
 *   as the FHIR R4 ECG example (`observation-example-sample-data`) does for its leads (131329 is lead I,
 *   131389 lead III). LOINC has no single-lead waveform code with that precision (76282-3 is a
 *   "heart rate rhythm" code, not a sampled potential), and the device world (IEEE 11073, HL7 PoCD IG)
 *   speaks MDC for waveforms.
 *
 * Idempotency: (device_id, seq, effective_at) identifies an observation. A device numbers its
 * observations with a strictly increasing `seq`; resending the same observation stores it once.
 *
 * Long: a data table: one entry per vital sign (its code, label, units, FHIR profile and ranges) and the wire schemas built from it; splitting it would spread one definition per sign over files.
 */
import { z } from 'zod';
import { DEFAULT_CLOCK_LIMITS, effectiveAtProblem, recordNow, type ClockLimits } from './clock';
import { isFloat4Exact } from './stored-form';
import { resourceId } from './fhir-primitives';

export const LOINC_SYSTEM = 'http://loinc.org';
export const MDC_SYSTEM = 'urn:oid:2.16.840.1.113883.6.24';
export const UCUM_SYSTEM = 'http://unitsofmeasure.org';

/**
 * LOINC 85354-9, the blood-pressure panel the R4 vital-signs `bp` profile fixes as the code: not a
 * stored code (devices send systolic and diastolic apart), the FHIR read side pairs them into it.
 */
export const BP_PANEL_CODE = '85354-9';

/**
 * The vital codes by name: the one place in the TypeScript tree a vital code is written. NEWS2,
 * the alert rules, the simulator, the catalog, the UI cards and the clients refer to a code by its
 * name here (test/unit/clinical/codes.test.ts fails on a code literal anywhere else), so a code is
 * never retyped and a table keyed by code cannot miss or misspell one.
 */
export const VITAL_CODE = {
  heartRate: '8867-4',
  spo2: '59408-5',
  systolic: '8480-6',
  diastolic: '8462-4',
  respiratoryRate: '9279-1',
  temperature: '8310-5',
  ecgLeadII: '131330',
} as const;

export type VitalName = keyof typeof VITAL_CODE;

/**
 * One vital sign, everything every part of Vitalis says about it: its code, names, units, FHIR
 * profile and plausible range. The wire validation (the range and the unit), the FHIR mapping
 * (profile, quantity unit), the UI cards (label, screen unit) and the alarm messages (screen unit)
 * derive from here; the clinical bands (NEWS2) and the alarm and staleness thresholds are clinical
 * policy and live in @vitalis/clinical, keyed by the same code.
 */
export interface VitalDefinition {
  code: string;
  system: string;
  /** A sampled value (one number) or a waveform chunk (samples): which shape the observation has. */
  kind: 'numeric' | 'waveform';
  /** The code system's display (LOINC long common name; the MDC reference id for ECG). */
  display: string;
  /** Short name for APIs, logs and the simulator. */
  key: string;
  /** The short label on a screen (a tile, a column): "HR", "SpO₂". */
  label: string;
  /** The one accepted UCUM unit. */
  unit: string;
  /** The unit as a person reads it on a screen and in a message ("mmHg", "°C"; UCUM's `mm[Hg]`, `Cel` are not). */
  screenUnit: string;
  /** The FHIR Quantity's `unit` (its human-readable form, beside the UCUM `code`), as the R4 vital signs examples write it. */
  quantityUnit: string;
  /** The R4 vital signs profile the Observation claims, for the signs that have a dedicated one (not the blood pressure parts). */
  fhirProfile?: string;
  /** Inclusive plausible range in `unit`. */
  min: number;
  max: number;
}

export interface NumericVitalDefinition extends VitalDefinition {
  system: typeof LOINC_SYSTEM;
  kind: 'numeric';
}

const R4_PROFILE = 'http://hl7.org/fhir/StructureDefinition/';

const C = VITAL_CODE;

/** Numeric vital signs, keyed by LOINC code. Ranges are "physiologically possible", not "normal". */
export const NUMERIC_VITALS = {
  [C.heartRate]: {
    code: C.heartRate,
    system: LOINC_SYSTEM,
    kind: 'numeric',
    display: 'Heart rate',
    key: 'heart_rate',
    label: 'HR',
    unit: '/min',
    screenUnit: '/min',
    quantityUnit: 'beats/minute',
    fhirProfile: `${R4_PROFILE}heartrate`,
    min: 0,
    max: 350,
  },
  [C.spo2]: {
    code: C.spo2,
    system: LOINC_SYSTEM,
    kind: 'numeric',
    display: 'Oxygen saturation in Arterial blood by Pulse oximetry',
    key: 'spo2',
    label: 'SpO₂',
    unit: '%',
    screenUnit: '%',
    quantityUnit: '%',
    fhirProfile: `${R4_PROFILE}oxygensat`,
    min: 0,
    max: 100,
  },
  [C.systolic]: {
    code: C.systolic,
    system: LOINC_SYSTEM,
    kind: 'numeric',
    display: 'Systolic blood pressure',
    key: 'systolic_bp',
    label: 'Sys',
    unit: 'mm[Hg]',
    screenUnit: 'mmHg',
    quantityUnit: 'mmHg',
    min: 20,
    max: 300,
  },
  [C.diastolic]: {
    code: C.diastolic,
    system: LOINC_SYSTEM,
    kind: 'numeric',
    display: 'Diastolic blood pressure',
    key: 'diastolic_bp',
    label: 'Dia',
    unit: 'mm[Hg]',
    screenUnit: 'mmHg',
    quantityUnit: 'mmHg',
    min: 10,
    max: 250,
  },
  [C.respiratoryRate]: {
    code: C.respiratoryRate,
    system: LOINC_SYSTEM,
    kind: 'numeric',
    display: 'Respiratory rate',
    key: 'respiratory_rate',
    label: 'RR',
    unit: '/min',
    screenUnit: '/min',
    quantityUnit: 'breaths/minute',
    fhirProfile: `${R4_PROFILE}resprate`,
    min: 0,
    max: 100,
  },
  [C.temperature]: {
    code: C.temperature,
    system: LOINC_SYSTEM,
    kind: 'numeric',
    display: 'Body temperature',
    key: 'body_temperature',
    label: 'Temp',
    unit: 'Cel',
    screenUnit: '°C',
    quantityUnit: 'C',
    fhirProfile: `${R4_PROFILE}bodytemp`,
    min: 20,
    max: 46,
  },
} as const satisfies Record<string, NumericVitalDefinition>;

export type NumericVitalCode = keyof typeof NUMERIC_VITALS;

export const ECG_LEAD_II = {
  code: C.ecgLeadII,
  system: MDC_SYSTEM,
  kind: 'waveform',
  display: 'MDC_ECG_ELEC_POTL_II',
  key: 'ecg_lead_ii',
  label: 'ECG II',
  unit: 'mV',
  screenUnit: 'mV',
  quantityUnit: 'mV',
  /** Plausible electrode potential range in mV (beyond it the lead is saturated or off). */
  min: -10,
  max: 10,
} as const satisfies VitalDefinition;

/**
 * Inhaled oxygen flow rate (LOINC 3151-8, L/min), the "air or oxygen?" input of NEWS2: any flow
 * above zero means supplemental oxygen. Not a vitals-stream code (no device here reports it, and
 * the wire format refuses it), so a NEWS2 from monitor data lists supplemental oxygen as missing.
 */
export const OXYGEN_FLOW = { code: '3151-8', system: LOINC_SYSTEM, display: 'Inhaled oxygen flow rate', unit: 'L/min' } as const;

/** The shortest sample period an ECG chunk may state, in ms (1 MHz): below it a `real` loses precision (subnormal float4). */
export const MIN_PERIOD_MS = 0.001;
/** Most samples one ECG chunk may carry: 10 s at 250 Hz. */
export const MAX_WAVEFORM_SAMPLES = 2_500;
/** Most observations one POST /api/v1/vitals batch may carry. */
export const MAX_OBSERVATIONS_PER_BATCH = 1_000;

export type VitalCode = NumericVitalCode | typeof ECG_LEAD_II.code;
export const VITAL_CODES = [...(Object.keys(NUMERIC_VITALS) as NumericVitalCode[]), ECG_LEAD_II.code] as VitalCode[];

/** The definition of any vital code (numeric or ECG). */
export function vitalDefinition(code: string): VitalDefinition | undefined {
  if (code === ECG_LEAD_II.code) return ECG_LEAD_II;
  return Object.hasOwn(NUMERIC_VITALS, code) ? NUMERIC_VITALS[code as NumericVitalCode] : undefined;
}

/**
 * A point in time (a query's from and to, an observation's effective_at): an RFC 3339 date-time with Z or an offset, limited to what
 * PostgreSQL's timestamptz reads: a year from 0001 and an offset within ±15:59 (RFC 3339 allows 0000
 * and ±23:59, which PostgreSQL refuses with an error, not a 400). One pattern (zod's date-time
 * pattern, those two parts narrowed) so the OpenAPI document publishes exactly what is checked.
 */
/** A calendar date PostgreSQL can read (zod's date pattern, year 0001 or later), as a regex source without anchors. */
export const CALENDAR_DATE_PATTERN = `(?!0000)${z.regexes.date.source.slice(1, -1)}`;

export const instant = z
  .string()
  .regex(
    /^(?!0000)(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|[+-](?:0\d|1[0-5]):[0-5]\d)$/,
    'must be an ISO 8601 date-time with Z or an offset within ±15:59, year 0001 or later',
  );

const identityShape = {
  patient_id: resourceId.describe('Patient the observation is about (FHIR Patient id); also the Kafka key'),
  device_id: resourceId.describe('Device that made the observation (FHIR Device id)'),
};

const seqSchema = z
  .number()
  .int('must be an integer')
  .min(0, 'must be a non-negative integer')
  .max(Number.MAX_SAFE_INTEGER, 'must be at most 2^53-1')
  .describe('Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key');

/** The bounded device clock (./clock.ts), as the descriptions publish it. */
const CLOCK_RULE =
  "Bounded device clock: at most VITALS_MAX_CLOCK_SKEW_SECONDS (default 300 s) after, and at most VITALS_RETENTION_DAYS (default 30 days) before, the time it is received (the gateway's clock; published straight to Kafka: the record's timestamp); outside that window the observation is refused (422, dead-lettered at the ingest), a late one inside it is stored.";

const baseShape = {
  ...identityShape,
  seq: seqSchema,
  // What the append log's timestamptz can store: an accepted (202) observation is never refused later.
  effective_at: instant.describe(`When the observation was made (for waveforms: the time of the first sample). ${CLOCK_RULE}`),
};

/** An observation inside a frame: the frame carries patient and device; the time defaults to the frame's tick. */
const frameItemBaseShape = {
  seq: seqSchema,
  effective_at: instant
    .optional()
    .describe(`When the observation was made, when not the frame's effective_at (an ECG chunk: its first sample). ${CLOCK_RULE}`),
};

function numericVariant<D extends NumericVitalDefinition, S extends z.ZodRawShape>(def: D, base: S) {
  const range = `must be between ${def.min} and ${def.max} ${def.unit} for ${def.display}`;
  return z
    .object({
      ...base,
      code: z.literal(def.code as D['code']).describe(`LOINC ${def.code} ${def.display}`),
      value: z
        .number()
        .min(def.min, range)
        .max(def.max, range)
        .describe(`In ${def.unit}, ${def.min} to ${def.max} inclusive; stored as sent (double precision) and read back unchanged`),
      unit: z.literal(def.unit as D['unit'], { error: `must be the UCUM unit "${def.unit}" for ${def.display} (${def.code})` }),
    })
    .strict()
    .describe(`${def.display} (LOINC ${def.code}) in ${def.unit}`);
}

const sampleRange = `must be between ${ECG_LEAD_II.min} and ${ECG_LEAD_II.max} mV`;

export const waveformSchema = z
  .object({
    origin: z
      .number()
      .min(ECG_LEAD_II.min)
      .max(ECG_LEAD_II.max)
      .default(0)
      .describe('Zero value in mV; the potential is origin + sample (stored folded into the samples: see samples)'),
    period_ms: z
      .number()
      .min(MIN_PERIOD_MS, `must be at least ${MIN_PERIOD_MS} ms`)
      .max(1_000, 'must be at most 1000 ms')
      .refine(isFloat4Exact, 'must be a number a float4 (real) holds exactly, e.g. at most 6 significant digits')
      .describe(
        `Time between samples in ms (4 = 250 Hz), ${MIN_PERIOD_MS} to 1000. Stored as a float4 (real) and read back unchanged: a value a float4 does not hold exactly (more than float4 precision, e.g. 4.00000001) is refused with 422, never rounded. Every decimal of at most 6 significant digits is held.`,
      ),
    samples: z
      .array(z.number().min(ECG_LEAD_II.min, sampleRange).max(ECG_LEAD_II.max, sampleRange))
      .min(1, 'must have at least one sample')
      .max(MAX_WAVEFORM_SAMPLES, `must have at most ${MAX_WAVEFORM_SAMPLES} samples`)
      .describe(
        'Potentials in mV relative to origin, each -10 to 10. Stored quantised to 0.1 µV: the append log keeps the absolute potential Math.round((origin + sample) × 10000) / 10000 (IEEE 754 doubles, a half step toward +∞, never -0), read back with origin 0; e.g. 0.12344 reads back as 0.1234 and 1e-320 as 0. Every such potential (within ±20 mV) is a whole number of 0.1 µV steps, stored exactly (as a 32-bit integer).',
      ),
  })
  .strict();

function ecgVariant<S extends z.ZodRawShape>(base: S) {
  return z
    .object({
      ...base,
      code: z.literal(ECG_LEAD_II.code).describe('MDC 131330 MDC_ECG_ELEC_POTL_II (ECG lead II)'),
      unit: z.literal('mV', { error: 'must be the UCUM unit "mV" for ECG lead II (131330)' }),
      waveform: waveformSchema,
    })
    .strict()
    .describe('ECG lead II waveform chunk (MDC 131330) in mV');
}

export const ecgObservationSchema = ecgVariant(baseShape);

const V = NUMERIC_VITALS;

/** The variants of every code over one base shape (a whole observation, or an item of a frame). */
function variants<S extends z.ZodRawShape>(base: S) {
  return [
    numericVariant(V[C.heartRate], base),
    numericVariant(V[C.spo2], base),
    numericVariant(V[C.systolic], base),
    numericVariant(V[C.diastolic], base),
    numericVariant(V[C.respiratoryRate], base),
    numericVariant(V[C.temperature], base),
    ecgVariant(base),
  ] as const;
}

const unknownCode = {
  error: (issue: { code?: string }) =>
    issue.code === 'invalid_union' ? `unknown code: must be one of ${VITAL_CODES.join(', ')}` : undefined,
};

export const vitalsObservationSchema = z.discriminatedUnion('code', variants(baseShape), unknownCode).meta({
  id: 'VitalsObservation',
  title: 'Vitals observation',
  description:
    'One vital-sign measurement or one ECG waveform chunk from one device about one patient (Vitalis wire format, FHIR R4 vital signs codes).',
});

export type VitalsObservation = z.infer<typeof vitalsObservationSchema>;
export type NumericObservation = Exclude<VitalsObservation, { code: typeof ECG_LEAD_II.code }>;
export type EcgObservation = z.infer<typeof ecgObservationSchema>;

export function isEcg(o: VitalsObservation): o is EcgObservation {
  return o.code === ECG_LEAD_II.code;
}

export interface ObservationProblem {
  path: string;
  message: string;
}

/** Validates one decoded value; on failure lists every problem as `path: message`. */
/**
 * `schema.safeParse(value)` with an ECG chunk's samples checked by one plain loop instead of one
 * zod check per sample (~85 µs a 250-sample chunk, most of an ECG's ingest cost): when `value`
 * carries a waveform whose samples are all numbers within the range (1 to MAX_WAVEFORM_SAMPLES of
 * them), the rest of it is parsed with a one-sample stand-in and the samples put back; anything
 * else (and every failure) takes the plain parse, with its messages. Same result either way:
 * test/unit/vitals/schema.test.ts compares both over valid and invalid chunks.
 */
export function parseWithSamples<T>(schema: z.ZodType<T>, value: unknown): ReturnType<z.ZodType<T>['safeParse']> {
  const waveform = (value as { waveform?: { samples?: unknown } } | null)?.waveform;
  const samples = waveform?.samples;
  if (!Array.isArray(samples) || samples.length === 0 || samples.length > MAX_WAVEFORM_SAMPLES || !samplesInRange(samples))
    return schema.safeParse(value);
  const result = schema.safeParse({ ...(value as object), waveform: { ...waveform, samples: [0] } });
  if (!result.success) return schema.safeParse(value);
  (result.data as { waveform: { samples: number[] } }).waveform.samples = samples as number[];
  return result;
}

function samplesInRange(samples: unknown[]): boolean {
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i];
    if (typeof s !== 'number' || !(s >= ECG_LEAD_II.min && s <= ECG_LEAD_II.max)) return false;
  }
  return true;
}

export function validateObservation(
  value: unknown,
): { ok: true; observation: VitalsObservation } | { ok: false; problems: ObservationProblem[] } {
  const result = parseWithSamples(vitalsObservationSchema, value);
  if (result.success) return { ok: true, observation: result.data };
  return {
    ok: false,
    problems: result.error.issues.map((issue) => ({ path: issue.path.map(String).join('.') || '(root)', message: issue.message })),
  };
}

/** Kafka encoding: JSON value, key = patient id (all of a patient's vitals keep their order in one partition). */
export function encodeObservation(o: VitalsObservation): { key: string; value: string } {
  return { key: o.patient_id, value: JSON.stringify(o) };
}

/** A Kafka value as JSON, or why it is not (empty, undecodable); never throws. */
function parseRecordValue(value: Buffer | string | null | undefined): { ok: true; parsed: unknown } | { ok: false; reason: string } {
  if (value === null || value === undefined || value.length === 0) return { ok: false, reason: 'empty message value' };
  try {
    return { ok: true, parsed: JSON.parse(typeof value === 'string' ? value : value.toString('utf8')) };
  } catch (err) {
    return { ok: false, reason: `undecodable JSON: ${(err as Error).message}` };
  }
}

/** A single (v1) observation, or the dead-letter reason naming every problem. */
function singleObservation(parsed: unknown): { ok: true; observation: VitalsObservation } | { ok: false; reason: string } {
  const result = validateObservation(parsed);
  if (result.ok) return result;
  return { ok: false, reason: `schema-invalid: ${result.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}` };
}

/** Decodes a Kafka value holding one observation (the v1 format); never throws. */
export function decodeObservation(
  value: Buffer | string | null | undefined,
): { ok: true; observation: VitalsObservation } | { ok: false; reason: string } {
  const json = parseRecordValue(value);
  return json.ok ? singleObservation(json.parsed) : json;
}

/**
 * Device frames (ADR 0015): one device's observations at one tick (what an HL7 v2 ORU with its OBX
 * segments or an IEEE 11073 SDC metric report carries), as ONE Kafka record on the same topic as
 * single observations, told apart by `envelope`. The frame names patient and device once; each
 * observation keeps its own `seq` (the idempotency key stays (device_id, seq, effective_at)) and
 * takes the frame's `effective_at` unless it names its own (an ECG chunk: its first sample).
 * A record without `envelope` is a single observation (the v1 format, unchanged).
 */
export const FRAME_ENVELOPE = 'vitals.frame.v1';
/** Most observations one frame may carry (a monitor's numerics and waveform chunks at one tick, with room). */
export const MAX_FRAME_OBSERVATIONS = 64;
/** Most frames one POST /api/v1/vitals batch may carry. */
export const MAX_FRAMES_PER_BATCH = 500;

export const vitalsFrameItemSchema = z.discriminatedUnion('code', variants(frameItemBaseShape), unknownCode).meta({
  id: 'VitalsFrameObservation',
  title: 'Observation in a vitals frame',
  description:
    "One measurement or ECG chunk of a frame: a VitalsObservation without patient_id and device_id (the frame's), effective_at optional (default: the frame's).",
});
export type VitalsFrameItem = z.infer<typeof vitalsFrameItemSchema>;

const frameHeadShape = {
  envelope: z.literal(FRAME_ENVELOPE).describe('Marks a frame record (a record without it is a single VitalsObservation)'),
  ...identityShape,
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

export const vitalsFrameSchema = z
  .object({
    ...frameHeadShape,
    observations: z
      .array(vitalsFrameItemSchema)
      .min(1, 'must have at least one observation')
      .max(MAX_FRAME_OBSERVATIONS, `must have at most ${MAX_FRAME_OBSERVATIONS} observations`),
  })
  .strict()
  .superRefine((frame, ctx) => {
    for (const i of repeatedSeqs(frame.observations))
      ctx.addIssue({ code: 'custom', path: ['observations', i, 'seq'], message: 'must not repeat a seq of the same frame' });
  })
  .meta({
    id: 'VitalsFrame',
    title: 'Vitals frame',
    description: "One device's observations at one tick (numerics and ECG chunks): one Kafka record, envelope vitals.frame.v1.",
  });

export type VitalsFrame = z.infer<typeof vitalsFrameSchema>;

/** The head of a frame with its observations unchecked: the ingest checks them one by one (a bad one is dead-lettered alone). */
const frameHeadSchema = z
  .object({
    ...frameHeadShape,
    observations: z
      .array(z.unknown())
      .min(1, 'must have at least one observation')
      .max(MAX_FRAME_OBSERVATIONS, `must have at most ${MAX_FRAME_OBSERVATIONS} observations`),
  })
  .strict();

/**
 * A frame's observation as a whole observation (patient, device and default time from the frame).
 * One object literal per variant, no spread: the ingest runs this for every observation of every
 * frame (the item's fields are fixed: both variants are strict objects).
 */
function observationOfItem(
  head: { patient_id: string; device_id: string; effective_at: string },
  item: VitalsFrameItem,
): VitalsObservation {
  const effective_at = item.effective_at ?? head.effective_at;
  if ('waveform' in item) {
    return {
      patient_id: head.patient_id,
      device_id: head.device_id,
      seq: item.seq,
      effective_at,
      code: item.code,
      unit: item.unit,
      waveform: item.waveform,
    };
  }
  const { code, value, unit } = item as { code: string; value: number; unit: string };
  return { patient_id: head.patient_id, device_id: head.device_id, seq: item.seq, effective_at, code, value, unit } as VitalsObservation;
}

/** A frame's observations as whole observations, in frame order. */
export function frameObservations(frame: VitalsFrame): VitalsObservation[] {
  return frame.observations.map((item) => observationOfItem(frame, item));
}

/** Kafka encoding of a frame: JSON value, key = patient id (the same partition as the patient's single observations). */
export function encodeFrame(frame: VitalsFrame): { key: string; value: string } {
  return { key: frame.patient_id, value: JSON.stringify(frame) };
}

const problemText = (prefix: string, issues: readonly { path: PropertyKey[]; message: string }[]) =>
  issues.map((issue) => `${[prefix, ...issue.path.map(String)].filter(Boolean).join('.') || '(root)'}: ${issue.message}`).join('; ');

/**
 * A Kafka record decoded: its good observations with their index in the record (`item`: a frame's
 * observation index, 0 for a single observation) and the frame's bad observations, each named by
 * index with its reason; or, when the record as a whole is unusable, the reason. Never throws.
 */
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

export type DecodedRecord =
  | {
      ok: true;
      frame: boolean;
      observations: { item: number; observation: VitalsObservation }[];
      invalid: { item: number; reason: string }[];
    }
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
  if (parsed === null || typeof parsed !== 'object' || !Object.hasOwn(parsed, 'envelope')) {
    const single = singleObservation(parsed);
    if (!single.ok) return single;
    const late = clock ? observationClockProblems(single.observation, clock) : [];
    if (late.length > 0) return { ok: false, reason: `clock-out-of-bounds: ${late.map((p) => `${p.path}: ${p.message}`).join('; ')}` };
    return { ok: true, frame: false, observations: [{ item: 0, observation: single.observation }], invalid: [] };
  }
  const head = frameHeadSchema.safeParse(parsed);
  if (!head.success) return { ok: false, reason: `frame-invalid: ${problemText('', head.error.issues)}` };
  const tick = clock ? observationClockProblems(head.data, clock) : [];
  if (tick.length > 0) return { ok: false, reason: `frame-invalid: ${tick.map((p) => `${p.path}: ${p.message}`).join('; ')}` };
  const observations: { item: number; observation: VitalsObservation }[] = [];
  const invalid: { item: number; reason: string }[] = [];
  const seqs = new Set<number>();
  head.data.observations.forEach((raw, item) => {
    const result = parseWithSamples(vitalsFrameItemSchema, raw);
    const late =
      result.success && clock && result.data.effective_at !== undefined
        ? effectiveAtProblem(result.data.effective_at, clock.now, clock.limits)
        : undefined;
    if (!result.success)
      invalid.push({ item, reason: `observations.${item} schema-invalid: ${problemText(`observations.${item}`, result.error.issues)}` });
    else if (late) invalid.push({ item, reason: `observations.${item} clock-out-of-bounds: observations.${item}.effective_at: ${late}` });
    else if (seqs.has(result.data.seq)) invalid.push({ item, reason: `observations.${item}.seq: must not repeat a seq of the same frame` });
    else {
      seqs.add(result.data.seq);
      observations.push({ item, observation: observationOfItem(head.data, result.data) });
    }
  });
  return { ok: true, frame: true, observations, invalid };
}
