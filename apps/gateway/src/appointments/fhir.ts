/**
 * The appointments domain's FHIR R4 mapping: a booked or cancelled slot as an Appointment, a slot as
 * a Slot, a clinician's Schedule, and their response schemas. REST v1 (routes.ts) and FHIR
 * (fhir/resources/, fhir/schemas.ts) render the same resources through these.
 */
import { z } from 'zod';
import { must } from '@vitalis/runtime';
import type { SlotState } from '@vitalis/records';
import { CLINICIANS } from '../catalog/data';

// Exactly what the builders below produce (strict: see patients/fhir.ts).
const reference = z.object({ reference: z.string() });
export const appointmentOut = z
  .strictObject({
    resourceType: z.literal('Appointment'),
    id: z.string(),
    status: z.enum(['booked', 'cancelled']),
    slot: z.array(reference),
    start: z.string(),
    end: z.string(),
    appointmentType: z.object({ text: z.string() }),
    description: z.string().optional().describe('The reason given at booking'),
    created: z.string().optional(),
    participant: z.array(
      z.object({ actor: reference.describe('Patient/<id> or Practitioner/<clinician id>'), status: z.literal('accepted') }),
    ),
  })
  .meta({ id: 'Appointment', description: 'FHIR R4 Appointment (https://hl7.org/fhir/R4/appointment.html), the elements Vitalis keeps' });
export const slotOut = z
  .strictObject({
    resourceType: z.literal('Slot'),
    id: z.string(),
    meta: z.object({ versionId: z.string().describe("The slot stream's version (vread: /fhir/R4/Slot/{id}/_history/{vid})") }),
    status: z.enum(['free', 'busy']),
    schedule: reference.describe('Schedule/<clinician id>'),
    serviceType: z.array(z.object({ text: z.string() })),
    start: z.string(),
    end: z.string(),
  })
  .meta({ id: 'Slot', description: 'FHIR R4 Slot (https://hl7.org/fhir/R4/slot.html)' });
export const scheduleOut = z
  .strictObject({
    resourceType: z.literal('Schedule'),
    id: z.string(),
    active: z.boolean(),
    actor: z.array(z.object({ reference: z.string(), display: z.string().optional() })),
  })
  .meta({ id: 'Schedule', description: "FHIR R4 Schedule (https://hl7.org/fhir/R4/schedule.html): a clinician's" });

/** A slot (free or busy) as a Slot of its clinician's Schedule; versionId = the slot stream's version. */
export function toFhirSlot(s: SlotState): z.infer<typeof slotOut> {
  return {
    resourceType: 'Slot' as const,
    id: s.id,
    meta: { versionId: String(s.version) },
    status: s.status,
    schedule: { reference: `Schedule/${s.clinicianId}` },
    serviceType: [{ text: s.appointmentType }],
    start: s.start,
    end: s.end,
  };
}

/** The clinician's Schedule: the container of their Slots. */
export function toFhirSchedule(clinicianId: string): z.infer<typeof scheduleOut> {
  const name = CLINICIANS.find((c) => c.id === clinicianId)?.name;
  return {
    resourceType: 'Schedule' as const,
    id: clinicianId,
    active: true,
    actor: [{ reference: `Practitioner/${clinicianId}`, ...(name ? { display: name } : {}) }],
  };
}

/** A booked (or cancelled) slot as its Appointment: the patient and the clinician, both accepted. */
export function toFhirAppointment(s: SlotState, status: 'booked' | 'cancelled' = 'booked'): z.infer<typeof appointmentOut> {
  return {
    resourceType: 'Appointment' as const,
    id: must(s.appointmentId, `the appointment of slot ${s.id} (only a booked or cancelled one is an Appointment)`),
    status,
    slot: [{ reference: `Slot/${s.id}` }],
    start: s.start,
    end: s.end,
    appointmentType: { text: s.appointmentType },
    ...(s.reason ? { description: s.reason } : {}),
    ...(s.bookedAt ? { created: s.bookedAt } : {}),
    participant: [
      { actor: { reference: `Patient/${s.patientId}` }, status: 'accepted' as const },
      { actor: { reference: `Practitioner/${s.clinicianId}` }, status: 'accepted' as const },
    ],
  };
}
