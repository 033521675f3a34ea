/** PatientState <-> FHIR R4 Patient / AllergyIntolerance JSON. */
import { z } from 'zod';
import { must } from '@vitalis/runtime';
import {
  ALLERGY_CRITICALITIES,
  CLINICAL_TEXT_MIN_LENGTH,
  RXNORM,
  SNOMED_CT,
  absoluteUri,
  nonBlankText,
  withoutForbiddenControls,
  type AllergyEntryInput,
} from '@vitalis/schemas';
import type { Allergy, Demographics, PatientState } from '@vitalis/records';
import { NEWS2_PARAMETERS } from '@vitalis/clinical';

const text = nonBlankText;
/** A business identifier: `system` an absolute URI (FHIR Identifier.system, e.g. urn:oid:… or https://…), `value` a FHIR string. */
export const identifierIn = z.object({
  system: absoluteUri(200).describe('The namespace of the value: an absolute URI, e.g. urn:oid:2.16.840.1.113883.2.4.6.3 (not "MRN")'),
  value: text(100),
});
const contactPoint = z.object({ system: z.enum(['phone', 'email', 'fax', 'pager', 'url', 'sms', 'other']), value: text(200) });

/** Register/update body: a FHIR Patient (only the fields Vitalis keeps). */
export const patientIn = z.object({
  resourceType: z.literal('Patient').optional(),
  name: z
    .array(z.object({ family: text(100), given: z.array(text(100)).max(5).default([]) }))
    .min(1)
    .max(1)
    .describe('Exactly one official name'),
  birthDate: z.iso.date().optional(),
  gender: z.enum(['male', 'female', 'other', 'unknown']).optional(),
  identifier: z.array(identifierIn).max(10).optional(),
  telecom: z.array(contactPoint).max(10).optional(),
});
export type PatientIn = z.infer<typeof patientIn>;

export function demographicsFrom(body: PatientIn): Demographics {
  const name = must(body.name[0], 'the first name of the Patient (the schema requires one)');
  return {
    family: name.family,
    given: name.given,
    birthDate: body.birthDate ?? null,
    gender: body.gender ?? null,
    identifiers: body.identifier ?? [],
    telecom: body.telecom ?? [],
  };
}

/**
 * The substance as a FHIR CodeableConcept, in shape only: whether it is plausible (a SNOMED CT or
 * RxNorm coding of the right shape with a display, or a text of at least 3 printable characters
 * with two letters) is the one rule of @vitalis/schemas allergyEntrySchema, which the patients
 * service applies to every surface's allergy (422 naming the field). JSON Schema cannot state it
 * (letters of every script, check digits, garbled text), so the document describes it.
 */
export const allergyCodeIn = z
  .object({
    text: text(200)
      .optional()
      .describe(
        `Plain text: at least ${CLINICAL_TEXT_MIN_LENGTH} printable characters, two of them letters (422 otherwise: "0" is not a substance)`,
      ),
    coding: z
      .array(
        z.object({
          system: z.string().max(200).describe(`${SNOMED_CT} or ${RXNORM}`),
          code: z
            .string()
            .max(40)
            .describe('SNOMED CT: a concept id (6-18 digits, partition 00 or 10, Verhoeff check digit); RxNorm: an RXCUI (1-8 digits)'),
          display: text(200).optional().describe('Required: the name a person reads (the rule of text)'),
        }),
      )
      .max(3)
      .optional()
      .describe('Codings of the substance (SNOMED CT or RxNorm), each with a display'),
  })
  .describe('The substance: a coding (SNOMED CT or RxNorm, code and display) or a text, or both');

export const allergyIn = z.object({
  resourceType: z.literal('AllergyIntolerance').optional(),
  code: allergyCodeIn,
  criticality: z.enum(ALLERGY_CRITICALITIES).default('unable-to-assess'),
  reaction: z
    .array(z.object({ description: text(500).describe('What happened, in words (the rule of text)') }))
    .max(1)
    .optional(),
});

