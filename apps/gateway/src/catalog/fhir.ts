/**
 * The catalog's FHIR R4 mapping: a Practitioner (a clinician of the catalog, or a staff user:
 * practitioners.ts says who is one) and its response schema. The public catalog listing
 * (routes.ts) and /fhir/R4/Practitioner (fhir/resources/Practitioner.ts) render the same resource.
 */
import { z } from 'zod';
import { SUBJECT_SYSTEM } from '../diagnostics/fhir';
import type { CLINICIANS } from './data';

export const practitionerOut = z
  .strictObject({
    resourceType: z.literal('Practitioner'),
    id: z.string(),
    identifier: z
      .array(z.object({ system: z.literal(SUBJECT_SYSTEM), value: z.string() }))
      .optional()
      .describe('A staff user: its Vitalis user id (the subject of its tokens, and the fhirUser of its ID token)'),
    active: z.boolean(),
    name: z.array(z.object({ text: z.string() })),
    qualification: z
      .array(z.object({ code: z.object({ text: z.string() }) }))
      .optional()
      .describe('A clinician of the catalog: its specialty'),
  })
  .meta({
    id: 'Practitioner',
    description: 'A clinician of the catalog or a staff user as a FHIR R4 Practitioner (https://hl7.org/fhir/R4/practitioner.html)',
  });

/** A clinician as a FHIR R4 Practitioner (the catalog listing and /fhir/R4/Practitioner render this one). */
export function toFhirPractitioner(c: (typeof CLINICIANS)[number]) {
  return {
    resourceType: 'Practitioner' as const,
    id: c.id,
    active: true,
    name: [{ text: c.name }],
    qualification: [{ code: { text: c.specialty } }],
  };
}

/**
 * A staff user as a FHIR R4 Practitioner: id the user id (so `fhirUser` Practitioner/{user id}
 * resolves), identified as the subject its tokens and the audit trail name (`urn:vitalis:subject`,
 * as a DetectedIssue's acknowledger and a ServiceRequest's requester), named by its display name.
 */
export function toFhirStaffPractitioner(u: { userId: string; displayName: string }): z.infer<typeof practitionerOut> {
  return {
    resourceType: 'Practitioner',
    id: u.userId,
    identifier: [{ system: SUBJECT_SYSTEM, value: u.userId }],
    active: true,
    name: [{ text: u.displayName }],
  };
}
