/**
 * The ingest's compiled checks (schemas/src/plain-records.ts) against zod: every value one takes as
 * plain is one zod accepts and returns unchanged, and each takes every valid value at every edge of
 * its ranges (so the fast path is the one the ingest runs); everything else is left to zod, which
 * explains it. Numeric observations (whole and in frames), frames' heads, v2 frames' ECG chunks.
 */
import { describe, expect, it } from 'vitest';
import {
  ECG_LEAD_II,
  FRAME_ENVELOPE,
  FRAME_ENVELOPE_V2,
  frameHeadSchema,
  isPlainFrameHead,
  isPlainNumericFrameItem,
  isPlainNumericObservation,
  isPlainStepsChunk,
  MAX_FRAME_OBSERVATIONS,
  MAX_PERIOD_MS,
  MAX_SAMPLE_STEPS,
  MAX_WAVEFORM_SAMPLES,
  NUMERIC_VITALS,
  vitalsFrameItemSchema,
  vitalsFrameV2ItemSchema,
  vitalsObservationSchema,
} from '@vitalis/schemas';
import type { z } from 'zod';

const at = '2026-11-30T14:10:00.123Z';
type Value = Record<string, unknown>;

/** Valid numerics of every code at its min, max, a middle value and the other edges of the other fields. */
function validWhole(): Value[] {
  const out: Value[] = [];
  for (const def of Object.values(NUMERIC_VITALS)) {
    for (const value of [def.min, def.max, (def.min + def.max) / 2, def.min + Number.EPSILON * 64]) {
      for (const [seq, effective_at, id] of [
        [0, at, 'p'],
        [Number.MAX_SAFE_INTEGER, '0001-01-01T00:00:00Z', 'A'.repeat(64)],
        [7, '2024-02-29T23:59:59.999999+15:59', 'pat-1.x'],
      ] as const)
        out.push({ patient_id: id, device_id: `${id}-mon`.slice(0, 64), seq, effective_at, code: def.code, value, unit: def.unit });
    }
  }
  return out;
}

/** One field of `v` changed, added or taken away, each in turn. */
function oneFieldChanged(v: Value, changes: Array<[string, unknown]>): Value[] {
  const out: Value[] = changes.map(([key, value]) => ({ ...v, [key]: value }));
  for (const key of Object.keys(v)) out.push(Object.fromEntries(Object.entries(v).filter(([k]) => k !== key)));
  return out;
}

/** Each way a value can be wrong (or merely not plain): one field changed, added or taken away. */
function variantsOf(v: Value): Value[] {
  const changes: Array<[string, unknown]> = [
    ['patient_id', ''],
    ['patient_id', 'a b'],
    ['patient_id', 'x'.repeat(65)],
    ['patient_id', 7],
    ['device_id', null],
    ['seq', -1],
    ['seq', 1.5],
    ['seq', Number.MAX_SAFE_INTEGER + 2],
    ['seq', '1'],
    ['effective_at', '2026-11-30 14:10:00Z'],
    ['effective_at', '2026-02-29T00:00:00Z'],
    ['effective_at', '0000-01-01T00:00:00Z'],
    ['effective_at', '2026-11-30T14:10:00+16:00'],
    ['effective_at', '2026-11-30T14:10:00'],
    ['effective_at', 17],
    ['effective_at', null],
    ['effective_at', undefined],
    ['code', '131330'],
    ['code', 'nope'],
    ['code', 'toString'],
    ['value', '72'],
    ['value', null],
    ['value', Number.NaN],
    ['value', Number.POSITIVE_INFINITY],
    ['unit', 'mmHg'],
    ['unit', undefined],
    ['extra', 1],
  ];
  const out = oneFieldChanged(v, changes);
  const def = NUMERIC_VITALS[v.code as keyof typeof NUMERIC_VITALS];
  out.push({ ...v, value: def.min - 1e-9 }, { ...v, value: def.max + 1e-9 });
  return out;
}

