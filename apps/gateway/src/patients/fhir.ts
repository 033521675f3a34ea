/** PatientState <-> FHIR R4 Patient / AllergyIntolerance JSON. */
import { z } from 'zod';
import { nonBlankText } from '@vitalis/schemas';
import type { Allergy, Demographics, PatientState } from '@vitalis/records';

const text = nonBlankText;
export const identifierIn = z.object({ system: text(200), value: text(100) });
const contactPoint = z.object({ system: z.enum(['phone', 'email', 'fax', 'pager', 'url', 'sms', 'other']), value: text(200) });

/** Register/update body: a FHIR Patient (only the fields Vitalis keeps). */
export const patientIn = z.object({
  resourceType: z.literal('Patient').optional(),
  name: z.array(z.object({ family: text(100), given: z.array(text(100)).max(5).default([]) })).min(1).max(1).describe('Exactly one official name'),
  birthDate: z.iso.date().optional(),
  gender: z.enum(['male', 'female', 'other', 'unknown']).optional(),
  identifier: z.array(identifierIn).max(10).optional(),
  telecom: z.array(contactPoint).max(10).optional(),
});
export type PatientIn = z.infer<typeof patientIn>;

export function demographicsFrom(body: PatientIn): Demographics {
  const name = body.name[0]!;
  return { family: name.family, given: name.given, birthDate: body.birthDate ?? null, gender: body.gender ?? null, identifiers: body.identifier ?? [], telecom: body.telecom ?? [] };
}

export const allergyIn = z.object({
  resourceType: z.literal('AllergyIntolerance').optional(),
  code: z.object({ text: text(200) }).describe('The substance'),
  criticality: z.enum(['low', 'high', 'unable-to-assess']).default('unable-to-assess'),
  reaction: z.array(z.object({ description: text(500) })).max(1).optional(),
});

export const allergyOut = z.looseObject({ resourceType: z.literal('AllergyIntolerance'), id: z.string() });
export const patientOut = z.looseObject({
  resourceType: z.literal('Patient'),
  id: z.string(),
  meta: z.object({ versionId: z.string(), lastUpdated: z.string() }),
});

/**
 * GET /api/v1/patients/{id} (application/json): the record as an envelope of FHIR resources, since
 * a FHIR Patient has no `allergies` or `vitals`. One envelope for REST and MCP get_patient:
 * `{ view, patient, allergies?, latest_vitals?, news2? }` (REST: FHIR Patient and
 * AllergyIntolerance; MCP: their flat, agent-friendly forms), `latest_vitals`/`news2` as on the
 * triage board.
 */
export const latestVitalOut = z.object({ code: z.string(), display: z.string(), value: z.number(), unit: z.string(), effective_at: z.string() });
export const patientRecordOut = z.object({
  view: z.enum(['clinical', 'demographics']).describe('What this caller may see: `demographics` (reception: the Patient only) or `clinical`'),
  patient: patientOut.describe('FHIR R4 Patient'),
  allergies: z.array(allergyOut).optional().describe('FHIR R4 AllergyIntolerance resources: clinical readers (read:patients, or the patient) only'),
  latest_vitals: z.array(latestVitalOut).optional().describe('The latest value per numeric vital sign: clinical readers holding read:vitals only'),
  news2: z.looseObject({ score: z.number(), risk: z.string() }).optional().describe('NEWS2 computed from latest_vitals'),
});

/** A recorded allergy is active until removed (removal deletes it): clinicalStatus is required by ait-1. */
const ALLERGY_ACTIVE = { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active', display: 'Active' }] };

export function toFhirAllergy(patientId: string, a: Allergy) {
  return {
    resourceType: 'AllergyIntolerance' as const,
    id: a.id,
    clinicalStatus: ALLERGY_ACTIVE,
    patient: { reference: `Patient/${patientId}` },
    code: { text: a.substance },
    criticality: a.criticality,
    recordedDate: a.recordedAt,
    // R4: a reaction has at least one manifestation; Vitalis keeps a free-text description only
    ...(a.reaction ? { reaction: [{ manifestation: [{ text: a.reaction }], description: a.reaction }] } : {}),
  };
}

export function toFhirPatient(p: PatientState) {
  return {
    resourceType: 'Patient' as const,
    id: p.id,
    meta: { versionId: String(p.version), lastUpdated: p.updatedAt },
    // FHIR arrays are never empty: an absent list is left out (ele-1 / "Array cannot be empty")
    ...(p.identifiers.length > 0 ? { identifier: p.identifiers } : {}),
    name: [{ use: 'official', family: p.family, ...(p.given.length > 0 ? { given: p.given } : {}) }],
    ...(p.gender ? { gender: p.gender } : {}),
    ...(p.birthDate ? { birthDate: p.birthDate } : {}),
    ...(p.telecom.length > 0 ? { telecom: p.telecom } : {}),
  };
}
