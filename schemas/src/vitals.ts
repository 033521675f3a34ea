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
import { isFloat4Exact, MAX_SAMPLE_STEPS } from './stored-form';
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
/** Longest time between two samples of a waveform, in ms. */
export const MAX_PERIOD_MS = 1_000;
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

/** `instant`'s pattern, one object for the zod schema and the ingest's compiled checks (./plain-records.ts). */
export const INSTANT_PATTERN =
  /^(?!0000)(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|[+-](?:0\d|1[0-5]):[0-5]\d)$/;

export const instant = z
  .string()
  .regex(INSTANT_PATTERN, 'must be an ISO 8601 date-time with Z or an offset within ±15:59, year 0001 or later');

export const observationIdentityShape = {
  patient_id: resourceId.describe('Patient the observation is about (FHIR Patient id); also the Kafka key'),
  device_id: resourceId.describe('Device that made the observation (FHIR Device id)'),
};

export const seqSchema = z
  .number()
  .int('must be an integer')
  .min(0, 'must be a non-negative integer')
  .max(Number.MAX_SAFE_INTEGER, 'must be at most 2^53-1')
  .describe('Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key');

/** The bounded device clock (./clock.ts), as the descriptions publish it. */
export const CLOCK_RULE =
  "Bounded device clock: at most VITALS_MAX_CLOCK_SKEW_SECONDS (default 300 s) after, and at most VITALS_RETENTION_DAYS (default 30 days) before, the time it is received (the gateway's clock; published straight to Kafka: the record's timestamp); outside that window the observation is refused (422, dead-lettered at the ingest), a late one inside it is stored.";

const baseShape = {
  ...observationIdentityShape,
  seq: seqSchema,
  // What the append log's timestamptz can store: an accepted (202) observation is never refused later.
  effective_at: instant.describe(`When the observation was made (for waveforms: the time of the first sample). ${CLOCK_RULE}`),
};

