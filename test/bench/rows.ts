/**
 * Synthetic append-log rows for the benches (copy.bench.ts, vitals.bench.ts, indexes.bench.ts): `n`
 * rows of `patients` patients (one device each), 50 per millisecond ending now (what a live ward
 * sends), or `lateMs` older: a device's buffered backlog, which the log indexes by position too
 * (migration 0009). Every row has its own seq, so none is a duplicate. Shapes: `numeric` (the six
 * numeric codes in turn), `ecg` (1 s ECG chunks of 250 samples, as the simulator draws them) and
 * `monitor` (what a monitor's frame stores: six numerics, then one ECG chunk).
 */
import { ecgChunk, ECG_HZ, ECG_PERIOD_MS, rng } from '@vitalis/clinical';
import { foldedSamples } from '@vitalis/live';
import { ECG_LEAD_II, NUMERIC_VITALS, type NumericVitalCode } from '@vitalis/schemas';
import type { StoredRow } from '../../apps/ingest/src/store';

const CODES = Object.keys(NUMERIC_VITALS) as NumericVitalCode[];
export type RowShape = 'numeric' | 'ecg' | 'monitor';

/** One 1 s chunk as the log stores it (folded onto the 0.1 µV grid), drawn once: the rows share it. */
const ECG_SAMPLES = foldedSamples({ origin: 0, samples: ecgChunk(ECG_HZ, 72, 0, rng(3)).samples });

export function benchRows(
  n: number,
  prefix: string,
  { lateMs = 0, patients = 500, shape = 'numeric' }: { lateMs?: number; patients?: number; shape?: RowShape } = {},
): StoredRow[] {
  const t0 = Date.now() - lateMs - Math.ceil(n / 50);
  return Array.from({ length: n }, (_, i) => {
    const ecg = shape === 'ecg' || (shape === 'monitor' && i % (CODES.length + 1) === CODES.length);
    const code = CODES[i % CODES.length]!;
    const patient = `${prefix}-${i % patients}`;
    return {
      patient_id: patient,
      device_id: `${patient}-dev`,
      seq: i,
      code: ecg ? ECG_LEAD_II.code : code,
      effective_at: new Date(t0 + Math.floor(i / 50)).toISOString(),
      value: ecg ? null : 50 + (i % 40),
      unit: ecg ? 'mV' : NUMERIC_VITALS[code].unit,
      sample_period_ms: ecg ? ECG_PERIOD_MS : null,
      samples: ecg ? ECG_SAMPLES : null,
      kafka_partition: i % 12,
      kafka_offset: String(i),
    };
  });
}
