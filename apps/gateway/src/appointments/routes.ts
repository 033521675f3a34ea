/**
 * Appointments REST v1: slots and bookings as FHIR R4 Slot / Appointment.
 *  GET  /api/v1/appointments                 read:appointments  slots (free and busy) + bookings
 *  POST /api/v1/appointments                 write:appointments book a slot (201; 409 if taken)
 *  GET  /api/v1/appointments/{id}            read:appointments
 *  POST /api/v1/appointments/{id}/cancel     write:appointments
 *  POST /api/v1/appointments/{id}/reschedule write:appointments (atomic cancel + book)
 * FHIR R4: a Slot belongs to a Schedule (Slot.schedule may only reference one): each clinician's
 * Schedule (id = the clinician id, actor = the Practitioner) is included in the listing Bundle
 * (search mode `include`). Appointments' fullUrls are their URLs here; Slots and Schedules have
 * no URL of their own in v1, so theirs are stable urn:uuids.
 */
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bundleSchema, entryUuid, resourceId, searchsetBundle, nonBlankText, instant } from '@vitalis/schemas';
import { nextPageUrl } from '@vitalis/http';
import type { GatewayDeps } from '../deps';
import type { RouteApp } from '../route-app';
import { callerOf, decodeKey, encodeKey, problems } from '../access/http';
import { appointmentOut, scheduleOut, slotOut, toFhirAppointment, toFhirSchedule, toFhirSlot } from './fhir';
import { bookAppointment, cancelAppointment, getAppointment, listSlots, rescheduleAppointment } from './service';

const isoDateTime = instant;

const idParams = z.object({ id: z.string().regex(/^[A-Za-z0-9-]{1,64}\.\d{1,9}$/, 'must be an appointment id') });

/** GET /api/v1/appointments: the available and booked appointment slots. */
function listSlotsRoute(app: RouteApp, deps: GatewayDeps): void {
  const { pool } = deps;
  app.get(
    '/api/v1/appointments',
    {
      config: { auth: { scopes: ['read:appointments'] } },
      schema: {
        tags: ['appointments'],
        summary: 'Available and booked appointment slots',
        description:
          'A FHIR searchset Bundle of Slot resources ordered by start, each booked one followed by its Appointment, then the Schedule of each clinician on the page (search mode include; Slot.schedule references it). Paging: `link` relation `next`. Filters: clinician, patient, from/to (start time), status (free|busy). Patient users see free slots and their own bookings. Reads the projection (eventually consistent).',
        querystring: z.object({
          clinician: resourceId.optional(),
          patient: resourceId.optional(),
          from: isoDateTime.optional(),
          to: isoDateTime.optional(),
          status: z.enum(['free', 'busy']).optional(),
          limit: z.coerce.number().int().min(1).max(500).default(100),
          cursor: z.string().max(512).optional(),
        }),
        response: {
          200: bundleSchema(z.union([slotOut, appointmentOut, scheduleOut])).describe(
            'FHIR R4 searchset Bundle: Slot (match), each booked one followed by its Appointment (match), then the Schedules the Slots belong to (include); the next page is `link` relation `next`',
          ),
          ...problems(400, 401, 403),
        },
      },
    },
    async (req) => {
      const q = req.query;
      const after = decodeKey(q.cursor, ['t', 's']);
      const { slots, more } = await listSlots(pool, callerOf(req), { ...q, after });
      const base = deps.config.baseUrl;
      const match = 'match' as const;
      const entry = [
        ...slots.flatMap((s) => [
          { fullUrl: entryUuid('Slot', s.id), resource: toFhirSlot(s), search: { mode: match } },
          ...(s.appointmentId
            ? [{ fullUrl: `${base}/api/v1/appointments/${s.appointmentId}`, resource: toFhirAppointment(s), search: { mode: match } }]
            : []),
        ]),
        ...[...new Set(slots.map((s) => s.clinicianId))].map((c) => ({
          fullUrl: entryUuid('Schedule', c),
          resource: toFhirSchedule(c),
          search: { mode: 'include' as const },
        })),
      ];
      const last = slots[slots.length - 1];
      const next =
        more && last
          ? nextPageUrl(`${deps.config.baseUrl}/api/v1/appointments`, q, encodeKey({ t: last.start, s: last.id }), 'cursor')
          : null;
      return searchsetBundle<z.infer<typeof slotOut> | z.infer<typeof appointmentOut> | z.infer<typeof scheduleOut>>(entry, {
        self: `${base}${req.url}`,
        next,
      });
    },
  );
}

