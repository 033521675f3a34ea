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
 */
import { z } from 'zod';

export const LOINC_SYSTEM = 'http://loinc.org';
export const MDC_SYSTEM = 'urn:oid:2.16.840.1.113883.6.24';
export const UCUM_SYSTEM = 'http://unitsofmeasure.org';

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

export interface NumericVitalDefinition {
  code: string;
  system: typeof LOINC_SYSTEM;
  /** A sampled value (one number) or a waveform chunk (samples): which shape the observation has. */
  kind: 'numeric';
  display: string;
  /** Short name for APIs, logs and the simulator. */
  key: string;
  /** The one accepted UCUM unit. */
  unit: string;
  /** Inclusive plausible range in `unit`. */
  min: number;
  max: number;
}

const C = VITAL_CODE;

/** Numeric vital signs, keyed by LOINC code. Ranges are "physiologically possible", not "normal". */
export const NUMERIC_VITALS = {
  [C.heartRate]: { code: C.heartRate, system: LOINC_SYSTEM, kind: 'numeric', display: 'Heart rate', key: 'heart_rate', unit: '/min', min: 0, max: 350 },
  [C.spo2]: { code: C.spo2, system: LOINC_SYSTEM, kind: 'numeric', display: 'Oxygen saturation in Arterial blood by Pulse oximetry', key: 'spo2', unit: '%', min: 0, max: 100 },
  [C.systolic]: { code: C.systolic, system: LOINC_SYSTEM, kind: 'numeric', display: 'Systolic blood pressure', key: 'systolic_bp', unit: 'mm[Hg]', min: 20, max: 300 },
  [C.diastolic]: { code: C.diastolic, system: LOINC_SYSTEM, kind: 'numeric', display: 'Diastolic blood pressure', key: 'diastolic_bp', unit: 'mm[Hg]', min: 10, max: 250 },
  [C.respiratoryRate]: { code: C.respiratoryRate, system: LOINC_SYSTEM, kind: 'numeric', display: 'Respiratory rate', key: 'respiratory_rate', unit: '/min', min: 0, max: 100 },
  [C.temperature]: { code: C.temperature, system: LOINC_SYSTEM, kind: 'numeric', display: 'Body temperature', key: 'body_temperature', unit: 'Cel', min: 20, max: 46 },
} as const satisfies Record<string, NumericVitalDefinition>;

export type NumericVitalCode = keyof typeof NUMERIC_VITALS;

export const ECG_LEAD_II = {
  code: C.ecgLeadII,
  system: MDC_SYSTEM,
  kind: 'waveform',
  display: 'MDC_ECG_ELEC_POTL_II',
  key: 'ecg_lead_ii',
  unit: 'mV',
  /** Plausible electrode potential range in mV (beyond it the lead is saturated or off). */
  min: -10,
  max: 10,
} as const;

/**
 * Inhaled oxygen flow rate (LOINC 3151-8, L/min), the "air or oxygen?" input of NEWS2: any flow
 * above zero means supplemental oxygen. Not a vitals-stream code (no device here reports it, and
 * the wire format refuses it), so a NEWS2 from monitor data lists supplemental oxygen as missing.
 */
export const OXYGEN_FLOW = { code: '3151-8', system: LOINC_SYSTEM, display: 'Inhaled oxygen flow rate', unit: 'L/min' } as const;

/** Most samples one ECG chunk may carry: 10 s at 250 Hz. */
export const MAX_WAVEFORM_SAMPLES = 2_500;
/** Most observations one POST /api/v1/vitals batch may carry. */
export const MAX_OBSERVATIONS_PER_BATCH = 1_000;

export type VitalCode = NumericVitalCode | typeof ECG_LEAD_II.code;
export const VITAL_CODES = [...(Object.keys(NUMERIC_VITALS) as NumericVitalCode[]), ECG_LEAD_II.code] as VitalCode[];

/** Display metadata for any code (numeric or ECG). */
export function vitalDefinition(code: string): { code: string; system: string; kind: 'numeric' | 'waveform'; display: string; key: string; unit: string } | undefined {
  if (code === ECG_LEAD_II.code) return ECG_LEAD_II;
  return Object.hasOwn(NUMERIC_VITALS, code) ? NUMERIC_VITALS[code as NumericVitalCode] : undefined;
}

/** FHIR `id`-shaped identifiers: safe in URLs, references and Kafka keys. */
export const resourceId = z
  .string()
  .regex(/^[A-Za-z0-9\-.]{1,64}$/, 'must be 1-64 characters of A-Z, a-z, 0-9, "-" or "."');

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

