/**
 * `_elements` of the Bulk Data export (libs/export elements.ts): which entries are elements, what a
 * subset keeps (the listed, the always-kept and the mandatory elements; a choice `value[x]`), the
 * SUBSETTED tag, meta.profile dropped, and a type no entry applies to left whole.
 */
import { describe, expect, it } from 'vitest';
import { parseElement, subsetElements, SUBSETTED_TAG } from '@vitalis/export';

const observation = {
  resourceType: 'Observation',
  id: 'o-1',
  meta: { profile: ['http://hl7.org/fhir/StructureDefinition/heartrate'], tag: [{ system: 'urn:x', code: 'keep' }] },
  status: 'final',
  category: [{ text: 'vital-signs' }],
  code: { text: 'heart rate' },
  subject: { reference: 'Patient/p-1' },
  effectiveDateTime: '2026-01-01T00:00:00Z',
  valueQuantity: { value: 60 },
};

describe('_elements', () => {
  it('reads name and Type.name entries, refuses nested paths and other shapes', () => {
    expect(parseElement('id')).toEqual({ name: 'id' });
    expect(parseElement(' Observation.value[x] ')).toEqual({ type: 'Observation', name: 'value[x]' });
    for (const bad of ['name.given', 'Patient.name.given', '', 'Observation.', '1d']) expect(parseElement(bad), bad).toBeUndefined();
  });

  it('keeps the listed, always-kept and mandatory elements, tags SUBSETTED and drops meta.profile', () => {
    const subset = subsetElements(observation, ['Observation.valueQuantity', 'Patient.birthDate']);
    expect(Object.keys(subset).sort()).toEqual(['code', 'id', 'meta', 'resourceType', 'status', 'valueQuantity']);
    expect(subset.meta).toEqual({ tag: [{ system: 'urn:x', code: 'keep' }, { ...SUBSETTED_TAG }] });
    expect(observation.meta.profile).toHaveLength(1); // the input is not changed
  });

  it('a choice element names each of its types; an untyped entry applies to every type', () => {
    expect(subsetElements(observation, ['value[x]', 'subject'])).toHaveProperty('valueQuantity');
    expect(subsetElements(observation, ['value[x]', 'subject'])).toHaveProperty('subject');
    expect(subsetElements(observation, ['value[x]'])).not.toHaveProperty('effectiveDateTime');
  });

  it('a resource whose type no entry applies to is exported whole', () => {
    expect(subsetElements(observation, ['Patient.birthDate'])).toBe(observation);
  });
});
