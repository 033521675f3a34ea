/**
 * The TypeScript client's types are exact (issue 19 item 4): the resources it returns are the
 * OpenAPI components, not `unknown` or open records. These are type assertions: `make typecheck`
 * (tsc over test/) fails when one no longer holds; at run time the test only shows they compiled.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type {
  Appointment,
  DiagnosticReport,
  FhirObservation,
  Patient,
  PatientRecord,
  ServiceRequest,
  VitalisClient,
} from '@vitalis/client';

type Returned<F> = F extends (...args: never[]) => Promise<infer R> ? R : never;

describe('the TypeScript client types', () => {
  it('a patient is a typed FHIR Patient, not unknown', () => {
    expectTypeOf<Returned<VitalisClient['patients']['getResource']>>().toEqualTypeOf<Patient>();
    expectTypeOf<Patient>().not.toBeUnknown();
    expectTypeOf<Patient['name'][number]['family']>().toEqualTypeOf<string>();
    expectTypeOf<Patient['gender']>().toEqualTypeOf<'male' | 'female' | 'other' | 'unknown' | undefined>();
    // exact: no index signature lets an unknown field through
    expectTypeOf<Patient>().not.toHaveProperty('allergies');
    expectTypeOf<PatientRecord['news2']>().toEqualTypeOf<NonNullable<PatientRecord['news2']> | undefined>();
    expectTypeOf<NonNullable<PatientRecord['news2']>['risk']>().toEqualTypeOf<'low' | 'low-medium' | 'medium' | 'high'>();
  });

  it('an appointment is a typed FHIR Appointment', () => {
    expectTypeOf<Returned<VitalisClient['appointments']['get']>>().toEqualTypeOf<Appointment>();
    expectTypeOf<Appointment['status']>().toEqualTypeOf<'booked' | 'cancelled'>();
    expectTypeOf<Appointment['participant'][number]['actor']['reference']>().toEqualTypeOf<string>();
    expectTypeOf<Appointment>().not.toHaveProperty('reason');
  });

  it('an observation is a typed FHIR Observation (valueQuantity, valueSampledData)', () => {
    expectTypeOf<FhirObservation>().not.toBeUnknown();
    expectTypeOf<NonNullable<FhirObservation['valueQuantity']>['value']>().toEqualTypeOf<number>();
    expectTypeOf<NonNullable<FhirObservation['valueSampledData']>['data']>().toEqualTypeOf<string>();
  });

  it('a report and an order are typed FHIR DiagnosticReport and ServiceRequest, their results typed', () => {
    expectTypeOf<Returned<VitalisClient['diagnostics']['getReport']>>().toEqualTypeOf<DiagnosticReport>();
    expectTypeOf<DiagnosticReport['status']>().toEqualTypeOf<
      'registered' | 'partial' | 'preliminary' | 'final' | 'amended' | 'corrected' | 'cancelled' | 'entered-in-error'
    >();
    expectTypeOf<NonNullable<DiagnosticReport['contained']>[number]['code']['coding'][number]['code']>().toEqualTypeOf<string>();
    expectTypeOf<Returned<VitalisClient['diagnostics']['getOrder']>>().toEqualTypeOf<ServiceRequest>();
    expectTypeOf<ServiceRequest['priority']>().toEqualTypeOf<'routine' | 'urgent' | 'asap' | 'stat'>();
  });
});
