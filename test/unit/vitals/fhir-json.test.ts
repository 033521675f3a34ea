/**
 * The per-code template (schemas/src/fhir-json.ts) gives, byte for byte, what the FHIR mapping
 * gives (JSON.stringify(toFhirObservation(o))): every numeric vital, awkward values and ids, ids
 * too long for FHIR (the mapping leaves `id` out), ECG (the mapping itself); a searchset Bundle's
 * text is JSON.stringify of the Bundle the one builder makes; and one COPY text line of the append
 * log becomes the export's NDJSON line (ndjsonOf) and its resume key (exportKeyOf).
 */
import { describe, expect, it } from 'vitest';
import { exportKeyOf, ndjsonOf } from '@vitalis/export';
import { encodeSampleSteps } from '@vitalis/live';
import {
  ECG_LEAD_II,
  NUMERIC_VITALS,
  observationJson,
  observationSearchsetJson,
  toFhirObservation,
  toSearchsetBundle,
  type VitalsObservation,
} from '@vitalis/schemas';

const numeric = (code: string, value: number, device = 'dev-1', seq = 42, patient = 'pat-1', at = '2026-02-01T08:00:00.123456Z') =>
  ({
    patient_id: patient,
    device_id: device,
    seq,
    code,
    effective_at: at,
    value,
    unit: NUMERIC_VITALS[code as keyof typeof NUMERIC_VITALS].unit,
  }) as VitalsObservation;

describe('Observation JSON through the template', () => {
  it('equals the FHIR mapping for every numeric vital and awkward values and ids', () => {
    for (const code of Object.keys(NUMERIC_VITALS)) {
      for (const value of [0, -0, 1, 36.6, 1e-7, 123456.789, -3.5, 0.123456789]) {
        for (const [device, seq, patient] of [
          ['dev-1', 42],
          ['a'.repeat(60), 1],
          ['a'.repeat(70), 9],
          ['d"q\\x', 987654321, 'p\u2028t'],
        ] as const) {
          const o = numeric(code, value, device, seq, patient ?? 'pat-1');
          expect(observationJson(o)).toBe(JSON.stringify(toFhirObservation(o)));
        }
      }
    }
  });

  it('an ECG waveform takes the mapping itself', () => {
    const o = {
      patient_id: 'p',
      device_id: 'd',
      seq: 1,
      code: ECG_LEAD_II.code,
      effective_at: '2026-02-01T08:00:00.000000Z',
      unit: ECG_LEAD_II.unit,
      waveform: { origin: 0, period_ms: 4, samples: [0.1, -0.25] },
    } as VitalsObservation;
    expect(observationJson(o)).toBe(JSON.stringify(toFhirObservation(o)));
  });

  it('a searchset Bundle text equals JSON.stringify of the Bundle: matches, next link, ids too long, ECG, includes, empty', () => {
    const ecg = {
      patient_id: 'p',
      device_id: 'd',
      seq: 1,
      code: ECG_LEAD_II.code,
      effective_at: '2026-02-01T08:00:00.000000Z',
      unit: ECG_LEAD_II.unit,
      waveform: { origin: 0, period_ms: 4, samples: [0.1, -0.25] },
    } as VitalsObservation;
    const rows = [numeric('8867-4', 72), numeric('59408-5', 97, 'a'.repeat(70)), numeric('8310-5', 36.6, 'd"q\\x', 7, 'p\u2028t'), ecg];
    for (const links of [
      {
        self: 'http://x/fhir/R4/Observation?patient=p&date=ge2026',
        next: 'http://x/fhir/R4/Observation?_cursor=a"b',
        observationBase: 'http://x/fhir/R4/Observation',
      },
      { self: 'http://x/api/v1/vitals?patient=p' },
      { self: 'http://x/a', observationBase: 'http://x/fhir/R4/Observation' },
    ]) {
      expect(observationSearchsetJson(rows, links)).toBe(JSON.stringify(toSearchsetBundle(rows, links)));
      expect(observationSearchsetJson([], links)).toBe(JSON.stringify(toSearchsetBundle([], links)));
    }
    const links = { self: 'http://x/a', observationBase: 'http://x/fhir/R4/Observation' };
    const include = [
      {
        fullUrl: 'http://x/fhir/R4/Patient/p',
        resource: { resourceType: 'Patient', id: 'p', name: [{ family: 'Lovelace', given: ['Ada'] }] },
        search: { mode: 'include' as const },
      },
    ];
    const bundle = toSearchsetBundle(rows, links);
    expect(observationSearchsetJson(rows, links, include)).toBe(JSON.stringify({ ...bundle, entry: [...bundle.entry!, ...include] }));
  });

  it('a COPY text line of the append log becomes the mapped line and its resume key', () => {
    const code = Object.keys(NUMERIC_VITALS)[0]!;
    const unit = NUMERIC_VITALS[code as keyof typeof NUMERIC_VITALS].unit;
    // the export's columns: ..., sample_period_ms, samples (real[], before migration 0036), encode(sample_steps, 'hex')
    const line = `pat-1\tdev-1\t42\t${code}\t2026-02-01T08:00:00.123456Z\t72.5\t${unit}\t\\N\t\\N\t\\N`;
    expect(exportKeyOf(line)).toEqual({ d: 'dev-1', s: 42, t: '2026-02-01T08:00:00.123456Z', order: 'time-first' });
    expect(ndjsonOf(line)).toBe(JSON.stringify(toFhirObservation(numeric(code, 72.5))));
    const ecg = `pat-1\tdev-2\t7\t${ECG_LEAD_II.code}\t2026-02-01T08:00:00.000000Z\t\\N\tmV\t4\t\\N\t${encodeSampleSteps([0.1, -0.25, 1.2]).toString('hex')}`;
    expect(exportKeyOf(ecg)).toEqual({ d: 'dev-2', s: 7, t: '2026-02-01T08:00:00.000000Z', order: 'time-first' });
    expect(JSON.parse(ndjsonOf(ecg)).valueSampledData).toMatchObject({ period: 4, data: '0.1 -0.25 1.2' });
    const legacy = `pat-1\tdev-2\t8\t${ECG_LEAD_II.code}\t2026-02-01T08:00:00.000000Z\t\\N\tmV\t4\t{0.1,-0.25,1.2}\t\\N`;
    expect(JSON.parse(ndjsonOf(legacy)).valueSampledData).toMatchObject({ period: 4, data: '0.1 -0.25 1.2' });
    // COPY text escapes (defence in depth: ids are validated at the door)
    const escaped = `p\\\\1\tdev\\t9\t42\t${code}\t2026-02-01T08:00:00.123456Z\t72.5\t${unit}\t\\N\t\\N\t\\N`;
    expect(exportKeyOf(escaped)).toEqual({ d: 'dev\t9', s: 42, t: '2026-02-01T08:00:00.123456Z', order: 'time-first' });
    expect(ndjsonOf(escaped)).toBe(JSON.stringify(toFhirObservation(numeric(code, 72.5, 'dev\t9', 42, 'p\\1'))));
  });
});