const baseShape = {
  patient_id: resourceId.describe('Patient the observation is about (FHIR Patient id); also the Kafka key'),
  device_id: resourceId.describe('Device that made the observation (FHIR Device id)'),
  seq: z
    .number()
    .int('must be an integer')
    .min(0, 'must be a non-negative integer')
    .max(Number.MAX_SAFE_INTEGER, 'must be at most 2^53-1')
    .describe('Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key'),
  // What the append log's timestamptz can store: an accepted (202) observation is never refused later.
  effective_at: instant.describe('When the observation was made (for waveforms: the time of the first sample)'),
};

function numericVariant<D extends NumericVitalDefinition>(def: D) {
  const range = `must be between ${def.min} and ${def.max} ${def.unit} for ${def.display}`;
  return z
    .object({
      ...baseShape,
      code: z.literal(def.code as D['code']).describe(`LOINC ${def.code} ${def.display}`),
      value: z.number().min(def.min, range).max(def.max, range),
      unit: z.literal(def.unit as D['unit'], { error: `must be the UCUM unit "${def.unit}" for ${def.display} (${def.code})` }),
    })
    .strict()
    .describe(`${def.display} (LOINC ${def.code}) in ${def.unit}`);
}

const sampleRange = `must be between ${ECG_LEAD_II.min} and ${ECG_LEAD_II.max} mV`;

export const waveformSchema = z
  .object({
    origin: z.number().min(ECG_LEAD_II.min).max(ECG_LEAD_II.max).default(0).describe('Zero value in mV; the potential is origin + sample'),
    period_ms: z.number().positive('must be positive').max(1_000, 'must be at most 1000 ms').describe('Time between samples in ms (4 = 250 Hz)'),
    samples: z
      .array(z.number().min(ECG_LEAD_II.min, sampleRange).max(ECG_LEAD_II.max, sampleRange))
      .min(1, 'must have at least one sample')
      .max(MAX_WAVEFORM_SAMPLES, `must have at most ${MAX_WAVEFORM_SAMPLES} samples`),
  })
  .strict();

export const ecgObservationSchema = z
  .object({
    ...baseShape,
    code: z.literal(ECG_LEAD_II.code).describe('MDC 131330 MDC_ECG_ELEC_POTL_II (ECG lead II)'),
    unit: z.literal('mV', { error: 'must be the UCUM unit "mV" for ECG lead II (131330)' }),
    waveform: waveformSchema,
  })
  .strict()
  .describe('ECG lead II waveform chunk (MDC 131330) in mV');

const V = NUMERIC_VITALS;

export const vitalsObservationSchema = z
  .discriminatedUnion(
    'code',
    [
      numericVariant(V[C.heartRate]),
      numericVariant(V[C.spo2]),
      numericVariant(V[C.systolic]),
      numericVariant(V[C.diastolic]),
      numericVariant(V[C.respiratoryRate]),
      numericVariant(V[C.temperature]),
      ecgObservationSchema,
    ],
    { error: (issue) => (issue.code === 'invalid_union' ? `unknown code: must be one of ${VITAL_CODES.join(', ')}` : undefined) },
  )
  .meta({
    id: 'VitalsObservation',
    title: 'Vitals observation',
    description: 'One vital-sign measurement or one ECG waveform chunk from one device about one patient (Vitalis wire format, FHIR R4 vital signs codes).',
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
export function validateObservation(value: unknown): { ok: true; observation: VitalsObservation } | { ok: false; problems: ObservationProblem[] } {
  const result = vitalsObservationSchema.safeParse(value);
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

/** Decodes a Kafka value; never throws. */
export function decodeObservation(value: Buffer | string | null | undefined):
  | { ok: true; observation: VitalsObservation }
  | { ok: false; reason: string } {
  if (value === null || value === undefined || value.length === 0) return { ok: false, reason: 'empty message value' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof value === 'string' ? value : value.toString('utf8'));
  } catch (err) {
    return { ok: false, reason: `undecodable JSON: ${(err as Error).message}` };
  }
  const result = validateObservation(parsed);
  if (result.ok) return result;
  return { ok: false, reason: `schema-invalid: ${result.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}` };
}

/**
 * Free text a person typed (a name, a reason, a complaint): at most `max` characters, not blank,
 * kept trimmed. The length and the not-blank rule are checked before trimming, so the JSON Schema
 * the OpenAPI document publishes (maxLength, pattern \S) refuses exactly what the validator refuses.
 */
export const nonBlankText = (max: number) => z.string().max(max).regex(/\S/, 'must not be blank').trim();