export function numericVariant<D extends NumericVitalDefinition, S extends z.ZodRawShape>(def: D, base: S) {
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

/** The time between an ECG chunk's samples (both frame versions and single observations). */
export const periodMsSchema = z
  .number()
  .min(MIN_PERIOD_MS, `must be at least ${MIN_PERIOD_MS} ms`)
  .max(MAX_PERIOD_MS, `must be at most ${MAX_PERIOD_MS} ms`)
  .refine(isFloat4Exact, 'must be a number a float4 (real) holds exactly, e.g. at most 6 significant digits')
  .describe(
    `Time between samples in ms (4 = 250 Hz), ${MIN_PERIOD_MS} to 1000. Stored as a float4 (real) and read back unchanged: a value a float4 does not hold exactly (more than float4 precision, e.g. 4.00000001) is refused with 422, never rounded. Every decimal of at most 6 significant digits is held.`,
  );

export const waveformSchema = z
  .object({
    origin: z
      .number()
      .min(ECG_LEAD_II.min)
      .max(ECG_LEAD_II.max)
      .default(0)
      .describe('Zero value in mV; the potential is origin + sample (stored folded into the samples: see samples)'),
    period_ms: periodMsSchema,
    samples: z
      .array(z.number().min(ECG_LEAD_II.min, sampleRange).max(ECG_LEAD_II.max, sampleRange))
      .min(1, 'must have at least one sample')
      .max(MAX_WAVEFORM_SAMPLES, `must have at most ${MAX_WAVEFORM_SAMPLES} samples`)
      .describe(
        'Potentials in mV relative to origin, each -10 to 10. Stored quantised to 0.1 µV: the append log keeps the absolute potential Math.round((origin + sample) × 10000) / 10000 (IEEE 754 doubles, a half step toward +∞, never -0), read back with origin 0; e.g. 0.12344 reads back as 0.1234 and 1e-320 as 0. Every such potential (within ±20 mV) is a whole number of 0.1 µV steps, stored exactly (as a 32-bit integer).',
      ),
  })
  .strict();

/**
 * The ECG variant over one base shape, with its waveform: `waveformSchema` (mV relative to an
 * origin: single observations and v1 frames), or a v2 frame's whole 0.1 µV steps (ADR 0029).
 */
export function ecgVariant<S extends z.ZodRawShape, W extends z.ZodType>(base: S, waveform: W, samplesAre: string) {
  return z
    .object({
      ...base,
      code: z.literal(ECG_LEAD_II.code).describe('MDC 131330 MDC_ECG_ELEC_POTL_II (ECG lead II)'),
      unit: z.literal('mV', { error: 'must be the UCUM unit "mV" for ECG lead II (131330)' }),
      waveform,
    })
    .strict()
    .describe(`ECG lead II waveform chunk (MDC 131330) ${samplesAre}`);
}

const ecgInMv = <S extends z.ZodRawShape>(base: S) => ecgVariant(base, waveformSchema, 'in mV');

export const ecgObservationSchema = ecgInMv(baseShape);

const V = NUMERIC_VITALS;

/** The numeric variants over one base shape (a whole observation, or an item of a frame of either version). */
export function numericVariants<S extends z.ZodRawShape>(base: S) {
  return [
    numericVariant(V[C.heartRate], base),
    numericVariant(V[C.spo2], base),
    numericVariant(V[C.systolic], base),
    numericVariant(V[C.diastolic], base),
    numericVariant(V[C.respiratoryRate], base),
    numericVariant(V[C.temperature], base),
  ] as const;
}

/** The variants of every code over one base shape (a whole observation, or an item of a v1 frame). */
export function variants<S extends z.ZodRawShape>(base: S) {
  return [...numericVariants(base), ecgInMv(base)] as const;
}

/** The error of an unknown `code` (every union of the variants uses it). */
export const unknownCode = {
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

/**
 * `schema.safeParse(value)` with an ECG chunk's samples checked by one plain loop instead of one
 * zod check per sample (~85 µs a 250-sample chunk, most of an ECG's ingest cost): when `value`
 * carries a waveform whose samples (`samples` in mV, or a v2 frame's `sample_steps`) are all
 * within the range (numbers; for steps whole numbers), 1 to MAX_WAVEFORM_SAMPLES of them, the rest
 * of it is parsed with a one-sample stand-in and the samples put back; anything else (and every
 * failure) takes the plain parse, with its messages. Same result either way:
 * test/unit/vitals/schema.test.ts compares both over valid and invalid chunks.
 */
export function parseWithSamples<T>(schema: z.ZodType<T>, value: unknown): ReturnType<z.ZodType<T>['safeParse']> {
  const waveform = (value as { waveform?: { samples?: unknown; sample_steps?: unknown } } | null)?.waveform;
  const steps = Array.isArray(waveform?.sample_steps);
  const key = steps ? 'sample_steps' : 'samples';
  const samples = waveform?.[key];
  if (!Array.isArray(samples) || samples.length === 0 || samples.length > MAX_WAVEFORM_SAMPLES) return schema.safeParse(value);
  if (!(steps ? stepsInRange(samples) : samplesInRange(samples))) return schema.safeParse(value);
  const result = schema.safeParse({ ...(value as object), waveform: { ...waveform, [key]: [0] } });
  if (!result.success) return schema.safeParse(value);
  (result.data as { waveform: Record<string, unknown> }).waveform[key] = samples;
  return result;
}

function samplesInRange(samples: unknown[]): boolean {
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i];
    if (typeof s !== 'number' || !(s >= ECG_LEAD_II.min && s <= ECG_LEAD_II.max)) return false;
  }
  return true;
}

/** Whole numbers of 0.1 µV steps within ±MAX_SAMPLE_STEPS, every one (a v2 chunk's `sample_steps` as its schema takes them). */
export function stepsInRange(steps: readonly unknown[]): boolean {
  for (let i = 0; i < steps.length; i++) {
    const k = steps[i];
    if (typeof k !== 'number' || !Number.isInteger(k) || k < -MAX_SAMPLE_STEPS || k > MAX_SAMPLE_STEPS) return false;
  }
  return true;
}

/** Validates one decoded value; on failure lists every problem as `path: message`. */
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
export function parseRecordValue(value: Buffer | string | null | undefined): { ok: true; parsed: unknown } | { ok: false; reason: string } {
  if (value === null || value === undefined || value.length === 0) return { ok: false, reason: 'empty message value' };
  try {
    return { ok: true, parsed: JSON.parse(typeof value === 'string' ? value : value.toString('utf8')) };
  } catch (err) {
    return { ok: false, reason: `undecodable JSON: ${(err as Error).message}` };
  }
}

/** A single (v1) observation, or the dead-letter reason naming every problem. */
export function singleObservation(parsed: unknown): { ok: true; observation: VitalsObservation } | { ok: false; reason: string } {
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
