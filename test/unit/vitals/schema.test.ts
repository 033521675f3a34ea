import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  decodeObservation,
  ECG_LEAD_II,
  encodeObservation,
  MAX_WAVEFORM_SAMPLES,
  NUMERIC_VITALS,
  validateObservation,
  vitalsObservationSchema,
  type NumericVitalCode,
} from '@vitalis/schemas';
import {
  FRAME_JSON_SCHEMA_PATH,
  JSON_SCHEMA_PATH,
  renderFrameJsonSchema,
  renderJsonSchema,
} from '../../../schemas/scripts/export-json-schema';
import { expectSameAsPlainParse } from '../../helpers/same-as-plain-parse';

const base = { patient_id: 'pat-0001', device_id: 'pat-0001-monitor', seq: 1, effective_at: '2026-03-01T10:00:00.123Z' };
const codes = Object.keys(NUMERIC_VITALS) as NumericVitalCode[];

describe('vitals observation schema', () => {
  it.each(codes)('accepts %s with its UCUM unit at both ends of its range', (code) => {
    const def = NUMERIC_VITALS[code];
    expect(validateObservation({ ...base, code, value: def.min, unit: def.unit }).ok).toBe(true);
    expect(validateObservation({ ...base, code, value: def.max, unit: def.unit }).ok).toBe(true);
  });

  it.each(codes)("refuses %s with any other code's unit, and outside its range", (code) => {
    const def = NUMERIC_VITALS[code];
    const otherUnits = [...new Set(Object.values(NUMERIC_VITALS).map((d) => d.unit))].filter((u) => u !== def.unit);
    for (const unit of [...otherUnits, 'mV', 'bpm', '']) {
      const result = validateObservation({ ...base, code, value: def.min, unit });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.problems).toEqual([{ path: 'unit', message: expect.stringContaining(def.unit) }]);
    }
    for (const value of [def.min - 0.1, def.max + 0.1, Number.NaN]) {
      expect(validateObservation({ ...base, code, value, unit: def.unit }).ok).toBe(false);
    }
  });

  it('uses the expected LOINC codes and units', () => {
    expect(Object.fromEntries(codes.map((c) => [c, NUMERIC_VITALS[c].unit]))).toEqual({
      '8867-4': '/min',
      '59408-5': '%',
      '8480-6': 'mm[Hg]',
      '8462-4': 'mm[Hg]',
      '9279-1': '/min',
      '8310-5': 'Cel',
    });
  });

  it('refuses unknown codes, bad ids, bad seq, bad times and unknown fields', () => {
    const ok = { ...base, code: '8867-4', value: 70, unit: '/min' };
    const bad = (patch: Record<string, unknown>) => validateObservation({ ...ok, ...patch });
    const problem = (patch: Record<string, unknown>) => {
      const r = bad(patch);
      return r.ok ? undefined : r.problems[0];
    };
    expect(problem({ code: '1234-5' })).toEqual({ path: 'code', message: expect.stringMatching(/^unknown code/) });
    expect(problem({ patient_id: 'pat 1' })?.path).toBe('patient_id');
    expect(problem({ patient_id: '' })?.path).toBe('patient_id');
    expect(problem({ device_id: 'x'.repeat(65) })?.path).toBe('device_id');
    expect(problem({ seq: -1 })?.path).toBe('seq');
    expect(problem({ seq: 1.5 })?.path).toBe('seq');
    expect(problem({ seq: '1' })?.path).toBe('seq');
    expect(problem({ effective_at: '2026-03-01 10:00' })?.path).toBe('effective_at');
    expect(problem({ effective_at: '2026-03-01T10:00:00' })?.path).toBe('effective_at'); // no zone
    // what the append log's timestamptz refuses is refused at the door, never acknowledged then dead-lettered
    expect(problem({ effective_at: '7376-06-16T19:19:18.236202-19:24' })?.path).toBe('effective_at'); // offset beyond ±15:59
    expect(problem({ effective_at: '0000-01-01T00:00:00Z' })?.path).toBe('effective_at'); // year 0
    expect(problem({ value: '70' })?.path).toBe('value');
    expect(bad({ extra: 1 }).ok).toBe(false);
    expect(validateObservation({ ...ok, effective_at: '2026-03-01T10:00:00+02:00' }).ok).toBe(true);
  });

  it('accepts ECG chunks up to the sample limit in mV, refuses more, wrong units and implausible potentials', () => {
    const ecg = (waveform: Record<string, unknown>, unit = 'mV') =>
      validateObservation({ ...base, code: ECG_LEAD_II.code, unit, waveform });
    expect(ecg({ period_ms: 4, samples: new Array(MAX_WAVEFORM_SAMPLES).fill(0.1) }).ok).toBe(true);
    expect(ecg({ period_ms: 4, samples: new Array(MAX_WAVEFORM_SAMPLES + 1).fill(0.1) }).ok).toBe(false);
    expect(ecg({ period_ms: 4, samples: [] }).ok).toBe(false);
    expect(ecg({ period_ms: 0, samples: [0] }).ok).toBe(false);
    expect(ecg({ period_ms: 4, samples: [0, 11] }).ok).toBe(false);
    expect(ecg({ period_ms: 4, samples: [0] }, 'uV').ok).toBe(false);
    const r = ecg({ period_ms: 4, samples: [0.5] });
    expect(r.ok && 'waveform' in r.observation && r.observation.waveform.origin).toBe(0); // default origin
    expect(validateObservation({ ...base, code: ECG_LEAD_II.code, unit: 'mV', value: 1 }).ok).toBe(false);
  });

  it('encodes to Kafka as JSON keyed by patient, and decodes back; garbage decodes to a reason', () => {
    const o = { ...base, code: '59408-5' as const, value: 97, unit: '%' as const };
    const { key, value } = encodeObservation(o);
    expect(key).toBe('pat-0001');
    expect(decodeObservation(Buffer.from(value))).toEqual({ ok: true, observation: o });
    expect(decodeObservation(null)).toEqual({ ok: false, reason: 'empty message value' });
    expect(decodeObservation('{nope')).toMatchObject({ ok: false, reason: expect.stringMatching(/^undecodable JSON/) });
    expect(decodeObservation('{"code":"8867-4"}')).toMatchObject({ ok: false, reason: expect.stringMatching(/^schema-invalid: /) });
  });

  it('the committed JSON Schema is current (regenerate: node --import tsx schemas/scripts/export-json-schema.ts)', async () => {
    expect(await readFile(JSON_SCHEMA_PATH, 'utf8')).toBe(renderJsonSchema());
    expect(await readFile(FRAME_JSON_SCHEMA_PATH, 'utf8')).toBe(renderFrameJsonSchema());
    const schema = JSON.parse(renderJsonSchema());
    expect(schema.$defs.VitalsObservation.oneOf).toHaveLength(7);
  });
});

