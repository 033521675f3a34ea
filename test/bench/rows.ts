/**
 * Synthetic append-log rows for the benches (copy.bench.ts, vitals.bench.ts, indexes.bench.ts): `n`
 * rows of `patients` patients (one device each), 50 per millisecond ending now (what a live ward
 * sends), or `lateMs` older: a device's buffered backlog, which the log indexes by position too
 * (migration 0009). Every row has its own seq, so none is a duplicate (`firstSeq` numbers a further
 * call's rows on, for a volume written in parts). Shapes: `numeric` (the six
 * numeric codes in turn), `ecg` (1 s ECG chunks of 250 samples, as the simulator draws them) and
 * `monitor` (what a monitor's frame stores: six numerics, then one ECG chunk). Also the monitor
 * frame the live bench sends and the calibration parses (`monitorFrameJson`).
 */
import { ecgChunk, ECG_HZ, ECG_PERIOD_MS, rng } from '@vitalis/clinical';
import { ECG_LEAD_II, FRAME_ENVELOPE, FRAME_ENVELOPE_V2, NUMERIC_VITALS, waveformSteps, type NumericVitalCode } from '@vitalis/schemas';
import type { Pool } from '@vitalis/db';
import { SeriesKeys } from '../../apps/ingest/src/series-keys';
import type { StoredRow } from '../../apps/ingest/src/store';
import { STABLE_READINGS } from '../../apps/simulator/src/burst';

const CODES = Object.keys(NUMERIC_VITALS) as NumericVitalCode[];
export type RowShape = 'numeric' | 'ecg' | 'monitor';

/** One 1 s ECG chunk as the simulator draws it (the burst's seed), drawn once: every bench's frames and rows share it. */
export const BENCH_ECG_SAMPLES: readonly number[] = ecgChunk(ECG_HZ, 72, 0, rng(3)).samples;
/** The same chunk as the log stores it (folded onto the 0.1 µV grid). */
const ECG_STEPS = waveformSteps({ origin: 0, samples: BENCH_ECG_SAMPLES });
const ECG_STEPS_TEXT = ECG_STEPS.join(',');
const ECG_SAMPLES_TEXT = BENCH_ECG_SAMPLES.join(',');

/**
 * One monitor frame (ADR 0015) as JSON text, observations numbered from `seq`, at `at`, with the
 * 1 s ECG chunk above. By default what a monitor sends (the v2 envelope, ADR 0029: the ECG as whole
 * 0.1 µV steps; six numerics of a stable patient, the burst's STABLE_READINGS, so the alarm rules
 * run as on a ward). `version` 1 is the calibration's fixed workload, unchanged since it was
 * introduced: the v1 frame with the ECG in decimal mV and each numeric at the middle of its
 * device range. `readings` 'storm' puts those mid-range numerics (heart rate 175 /min, SpO2 50 %:
 * every patient in alarm) into a v2 frame: the live bench's alarm storm (BENCH_LIVE_ALARMS=storm).
 * Written as a template (no JSON.stringify per frame): the live bench sends it from the thread that
 * stamps its latencies.
 */
export function monitorFrameJson(
  patient: string,
  device: string,
  seq: number,
  at: string,
  version: 1 | 2 = 2,
  readings: 'ward' | 'storm' = version === 2 ? 'ward' : 'storm',
): string {
  const numerics = CODES.map((code, k) => {
    const def = NUMERIC_VITALS[code];
    const value = readings === 'ward' ? STABLE_READINGS[code][seq % STABLE_READINGS[code].length] : Math.round((def.min + def.max) / 2);
    return `{"seq":${seq + k},"code":"${code}","value":${value},"unit":"${def.unit}"}`;
  });
  const waveform =
    version === 2
      ? `{"period_ms":${ECG_PERIOD_MS},"sample_steps":[${ECG_STEPS_TEXT}]}`
      : `{"origin":0,"period_ms":${ECG_PERIOD_MS},"samples":[${ECG_SAMPLES_TEXT}]}`;
  const ecg = `{"seq":${seq + CODES.length},"code":"${ECG_LEAD_II.code}","unit":"mV","waveform":${waveform}}`;
  return `{"envelope":"${version === 2 ? FRAME_ENVELOPE_V2 : FRAME_ENVELOPE}","patient_id":"${patient}","device_id":"${device}","effective_at":"${at}","observations":[${numerics.join(',')},${ecg}]}`;
}
/** Observations in one monitor frame. */
export const FRAME_OBSERVATIONS = CODES.length + 1;

export function benchRows(
  n: number,
  prefix: string,
  {
    lateMs = 0,
    patients = 500,
    shape = 'numeric',
    firstSeq = 0,
  }: { lateMs?: number; patients?: number; shape?: RowShape; firstSeq?: number } = {},
): StoredRow[] {
  const t0 = Date.now() - lateMs - Math.ceil(n / 50);
  return Array.from({ length: n }, (_, at) => {
    const i = firstSeq + at; // rows numbered on from an earlier call's (the same patients, new positions)
    const ecg = shape === 'ecg' || (shape === 'monitor' && i % (CODES.length + 1) === CODES.length);
    const code = CODES[i % CODES.length]!;
    const patient = `${prefix}-${i % patients}`;
    return {
      patient_id: patient,
      device_id: `${patient}-dev`,
      seq: i,
      code: ecg ? ECG_LEAD_II.code : code,
      effective_at: new Date(t0 + Math.floor(at / 50)).toISOString(),
      value: ecg ? null : 50 + (i % 40),
      unit: ecg ? 'mV' : NUMERIC_VITALS[code].unit,
      sample_period_ms: ecg ? ECG_PERIOD_MS : null,
      steps: ecg ? ECG_STEPS : null,
      kafka_partition: i % 12,
      kafka_offset: String(i),
    };
  });
}

/**
 * `rows` with their series keys (migration 0037) from `pool`'s database, as the ingest's rows reach
 * a write (its keys kept from the first batch of each pair on): a bench times the write, not the
 * first lookup of a pair.
 */
export async function keyed(pool: Pool, rows: StoredRow[]): Promise<StoredRow[]> {
  await new SeriesKeys(pool).assign(rows);
  return rows;
}
