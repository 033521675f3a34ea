/**
 * One event id, one byte sequence: the one owner of "observation -> event data" for both paths
 * of a live stream (and of the rows REST history returns).
 *  - the replay path (and history) rebuilds an observation from its append-log row:
 *    `observationFromRow`;
 *  - the live path (the ingest's live stage) publishes what that row WILL read back as:
 *    `storedObservation(o)` = `observationFromRow` of the row the log keeps for `o`, i.e. with the
 *    append log's conversions applied in JS: the ECG `origin` folded into the samples at 0.1 µV
 *    (the log stores absolute potentials, origin 0: `foldedSamples`, which the ingest stores as
 *    whole 0.1 µV steps, `sampleStepsBytes`), the period as a `real` reads it back (`float4`:
 *    PostgreSQL's shortest float4 decimal), and the effective time as a timestamptz reads it back,
 *    in UTC with microseconds (`storedInstant`).
 * So an observation carries the same data whichever path delivered it; `eventJson` then gives it
 * one serialisation (an alert read back from jsonb has its keys in another order than live).
 * test/integration/live/one-event-one-bytes.test.ts compares the bytes of both paths, and
 * test/integration/live/stored-form.test.ts the conversions against PostgreSQL itself.
 */
import type { ByteWriter } from '@vitalis/runtime';
import {
  ECG_LEAD_II,
  float4,
  isEcg,
  quantisedPotential,
  SAMPLE_STEPS_PER_MV,
  stepPotential,
  stepPotentials,
  waveformSteps,
  type VitalsObservation,
} from '@vitalis/schemas';

/** The columns of a `vitals_observations` row an observation is rebuilt from (`at`: `storedInstant` form). */
export interface ObservationRow {
  device_id: string;
  seq: number;
  code: string;
  at: string;
  value: number | null;
  unit: string;
  sample_period_ms: number | null;
  /** Absolute potentials (origin already added): the `real[]` column rows stored before migration 0036 use. */
  samples: number[] | null;
  /** The waveform as `sample_steps` bytea (`sampleStepsBytes`), the ingest's form since migration 0036. */
  sample_steps?: Uint8Array | null;
}

/** The waveform columns a query selects for `observationFromRow` (`STORED_INSTANT_SQL`'s sibling): both stored forms. */
export const STORED_SAMPLES_SQL = 'samples, sample_steps';

/** A stored row's absolute potentials, from whichever form it has (null for a numeric vital). */
export const storedSamples = (r: Pick<ObservationRow, 'samples' | 'sample_steps'>): number[] | null =>
  r.sample_steps ? decodeSampleSteps(r.sample_steps) : r.samples;

/** Stored row -> observation (replay and history). A stored waveform has origin 0. */
export function observationFromRow(patientId: string, r: ObservationRow): VitalsObservation {
  // Object literals of a fixed shape, no spread: this runs for every observation the ingest
  // publishes live (storedObservation) and every row a replay or history reads.
  const samples = storedSamples(r);
  if (samples) {
    return {
      patient_id: patientId,
      device_id: r.device_id,
      seq: r.seq,
      effective_at: r.at,
      code: ECG_LEAD_II.code,
      unit: ECG_LEAD_II.unit,
      waveform: { origin: 0, period_ms: r.sample_period_ms ?? 4, samples },
    };
  }
  return {
    patient_id: patientId,
    device_id: r.device_id,
    seq: r.seq,
    effective_at: r.at,
    code: r.code,
    value: r.value,
    unit: r.unit,
  } as VitalsObservation;
}

/** The append log stores ECG potentials in steps of 0.1 µV: the rule is in @vitalis/schemas (stored-form.ts). */
export { SAMPLE_STEPS_PER_MV };

/**
 * The absolute potentials the append log stores for a waveform: origin + sample, at 0.1 µV. Each
 * is a whole number of steps (|origin + sample| <= 20 mV: at most 200,000), stored as such
 * (`encodeSampleSteps`) and read back as k / 10,000, the same double: the live path publishes
 * exactly what the replay will read, at no cost per sample.
 */
export const foldedSamples = (w: { origin: number; samples: number[] }): number[] => w.samples.map((s) => quantisedPotential(w.origin, s)); // never -0

