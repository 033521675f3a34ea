import { describe, expect, it } from 'vitest';
import { toFhirObservation, toSearchsetBundle, type VitalsObservation } from '@vitalis/schemas';

const base = { patient_id: 'pat-0001', device_id: 'pat-0001-monitor', seq: 17, effective_at: '2026-03-01T10:00:00Z' };

describe('FHIR R4 Observation mapping', () => {
  it('maps a heart rate to a vital-signs Observation with LOINC code and UCUM quantity', () => {
    expect(toFhirObservation({ ...base, code: '8867-4', value: 72, unit: '/min' })).toEqual({
      resourceType: 'Observation',
      id: 'pat-0001-monitor.17',
      meta: { profile: ['http://hl7.org/fhir/StructureDefinition/heartrate'] },
      identifier: [{ system: 'urn:vitalis:observation', value: 'pat-0001-monitor/17' }],
      status: 'final',
      category: [
        {
          coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs', display: 'Vital Signs' }],
          text: 'Vital Signs',
        },
      ],
      code: { coding: [{ system: 'http://loinc.org', code: '8867-4', display: 'Heart rate' }], text: 'Heart rate' },
      subject: { reference: 'Patient/pat-0001' },
      device: { reference: 'Device/pat-0001-monitor' },
      effectiveDateTime: '2026-03-01T10:00:00Z',
      valueQuantity: { value: 72, unit: 'beats/minute', system: 'http://unitsofmeasure.org', code: '/min' },
    });
  });

  it('SpO2 carries both 2708-6 and 59408-5 (R4 oxygen saturation profile); BP and temperature keep their UCUM codes', () => {
    const spo2 = toFhirObservation({ ...base, code: '59408-5', value: 96, unit: '%' });
    expect(spo2.code.coding.map((c) => c.code)).toEqual(['2708-6', '59408-5']);
    expect(toFhirObservation({ ...base, code: '8480-6', value: 120, unit: 'mm[Hg]' }).valueQuantity).toMatchObject({
      code: 'mm[Hg]',
      unit: 'mmHg',
    });
    expect(toFhirObservation({ ...base, code: '8310-5', value: 37.2, unit: 'Cel' }).valueQuantity).toMatchObject({
      code: 'Cel',
      value: 37.2,
    });
  });

  it("a respiratory rate reads breaths/minute, not beats (the quantity unit is each sign's own), with the R4 resprate profile", () => {
    const rr = toFhirObservation({ ...base, code: '9279-1', value: 18, unit: '/min' });
    expect(rr.valueQuantity).toEqual({ value: 18, unit: 'breaths/minute', system: 'http://unitsofmeasure.org', code: '/min' });
    expect(rr.meta).toEqual({ profile: ['http://hl7.org/fhir/StructureDefinition/resprate'] });
    // the blood pressure parts have no dedicated R4 profile (the bp profile is the panel)
    expect(toFhirObservation({ ...base, code: '8480-6', value: 120, unit: 'mm[Hg]' }).meta).toBeUndefined();
  });

  it('maps an ECG chunk to valueSampledData (MDC 131330, period in ms, space-separated data)', () => {
    const o: VitalsObservation = { ...base, code: '131330', unit: 'mV', waveform: { origin: 0, period_ms: 4, samples: [0.1, 1.2, -0.25] } };
    const fhir = toFhirObservation(o);
    expect(fhir.code.coding).toEqual([{ system: 'urn:oid:2.16.840.1.113883.6.24', code: '131330', display: 'MDC_ECG_ELEC_POTL_II' }]);
    expect(fhir.valueQuantity).toBeUndefined();
    expect(fhir.valueSampledData).toEqual({
      origin: { value: 0, unit: 'mV', system: 'http://unitsofmeasure.org', code: 'mV' },
      period: 4,
      dimensions: 1,
      lowerLimit: -10,
      upperLimit: 10,
      data: '0.1 1.2 -0.25',
    });
  });

  it('omits id when device.seq would exceed the FHIR id length', () => {
    expect(toFhirObservation({ ...base, device_id: 'd'.repeat(62), code: '8867-4', value: 72, unit: '/min' }).id).toBeUndefined();
  });

  it('builds a searchset Bundle with self/next links and a stable urn:uuid fullUrl per observation', () => {
    const hr = { ...base, code: '8867-4', value: 72, unit: '/min' } as VitalsObservation;
    const bundle = toSearchsetBundle([hr], { self: 'http://x/a', next: 'http://x/b' });
    expect(bundle).toMatchObject({
      resourceType: 'Bundle',
      type: 'searchset',
      link: [{ relation: 'self' }, { relation: 'next', url: 'http://x/b' }],
    });
    expect(Object.keys(bundle)).not.toContain('next');
    // Observations have no URL in the v1 API (GET /fhir/Observation/... never existed): urn:uuid, the same in every response
    expect(bundle.entry![0]).toMatchObject({
      fullUrl: expect.stringMatching(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      search: { mode: 'match' },
    });
    expect(toSearchsetBundle([hr], { self: 'http://x/c' }).entry![0]!.fullUrl).toBe(bundle.entry![0]!.fullUrl);
    expect(toSearchsetBundle([{ ...hr, seq: 18 }], { self: 'http://x/c' }).entry![0]!.fullUrl).not.toBe(bundle.entry![0]!.fullUrl);
  });

  it('leaves entry out of an empty searchset (FHIR: an array is never empty)', () => {
    const empty = toSearchsetBundle([], { self: 'http://x/a' });
    expect(empty).toEqual({ resourceType: 'Bundle', type: 'searchset', link: [{ relation: 'self', url: 'http://x/a' }] });
  });
});
