/**
 * One definition per vital sign (issue 32 item 8): the code, names, units, FHIR profile and
 * plausible range of each sign live in @vitalis/schemas (NUMERIC_VITALS, ECG_LEAD_II), and what
 * the cards show, what the FHIR mapping writes and what an alarm message says are read from there.
 */
import { describe, expect, it } from 'vitest';
import {
  ECG_LEAD_II,
  NUMERIC_VITALS,
  VITAL_CODE,
  VITAL_CODES,
  toFhirObservation,
  vitalDefinition,
  type VitalsObservation,
} from '@vitalis/schemas';
import { DEFAULT_ALARM_CONDITIONS, type LimitCondition } from '@vitalis/clinical';
import { VITAL_LABELS } from '../../../apps/gateway/src/ui/vitals';
import { triageScriptData } from '../../../apps/gateway/src/ui/triage';
import { AlertEngine, limitEdge } from '../../../apps/ingest/src/live/rules';

describe('one definition per vital sign', () => {
  it('every vital code has one whole definition', () => {
    for (const code of VITAL_CODES) {
      const d = vitalDefinition(code)!;
      expect(d, code).toBeDefined();
      for (const field of ['code', 'system', 'display', 'key', 'label', 'unit', 'screenUnit', 'quantityUnit'] as const)
        expect(d[field], `${code}.${field}`).toMatch(/\S/);
      expect(d.min, code).toBeLessThan(d.max);
    }
    expect(vitalDefinition(ECG_LEAD_II.code)).toBe(ECG_LEAD_II);
  });

  it("the cards' labels and units are the definitions'", () => {
    for (const d of Object.values(NUMERIC_VITALS)) expect(VITAL_LABELS[d.code]).toEqual({ label: d.label, unit: d.screenUnit });
    const data = triageScriptData();
    for (const d of Object.values(NUMERIC_VITALS)) expect([data.labels[d.code], data.units[d.code]]).toEqual([d.label, d.screenUnit]);
  });

  it('the FHIR Observation of each sign carries its profile and its quantity unit', () => {
    for (const d of Object.values(NUMERIC_VITALS)) {
      const o = toFhirObservation({
        patient_id: 'p',
        device_id: 'd',
        seq: 1,
        effective_at: '2026-11-29T10:00:00Z',
        code: d.code,
        value: d.min,
        unit: d.unit,
      } as VitalsObservation);
      expect(o.valueQuantity, d.code).toEqual({ value: d.min, unit: d.quantityUnit, system: 'http://unitsofmeasure.org', code: d.unit });
      expect(o.meta?.profile, d.code).toEqual('fhirProfile' in d ? [d.fhirProfile] : undefined);
    }
  });

  it("an alarm message says the value in the sign's screen unit", () => {
    const c = DEFAULT_ALARM_CONDITIONS['temp-high'] as LimitCondition;
    const [raise] = new AlertEngine().evaluate({ patient_id: 'p', code: c.code, value: 39.6, at: Date.now() });
    expect(raise!.message).toBe(
      `Temperature high: 39.6 ${NUMERIC_VITALS[VITAL_CODE.temperature].screenUnit} (≥ ${limitEdge(c)!.value} °C)`,
    );
  });
});