/**
 * The append log's compact waveform (`sample_steps bytea`, migration 0036): each folded sample as
 * its whole number of 0.1 µV steps, a 32-bit little-endian integer (4 bytes a sample, against a
 * `real[]`'s text input of up to 9 characters parsed per sample). Within the schema's range
 * (|origin + sample| <= 20 mV: at most 200,000 steps) every step count is an exact integer, so
 * encode then decode gives back every folded sample bit for bit (test/unit/live/sample-steps.test.ts
 * walks the whole grid).
 */
export const encodeSampleSteps = (folded: readonly number[]): Buffer => sampleStepsBytes(waveformSteps({ origin: 0, samples: folded }));

/**
 * Whole 0.1 µV steps (@vitalis/schemas `waveformSteps`, a v2 frame's `sample_steps`) as the stored
 * `sample_steps` bytes: on a little-endian platform the typed array's own memory, no copy.
 */
export function sampleStepsBytes(steps: Int32Array): Buffer {
  if (LITTLE_ENDIAN) return Buffer.from(steps.buffer, steps.byteOffset, steps.byteLength);
  const out = Buffer.allocUnsafe(steps.length * 4);
  for (let i = 0; i < steps.length; i++) out.writeInt32LE(steps[i] ?? 0, i * 4);
  return out;
}

/** Whether this platform stores an int32 little-endian (x86, arm64 as Node runs them). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** `sample_steps` bytes -> the folded samples (`stepPotential` of each). */
export function decodeSampleSteps(steps: Uint8Array): number[] {
  const view = new DataView(steps.buffer, steps.byteOffset, steps.byteLength);
  const n = steps.byteLength >>> 2;
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = stepPotential(view.getInt32(i * 4, true));
  return out;
}

/** Whole steps as a `sample_steps` bytea literal in hex form (`\x…`), as a `::bytea` cast reads it (the unnest write). */
export const sampleStepsLiteral = (steps: Int32Array): string => '\\x' + sampleStepsBytes(steps).toString('hex');

/** A sample's characters at most ("-20.1234" and a comma): the room written per sample. */
const FOLDED_SAMPLE_BYTES_MAX = 12;
let scratch = Buffer.allocUnsafe(2_500 * FOLDED_SAMPLE_BYTES_MAX);

/**
 * Folded samples (`foldedSamples`) as JSON's text of the array without its brackets: byte for byte
 * `JSON.stringify(samples).slice(1, -1)` (which is `samples.join(',')` for finite numbers), written
 * digit by digit from each sample's whole number of 0.1 µV steps instead of through the
 * shortest-decimal conversion of a double: 6 µs instead of 13 for a 1 s chunk of 250 (2026-11-30,
 * this box; 4.9 µs since the fractions come from a table). Every event's bytes (`eventJson`) write
 * samples with it, the live fan-out message (`encodeBatch`) with `writeFoldedSamplesText`. On the 0.1 µV grid a sample k/10,000 has at most 4 decimals and 7 significant
 * digits, so its shortest decimal IS the exact decimal of k/10,000 with the trailing zeros dropped
 * (test/unit/live/samples-text.test.ts checks every step within ±25 mV). A sample off the grid, out
 * of range or not a finite number takes JSON.stringify for the whole array.
 */
export function foldedSamplesText(samples: readonly number[]): string {
  if (scratch.length < samples.length * FOLDED_SAMPLE_BYTES_MAX) scratch = Buffer.allocUnsafe(samples.length * FOLDED_SAMPLE_BYTES_MAX);
  const end = writeFoldedSamples(scratch, 0, samples);
  return end === undefined ? jsonBody(samples) : scratch.toString('latin1', 0, end);
}

/** `foldedSamplesText` written into `out`: the digits straight into its buffer, no string between. */
export function writeFoldedSamplesText(out: ByteWriter, samples: readonly number[]): void {
  const buf = out.reserve(samples.length * FOLDED_SAMPLE_BYTES_MAX);
  const end = writeFoldedSamples(buf, out.position, samples);
  if (end === undefined) out.text(jsonBody(samples));
  else out.advance(end);
}

