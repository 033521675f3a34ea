/**
 * The response schemas of /fhir/R4 for OpenAPI: FHIR JSON, one named schema per resource type
 * (components.schemas `Fhir<Type>`, `FhirBundle<Type>`), open (`additionalProperties`: the rest of
 * the resource as FHIR R4 defines it); every error an OperationOutcome. developer/openapi.ts puts
 * them in the document (fhirOpenApiSchemas) and gives the /fhir/R4 responses the FHIR media type.
 */
import { z } from 'zod';

const fhirResource = <T extends string>(type: T) =>
  z
    .looseObject({ resourceType: z.literal(type), id: z.string().optional() })
    .describe(`A FHIR R4 ${type} resource (https://hl7.org/fhir/R4/${type.toLowerCase()}.html); the other properties are FHIR's (additionalProperties: as the FHIR R4 specification defines them).`)
    .meta({ id: `Fhir${type}` });

export const fhirPatient = fhirResource('Patient');
export const fhirObservation = fhirResource('Observation');
export const fhirCapabilityStatement = fhirResource('CapabilityStatement');
export const fhirOperationOutcome = fhirResource('OperationOutcome');
export const fhirSubscription = fhirResource('Subscription');
export const fhirParameters = fhirResource('Parameters');
const fhirBundleOf = (resource: z.ZodType, of: string) =>
  z
    .looseObject({
      resourceType: z.literal('Bundle'),
      type: z.literal('searchset'),
      link: z.array(z.object({ relation: z.string(), url: z.string() })).describe('`self`, and `next` (the next page) unless this is the last page'),
      entry: z.array(z.looseObject({ fullUrl: z.string(), resource, search: z.object({ mode: z.enum(['match', 'include']) }) })).optional().describe('Absent when nothing matched (FHIR arrays are never empty)'),
    })
    .describe(`A FHIR R4 searchset Bundle of ${of}`)
    .meta({ id: `FhirBundle${of}` });
export const fhirPatientBundle = fhirBundleOf(fhirPatient, 'Patient');
export const fhirObservationBundle = fhirBundleOf(fhirObservation, 'Observation');
export const fhirSubscriptionBundle = fhirBundleOf(fhirSubscription, 'Subscription');
/** `$status`: a searchset of one status Parameters (backport-subscription-status-r4). */
export const fhirSubscriptionStatusBundle = fhirBundleOf(fhirParameters, 'SubscriptionStatus');
/** A subscription notification (backport-subscription-notification-r4): a history Bundle, the status Parameters first. */
export const fhirSubscriptionNotification = z
  .looseObject({
    resourceType: z.literal('Bundle'),
    type: z.literal('history'),
    timestamp: z.string(),
    entry: z.array(z.looseObject({ fullUrl: z.string(), resource: z.looseObject({ resourceType: z.string() }), request: z.object({ method: z.string(), url: z.string() }), response: z.object({ status: z.string() }) }))
      .describe('First the subscription status (a Parameters), then the resources the events are about (payload full-resource)'),
  })
  .describe('A FHIR R4 subscription notification Bundle (Subscriptions R5 Backport, backport-subscription-notification-r4)')
  .meta({ id: 'FhirBundleSubscriptionNotification' });
/** Every FHIR error: an OperationOutcome (application/fhir+json). */
export const outcomes = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, fhirOperationOutcome]));

const FHIR_SUBSCRIPTION_SCHEMAS = [fhirSubscription, fhirParameters, fhirSubscriptionBundle, fhirSubscriptionStatusBundle, fhirSubscriptionNotification];

/** The named FHIR schemas as OpenAPI components (JSON Schema), references between them as `#/components/schemas/<id>`. */
export function fhirOpenApiSchemas(): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  for (const s of [fhirPatient, fhirObservation, fhirCapabilityStatement, fhirOperationOutcome, fhirPatientBundle, fhirObservationBundle, ...FHIR_SUBSCRIPTION_SCHEMAS]) {
    registry.add(s, { id: (z.globalRegistry.get(s) as { id: string }).id });
  }
  const out = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}`, target: 'draft-2020-12', unrepresentable: 'any' }) as { schemas: Record<string, Record<string, unknown>> };
  for (const schema of Object.values(out.schemas)) {
    delete schema.$schema;
    delete schema.$id;
    if (schema.additionalProperties !== undefined && Object.keys(schema.additionalProperties as object).length === 0) {
      schema.additionalProperties = { description: 'Any other element of the resource, as the FHIR R4 specification defines it (https://hl7.org/fhir/R4/)' };
    }
  }
  return out.schemas;
}
