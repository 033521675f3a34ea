/**
 * Every resource type served at /fhir/R4, one definition each (resources/<Type>.ts), in the order
 * the CapabilityStatement lists them. routes.ts registers each with `registerFhirResource`;
 * capability.ts builds the statement from the same list.
 */
import type { FhirResourceDefinition } from '../definition';
import { allergyIntoleranceResource } from './AllergyIntolerance';
import { appointmentResource } from './Appointment';
import { detectedIssueResource } from './DetectedIssue';
import { deviceResource } from './Device';
import { diagnosticReportResource } from './DiagnosticReport';
import { groupResource } from './Group';
import { observationResource } from './Observation';
import { patientResource } from './Patient';
import { practitionerResource } from './Practitioner';
import { scheduleResource } from './Schedule';
import { serviceRequestResource } from './ServiceRequest';
import { slotResource } from './Slot';

export const FHIR_RESOURCE_DEFINITIONS: readonly FhirResourceDefinition[] = [
  patientResource,
  observationResource,
  allergyIntoleranceResource,
  practitionerResource,
  scheduleResource,
  slotResource,
  appointmentResource,
  deviceResource,
  serviceRequestResource,
  diagnosticReportResource,
  detectedIssueResource,
  groupResource,
];
