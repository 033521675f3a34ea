/**
 * The response schemas of /fhir/R4 for OpenAPI: FHIR JSON, one named schema per resource type
 * (components.schemas `Patient` and `FhirObservation`, exact, shared with the REST API;
 * `FhirBundle<Type>`; the CapabilityStatement and OperationOutcome open: `additionalProperties`,
 * the rest of the resource as FHIR R4 defines it); every error an OperationOutcome. developer/openapi.ts puts
 * them in the document (fhirOpenApiSchemas) and gives the /fhir/R4 responses the FHIR media type.
 */
import { z } from 'zod';
import { fhirObservationSchema, LOINC_SYSTEM, VITAL_CODE, nonBlankText, resourceId } from '@vitalis/schemas';
import { allergyOut, patientIn, patientOut } from '../patients/fhir';
import { appointmentOut, scheduleOut, slotOut } from '../appointments/fhir';
import { practitionerOut } from '../catalog/fhir';
import { diagnosticReportOut, serviceRequestOut } from '../diagnostics/fhir';
import { detectedIssueOut } from '../alarms/fhir';
import { deviceOut } from '../vitals/fhir';
import { groupOut } from '../groups/fhir';

const fhirResource = <T extends string>(type: T, example?: Record<string, unknown>) =>
  z.looseObject({ resourceType: z.literal(type), id: z.string().optional() }).meta({
    id: `Fhir${type}`,
    description: `A FHIR R4 ${type} resource (https://hl7.org/fhir/R4/${type.toLowerCase()}.html); the other properties are FHIR's (additionalProperties: as the FHIR R4 specification defines them).`,
    ...(example ? { example } : {}),
  });

// Patient and Observation: the exact schemas of the mappings the REST API shares (components
// `Patient`, `FhirObservation`); the CapabilityStatement and OperationOutcome stay open (below).
export const fhirPatient = patientOut;
export const fhirObservation = fhirObservationSchema;
export const fhirAllergyIntolerance = allergyOut;
export const fhirPractitioner = practitionerOut;
export const fhirSchedule = scheduleOut;
export const fhirSlot = slotOut;
export const fhirAppointment = appointmentOut;
export const fhirDevice = deviceOut;
export const fhirServiceRequest = serviceRequestOut;
export const fhirDiagnosticReport = diagnosticReportOut;
export const fhirDetectedIssue = detectedIssueOut;
export const fhirGroup = groupOut;
export const fhirCapabilityStatement = fhirResource('CapabilityStatement');
export const fhirOperationOutcome = fhirResource('OperationOutcome');
export const fhirSubscription = fhirResource('Subscription', {
  resourceType: 'Subscription',
  meta: { profile: ['http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-subscription'] },
  status: 'requested',
  reason: "Watch a patient's heart rate",
  criteria: 'https://vitalis.example/fhir/SubscriptionTopic/patient-vitals',
  _criteria: {
    extension: [
      {
        url: 'http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-filter-criteria',
        valueString: `Observation?patient=Patient/pat-0001&code=${LOINC_SYSTEM}|${VITAL_CODE.heartRate}`,
      },
    ],
  },
  channel: {
    type: 'websocket',
    payload: 'application/fhir+json',
    _payload: {
      extension: [
        { url: 'http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-payload-content', valueCode: 'full-resource' },
      ],
    },
  },
});
export const fhirParameters = fhirResource('Parameters', { resourceType: 'Parameters' });
/**
 * A matched resource served with some of its elements left out (`_elements`, `_summary=data`;
 * search-shaping.ts): its type, id and meta with the SUBSETTED tag, and whichever of the full
 * resource's elements were kept.
 */
const fhirSubsettedResource = z
  .looseObject({
    resourceType: z.string(),
    id: z.string().optional(),
    meta: z.looseObject({ tag: z.array(z.looseObject({ system: z.string().optional(), code: z.string() })).min(1) }),
  })
  .describe('A resource with some elements left out (_elements, _summary=data), tagged SUBSETTED in meta.tag')
  .meta({ id: 'FhirSubsettedResource' });
