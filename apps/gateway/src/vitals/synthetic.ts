/**
 * Synthetic vitals of the sandbox's patients, generated on demand: nothing is stored. A small fixed
 * roster (sbx-0001..sbx-0004), each with a plausible profile, has one observation per numeric vital
 * per second (the six NUMERIC_VITALS codes; no ECG). Every value is a pure function of (patient, code,
 * second): the shared signal generators (@vitalis/clinical `trend` + `sampleVital`) seeded from a
 * hash of the three, so a history page, its next page, a bucket and a live event resumed from an id
 * always agree. The samples exist for the last SYNTHETIC_HISTORY_MS up to now (never in the future),
 * which also bounds the work of one request: aggregating all of it is 129,600 samples (about 1 µs
 * each, measured on a loaded 2-core machine), a raw page at most 5,001.
 *
 * The outputs have exactly the shapes of the append log's (vitals/history.ts): observations
 * `{ patient_id, device_id, seq, effective_at, code, value, unit }` with microsecond timestamps,
 * raw pages ordered by (effective_at, device_id, seq), buckets by (bucket, code), the latest per code.
 * Unknown `sbx-` ids have no data (like a real patient without observations).
 */
import { must } from '@vitalis/runtime';
import { rng, sampleVital, type PatientProfile } from '@vitalis/clinical';
import { NUMERIC_VITALS, VITAL_CODE, type NumericVitalCode, type VitalsObservation } from '@vitalis/schemas';
import { BUCKETS, type BucketPage, type BucketQuery, type BucketRow, type RawPage, type RawQuery } from './history';

/** How far back synthetic samples exist (6 hours: a bucketed read of all of it is 129,600 samples). */
export const SYNTHETIC_HISTORY_MS = 6 * 3_600_000;

/** The synthetic codes, in seq order within a second (`seq = second * 8 + index`). */
export const SYNTHETIC_CODES = Object.keys(NUMERIC_VITALS) as NumericVitalCode[];
/** The code at an index into SYNTHETIC_CODES (every index used here is one of theirs). */
const codeAt = (i: number): NumericVitalCode => must(SYNTHETIC_CODES[i], `synthetic code ${i}`);
/** Positions per second: 6 codes, room to 8 (index 7 = "the whole second", a fresh stream's start). */
export const SLOTS_PER_SECOND = 8;
export const SECOND_DONE = SLOTS_PER_SECOND - 1;

export interface SyntheticPatient {
  id: string;
  /** Its live stream's partition (the event ids' `<partition>-<offset>`). */
  partition: number;
  /** The monitor its observations come from. */
  device: string;
  description: string;
  profile: Omit<PatientProfile, 'patientId' | 'deterioration'>;
  /** Deteriorates over `durationMs` from `onsetMs` into every hour, recovering on the hour. */
  hourlyDeterioration?: { onsetMs: number; durationMs: number };
}

export const SYNTHETIC_PATIENTS: readonly SyntheticPatient[] = [
  {
    id: 'sbx-0001',
    partition: 1,
    device: 'sbx-monitor-0001',
    description: 'stable adult',
    profile: { heartRate: 72, spo2: 98, systolic: 121, diastolic: 79, respiratoryRate: 14, temperature: 36.8 },
  },
  {
    id: 'sbx-0002',
    partition: 2,
    device: 'sbx-monitor-0002',
    description: 'febrile, tachycardic',
    profile: { heartRate: 104, spo2: 95, systolic: 132, diastolic: 84, respiratoryRate: 20, temperature: 38.4 },
  },
  {
    id: 'sbx-0003',
    partition: 3,
    device: 'sbx-monitor-0003',
    description: 'older adult, low blood pressure and SpO2',
    profile: { heartRate: 88, spo2: 93, systolic: 98, diastolic: 58, respiratoryRate: 22, temperature: 36.1 },
  },
  {
    id: 'sbx-0004',
    partition: 4,
    device: 'sbx-monitor-0004',
    description: 'deteriorates every hour (from :10, for 30 minutes), recovering on the hour',
    profile: { heartRate: 76, spo2: 97, systolic: 124, diastolic: 80, respiratoryRate: 15, temperature: 36.9 },
    hourlyDeterioration: { onsetMs: 10 * 60_000, durationMs: 30 * 60_000 },
  },
];

const byId = new Map(SYNTHETIC_PATIENTS.map((p) => [p.id, p]));
const byPartition = new Map(SYNTHETIC_PATIENTS.map((p) => [p.partition, p]));
export const syntheticPatient = (id: string): SyntheticPatient | undefined => byId.get(id);
export const syntheticPatientOfPartition = (partition: number): SyntheticPatient | undefined => byPartition.get(partition);