describe('ECG samples checked in one loop (parseWithSamples)', () => {
  const ecg = (samples: unknown, extra: Record<string, unknown> = {}) => ({
    ...base,
    code: ECG_LEAD_II.code,
    unit: 'mV',
    waveform: { origin: 0.2, period_ms: 4, samples },
    ...extra,
  });
  const cases: [string, unknown][] = [
    ['a valid chunk', ecg(Array.from({ length: 250 }, (_, i) => Math.sin(i) * 3))],
    ['the range ends', ecg([ECG_LEAD_II.min, ECG_LEAD_II.max, 0])],
    ['the most samples', ecg(Array.from({ length: MAX_WAVEFORM_SAMPLES }, () => 0.5))],
    ['one too many samples', ecg(Array.from({ length: MAX_WAVEFORM_SAMPLES + 1 }, () => 0.5))],
    ['no sample', ecg([])],
    ['a sample out of range', ecg([0.1, 10.5, -0.2])],
    ['a string sample', ecg([0.1, '0.2'])],
    ['a null sample', ecg([null])],
    ['samples not an array', ecg('0.1,0.2')],
    ['a valid chunk with a bad period', { ...ecg([0.1, 0.2]), waveform: { origin: 0, period_ms: -4, samples: [0.1, 0.2] } }],
    ['a valid chunk with an unknown waveform key', { ...ecg([0.1]), waveform: { origin: 0, period_ms: 4, samples: [0.1], gain: 2 } }],
    ['a valid chunk with a wrong unit', ecg([0.1, 0.2], { unit: '%' })],
    [
      'samples on a numeric code',
      { ...base, code: '8867-4', value: 60, unit: '/min', waveform: { origin: 0, period_ms: 4, samples: [0.1] } },
    ],
    ['a waveform that is not an object', ecg([0.1], { waveform: 'flat' })],
    ['null', null],
  ];
  it.each(cases)('answers exactly what the plain parse answers: %s', (_label, value) =>
    expectSameAsPlainParse(vitalsObservationSchema, value),
  );
});
