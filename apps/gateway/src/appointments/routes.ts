/**
 * Appointments REST v1: slots and bookings as FHIR R4 Slot / Appointment.
 *  GET  /api/v1/appointments                 read:appointments  slots (free and busy) + bookings
 *  POST /api/v1/appointments                 write:appointments book a slot (201; 409 if taken)
 *  GET  /api/v1/appointments/{id}            read:appointments
 *  POST /api/v1/appointments/{id}/cancel     write:appointments
 *  POST /api/v1/appointments/{id}/reschedule write:appointments (atomic cancel + book)
 */
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { resourceId, nonBlankText, instant } from '@vitalis/schemas';
import type { SlotState } from '@vitalis/records';
import type { GatewayDeps } from '../deps';
import { callerOf, decodeKey, encodeKey, problems } from '../records/http';
import { bookAppointment, cancelAppointment, getAppointment, listSlots, rescheduleAppointment } from './service';

const appointmentOut = z.looseObject({ resourceType: z.literal('Appointment'), id: z.string(), status: z.enum(['booked', 'cancelled']) });
const slotOut = z.looseObject({ resourceType: z.literal('Slot'), id: z.string(), status: z.enum(['free', 'busy']) });

export function toFhirSlot(s: SlotState) {
  return {
    resourceType: 'Slot' as const, id: s.id, status: s.status,
    schedule: { reference: `Practitioner/${s.clinicianId}` },
    serviceType: [{ text: s.appointmentType }], start: s.start, end: s.end,
  };
}

export function toFhirAppointment(s: SlotState, status: 'booked' | 'cancelled' = 'booked') {
  return {
    resourceType: 'Appointment' as const, id: s.appointmentId!, status,
    slot: [{ reference: `Slot/${s.id}` }], start: s.start, end: s.end,
    appointmentType: { text: s.appointmentType },
    ...(s.reason ? { description: s.reason } : {}),
    ...(s.bookedAt ? { created: s.bookedAt } : {}),
    participant: [
      { actor: { reference: `Patient/${s.patientId}` }, status: 'accepted' },
      { actor: { reference: `Practitioner/${s.clinicianId}` }, status: 'accepted' },
    ],
  };
}

const isoDateTime = instant;

export function appointmentRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  const { pool } = deps;
  return async (app) => {
    app.get('/api/v1/appointments', {
      config: { auth: { scopes: ['read:appointments'] } },
      schema: {
        tags: ['appointments'], summary: 'Available and booked appointment slots',
        description: 'A searchset Bundle of Slot resources ordered by start, each booked one followed by its Appointment. Filters: clinician, patient, from/to (start time), status (free|busy). Patient users see free slots and their own bookings. Reads the projection (eventually consistent).',
        querystring: z.object({
          clinician: resourceId.optional(), patient: resourceId.optional(), from: isoDateTime.optional(), to: isoDateTime.optional(),
          status: z.enum(['free', 'busy']).optional(), limit: z.coerce.number().int().min(1).max(500).default(100), cursor: z.string().max(512).optional(),
        }),
        response: { 200: z.object({ resourceType: z.literal('Bundle'), type: z.literal('searchset'), entry: z.array(z.object({ resource: z.union([slotOut, appointmentOut]) })), next: z.string().nullable() }), ...problems(400, 401, 403) },
      },
    }, async (req) => {
      const q = req.query;
      const after = decodeKey(q.cursor, ['t', 's']);
      const { slots, more } = await listSlots(pool, callerOf(req), { ...q, after });
      const entry = slots.flatMap((s) => [{ resource: toFhirSlot(s) }, ...(s.appointmentId ? [{ resource: toFhirAppointment(s) }] : [])]);
      const last = slots[slots.length - 1];
      let next: string | null = null;
      if (more && last) {
        const params = new URLSearchParams(Object.entries(q).filter(([k, v]) => k !== 'cursor' && v !== undefined).map(([k, v]) => [k, String(v)] as [string, string]));
        params.set('cursor', encodeKey({ t: last.start, s: last.id }));
        next = `${deps.config.baseUrl}/api/v1/appointments?${params}`;
      }
      return { resourceType: 'Bundle' as const, type: 'searchset' as const, entry, next };
    });

    app.post('/api/v1/appointments', {
      config: { auth: { scopes: ['write:appointments'] } },
      schema: {
        tags: ['appointments'], summary: 'Book a slot',
        description: 'Books a free slot for a patient (patient users: themselves; patient_id may be omitted). 201 with the Appointment; 409 if the slot is taken (also when many book it at once: exactly one wins).',
        body: z.object({ slot_id: resourceId, patient_id: resourceId.optional(), reason: nonBlankText(500).optional() }),
        response: { 201: appointmentOut, ...problems(400, 401, 403, 404, 409, 422) },
      },
    }, async (req, reply) => {
      const s = await bookAppointment(pool, callerOf(req), { slotId: req.body.slot_id, patientId: req.body.patient_id, reason: req.body.reason });
      return reply.code(201).header('location', `/api/v1/appointments/${s.appointmentId}`).send(toFhirAppointment(s));
    });

    const idParams = z.object({ id: z.string().regex(/^[A-Za-z0-9-]{1,64}\.\d{1,9}$/, 'must be an appointment id') });

    app.get('/api/v1/appointments/:id', {
      config: { auth: { scopes: ['read:appointments'] } },
      schema: { tags: ['appointments'], summary: 'Read a booked appointment', params: idParams, response: { 200: appointmentOut, ...problems(400, 401, 404) } },
    }, async (req) => toFhirAppointment(await getAppointment(pool, callerOf(req), req.params.id)));

    app.post('/api/v1/appointments/:id/cancel', {
      config: { auth: { scopes: ['write:appointments'] } },
      schema: {
        tags: ['appointments'], summary: 'Cancel an appointment', description: 'Frees the slot. 404 if it is not (or no longer) booked.',
        params: idParams, body: z.object({ reason: nonBlankText(500).optional() }).optional(),
        response: { 200: appointmentOut, ...problems(400, 401, 404, 409) },
      },
    }, async (req) => toFhirAppointment(await cancelAppointment(pool, callerOf(req), req.params.id, req.body?.reason), 'cancelled'));

    app.post('/api/v1/appointments/:id/reschedule', {
      config: { auth: { scopes: ['write:appointments'] } },
      schema: {
        tags: ['appointments'], summary: 'Move an appointment to another slot', description: 'Cancels this booking and books slot_id atomically (both or neither). 201 with the new Appointment.',
        params: idParams, body: z.object({ slot_id: resourceId }),
        response: { 201: appointmentOut, ...problems(400, 401, 404, 409) },
      },
    }, async (req, reply) => {
      const s = await rescheduleAppointment(pool, callerOf(req), req.params.id, req.body.slot_id);
      return reply.code(201).header('location', `/api/v1/appointments/${s.appointmentId}`).send(toFhirAppointment(s));
    });
  };
}
