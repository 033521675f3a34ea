/**
 * Synthetic append-log rows for the benches (vitals.bench.ts, indexes.bench.ts): `n` numeric
 * observations of `patients` patients (one device each, codes in turn), 50 per millisecond ending
 * now (what a live ward sends), or `lateMs` older: a device's buffered backlog, which the log
 * indexes by position too (migration 0009). Every row has its own seq, so none is a duplicate.
 */
import { NUMERIC_VITALS, type NumericVitalCode } from '@vitalis/schemas';
import type { StoredRow } from '../../apps/ingest/src/store';

const CODES = Object.keys(NUMERIC_VITALS) as NumericVitalCode[];

export function benchRows(
  n: number,
  prefix: string,
  { lateMs = 0, patients = 500 }: { lateMs?: number; patients?: number } = {},
): StoredRow[] {
  const t0 = Date.now() - lateMs - Math.ceil(n / 50);
  return Array.from({ length: n }, (_, i) => {
    const code = CODES[i % CODES.length]!;
    const patient = `${prefix}-${i % patients}`;
    return {
      patient_id: patient,
      device_id: `${patient}-dev`,
      seq: i,
      code,
      effective_at: new Date(t0 + Math.floor(i / 50)).toISOString(),
      value: 50 + (i % 40),
      unit: NUMERIC_VITALS[code].unit,
      sample_period_ms: null,
      samples: null,
      kafka_partition: i % 12,
      kafka_offset: String(i),
    };
  });
}
