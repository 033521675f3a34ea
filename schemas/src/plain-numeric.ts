/**
 * The ingest's compiled validity check of a numeric observation (issue 34): a record that the zod
 * schema would accept unchanged (a strict object, no default, no transform: zod's output is a copy
 * of its input) is recognised by a few typed comparisons against the same definitions (the
 * `NUMERIC_VITALS` table, `FHIR_ID_PATTERN`, `INSTANT_PATTERN`, the seq bounds) and used as it is;
 * anything else, and every failure, goes to zod, which explains it. A `true` here is never a value
 * zod refuses: test/unit/vitals/plain-numeric.test.ts compares the two over valid values at every
 * edge and over each way a value can be wrong.
 */
import { FHIR_ID_PATTERN } from './fhir-primitives';
import { INSTANT_PATTERN, NUMERIC_VITALS, type NumericObservation, type NumericVitalCode } from './vitals';

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

/** code, value and unit of a numeric vital within its range and with its one unit. */
function isMeasurement(o: Fields): boolean {
  const { code, value, unit } = o;
  if (typeof code !== 'string' || !Object.hasOwn(NUMERIC_VITALS, code)) return false;
  const def = NUMERIC_VITALS[code as NumericVitalCode];
  return typeof value === 'number' && value >= def.min && value <= def.max && unit === def.unit;
}

/** A whole numeric observation (the v1 record) exactly as `vitalsObservationSchema` accepts it unchanged. */
export function isPlainNumericObservation(value: unknown): value is NumericObservation {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const o = value as Fields;
  return keyCount(o) === 7 && isId(o.patient_id) && isId(o.device_id) && isSeq(o.seq) && isInstant(o.effective_at) && isMeasurement(o);
}

/** A numeric observation of a frame (either version) exactly as the frame item schemas accept it unchanged. */
export function isPlainNumericFrameItem(
  value: unknown,
): value is { seq: number; effective_at?: string; code: NumericVitalCode; value: number; unit: string } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const o = value as Fields;
  const ownTime = Object.hasOwn(o, 'effective_at');
  if (ownTime && !isInstant(o.effective_at)) return false;
  return keyCount(o) === (ownTime ? 5 : 4) && isSeq(o.seq) && isMeasurement(o);
}