/** 32-bit FNV-1a of a string, then mixed with the code and the second (a seed per sample). */
function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
/** fnv(id) of each synthetic patient, computed once (a cache: the seed is fnv(id) either way). */
const patientSeed = new Map(SYNTHETIC_PATIENTS.map((p) => [p.id, fnv(p.id)]));

function sampleSeed(patient: SyntheticPatient, codeIndex: number, second: number): number {
  let h = ((patientSeed.get(patient.id) ?? fnv(patient.id)) ^ Math.imul(codeIndex + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (second >>> 0), 0x85ebca6b);
  h = Math.imul(h ^ Math.floor(second / 4_294_967_296), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const HOUR_MS = 3_600_000;

/** The patient's profile in the hour holding `atMs` (its deterioration restarts every hour). */
const profiles = new Map<string, PatientProfile>();
function profileAt(patient: SyntheticPatient, atMs: number): PatientProfile {
  const d = patient.hourlyDeterioration;
  const hour = d ? Math.floor(atMs / HOUR_MS) * HOUR_MS : 0;
  const key = `${patient.id} ${hour}`;
  let profile = profiles.get(key);
  if (!profile) {
    if (profiles.size > 1_000) profiles.clear();
    profile = {
      patientId: patient.id,
      ...patient.profile,
      ...(d ? { deterioration: { onsetMs: hour + d.onsetMs, durationMs: d.durationMs } } : {}),
    };
    profiles.set(key, profile);
  }
  return profile;
}

/** The value of `code` (index into SYNTHETIC_CODES) of `patient` at `second` (epoch seconds). */
export function syntheticValue(patient: SyntheticPatient, codeIndex: number, second: number): number {
  const atMs = second * 1000;
  return sampleVital(profileAt(patient, atMs), codeAt(codeIndex), atMs, rng(sampleSeed(patient, codeIndex, second)));
}

/** ISO 8601 with microseconds, as PostgreSQL renders the append log's timestamps. */
export const isoMicros = (ms: number): string => new Date(ms).toISOString().replace('Z', '000Z');

export const positionOf = (second: number, codeIndex: number): number => second * SLOTS_PER_SECOND + codeIndex;

/** One synthetic observation, in the append log's shape. */
export function syntheticObservation(patient: SyntheticPatient, codeIndex: number, second: number): VitalsObservation {
  const code = codeAt(codeIndex);
  return {
    patient_id: patient.id,
    device_id: patient.device,
    seq: positionOf(second, codeIndex),
    effective_at: isoMicros(second * 1000),
    code,
    value: syntheticValue(patient, codeIndex, second),
    unit: NUMERIC_VITALS[code].unit,
  } as VitalsObservation;
}

/** The seconds with samples in [fromMs, toMs): after the history horizon, not after now. */
export function sampleSeconds(fromMs: number, toMs: number, nowMs = Date.now()): { first: number; last: number } {
  return {
    first: Math.ceil(Math.max(fromMs, nowMs - SYNTHETIC_HISTORY_MS) / 1000),
    last: Math.min(Math.ceil(toMs / 1000) - 1, Math.floor(nowMs / 1000)),
  };
}

/** The code indexes a query asks for (all six, or the one code; ECG and unknown codes: none). */
function codeIndexes(code: string | undefined, codes?: readonly string[]): number[] {
  if (code === undefined && codes === undefined) return SYNTHETIC_CODES.map((_, i) => i);
  const wanted = code !== undefined ? [code] : (codes ?? []);
  return SYNTHETIC_CODES.flatMap((c, i) => (wanted.includes(c) ? [i] : []));
}

/** A raw page: queryRaw's contract (limit + 1 to know `more`; the cursor after (t, device, seq)). */
export function syntheticRaw(q: RawQuery, nowMs = Date.now()): RawPage {
  const patient = syntheticPatient(q.patient);
  const codes = codeIndexes(q.code, q.codes);
  if (!patient || codes.length === 0) return { rows: [], more: false };
  const { first, last } = sampleSeconds(Date.parse(q.from), Date.parse(q.to), nowMs);
  const after = q.after ? { ms: Date.parse(q.after.t), d: q.after.d, s: q.after.s } : undefined;
  // (time, device, seq) after the cursor in the page order: ascending, or newest first (descending)
  const sign = q.descending ? -1 : 1;
  const isAfter = (second: number, seq: number) => {
    if (!after) return true;
    const ms = second * 1000;
    if (ms !== after.ms) return sign * (ms - after.ms) > 0;
    if (patient.device !== after.d) return sign * (patient.device > after.d ? 1 : -1) > 0;
    return sign * (seq - after.s) > 0;
  };
  const rows: VitalsObservation[] = [];
  const order = q.descending ? [...codes].reverse() : codes;
  const cursorSecond = after ? Math.floor(after.ms / 1000) : undefined;
  const start = q.descending ? Math.min(last, cursorSecond ?? last) : Math.max(first, cursorSecond ?? first);
  for (let second = start; (q.descending ? second >= first : second <= last) && rows.length <= q.limit; second += sign) {
    for (const i of order) {
      if (rows.length > q.limit) break;
      if (isAfter(second, positionOf(second, i))) rows.push(syntheticObservation(patient, i, second));
    }
  }
  const more = rows.length > q.limit;
  const page = more ? rows.slice(0, q.limit) : rows;
  const end = page[page.length - 1];
  return { rows: page, ...(end ? { last: { at: end.effective_at, device_id: end.device_id, seq: end.seq } } : {}), more };
}

/** Buckets computed from the synthetic samples: queryBuckets' contract (ordered by (bucket, code), source `raw`). */
export function syntheticBuckets(q: BucketQuery, nowMs = Date.now()): BucketPage {
  const patient = syntheticPatient(q.patient);
  const codes = codeIndexes(q.code).sort((a, b) => (codeAt(a) < codeAt(b) ? -1 : 1));
  if (!patient || codes.length === 0) return { rows: [], more: false, source: 'raw' };
  const size = BUCKETS[q.bucket];
  const { first, last } = sampleSeconds(Date.parse(q.from), Date.parse(q.to), nowMs);
  const afterMs = q.after ? Date.parse(q.after.b) : undefined;
  const rows: BucketRow[] = [];
  let bucketMs = Math.floor((first * 1000) / size) * size;
  if (afterMs !== undefined && afterMs > bucketMs) bucketMs = afterMs;
  for (; bucketMs <= last * 1000 && rows.length <= q.limit; bucketMs += size) {
    const from = Math.max(first, bucketMs / 1000);
    const to = Math.min(last, (bucketMs + size) / 1000 - 1);
    if (from > to) continue;
    const bucket = isoMicros(bucketMs);
    for (const i of codes) {
      if (rows.length > q.limit) break;
      if (
        afterMs !== undefined &&
        (bucketMs < afterMs || (bucketMs === afterMs && codeAt(i) <= must(q.after, 'the cursor afterMs was read from').c))
      )
        continue;
      let sum = 0;
      let min = Infinity;
      let max = -Infinity;
      let value = 0;
      for (let second = from; second <= to; second++) {
        value = syntheticValue(patient, i, second);
        sum += value;
        if (value < min) min = value;
        if (value > max) max = value;
      }
      const count = to - from + 1;
      rows.push({ code: codeAt(i), bucket, count, avg: sum / count, min, max, last: value, last_at: isoMicros(to * 1000) });
    }
  }
  const more = rows.length > q.limit;
  return { rows: more ? rows.slice(0, q.limit) : rows, more, source: 'raw' };
}

/** The latest observation per code asked for (queryLatest's contract: ordered by code). */
export function syntheticLatest(patientId: string, codes: readonly string[], nowMs = Date.now()): VitalsObservation[] {
  const patient = syntheticPatient(patientId);
  if (!patient) return [];
  const second = Math.floor(nowMs / 1000);
  return codes
    .map((code) => SYNTHETIC_CODES.indexOf(code as NumericVitalCode))
    .filter((i) => i >= 0)
    .sort((a, b) => (codeAt(a) < codeAt(b) ? -1 : 1))
    .map((i) => syntheticObservation(patient, i, second));
}

/** The blood-pressure readings at the instants of `at` (queryBloodPressureAt's contract), from the samples of those seconds. */
export function syntheticBloodPressureAt(patientId: string, at: readonly string[], nowMs = Date.now()): VitalsObservation[] {
  const codes = [VITAL_CODE.systolic, VITAL_CODE.diastolic];
  return [...new Set(at)].flatMap((t) => {
    const to = new Date(Date.parse(t) + 1).toISOString();
    return syntheticRaw({ patient: patientId, codes, from: t, to, limit: SLOTS_PER_SECOND }, nowMs).rows;
  });
}
