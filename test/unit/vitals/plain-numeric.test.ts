/**
 * The ingest's compiled check of numeric observations (schemas/src/plain-numeric.ts) against zod:
 * every value it takes as plain is one zod accepts and returns unchanged, and it takes every valid
 * numeric at every edge of its range (so the fast path is the one the ingest runs); everything else
 * is left to zod, which explains it.
 */
import { describe, expect, it } from 'vitest';
import {
  isPlainNumericFrameItem,
  isPlainNumericObservation,
  NUMERIC_VITALS,
  vitalsFrameItemSchema,
  vitalsFrameV2ItemSchema,
  vitalsObservationSchema,
} from '@vitalis/schemas';

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
  const out: Value[] = changes.map(([key, value]) => ({ ...v, [key]: value }));
  for (const key of Object.keys(v)) out.push(Object.fromEntries(Object.entries(v).filter(([k]) => k !== key)));
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