/**
 * `foldedSamplesText`'s bytes written into `buf` at `at` (room for `samples.length *
 * FOLDED_SAMPLE_BYTES_MAX` bytes is the caller's): the position after them, or undefined when a
 * sample is off the grid, out of range or a hole (then JSON's text is the caller's to write).
 */
function writeFoldedSamples(buf: Buffer, at: number, samples: readonly number[]): number | undefined {
  const steps = stepsOfSamples.get(samples);
  if (steps !== undefined && steps.length === samples.length) return writeStepsText(buf, at, steps);
  let p = at;
  for (let i = 0; i < samples.length; i++) {
    const x = samples[i];
    if (x === undefined) return undefined; // a hole: the general form writes it
    const k = Math.round(x * SAMPLE_STEPS_PER_MV);
    if (k / SAMPLE_STEPS_PER_MV !== x || k > 999_999 || k < -999_999) return undefined;
    if (i > 0) buf[p++] = 44; // ,
    p = writeStepText(buf, p, k);
  }
  return p;
}

/** `writeFoldedSamples` of the samples made from `steps` (`stepPotential` of each), written from the steps themselves; undefined past ±999,999 steps. */
function writeStepsText(buf: Buffer, at: number, steps: Int32Array): number | undefined {
  let p = at;
  for (let i = 0; i < steps.length; i++) {
    const k = steps[i] as number;
    if (k > 999_999 || k < -999_999) return undefined;
    if (i > 0) buf[p++] = 44; // ,
    p = writeStepText(buf, p, k);
  }
  return p;
}

/** The shortest decimal of k/10,000 (k whole, within ±999,999) written at `p`; the position after it. */
function writeStepText(buf: Buffer, p: number, step: number): number {
  let k = step;
  if (k < 0) {
    buf[p++] = 45; // -
    k = -k;
  }
  const whole = (k / SAMPLE_STEPS_PER_MV) | 0;
  const frac = k - whole * SAMPLE_STEPS_PER_MV;
  if (whole >= 10) buf[p++] = 48 + ((whole / 10) | 0);
  buf[p++] = 48 + (whole % 10);
  if (frac > 0) {
    buf[p++] = 46; // .
    const digits = FRACTION_DIGITS[frac] as number;
    for (let d = 0, at4 = frac * 4; d < digits; d++) buf[p++] = FRACTION_TEXT[at4 + d] as number;
  }
  return p;
}

/** Each fraction of a millivolt in 0.1 µV steps (0–9,999) as its decimals without trailing zeros: 4 bytes a step, and how many count. */
const FRACTION_TEXT = new Uint8Array(SAMPLE_STEPS_PER_MV * 4);
const FRACTION_DIGITS = new Uint8Array(SAMPLE_STEPS_PER_MV);
for (let f = 1; f < SAMPLE_STEPS_PER_MV; f++) {
  const text = String(f).padStart(4, '0').replace(/0+$/, '');
  for (let d = 0; d < text.length; d++) FRACTION_TEXT[f * 4 + d] = text.charCodeAt(d);
  FRACTION_DIGITS[f] = text.length;
}

/** JSON's text of an array of numbers, without the brackets. */
const jsonBody = (samples: readonly number[]): string => JSON.stringify(samples).slice(1, -1);

/**
 * Incoming observation -> the observation its stored row reads back as (what the live path
 * publishes). `steps`: the waveform's whole 0.1 µV steps, when the caller has them already (the
 * ingest's decoded record: @vitalis/schemas `DecodedObservation.steps`), so a chunk is folded once.
 */
export function storedObservation(o: VitalsObservation, steps?: Int32Array | null): VitalsObservation {
  const ecg = isEcg(o) ? o.waveform : undefined;
  return observationFromRow(o.patient_id, {
    device_id: o.device_id,
    seq: o.seq,
    code: o.code,
    at: storedInstant(o.effective_at),
    value: ecg ? null : (o as { value: number }).value,
    unit: o.unit,
    sample_period_ms: ecg ? float4(ecg.period_ms) : null,
    samples: ecg ? (steps ? samplesOfSteps(steps) : foldedSamples(ecg)) : null, // float4 of a folded sample is itself (see foldedSamples)
  });
}