const frameItem = ({ seq, effective_at, code, value, unit }: Value, ownTime: boolean): Value =>
  ownTime ? { seq, effective_at, code, value, unit } : { seq, code, value, unit };

describe('the compiled check of numeric observations', () => {
  it('takes every valid whole numeric at its edges, each as zod returns it', () => {
    for (const v of validWhole()) {
      expect([v, isPlainNumericObservation(v)]).toEqual([v, true]);
      expect(vitalsObservationSchema.parse(v)).toEqual(v);
    }
  });

  it('never takes a whole value zod refuses or would change', () => {
    const variants = validWhole().flatMap(variantsOf);
    expect(variants.length).toBeGreaterThan(1_000);
    for (const v of variants) {
      if (!isPlainNumericObservation(v)) continue;
      const result = vitalsObservationSchema.safeParse(v);
      expect([v, result.success]).toEqual([v, true]);
      if (result.success) expect(result.data).toEqual(v);
    }
  });

  it('takes frame items of both versions (with and without their own time) and never one zod refuses or changes', () => {
    for (const schema of [vitalsFrameItemSchema, vitalsFrameV2ItemSchema]) {
      for (const whole of validWhole()) {
        for (const ownTime of [false, true]) {
          const item = frameItem(whole, ownTime);
          expect([item, isPlainNumericFrameItem(item)]).toEqual([item, true]);
          expect(schema.parse(item)).toEqual(item);
          for (const v of variantsOf(item)) {
            if (!isPlainNumericFrameItem(v)) continue;
            const result = schema.safeParse(v);
            expect([v, result.success]).toEqual([v, true]);
            if (result.success) expect(result.data).toEqual(v);
          }
        }
      }
    }
  });

  it('leaves arrays, null and non-objects to zod', () => {
    for (const v of [null, undefined, 7, 'x', [], [1, 2, 3, 4, 5, 6, 7]]) {
      expect(isPlainNumericObservation(v)).toBe(false);
      expect(isPlainNumericFrameItem(v)).toBe(false);
    }
  });
});

/** Every value `isPlain` takes, zod takes and returns equal; `valid` are all taken; `variants` of them are taken only when zod agrees. */
function holdsToZod(isPlain: (v: unknown) => boolean, schema: z.ZodType, valid: Value[], variants: (v: Value) => Value[]) {
  let refused = 0;
  for (const v of valid) {
    expect([v, isPlain(v)]).toEqual([v, true]);
    expect(schema.parse(v)).toEqual(v);
    for (const w of variants(v)) {
      if (!isPlain(w)) {
        refused += 1;
        continue;
      }
      const result = schema.safeParse(w);
      expect([w, result.success]).toEqual([w, true]);
      if (result.success) expect(result.data).toEqual(w);
    }
  }
  return refused;
}

describe('the compiled check of a frame head', () => {
  const observations = (n: number) => Array.from({ length: n }, (_, i) => ({ seq: i }));
  const valid = [FRAME_ENVELOPE, FRAME_ENVELOPE_V2].flatMap((envelope) =>
    [1, 7, MAX_FRAME_OBSERVATIONS].flatMap((n) =>
      [
        ['p', at],
        ['A'.repeat(64), '0001-01-01T00:00:00Z'],
        ['pat-1.x', '2024-02-29T23:59:59.999999+15:59'],
      ].map(([id, effective_at]) => ({
        envelope,
        patient_id: id,
        device_id: `${id}-mon`.slice(0, 64),
        effective_at,
        observations: observations(n),
      })),
    ),
  );
  const variants = (v: Value) =>
    oneFieldChanged(v, [
      ['envelope', 'vitals.frame.v3'],
      ['envelope', null],
      ['patient_id', ''],
      ['patient_id', 'x'.repeat(65)],
      ['device_id', 'a b'],
      ['device_id', 7],
      ['effective_at', '2026-02-29T00:00:00Z'],
      ['effective_at', '2026-11-30T14:10:00'],
      ['effective_at', 0],
      ['observations', []],
      ['observations', observations(MAX_FRAME_OBSERVATIONS + 1)],
      ['observations', { 0: { seq: 0 }, length: 1 }],
      ['observations', null],
      ['extra', 1],
    ]);

  it('takes every valid head at its edges, each as zod returns it, and never one zod refuses or changes', () => {
    expect(holdsToZod(isPlainFrameHead, frameHeadSchema, valid, variants)).toBeGreaterThan(100);
  });

  it('leaves arrays, null and non-objects to zod', () => {
    for (const v of [null, undefined, 7, 'x', [], [valid[0]]]) expect(isPlainFrameHead(v)).toBe(false);
  });
});

