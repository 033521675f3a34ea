/** Appointment tools: find_available_slots, book_appointment, cancel_appointment. */
import { z } from 'zod';
import { resourceId, nonBlankText, instant } from '@vitalis/schemas';
import { validationFailed } from '@vitalis/http';
import { bookAppointment, cancelAppointment, listSlots } from '../../appointments/service';
import { defineTool, UI } from './types';
import { appointmentOut, appointmentShape, slotOut, slotShape } from './shapes';

const isoDateTime = instant;
const DAY_MS = 86_400_000;

/** `date` (a UTC day) or from/to; `date` wins. */
function window(a: { date?: string | undefined; from?: string | undefined; to?: string | undefined }): { from?: string; to?: string } {
  if (a.date) {
    const start = Date.parse(`${a.date}T00:00:00Z`);
    return { from: new Date(start).toISOString(), to: new Date(start + DAY_MS).toISOString() };
  }
  if (a.from && a.to && !(Date.parse(a.from) < Date.parse(a.to)))
    throw validationFailed('from must be before to', [{ path: 'from', message: 'must be before to' }]);
  return { ...(a.from ? { from: a.from } : {}), ...(a.to ? { to: a.to } : {}) };
}

const when = (iso: string) => iso.replace('T', ' ').slice(0, 16);

export const findSlotsTool = defineTool({
  name: 'find_available_slots',
  title: 'Find free appointment slots',
  description:
    'Free consultation slots, earliest first, optionally for one clinician and one day (`date`, UTC) or a from/to range. Needs read:appointments. Book one with book_appointment.',
  scopes: ['read:appointments'],
  input: z.object({
    clinician_id: resourceId.optional().describe('Only this clinician (see GET /api/v1/catalog/clinicians)'),
    date: z.iso.date().optional().describe('A day (YYYY-MM-DD, UTC)'),
    from: isoDateTime.optional().describe('Slots starting at or after'),
    to: isoDateTime.optional().describe('Slots starting before'),
    limit: z.number().int().min(1).max(100).default(20),
  }),
  output: z.object({ count: z.number().int(), slots: z.array(slotShape), more: z.boolean() }),
  annotations: {
    title: 'Find free appointment slots',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  ui: UI.booking,
  async run({ deps, caller }, a) {
    const { slots, more } = await listSlots(deps.pool, caller, { clinician: a.clinician_id, ...window(a), status: 'free', limit: a.limit });
    const out = slots.map(slotOut);
    return {
      data: { count: out.length, slots: out, more },
      text:
        out.length === 0
          ? 'No free slot matches.'
          : `${out.length} free slot(s)${more ? ' (more available)' : ''}: ${out
              .slice(0, 10)
              .map((s) => `${s.slot_id} ${when(s.start)} with ${s.clinician_id}`)
              .join('; ')}.`,
    };
  },
});

export const bookAppointmentTool = defineTool({
  name: 'book_appointment',
  title: 'Book an appointment',
  description:
    'Books a free slot for a patient (patient users book for themselves; patient_id may be omitted). Fails if the slot is already taken (exactly one of concurrent bookings wins). Needs write:appointments.',
  scopes: ['write:appointments'],
  input: z.object({
    slot_id: resourceId.describe('A free slot from find_available_slots'),
    patient_id: resourceId.optional().describe('The patient (required unless the caller is a patient user)'),
    reason: nonBlankText(500).optional(),
  }),
  output: z.object({ appointment: appointmentShape }),
  annotations: { title: 'Book an appointment', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  ui: UI.booking,
  async run({ deps, caller }, a) {
    const s = await bookAppointment(deps.pool, caller, { slotId: a.slot_id, patientId: a.patient_id, reason: a.reason });
    const appointment = appointmentOut(s, 'booked');
    return {
      data: { appointment },
      text: `Booked ${appointment.appointment_id}: ${when(appointment.start)} with ${appointment.clinician_id} for ${appointment.patient_id}.`,
    };
  },
});

export const cancelAppointmentTool = defineTool({
  name: 'cancel_appointment',
  title: 'Cancel an appointment',
  description:
    'Cancels a booked appointment and frees its slot. Fails if it is not (or no longer) booked. Needs write:appointments; patient users cancel only their own.',
  scopes: ['write:appointments'],
  input: z.object({
    appointment_id: z
      .string()
      .regex(/^[A-Za-z0-9-]{1,64}\.\d{1,9}$/, 'must be an appointment id')
      .describe('From book_appointment'),
    reason: nonBlankText(500).optional(),
  }),
  output: z.object({ appointment: appointmentShape }),
  annotations: { title: 'Cancel an appointment', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async run({ deps, caller }, a) {
    const s = await cancelAppointment(deps.pool, caller, a.appointment_id, a.reason);
    const appointment = appointmentOut(s, 'cancelled');
    return {
      data: { appointment },
      text: `Cancelled ${appointment.appointment_id} (${when(appointment.start)}); slot ${appointment.slot_id} is free again.`,
    };
  },
});
