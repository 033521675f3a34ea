/**
 * The FHIR validator harness itself (test/helpers/fhir-validator.ts): a known-good Patient passes;
 * invented properties, codes outside a required value set and broken vital-signs Observations fail
 * with the issue a reader would expect. If these pass, a green validity test means something.
 */
import { describe, expect, it } from 'vitest';
import { expectValidFhir, validateFhir, VITAL_SIGNS_PROFILE } from '../../helpers/fhir-validator';

const goodPatient = {
  resourceType: 'Patient',
  id: 'pat-0001',
  meta: { versionId: '3', lastUpdated: '2026-11-25T10:00:00.000Z' },
  identifier: [{ system: 'urn:vitalis:mrn', value: 'MRN-1' }],
  name: [{ use: 'official', family: 'Lovelace', given: ['Ada'] }],
  gender: 'female',
  birthDate: '1815-12-10',
  telecom: [{ system: 'phone', value: '+44 20 7946 0000' }],
};

const heartRate = {
  resourceType: 'Observation',
  status: 'final',
  category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }] }],
  code: { coding: [{ system: 'http://loinc.org', code: '8867-4', display: 'Heart rate' }] },
  subject: { reference: 'Patient/pat-0001' },
  effectiveDateTime: '2026-11-25T10:00:00Z',
  valueQuantity: { value: 72, unit: 'beats/minute', system: 'http://unitsofmeasure.org', code: '/min' },
};

describe('FHIR R4 validator harness', () => {
  it('passes a known-good Patient', async () => {
    expect(await validateFhir(goodPatient)).toEqual([]);
    await expectValidFhir(goodPatient);
  });

  it('fails a Patient with an invented property and a gender outside the required value set', async () => {
    const issues = await validateFhir({ ...goodPatient, allergies: [], gender: 'mail' });
    expect(issues.every((i) => i.severity === 'error' || i.severity === 'fatal')).toBe(true);
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          resource: 'Patient/pat-0001',
          location: 'Patient',
          message: expect.stringContaining("Unrecognized property 'allergies'"),
        }),
        expect.objectContaining({ location: 'Patient.gender', message: expect.stringContaining('AdministrativeGender') }),
      ]),
    );
    await expect(expectValidFhir({ ...goodPatient, allergies: [] })).rejects.toThrow(/Unrecognized property 'allergies'/);
  });

  it('checks vital signs against the vital-signs profile, and UCUM units offline', async () => {
    expect(await validateFhir(heartRate, { profiles: [VITAL_SIGNS_PROFILE] })).toEqual([]);
    const { category: _dropped, ...noCategory } = heartRate;
    const missing = await validateFhir(noCategory, { profiles: [VITAL_SIGNS_PROFILE] });
    expect(missing.map((i) => i.message).join('\n')).toMatch(/Observation\.category: minimum required = 1/);
    const badUnit = await validateFhir(
      { ...heartRate, valueQuantity: { ...heartRate.valueQuantity, code: 'beats' } },
      { profiles: [VITAL_SIGNS_PROFILE] },
    );
    expect(badUnit.length).toBeGreaterThan(0);
  });

  it('validates an array, reporting each issue with its index, and leaves warnings out unless asked', async () => {
    const issues = await validateFhir([goodPatient, { ...goodPatient, id: 'pat-0002', next: 'x' }]);
    expect(issues).toEqual([
      expect.objectContaining({ index: 1, resource: 'Patient/pat-0002', message: expect.stringContaining("Unrecognized property 'next'") }),
    ]);
    const withWarnings = await validateFhir(goodPatient, { warnings: true });
    expect(withWarnings.some((i) => i.severity === 'warning')).toBe(true); // dom-6: no narrative
  });
});
