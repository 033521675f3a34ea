/**
 * A Group of patients (a ward, a cohort: the operator's `npm run admin -- export-group`, the table
 * export_groups) as a FHIR R4 Group (https://hl7.org/fhir/R4/group.html): `type` person, `actual`
 * true (it lists its members), `quantity` the number of members, `member[].entity` each Patient.
 * The very members `Group/{id}/$export` exports (libs/export groupMembers reads the same row).
 */
import { z } from 'zod';
import type { StoredGroup } from '@vitalis/export';

export const groupOut = z
  .strictObject({
    resourceType: z.literal('Group'),
    id: z.string(),
    type: z.literal('person'),
    actual: z.literal(true),
    name: z.string(),
    quantity: z.number().int().min(0),
    member: z.array(z.strictObject({ entity: z.strictObject({ reference: z.string() }) })).optional(),
  })
  .meta({ id: 'FhirGroup', description: 'A ward or cohort of patients as a FHIR R4 Group (https://hl7.org/fhir/R4/group.html)' });

/** A stored Group as FHIR R4 (no `member` when it has none: FHIR arrays are never empty). */
export function toFhirGroup(g: StoredGroup): z.infer<typeof groupOut> {
  return {
    resourceType: 'Group',
    id: g.id,
    type: 'person',
    actual: true,
    name: g.name,
    quantity: g.members.length,
    ...(g.members.length > 0 ? { member: g.members.map((id) => ({ entity: { reference: `Patient/${id}` } })) } : {}),
  };
}