/** POST /api/v1/appointments: book a slot. */
function bookAppointmentRoute(app: RouteApp, { pool }: GatewayDeps): void {
  app.post(
    '/api/v1/appointments',
    {
      config: { auth: { scopes: ['write:appointments'] } },
      schema: {
        tags: ['appointments'],
        summary: 'Book a slot',
        description:
          'Books a free slot for the patient patient_id (a patient user names itself: any other patient is 403). 201 with the Appointment; 409 if the slot is taken (also when many book it at once: exactly one wins); 422 if the patient or the slot does not exist.',
        body: z
          .object({ slot_id: resourceId, patient_id: resourceId, reason: nonBlankText(500).optional() })
          .meta({ example: { slot_id: 'clin-001-202612011000', patient_id: 'pat-0001', reason: 'follow-up of blood pressure' } }),
        response: { 201: appointmentOut, ...problems(400, 401, 403, 404, 409, 422) },
      },
    },
    async (req, reply) => {
      const s = await bookAppointment(pool, callerOf(req), {
        slotId: req.body.slot_id,
        patientId: req.body.patient_id,
        reason: req.body.reason,
      });
      return reply.code(201).header('location', `/api/v1/appointments/${s.appointmentId}`).send(toFhirAppointment(s));
    },
  );
}

/** GET /api/v1/appointments/:id: a booked appointment. */
function readAppointmentRoute(app: RouteApp, { pool }: GatewayDeps): void {
  app.get(
    '/api/v1/appointments/:id',
    {
      config: { auth: { scopes: ['read:appointments'] } },
      schema: {
        tags: ['appointments'],
        summary: 'Read a booked appointment',
        params: idParams,
        response: { 200: appointmentOut, ...problems(400, 401, 404) },
      },
    },
    async (req) => toFhirAppointment(await getAppointment(pool, callerOf(req), req.params.id)),
  );
}

/** POST /api/v1/appointments/:id/cancel: cancel an appointment, freeing its slot. */
function cancelAppointmentRoute(app: RouteApp, { pool }: GatewayDeps): void {
  app.post(
    '/api/v1/appointments/:id/cancel',
    {
      config: { auth: { scopes: ['write:appointments'] } },
      schema: {
        tags: ['appointments'],
        summary: 'Cancel an appointment',
        description: 'Frees the slot. 404 if it is not (or no longer) booked.',
        params: idParams,
        body: z
          .object({ reason: nonBlankText(500).optional() })
          .nullish()
          .meta({ example: { reason: 'the patient is travelling' } }),
        response: { 200: appointmentOut, ...problems(400, 401, 404, 409) },
      },
    },
    async (req) => toFhirAppointment(await cancelAppointment(pool, callerOf(req), req.params.id, req.body?.reason), 'cancelled'),
  );
}

/** POST /api/v1/appointments/:id/reschedule: move an appointment to another slot. */
function rescheduleAppointmentRoute(app: RouteApp, { pool }: GatewayDeps): void {
  app.post(
    '/api/v1/appointments/:id/reschedule',
    {
      config: { auth: { scopes: ['write:appointments'] } },
      schema: {
        tags: ['appointments'],
        summary: 'Move an appointment to another slot',
        description: 'Cancels this booking and books slot_id atomically (both or neither). 201 with the new Appointment.',
        params: idParams,
        body: z.object({ slot_id: resourceId }).meta({ example: { slot_id: 'clin-001-202612021430' } }),
        response: { 201: appointmentOut, ...problems(400, 401, 404, 409) },
      },
    },
    async (req, reply) => {
      const s = await rescheduleAppointment(pool, callerOf(req), req.params.id, req.body.slot_id);
      return reply.code(201).header('location', `/api/v1/appointments/${s.appointmentId}`).send(toFhirAppointment(s));
    },
  );
}

/** The appointment REST routes, registered in the order the OpenAPI document lists them. */
export function appointmentRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  return async (app) => {
    listSlotsRoute(app, deps);
    bookAppointmentRoute(app, deps);
    readAppointmentRoute(app, deps);
    cancelAppointmentRoute(app, deps);
    rescheduleAppointmentRoute(app, deps);
  };
}
