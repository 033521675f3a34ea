/**
 * FHIR Appointment (appointments service): the current bookings, one per busy Slot (id
 * {slot}.{version}); `_include=Appointment:slot` adds each booked Slot. Create (booking): bookAppointment of the
 * free Slot for the one Patient participant.
 */
import { z } from 'zod';
import { badRequest } from '@vitalis/http';
import { must } from '@vitalis/runtime';
import { decodeKey, encodeKey } from '../../access/http';
import { tokenPatient } from '../../access/policy';
import { toFhirAppointment, toFhirSlot } from '../../appointments/fhir';
import { bookAppointment, getAppointment, listSlots } from '../../appointments/service';
import { countParam, defineCreate, defineFhirResource, patientParam, searchParam } from '../definition';
import { fhirAppointment, fhirAppointmentBundle, fhirAppointmentCreate, outcomes } from '../schemas';
import {
  DATE_DOC,
  cursor,
  dateParam,
  format,
  isoDateFilter,
  listOf,
  notSupported,
  patientIdOf,
  referenceIdOf,
  referenceParam,
  statusesOf,
  tokenList,
} from '../search-params';

export const appointmentResource = defineFhirResource({
  type: 'Appointment',
  auth: { scopes: ['read:appointments'] },
  interactions: ['read', 'search-type', 'create'],
  schema: fhirAppointment,
  bundle: fhirAppointmentBundle,
  documentation:
    'create: book a free Slot (slot, and participant Patient/{id}; a patient user books for themselves); write:appointments; a taken slot: 409.',
  searchInclude: ['Appointment:slot'],
  search: {
    description:
      "Current bookings by start: patient, date (every date prefix: eq ne gt lt ge le sa eb ap; repeatable as AND, commas as OR), status (booked; comma: any of), _count; `_include=Appointment:slot` adds each booked Slot (search mode include). A patient user: its own bookings. Served by the appointments service's listing (audited appointment.list).",
    query: z.strictObject({
      patient: patientParam(referenceParam('Patient').optional(), false),
      date: searchParam(dateParam.optional(), 'date', `The start. ${DATE_DOC}`),
      status: searchParam(
        tokenList(100).optional(),
        'token',
        'booked (the current bookings; a cancelled appointment frees its slot and is not listed); comma-separated: any of.',
      ),
      _include: z.enum(['Appointment:slot', 'Appointment:slot:Slot']).optional().describe('Appointment:slot'),
      _count: countParam(500, 100),
      _cursor: cursor,
      _format: format,
    }),
    search: async ({ q, deps, caller: callerOfRequest, match, included, count }) => {
      if (q._include !== undefined && q._include !== 'Appointment:slot' && q._include !== 'Appointment:slot:Slot')
        throw notSupported(`_include=${q._include} is not supported (Appointment:slot is).`);
      const caller = callerOfRequest();
      const date = isoDateFilter('date', listOf(q.date));
      const patient = q.patient === undefined ? tokenPatient(caller.principal) : patientIdOf('patient', q.patient);
      if (statusesOf(q.status, ['booked'] as const) === null || date.none) return count ? { entries: [], total: 0 } : { entries: [] };
      const after = decodeKey(q._cursor, ['t', 's']);
      const countOnly = count === true && date.exact && patient !== undefined;
      const { slots, more, total } = await listSlots(deps.pool, caller, {
        patient,
        from: date.from,
        to: date.to,
        status: 'busy',
        countOnly,
        limit: q._count,
        after,
      });
      if (total !== undefined) return { entries: [], total };
      const booked = slots.flatMap((s) =>
        s.appointmentId === null || !(date.exact || date.matches(s.start)) ? [] : [{ slot: s, appointmentId: s.appointmentId }],
      );
      const last = slots[slots.length - 1];
      return {
        entries: [
          ...booked.map(({ slot, appointmentId }) => match('Appointment', appointmentId, toFhirAppointment(slot))),
          ...(q._include !== undefined ? booked.map(({ slot }) => included('Slot', slot.id, toFhirSlot(slot))) : []),
        ],
        nextCursor: more && last ? encodeKey({ t: last.start, s: last.id }) : null,
      };
    },
  },
  read: {
    description: 'A current booking (id {slot}.{version}); a patient user: its own. Audited appointment.read.',
    params: z.object({ id: z.string().regex(/^[A-Za-z0-9-]{1,64}\.\d{1,9}$/, 'must be an appointment id') }),
    read: async ({ deps, caller, id }) => ({ resource: toFhirAppointment(await getAppointment(deps.pool, caller(), id)) }),
  },
  create: defineCreate({
    auth: { scopes: ['write:appointments'] },
    summary: 'Create Appointment (book a Slot)',
    description:
      'Books the free Slot for the Patient participant (the appointments service, as POST /api/v1/appointments; a patient user books for themselves and may leave the patient out). 201 with the booked Appointment and Location; a taken slot: 409 (of concurrent bookings exactly one wins); an unknown patient: 422.',
    body: fhirAppointmentCreate,
    errors: outcomes(400, 401, 403, 404, 406, 409, 422),
    create: async ({ deps, caller, body: b }) => {
      const slotId = referenceIdOf('Slot', 'slot', must(b.slot[0], 'a slot (the schema requires one)').reference);
      const patients = b.participant
        .map((p) => p.actor?.reference)
        .filter((r): r is string => r !== undefined && /(?:^|\/)Patient\/[^/]+$/.test(r));
      if (patients.length > 1) throw badRequest('An Appointment here has one Patient participant.');
      const patientId = patients[0] === undefined ? undefined : referenceIdOf('Patient', 'participant.actor', patients[0]);
      const s = await bookAppointment(deps.pool, caller(), { slotId, patientId, reason: b.description });
      return { resource: toFhirAppointment(s), id: String(s.appointmentId) };
    },
  }),
});
