/**
 * The catalog's FHIR R4 mapping: a clinician as a Practitioner, and its response schema. The public
 * catalog listing (routes.ts) and /fhir/R4/Practitioner (fhir/resources/Practitioner.ts) render the same resource.
 */
import { z } from 'zod';
import type { CLINICIANS } from './data';

export const practitionerOut = z
  .strictObject({
    resourceType: z.literal('Practitioner'),
    id: z.string(),
    active: z.boolean(),
    name: z.array(z.object({ text: z.string() })),
    qualification: z.array(z.object({ code: z.object({ text: z.string() }) })),
  })
  .meta({ id: 'Practitioner', description: 'A clinician as a FHIR R4 Practitioner (https://hl7.org/fhir/R4/practitioner.html)' });

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