const fhirBundleOf = (resource: z.ZodType, of: string) =>
  z
    .strictObject({
      resourceType: z.literal('Bundle'),
      type: z.literal('searchset'),
      total: z.number().int().optional().describe('The number of matches, where the search knows it'),
      link: z
        .array(z.object({ relation: z.string(), url: z.string() }))
        .describe('`self`, and `next` (the next page) unless this is the last page'),
      entry: z
        .array(
          z.strictObject({
            fullUrl: z.string(),
            resource: z.union([resource, fhirSubsettedResource]),
            search: z.object({ mode: z.enum(['match', 'include']) }),
          }),
        )
        .optional()
        .describe('Absent when nothing matched (FHIR arrays are never empty)'),
    })
    .describe(`A FHIR R4 searchset Bundle of ${of}`)
    .meta({ id: `FhirBundle${of}` });
export const fhirPatientBundle = fhirBundleOf(fhirPatient, 'Patient');
/** Observations, and with `_include=Observation:patient` their Patients (search mode include). */
export const fhirObservationBundle = fhirBundleOf(z.union([fhirObservation, fhirPatient]), 'Observation');
export const fhirSubscriptionBundle = fhirBundleOf(fhirSubscription, 'Subscription');
/** `$status`: a searchset of one status Parameters (backport-subscription-status-r4). */
export const fhirSubscriptionStatusBundle = fhirBundleOf(fhirParameters, 'SubscriptionStatus');
/** A subscription notification (backport-subscription-notification-r4): a history Bundle, the status Parameters first. */
export const fhirSubscriptionNotification = z
  .looseObject({
    resourceType: z.literal('Bundle'),
    type: z.literal('history'),
    timestamp: z.string(),
    entry: z
      .array(
        z.looseObject({
          fullUrl: z.string(),
          resource: z.looseObject({ resourceType: z.string() }).optional(),
          request: z.object({ method: z.string(), url: z.string() }),
          response: z.object({ status: z.string() }),
        }),
      )
      .describe(
        'First the subscription status (a Parameters), then the resources the events are about (payload full-resource; id-only: their fullUrl alone)',
      ),
  })
  .describe('A FHIR R4 subscription notification Bundle (Subscriptions R5 Backport, backport-subscription-notification-r4)')
  .meta({ id: 'FhirBundleSubscriptionNotification' });

export const fhirAllergyIntoleranceBundle = fhirBundleOf(fhirAllergyIntolerance, 'AllergyIntolerance');
export const fhirPractitionerBundle = fhirBundleOf(fhirPractitioner, 'Practitioner');
export const fhirScheduleBundle = fhirBundleOf(fhirSchedule, 'Schedule');
export const fhirSlotBundle = fhirBundleOf(fhirSlot, 'Slot');
/** Appointments, and with `_include=Appointment:slot` their Slots (search mode include). */
export const fhirAppointmentBundle = fhirBundleOf(z.union([fhirAppointment, fhirSlot]), 'Appointment');
export const fhirDeviceBundle = fhirBundleOf(fhirDevice, 'Device');
export const fhirServiceRequestBundle = fhirBundleOf(fhirServiceRequest, 'ServiceRequest');
export const fhirDiagnosticReportBundle = fhirBundleOf(fhirDiagnosticReport, 'DiagnosticReport');
export const fhirDetectedIssueBundle = fhirBundleOf(fhirDetectedIssue, 'DetectedIssue');
export const fhirGroupBundle = fhirBundleOf(fhirGroup, 'Group');
/** POST/PUT Patient: a FHIR Patient with what Vitalis keeps (patients/fhir.ts patientIn), unknown elements ignored. */
export const fhirPatientCreate = patientIn
  .extend({ resourceType: z.literal('Patient'), id: resourceId.optional() })
  .describe(
    'A FHIR R4 Patient: name (exactly one, the official), birthDate, gender, identifier, telecom are kept; on update the id, when given, must be the one in the URL.',
  )
  .meta({
    id: 'FhirPatientWrite',
    example: { resourceType: 'Patient', name: [{ family: 'Franklin', given: ['Rosalind'] }], birthDate: '1920-07-25', gender: 'female' },
  });
