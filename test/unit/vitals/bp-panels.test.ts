/**
 * The blood-pressure pairing of the read side (apps/gateway/src/vitals/bp-panels.ts, docs/adr/0026):
 * which stored codes a search reads, how a page of rows becomes entries whatever page a row falls
 * on, lone and duplicated readings, and the panel's FHIR form (the bp profile's shape).
 */
import { describe, expect, it } from 'vitest';
import {
  BP_PANEL_CODE,
  VITAL_CODE,
  observationSearchsetJson,
  toFhirBloodPressure,
  toSearchsetBundle,
  type VitalsObservation,
} from '@vitalis/schemas';
import { bloodPressureInstants, entriesOfPage, pairReadings, storedCodesFor } from '../../../apps/gateway/src/vitals/bp-panels';
import { syntheticBloodPressureAt, syntheticRaw } from '../../../apps/gateway/src/vitals/synthetic';

const S = VITAL_CODE.systolic;
const D = VITAL_CODE.diastolic;
const HR = VITAL_CODE.heartRate;
const T1 = '2026-03-01T10:00:00.000000Z';
const T2 = '2026-03-01T10:01:00.000000Z';

const row = (code: string, seq: number, at = T1, value = 100, device = 'cuff-1'): VitalsObservation =>
  ({ patient_id: 'p1', device_id: device, seq, code, effective_at: at, value, unit: code === HR ? '/min' : 'mm[Hg]' }) as VitalsObservation;

describe('storedCodesFor', () => {
  it('reads the systolics for the panel or either part, the diastolics only when they are asked for alone', () => {
    expect(storedCodesFor(undefined)).toBeUndefined();
    expect(storedCodesFor([BP_PANEL_CODE])).toEqual([S]);
    expect(storedCodesFor([S])).toEqual([S]);
    expect(storedCodesFor([D])?.sort()).toEqual([S, D].sort());
    expect(storedCodesFor([HR, BP_PANEL_CODE])?.sort()).toEqual([HR, S].sort());
    expect(storedCodesFor([HR])).toEqual([HR]);
  });
});

describe('entriesOfPage', () => {
  const readings = [row(S, 3, T1, 120), row(D, 4, T1, 80), row(S, 7, T2, 150)];

  it('serves a paired systolic as its panel, leaves its diastolic out, and a lone systolic alone', () => {
    const page = [row(HR, 1), row(S, 3, T1, 120), row(D, 4, T1, 80), row(S, 7, T2, 150)];
    const entries = entriesOfPage(page, readings, undefined);
    expect(entries).toEqual([
      row(HR, 1),
      {
        kind: 'bp-panel',
        patient_id: 'p1',
        device_id: 'cuff-1',
        seq: 3,
        diastolic_seq: 4,
        effective_at: T1,
        systolic: 120,
        diastolic: 80,
      },
      row(S, 7, T2, 150),
    ]);
  });

  it('pairs the same way whatever page a row falls on (the diastolic alone on a page is left out)', () => {
    expect(entriesOfPage([row(D, 4, T1, 80)], readings, undefined)).toEqual([]);
    expect(entriesOfPage([row(S, 3, T1, 120)], readings, undefined)).toMatchObject([{ kind: 'bp-panel', seq: 3, diastolic: 80 }]);
  });

  it('serves what was asked for: the panel for 85354-9 and either part; a lone reading only for its own code', () => {
    const page = [row(S, 3, T1, 120), row(S, 7, T2, 150)];
    expect(entriesOfPage(page, readings, [BP_PANEL_CODE]).map((e) => e.seq)).toEqual([3]);
    expect(entriesOfPage(page, readings, [S]).map((e) => e.seq)).toEqual([3, 7]);
    expect(entriesOfPage(page, readings, [D]).map((e) => e.seq)).toEqual([3]);
    expect(entriesOfPage([row(D, 9, T2)], [row(D, 9, T2)], [D]).map((e) => e.seq)).toEqual([9]);
  });

  it('pairs within one device and instant, the n-th systolic with the n-th diastolic by seq', () => {
    const many = [row(S, 1), row(S, 5), row(D, 2), row(D, 8), row(D, 9), row(S, 3, T1, 100, 'cuff-2'), row(D, 4, T2)];
    const { partnerOf, pairedDiastolics } = pairReadings(many);
    expect([...partnerOf.entries()].map(([k, d]) => [k.replace('\u0000', '/'), d.seq])).toEqual([
      ['cuff-1/1', 2],
      ['cuff-1/5', 8],
    ]);
    expect([...pairedDiastolics].map((k) => k.replace('\u0000', '/'))).toEqual(['cuff-1/2', 'cuff-1/8']);
  });

  it('looks partners up at the instants of the page blood-pressure rows only', () => {
    expect(bloodPressureInstants([row(HR, 1, T2), row(S, 3), row(D, 4)])).toEqual([T1]);
  });
});

describe('the panel as FHIR', () => {
  const panel = entriesOfPage([row(S, 3, T1, 120)], [row(S, 3, T1, 120), row(D, 4, T1, 80)], undefined);

  it('is an 85354-9 Observation with the two components in mm[Hg], both stored rows as identifiers, the bp profile', () => {
    const [p] = panel;
    if (!p || !('kind' in p)) throw new Error('a panel');
    expect(toFhirBloodPressure(p)).toMatchObject({
      id: 'cuff-1.3',
      meta: { profile: ['http://hl7.org/fhir/StructureDefinition/bp'] },
      identifier: [{ value: 'cuff-1/3' }, { value: 'cuff-1/4' }],
      code: { coding: [{ system: 'http://loinc.org', code: BP_PANEL_CODE }] },
      component: [
        {
          code: { coding: [{ code: S }] },
          valueQuantity: { value: 120, unit: 'mmHg', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
        },
        {
          code: { coding: [{ code: D }] },
          valueQuantity: { value: 80, unit: 'mmHg', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
        },
      ],
    });
    expect(toFhirBloodPressure(p)).not.toHaveProperty('valueQuantity');
  });

  it('goes into the searchset text byte for byte as the Bundle builder writes it', () => {
    const entries = [row(HR, 1), ...panel];
    const links = { self: 'https://x/fhir/R4/Observation?patient=p1', observationBase: 'https://x/fhir/R4/Observation' };
    expect(observationSearchsetJson(entries, links)).toBe(JSON.stringify(toSearchsetBundle(entries, links)));
  });
});

describe('the sandbox (synthetic store)', () => {
  it('pairs every synthetic second into a panel: the page of both codes serves one panel per second', () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    const q = { patient: 'sbx-0001', codes: [S, D], from: '2026-03-01T11:59:50Z', to: '2026-03-01T12:00:00Z', limit: 100 };
    const page = syntheticRaw(q, now);
    expect(page.rows).toHaveLength(20);
    const readings = syntheticBloodPressureAt('sbx-0001', bloodPressureInstants(page.rows), now);
    const entries = entriesOfPage(page.rows, readings, [BP_PANEL_CODE]);
    expect(entries).toHaveLength(10);
    expect(entries.every((e) => 'kind' in e && e.kind === 'bp-panel' && e.systolic > e.diastolic)).toBe(true);
  });
});
