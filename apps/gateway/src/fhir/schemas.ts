/**
 * The response schemas of /fhir/R4 for OpenAPI: FHIR JSON, one named schema per resource type
 * (components.schemas `Patient` and `FhirObservation`, exact, shared with the REST API;
 * `FhirBundle<Type>`; the CapabilityStatement and OperationOutcome open: `additionalProperties`,
 * the rest of the resource as FHIR R4 defines it); every error an OperationOutcome. developer/openapi.ts puts
 * them in the document (fhirOpenApiSchemas) and gives the /fhir/R4 responses the FHIR media type.
 */
import { z } from 'zod';
import { fhirObservationSchema } from '@vitalis/schemas';
import { patientOut } from '../patients/fhir';

const fhirResource = <T extends string>(type: T) =>
  z
    .looseObject({ resourceType: z.literal(type), id: z.string().optional() })
    .describe(`A FHIR R4 ${type} resource (https://hl7.org/fhir/R4/${type.toLowerCase()}.html); the other properties are FHIR's (additionalProperties: as the FHIR R4 specification defines them).`)
    .meta({ id: `Fhir${type}` });

// Patient and Observation: the exact schemas of the mappings the REST API shares (components
// `Patient`, `FhirObservation`); the CapabilityStatement and OperationOutcome stay open (below).
export const fhirPatient = patientOut;
export const fhirObservation = fhirObservationSchema;
export const fhirCapabilityStatement = fhirResource('CapabilityStatement');
export const fhirOperationOutcome = fhirResource('OperationOutcome');
const fhirBundleOf = (resource: z.ZodType, of: string) =>
  z
    .strictObject({
      resourceType: z.literal('Bundle'),
      type: z.literal('searchset'),
      link: z.array(z.object({ relation: z.string(), url: z.string() })).describe('`self`, and `next` (the next page) unless this is the last page'),
      entry: z.array(z.strictObject({ fullUrl: z.string(), resource, search: z.object({ mode: z.enum(['match', 'include']) }) })).optional().describe('Absent when nothing matched (FHIR arrays are never empty)'),
    })
    .describe(`A FHIR R4 searchset Bundle of ${of}`)
    .meta({ id: `FhirBundle${of}` });
export const fhirPatientBundle = fhirBundleOf(fhirPatient, 'Patient');
export const fhirObservationBundle = fhirBundleOf(fhirObservation, 'Observation');
/** Every FHIR error: an OperationOutcome (application/fhir+json). */
export const outcomes = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, fhirOperationOutcome]));

/** The named FHIR schemas as OpenAPI components (JSON Schema), references between them as `#/components/schemas/<id>`. */
export function fhirOpenApiSchemas(): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  for (const s of [fhirPatient, fhirObservation, fhirCapabilityStatement, fhirOperationOutcome, fhirPatientBundle, fhirObservationBundle]) {
    registry.add(s, { id: (z.globalRegistry.get(s) as { id: string }).id });
  }
  const out = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}`, target: 'draft-2020-12', unrepresentable: 'any' }) as { schemas: Record<string, Record<string, unknown>> };
  for (const schema of Object.values(out.schemas)) {
    delete schema.$schema;
    delete schema.$id;
    if (typeof schema.additionalProperties === 'object' && Object.keys(schema.additionalProperties as object).length === 0) {
      schema.additionalProperties = { description: 'Any other element of the resource, as the FHIR R4 specification defines it (https://hl7.org/fhir/R4/)' };
    }
  }
  return out.schemas;
}