/** POST /fhir/R4/AllergyIntolerance: a FHIR AllergyIntolerance naming its Patient; the elements Vitalis keeps (others are ignored). */
export const allergyCreateIn = z
  .object({
    resourceType: z.literal('AllergyIntolerance'),
    patient: z.object({ reference: z.string().max(200).describe('Patient/{id}') }),
    code: allergyCodeIn,
    criticality: z.enum(ALLERGY_CRITICALITIES).optional(),
    reaction: z
      .array(
        z.object({
          description: text(500).optional(),
          manifestation: z
            .array(z.object({ text: text(500).optional() }))
            .max(5)
            .optional(),
        }),
      )
      .max(1)
      .optional()
      .describe("One reaction: its description (else its first manifestation's text) is kept"),
  })
  .meta({
    example: {
      resourceType: 'AllergyIntolerance',
      patient: { reference: 'Patient/pat-0001' },
      code: { coding: [{ system: 'http://snomed.info/sct', code: '764146007', display: 'Penicillin' }], text: 'Penicillin' },
      criticality: 'high',
      reaction: [{ description: 'Hives and wheeze within minutes' }],
    },
  });

/** A FHIR AllergyIntolerance body (REST or FHIR create) as the one rule reads it; the reaction: its description, else its first manifestation's text. */
export function allergyEntryOf(b: {
  code: z.infer<typeof allergyCodeIn>;
  criticality?: AllergyEntryInput['criticality'];
  reaction?: Array<{ description?: string | undefined; manifestation?: Array<{ text?: string | undefined }> | undefined }> | undefined;
}): AllergyEntryInput {
  const r = b.reaction?.[0];
  return { code: b.code, criticality: b.criticality, reaction: r?.description ?? r?.manifestation?.[0]?.text };
}

// ---- output: exactly what toFhirPatient / toFhirAllergy build (strict: a field they add without
// its schema is a serialization error in the tests, never a silent drop or an `unknown` in a client)

const reference = z.object({ reference: z.string() });
const versionMeta = z.object({ versionId: z.string().describe('The stream version (the ETag)'), lastUpdated: z.string() });

export const allergyOut = z
  .strictObject({
    resourceType: z.literal('AllergyIntolerance'),
    id: z.string(),
    clinicalStatus: z.object({ coding: z.array(z.object({ system: z.string(), code: z.string(), display: z.string() })) }),
    patient: reference,
    code: z
      .object({
        coding: z
          .array(z.object({ system: z.string(), code: z.string(), display: z.string() }))
          .optional()
          .describe('SNOMED CT or RxNorm codings, when the allergy was recorded with one'),
        text: z.string().describe("The substance in words (the recorded text, else the first coding's display)"),
      })
      .describe('The substance'),
    criticality: z.enum(['low', 'high', 'unable-to-assess']),
    recordedDate: z.string(),
    reaction: z.array(z.object({ manifestation: z.array(z.object({ text: z.string() })), description: z.string() })).optional(),
  })
  .meta({
    id: 'AllergyIntolerance',
    description: 'FHIR R4 AllergyIntolerance (https://hl7.org/fhir/R4/allergyintolerance.html), the elements Vitalis keeps',
  });

export const patientOut = z
  .strictObject({
    resourceType: z.literal('Patient'),
    id: z.string(),
    meta: versionMeta,
    identifier: z.array(z.object({ system: z.string(), value: z.string() })).optional(),
    name: z.array(z.object({ use: z.literal('official'), family: z.string(), given: z.array(z.string()).optional() })),
    gender: z.enum(['male', 'female', 'other', 'unknown']).optional(),
    birthDate: z.string().optional(),
    telecom: z.array(z.object({ system: z.string(), value: z.string() })).optional(),
  })
  .meta({ id: 'Patient', description: 'FHIR R4 Patient (https://hl7.org/fhir/R4/patient.html), the elements Vitalis keeps' });

/** NEWS2 as computed from the latest vitals (libs/clinical news2): the score, its risk band, each parameter's part. */
export const news2Out = z
  .object({
    score: z.number().int(),
    risk: z.enum(['low', 'low-medium', 'medium', 'high']),
    parameters: z.partialRecord(z.enum(NEWS2_PARAMETERS), z.number().int()).describe('The score of each parameter that was present'),
    missing: z.array(z.enum(NEWS2_PARAMETERS)),
    complete: z.boolean(),
  })
  .meta({ id: 'News2', description: 'NEWS2 (Royal College of Physicians) computed from the latest vitals' });