/** POST Appointment: book a free Slot for a patient (the appointments service's booking). */
export const fhirAppointmentCreate = z
  .looseObject({
    resourceType: z.literal('Appointment'),
    status: z.enum(['booked', 'proposed', 'pending']).optional().describe('booked (the result); proposed/pending are accepted and booked'),
    slot: z
      .array(z.object({ reference: z.string().regex(/^(?:.*\/)?Slot\/[A-Za-z0-9-]{1,64}$/, 'must be Slot/{id}') }))
      .length(1)
      .describe('The free Slot to book (exactly one)'),
    participant: z
      .array(z.looseObject({ actor: z.object({ reference: z.string().max(300) }).optional() }))
      .min(1)
      .max(10)
      .describe('The patient (actor Patient/{id}); a patient user books for themselves'),
    description: nonBlankText(500).optional().describe('The reason'),
  })
  .describe('A FHIR R4 Appointment to book: one free Slot and the Patient participant')
  .meta({
    id: 'FhirAppointmentBook',
    example: {
      resourceType: 'Appointment',
      status: 'booked',
      slot: [{ reference: 'Slot/s0123456789ab' }],
      participant: [{ actor: { reference: 'Patient/pat-0001' } }],
      description: 'Follow-up',
    },
  });

/** Every FHIR error: an OperationOutcome (application/fhir+json). */
export const outcomes = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, fhirOperationOutcome]));

const FHIR_SUBSCRIPTION_SCHEMAS = [
  fhirSubscription,
  fhirParameters,
  fhirSubscriptionBundle,
  fhirSubscriptionStatusBundle,
  fhirSubscriptionNotification,
];

/** The named FHIR schemas as OpenAPI components (JSON Schema), references between them as `#/components/schemas/<id>`. */
export function fhirOpenApiSchemas(): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  const named = [
    fhirPatient,
    fhirObservation,
    fhirAllergyIntolerance,
    fhirPractitioner,
    fhirSchedule,
    fhirSlot,
    fhirAppointment,
    fhirDevice,
    fhirServiceRequest,
    fhirDiagnosticReport,
    fhirDetectedIssue,
    fhirGroup,
    fhirCapabilityStatement,
    fhirOperationOutcome,
    fhirSubsettedResource,
    fhirPatientBundle,
    fhirObservationBundle,
    fhirAllergyIntoleranceBundle,
    fhirPractitionerBundle,
    fhirScheduleBundle,
    fhirSlotBundle,
    fhirAppointmentBundle,
    fhirDeviceBundle,
    fhirServiceRequestBundle,
    fhirDiagnosticReportBundle,
    fhirDetectedIssueBundle,
    fhirGroupBundle,
    ...FHIR_SUBSCRIPTION_SCHEMAS,
  ];
  for (const s of named) {
    registry.add(s, { id: (z.globalRegistry.get(s) as { id: string }).id });
  }
  const out = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}`, target: 'draft-2020-12', unrepresentable: 'any' }) as {
    schemas: Record<string, Record<string, unknown>>;
  };
  for (const schema of Object.values(out.schemas)) {
    delete schema.$schema;
    delete schema.$id;
    if (typeof schema.additionalProperties === 'object' && Object.keys(schema.additionalProperties as object).length === 0) {
      schema.additionalProperties = {
        description: 'Any other element of the resource, as the FHIR R4 specification defines it (https://hl7.org/fhir/R4/)',
      };
    }
  }
  return out.schemas;
}
