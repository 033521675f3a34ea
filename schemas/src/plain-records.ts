/**
 * The ingest's compiled validity checks (issue 34, ADR 0034): a record that the zod schema would
 * accept unchanged (strict objects, no default, no transform: zod's output is a copy of its input)
 * is recognised by a few typed comparisons against the same definitions (the `NUMERIC_VITALS`
 * table, `ECG_LEAD_II`, `FHIR_ID_PATTERN`, `INSTANT_PATTERN`, the seq, period and step bounds, the
 * frame envelope) and used as it is; anything else, and every failure, goes to zod, which explains
 * it. Checked so: a numeric observation (a v1 record, a frame's numeric item), a frame's head, and a
 * v2 frame's ECG chunk (whole 0.1 µV steps). A `true` here is never a value zod refuses:
 * test/unit/vitals/plain-records.test.ts compares the two over valid values at every edge and over
 * each way a value can be wrong.
 */
import { FHIR_ID_PATTERN } from './fhir-primitives';
import { FRAME_ENVELOPE, FRAME_ENVELOPE_V2, MAX_FRAME_OBSERVATIONS } from './frame-envelope';
import { isFloat4Exact } from './stored-form';
import {
  ECG_LEAD_II,
  INSTANT_PATTERN,
  MAX_PERIOD_MS,
  MAX_WAVEFORM_SAMPLES,
  MIN_PERIOD_MS,
  NUMERIC_VITALS,
  stepsInRange,
  type NumericObservation,
  type NumericVitalCode,
} from './vitals';

type Fields = Record<string, unknown>;

/** Own enumerable keys of a JSON.parse'd object (no inherited ones), counted without an array. */
function keyCount(o: object): number {
  let n = 0;
  for (const key in o) if (Object.hasOwn(o, key)) n += 1;
  return n;
}

const isSeq = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= Number.MAX_SAFE_INTEGER;
const isId = (v: unknown): boolean => typeof v === 'string' && FHIR_ID_PATTERN.test(v);
const isInstant = (v: unknown): boolean => typeof v === 'string' && INSTANT_PATTERN.test(v);
/** A JSON object (not null, not an array). */
const isObject = (v: unknown): v is Fields => v !== null && typeof v === 'object' && !Array.isArray(v);

/** code, value and unit of a numeric vital within its range and with its one unit. */
function isMeasurement(o: Fields): boolean {
  const { code, value, unit } = o;
  if (typeof code !== 'string' || !Object.hasOwn(NUMERIC_VITALS, code)) return false;
  const def = NUMERIC_VITALS[code as NumericVitalCode];
  return typeof value === 'number' && value >= def.min && value <= def.max && unit === def.unit;
}

/** A whole numeric observation (the v1 record) exactly as `vitalsObservationSchema` accepts it unchanged. */
export function isPlainNumericObservation(value: unknown): value is NumericObservation {
  if (!isObject(value)) return false;
  const { patient_id, device_id, seq, effective_at } = value;
  return keyCount(value) === 7 && isId(patient_id) && isId(device_id) && isSeq(seq) && isInstant(effective_at) && isMeasurement(value);
}

/** A numeric observation of a frame (either version) exactly as the frame item schemas accept it unchanged. */
export function isPlainNumericFrameItem(
  value: unknown,
): value is { seq: number; effective_at?: string; code: NumericVitalCode; value: number; unit: string } {
  return isObject(value) && hasItemFields(value, 4) && isMeasurement(value);
}

/** A frame item's seq, and its own effective_at when it names one: `fields` keys in all without an own time, one more with it. */
function hasItemFields(o: Fields, fields: number): boolean {
  const ownTime = Object.hasOwn(o, 'effective_at');
  if (ownTime && !isInstant(o.effective_at)) return false;
  return keyCount(o) === (ownTime ? fields + 1 : fields) && isSeq(o.seq);
}

/** A frame's head (either version) exactly as `frameHeadSchema` accepts it unchanged: its observations are checked one by one after it. */
export function isPlainFrameHead(
  value: unknown,
): value is { envelope: string; patient_id: string; device_id: string; effective_at: string; observations: unknown[] } {
  if (!isObject(value)) return false;
  const { envelope, observations } = value;
  return (
    keyCount(value) === 5 &&
    (envelope === FRAME_ENVELOPE || envelope === FRAME_ENVELOPE_V2) &&
    isId(value.patient_id) &&
    isId(value.device_id) &&
    isInstant(value.effective_at) &&
    Array.isArray(observations) &&
    observations.length >= 1 &&
    observations.length <= MAX_FRAME_OBSERVATIONS
  );
}

/** A v2 frame's ECG chunk exactly as the v2 item schema accepts it unchanged: lead II in mV, a period a float4 holds, 1 to MAX_WAVEFORM_SAMPLES whole steps within ±MAX_SAMPLE_STEPS. */
export function isPlainStepsChunk(value: unknown): boolean {
  if (!isObject(value) || !hasItemFields(value, 4) || value.code !== ECG_LEAD_II.code || value.unit !== ECG_LEAD_II.unit) return false;
  const waveform = value.waveform;
  if (!isObject(waveform) || keyCount(waveform) !== 2) return false;
  const { period_ms: period, sample_steps: steps } = waveform;
  if (typeof period !== 'number' || !(period >= MIN_PERIOD_MS && period <= MAX_PERIOD_MS) || !isFloat4Exact(period)) return false;
  return Array.isArray(steps) && steps.length >= 1 && steps.length <= MAX_WAVEFORM_SAMPLES && stepsInRange(steps);
}