/**
 * GET /api/v1/patients/{id} (application/json): the record as an envelope of FHIR resources, since
 * a FHIR Patient has no `allergies` or `vitals`. One envelope for REST and MCP get_patient:
 * `{ view, patient, allergies?, latest_vitals?, news2? }` (REST: FHIR Patient and
 * AllergyIntolerance; MCP: their flat, agent-friendly forms), `latest_vitals`/`news2` as on the
 * triage board.
 */
export const latestVitalOut = z
  .object({ code: z.string(), display: z.string(), value: z.number(), unit: z.string(), effective_at: z.string() })
  .meta({ id: 'LatestVital', description: 'The latest value of one numeric vital sign' });
export const patientRecordOut = z
  .object({
    view: z
      .enum(['clinical', 'demographics'])
      .describe('What this caller may see: `demographics` (reception: the Patient only) or `clinical`'),
    patient: patientOut,
    allergies: z
      .array(allergyOut)
      .optional()
      .describe('FHIR R4 AllergyIntolerance resources: clinical readers (read:patients, or the patient) only'),
    latest_vitals: z
      .array(latestVitalOut)
      .optional()
      .describe('The latest value per numeric vital sign: clinical readers holding read:vitals only'),
    news2: news2Out.optional(),
  })
  .meta({
    id: 'PatientRecord',
    description: 'A patient record: the FHIR Patient, and for clinical readers its allergies, latest vitals and NEWS2',
  });

/** A recorded allergy is active until removed (removal deletes it): clinicalStatus is required by ait-1. */
const ALLERGY_ACTIVE = {
  coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active', display: 'Active' }],
};

/**
 * The last line of the stored-text rule (docs/adr/0027-invalid-stored-text.md): a text stored before
 * writes were checked may hold a control character FHIR `string` forbids; the served resource never
 * does (`npm run admin -- fhir-text-check` reports and repairs the record itself).
 */
const clean = withoutForbiddenControls;

export function toFhirAllergy(patientId: string, stored: Allergy): z.infer<typeof allergyOut> {
  const a = {
    ...stored,
    substance: clean(stored.substance),
    reaction: stored.reaction && clean(stored.reaction),
    coding: stored.coding?.map((c) => ({ ...c, display: clean(c.display) })),
  };
  return {
    resourceType: 'AllergyIntolerance' as const,
    id: a.id,
    clinicalStatus: ALLERGY_ACTIVE,
    patient: { reference: `Patient/${patientId}` },
    code: {
      ...(a.coding?.length ? { coding: a.coding.map(({ system, code, display }) => ({ system, code, display })) } : {}),
      text: a.substance,
    },
    criticality: a.criticality,
    recordedDate: a.recordedAt,
    // R4: a reaction has at least one manifestation; Vitalis keeps a free-text description only
    ...(a.reaction ? { reaction: [{ manifestation: [{ text: a.reaction }], description: a.reaction }] } : {}),
  };
}

export function toFhirPatient(p: PatientState): z.infer<typeof patientOut> {
  const given = p.given.map(clean).filter((g) => g.trim() !== ''); // a given name that was only control characters: none
  return {
    resourceType: 'Patient' as const,
    id: p.id,
    meta: { versionId: String(p.version), lastUpdated: p.updatedAt },
    // FHIR arrays are never empty: an absent list is left out (ele-1 / "Array cannot be empty")
    ...(p.identifiers.length > 0 ? { identifier: p.identifiers.map((i) => ({ system: clean(i.system), value: clean(i.value) })) } : {}),
    name: [{ use: 'official' as const, family: clean(p.family), ...(given.length > 0 ? { given } : {}) }],
    ...(p.gender ? { gender: p.gender } : {}),
    ...(p.birthDate ? { birthDate: p.birthDate } : {}),
    ...(p.telecom.length > 0 ? { telecom: p.telecom.map((t) => ({ system: t.system, value: clean(t.value) })) } : {}),
  };
}