describe('the compiled check of a v2 ECG chunk', () => {
  const chunk = (samples: number[], period_ms: number, ownTime: boolean): Value => ({
    seq: 3,
    ...(ownTime ? { effective_at: at } : {}),
    code: ECG_LEAD_II.code,
    unit: 'mV',
    waveform: { period_ms, sample_steps: samples },
  });
  const edges = [-MAX_SAMPLE_STEPS, -1, 0, 1, 12_345, MAX_SAMPLE_STEPS];
  const valid = [[0], edges, Array.from({ length: MAX_WAVEFORM_SAMPLES }, (_, i) => (i % 401) - 200)].flatMap((samples) =>
    [4, 0.5, 2.5, MAX_PERIOD_MS].flatMap((period) => [false, true].map((own) => chunk(samples, period, own))),
  );
  const waveformChanged = (v: Value): Value[] => {
    const w = v.waveform as Value;
    const steps = w.sample_steps as number[];
    return [
      ...oneFieldChanged(w, [
        ['period_ms', 0],
        ['period_ms', MAX_PERIOD_MS + 0.5],
        ['period_ms', 4.00000001],
        ['period_ms', '4'],
        ['period_ms', Number.NaN],
        ['sample_steps', []],
        ['sample_steps', Array.from({ length: MAX_WAVEFORM_SAMPLES + 1 }, () => 0)],
        ['sample_steps', [...steps, 1.5]],
        ['sample_steps', [...steps, MAX_SAMPLE_STEPS + 1]],
        ['sample_steps', [-MAX_SAMPLE_STEPS - 1, ...steps]],
        ['sample_steps', [...steps, '1']],
        ['sample_steps', [...steps, null]],
        ['sample_steps', [...steps, [1]]],
        ['sample_steps', '1,2,3'],
        ['samples', steps],
        ['origin', 0],
      ]),
      null,
      [],
    ].map((waveform) => ({ ...v, waveform }));
  };
  const variants = (v: Value) => [
    ...oneFieldChanged(v, [
      ['seq', -1],
      ['seq', 1.5],
      ['effective_at', '2026-11-30T14:10:00'],
      ['effective_at', null],
      ['code', '8867-4'],
      ['unit', 'uV'],
      ['unit', 'mv'],
      ['extra', 1],
    ]),
    ...waveformChanged(v),
  ];

  it('takes every valid chunk at its edges, each as zod returns it, and never one zod refuses or changes', () => {
    expect(holdsToZod(isPlainStepsChunk, vitalsFrameV2ItemSchema, valid, variants)).toBeGreaterThan(500);
  });

  it('takes no v1 chunk (decimal mV with an origin) and no numeric: those have their own paths', () => {
    expect(isPlainStepsChunk({ seq: 1, code: ECG_LEAD_II.code, unit: 'mV', waveform: { origin: 0, period_ms: 4, samples: [0.1] } })).toBe(
      false,
    );
    expect(isPlainStepsChunk({ seq: 1, code: '8867-4', value: 72, unit: '/min' })).toBe(false);
  });
});