/**
 * The whole 0.1 µV steps a samples array was made from (`samplesOfSteps`: the ingest's decoded
 * steps), so that its text (`foldedSamplesText`, the live message's `writeFoldedSamplesText`) is
 * written from them: no float-to-step per sample, 2.9–3.4 µs a 1 s chunk instead of 5.3–5.5. An
 * array is never changed after it is made here (the events' data is read only).
 */
const stepsOfSamples = new WeakMap<readonly number[], Int32Array>();

/** `stepPotentials(steps)`, remembered as made from `steps` (`stepsOfSamples`). */
function samplesOfSteps(steps: Int32Array): number[] {
  const samples = stepPotentials(steps);
  stepsOfSamples.set(samples, steps);
  return samples;
}

/** A number as a `real` column reads it back: one rule, in @vitalis/schemas (its `period_ms` check uses it too). */
export { float4 };

/** The SQL that reads a row's effective time in the `storedInstant` form (replay and history select it as `at`). */
export const STORED_INSTANT_SQL = `to_char(effective_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

const UTC_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.(\d{1,6}))?Z$/;
const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)$/;

/**
 * An ISO 8601 date-time as a timestamptz column reads it back through
 * `to_char(effective_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`: in UTC, with
 * exactly six fractional digits (PostgreSQL rounds finer fractions to the microsecond: rint).
 */
export function storedInstant(iso: string): string {
  // Fast path, the common case (toISOString and most devices): UTC, whole-second fields in range,
  // at most microseconds. PostgreSQL reads it back as written, padded to six fractional digits.
  const utc = UTC_MICROS.exec(iso);
  if (utc && iso.slice(11, 13) < '24' && iso.slice(17, 19) < '60') return `${iso.slice(0, 19)}.${(utc[1] ?? '').padEnd(6, '0')}Z`;
  const t = storedTime(iso);
  if (!t) return iso; // the schema admits nothing else; never throw on the live path
  const d = new Date(t.second);
  // toISOString writes a year past 9999 (an offset can carry 9999-12-31 there) or before 1 as ±YYYYYY; to_char's YYYY, as many digits as it has, BC unmarked
  const year = d.getUTCFullYear();
  const yyyy = String(year > 0 ? year : 1 - year).padStart(4, '0');
  return `${yyyy}${d.toISOString().slice(-20, -5)}.${String(t.micros).padStart(6, '0')}Z`;
}

/** An instant as a timestamptz column holds it: the whole second (ms since the Unix epoch, UTC) and the microseconds past it (0–999,999). */
export interface StoredTime {
  second: number;
  micros: number;
}

/**
 * The instant PostgreSQL stores for an ISO 8601 date-time: its offset applied, a fraction finer
 * than the microsecond rounded as its input function does (rint: ties to even), 24:00 and a leap
 * second rolled over. Undefined for text that is not such a date-time (the schema admits none).
 * `storedInstant` prints it; the ingest's binary COPY writes it as PostgreSQL's int64 microseconds.
 */
export function storedTime(iso: string): StoredTime | undefined {
  const m = ISO.exec(iso);
  const zone = m?.[8]; // a required group: there whenever the pattern matches
  if (!m || zone === undefined) return undefined;
  const [, y, mo, d, h, mi, s = '0', frac = ''] = m;
  let micros = 0;
  if (frac.length > 0) micros = frac.length <= 6 ? Number(frac.padEnd(6, '0')) : roundHalfEven(Number(`0.${frac}`) * 1e6);
  let offsetMinutes = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0'));
  }
  const t = new Date(0);
  t.setUTCFullYear(Number(y), Number(mo) - 1, Number(d)); // not Date.UTC: it maps years 0-99 to 1900-1999
  t.setUTCHours(Number(h), Number(mi), Number(s), 0); // 24:00 and a leap second roll over, as in PostgreSQL
  // a fraction that rounds up to a whole second (.9999999) moves the second on
  return { second: t.getTime() - offsetMinutes * 60_000 + Math.floor(micros / 1_000_000) * 1000, micros: micros % 1_000_000 };
}

/** C `rint` in the default rounding mode: to the nearest integer, ties to even. */
function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x - Math.trunc(x)) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}
