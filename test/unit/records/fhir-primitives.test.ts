/**
 * The FHIR R4 primitive rules (@vitalis/schemas fhir-primitives, issue 33 item 7): FHIR `string`
 * (no control character below 32 but tab, LF, CR; not blank), an absolute URI for Identifier.system,
 * `code` and `id`; the published JSON Schema pattern refuses what the zod schema refuses; the
 * stored-text check's finder and repair.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { absoluteUri, fhirCode, fhirRuleBroken, nonBlankText, resourceId, withoutForbiddenControls } from '@vitalis/schemas';
import { findingsIn, repairedDemographics } from '../../../apps/gateway/src/fhir-text-check';

/** The schema's JSON Schema `pattern`, as a client's validator would use it. */
const published = (schema: z.ZodType) => new RegExp((z.toJSONSchema(schema) as { pattern: string }).pattern, 'u');

describe('FHIR string (nonBlankText)', () => {
  const text = nonBlankText(100);
  it.each(['Ada', 'Ada Lovelace', 'Zoë', '李', 'line one\nline two', 'a\tb', 'a\r\nb', '  padded  '])('accepts %j', (v) => {
    expect(text.safeParse(v).success).toBe(true);
    expect(published(text).test(v)).toBe(true);
  });
  it.each(['A\bda', 'x\u0000', '\u001F', 'a\u000Bb', 'a\u000Cb', 'a\u001Bb', '', '   ', '\t\n'])('refuses %j', (v) => {
    expect(text.safeParse(v).success).toBe(false);
    expect(published(text).test(v)).toBe(false);
  });
  it('trims what it keeps', () => {
    expect(text.parse('  Ada \n')).toBe('Ada');
  });
});

describe('absolute URI (Identifier.system)', () => {
  const uri = absoluteUri(200);
  it.each(['urn:oid:2.16.840.1.113883.2.4.6.3', 'urn:vitalis:mrn', 'https://hospital.example/mrn', 'http://hl7.org/fhir/sid/us-ssn'])(
    'accepts %s',
    (v) => {
      expect(uri.safeParse(v).success).toBe(true);
      expect(published(uri).test(v)).toBe(true);
    },
  );
  it.each(['MRN', 'mrn:', '1urn:x', 'urn:a b', 'urn:a\u0008', ' urn:x', ''])('refuses %j', (v) => {
    expect(uri.safeParse(v).success).toBe(false);
    expect(published(uri).test(v)).toBe(false);
  });
});

describe('code and id', () => {
  it('a code: tokens with single white space between, nothing around', () => {
    const code = fhirCode(64);
    for (const ok of ['final', 'en-GB', 'a b', '8480-6']) expect(code.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['', ' a', 'a ', 'a  b', 'a\u0001b']) expect(code.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
  it('an id: 1-64 of A-Z a-z 0-9 - .', () => {
    expect(resourceId.safeParse('pat-0001.x').success).toBe(true);
    for (const bad of ['', 'a_b', 'a/b', 'x'.repeat(65)]) expect(resourceId.safeParse(bad).success, bad).toBe(false);
  });
  it('fhirRuleBroken names the rule a value breaks', () => {
    expect(fhirRuleBroken('absoluteUri', 'MRN')).toMatch(/absolute URI/);
    expect(fhirRuleBroken('absoluteUri', 'urn:x')).toBeNull();
    expect(fhirRuleBroken('id', 'a b')).toMatch(/1-64/);
  });
});

describe('stored text: finding and repairing', () => {
  it('withoutForbiddenControls keeps tab, LF and CR', () => {
    expect(withoutForbiddenControls('A\bd\u0000a\t\r\n')).toBe('Ada\t\r\n');
  });
  it('lists each breaking field of a read-model row, never its value', () => {
    const row = {
      family: 'Love\u0007lace',
      given: ['Ada', 'B\u0008'],
      identifiers: [
        { system: 'MRN', value: '1' },
        { system: 'urn:ok', value: '2' },
      ],
      allergies: [{ substance: 'Penicillin', reaction: 'Hives\u001B' }],
      note: 'fine\ttext',
    };
    const found = findingsIn(row, { resource: 'Patient', id: 'pat-x' });
    expect(found.map((f) => [f.field, f.rule])).toEqual([
      ['family', 'string'],
      ['given.1', 'string'],
      ['identifiers.0.system', 'absoluteUri'],
      ['allergies.0.reaction', 'string'],
    ]);
    expect(JSON.stringify(found)).not.toContain('Love');
  });
  it('repairs demographics: controls removed, blank given names dropped, mapped systems replaced', () => {
    const d = repairedDemographics(
      {
        version: 1,
        family: 'Love\u0007lace',
        given: ['Ada', '\u0008'],
        birth_date: '1815-12-10',
        gender: 'female',
        identifiers: [
          { system: 'MRN', value: 'M\u00011' },
          { system: 'LOCAL', value: '2' },
        ],
        telecom: [{ system: 'phone', value: '+44\u0000 20' }],
      },
      { MRN: 'urn:oid:2.16.840.1.113883.2.4.6.3' },
    );
    expect(d).toEqual({
      family: 'Lovelace',
      given: ['Ada'],
      birthDate: '1815-12-10',
      gender: 'female',
      identifiers: [
        { system: 'urn:oid:2.16.840.1.113883.2.4.6.3', value: 'M1' },
        { system: 'LOCAL', value: '2' },
      ],
      telecom: [{ system: 'phone', value: '+44 20' }],
    });
  });
});
