/**
 * FHIR R4 read and search beyond Patient and Observation (issue 22 item 2): AllergyIntolerance,
 * Practitioner, Schedule, Slot, Appointment (with `_include=Appointment:slot`), Device, ServiceRequest,
 * DiagnosticReport and DetectedIssue (bedside alarms), with `_count` paging through Bundle.link next and `_history/{vid}` where the
 * resource is an event stream (Slot, ServiceRequest, DiagnosticReport). Each route calls the
 * service REST v1 and MCP call (patients, appointments, vitals, diagnostics): the same access rules (a
 * patient user: its own), the same audit; this file is only the FHIR shape (capability.ts lists
 * exactly these routes; a test compares the two).
 */
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fhirReply, nextPageUrl, notFound, weakEtag } from '@vitalis/http';
import { LOINC } from '@vitalis/clinical';
import { DIAGNOSTIC_REPORT_STATUSES, SERVICE_REQUEST_STATUSES, type ServiceRequestStatus } from '@vitalis/records';
import { resourceId, searchsetBundle, type FhirBundleEntry, nonBlankText } from '@vitalis/schemas';
import type { GatewayDeps } from '../deps';
import { callerOf, decodeKey, encodeKey } from '../access/http';
import { CLINICIANS } from '../catalog/data';
import { toFhirPractitioner } from '../catalog/fhir';
import { toFhirAllergy } from '../patients/fhir';
import { getAllergies, getAllergy } from '../patients/service';
import { toFhirAppointment, toFhirSchedule, toFhirSlot } from '../appointments/fhir';
import { getAppointment, getSlot, listSchedules, listSlots } from '../appointments/service';
import { codesInSection, SECTION_SYSTEM, toFhirDiagnosticReport, toFhirServiceRequest } from '../diagnostics/fhir';
import { getOrder, getReport, searchOrders, searchReports, type ListPosition } from '../diagnostics/service';
import { readDevice, readDevices } from '../vitals/service';
import { toFhirDevice } from '../vitals/fhir';
import { alarmsDepsOf, getAlarm, listAlarms } from '../alarms/service';
import { toFhirDetectedIssue } from '../alarms/fhir';
import { ACTIVE_ALARM_STATES, type AlarmState } from '@vitalis/records';
import { FHIR_BASE_PATH } from './capability';
import {
  fhirAllergyIntolerance,
  fhirAllergyIntoleranceBundle,
  fhirAppointment,
  fhirAppointmentBundle,
  fhirDevice,
  fhirDeviceBundle,
  fhirDiagnosticReport,
  fhirDiagnosticReportBundle,
  fhirPractitioner,
  fhirPractitionerBundle,
  fhirSchedule,
  fhirScheduleBundle,
  fhirServiceRequest,
  fhirServiceRequestBundle,
  fhirSlot,
  fhirSlotBundle,
  outcomes,
  fhirDetectedIssue,
  fhirDetectedIssueBundle,
} from './schemas';
import { cursor, dateBounds, format, notSupported, patientIdOf, referenceIdOf, tokenCodes } from './search-params';
import { tokenPatient } from '../access/policy';

const oneOrMany = z.union([z.string().max(300), z.array(z.string().max(300)).max(4)]);
const listOf = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const idParams = z.object({ id: resourceId });
const vidParams = z.object({ id: resourceId, vid: z.coerce.number().int().min(1) });
const readQuery = z.strictObject({ _format: format });
const READ_ERRORS = outcomes(400, 401, 403, 404, 406);
const SEARCH_ERRORS = outcomes(400, 401, 403, 406);

type Entry = FhirBundleEntry<Record<string, unknown>>;
const match = (fullUrl: string, resource: object): Entry => ({
  fullUrl,
  resource: resource as Record<string, unknown>,
  search: { mode: 'match' },
});
const included = (fullUrl: string, resource: object): Entry => ({
  fullUrl,
  resource: resource as Record<string, unknown>,
  search: { mode: 'include' },
});

/** The instants a repeated date parameter bounds, as ISO strings (either side may be open). */
function isoBounds(values: string[]): { from?: string; to?: string } {
  const b = dateBounds(values);
  return {
    ...(b.fromMs !== undefined ? { from: new Date(b.fromMs).toISOString() } : {}),
    ...(b.toMs !== undefined ? { to: new Date(b.toMs).toISOString() } : {}),
  };
}

/** Token codes (LOINC) of a `code` parameter; null when none can match. */
function loincCodes(value: string | undefined): string[] | undefined | null {
  if (value === undefined) return undefined;
  const codes = tokenCodes(value, LOINC).filter((c): c is string => c !== null);
  return codes.length > 0 ? codes : null;
}

/** Status tokens against the statuses a resource has; null when none can match. */
function statusesOf<S extends string>(value: string | undefined, known: readonly S[]): S[] | undefined | null {
  if (value === undefined) return undefined;
  const wanted = value
    .split(',')
    .map((x) => x.trim())
    .filter((x): x is S => (known as readonly string[]).includes(x));
  return wanted.length > 0 ? wanted : null;
}

const positionKey = (p: ListPosition) => encodeKey({ t: p.t, i: p.i });

/** DetectedIssue.status → the alarm states it stands for (preliminary: must still be seen; final: resolved). */
const ISSUE_STATUS_STATES: Record<'preliminary' | 'final', readonly AlarmState[]> = {
  preliminary: ACTIVE_ALARM_STATES,
  final: ['resolved'],
};

export function fhirResourceRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  const { pool } = deps;
  const base = () => `${deps.config.baseUrl}${FHIR_BASE_PATH}`;
  const selfUrl = (req: FastifyRequest) => `${deps.config.baseUrl}${req.url}`;
  const urlOf = (type: string, id: string) => `${base()}/${type}/${id}`;
  const nextOf = (type: string, query: Record<string, unknown>, key: string | null) =>
    key === null ? null : nextPageUrl(`${base()}/${type}`, query, key);

  return async (app) => {
    // ---- AllergyIntolerance (patients service: the clinical view of a record) ----
    const allergyScopes = { anyOf: ['read:patients', 'patient/AllergyIntolerance.rs'] as const };
    app.get(
      `${FHIR_BASE_PATH}/AllergyIntolerance`,
      {
        config: { auth: { anyOf: [...allergyScopes.anyOf] } },
        schema: {
          tags: ['fhir'],
          summary: 'Search AllergyIntolerance',
          operationId: 'fhirSearchAllergyIntolerance',
          description:
            "One patient's allergies (patient required; a patient user: its own, with patient/AllergyIntolerance.rs). Served by the patients service (folds the record; audited patient.allergies.read).",
          querystring: z.strictObject({
            patient: z.string().max(300).describe('Patient/{id} or {id} (required)'),
            _count: z.coerce.number().int().min(1).max(100).default(50),
            _cursor: cursor,
            _format: format,
          }),
          response: { 200: fhirAllergyIntoleranceBundle, ...SEARCH_ERRORS, ...outcomes(404) }, // 404: the patient does not exist
        },
      },
      async (req, reply) => {
        const q = req.query;
        const patient = await getAllergies(pool, callerOf(req), patientIdOf('patient', q.patient));
        const after = decodeKey(q._cursor, ['a'])?.a;
        const from = after === undefined ? 0 : patient.allergies.findIndex((a) => a.id === after) + 1;
        const page = patient.allergies.slice(from, from + q._count);
        const more = from + q._count < patient.allergies.length;
        const entry = page.map((a) => match(urlOf('AllergyIntolerance', a.id), toFhirAllergy(patient.id, a)));
        return fhirReply(reply).send(
          searchsetBundle(entry, {
            self: selfUrl(req),
            next: nextOf('AllergyIntolerance', q, more ? encodeKey({ a: page[page.length - 1]!.id }) : null),
          }),
        );
      },
    );

    app.get(
      `${FHIR_BASE_PATH}/AllergyIntolerance/:id`,
      {
        config: { auth: { anyOf: [...allergyScopes.anyOf] } },
        schema: {
          tags: ['fhir'],
          summary: 'Read AllergyIntolerance',
          operationId: 'fhirReadAllergyIntolerance',
          description:
            'One allergy: its patient is found in the projection (eventually consistent: a just-recorded allergy may take a projector tick), then read as the search reads it.',
          params: idParams,
          querystring: readQuery,
          response: { 200: fhirAllergyIntolerance, ...READ_ERRORS },
        },
      },
      async (req, reply) => {
        const { patient, allergy } = await getAllergy(pool, callerOf(req), req.params.id);
        return fhirReply(reply).send(toFhirAllergy(patient.id, allergy));
      },
    );

    // ---- Practitioner (public reference data, like the catalog) ----
    app.get(
      `${FHIR_BASE_PATH}/Practitioner`,
      {
        schema: {
          tags: ['fhir'],
          summary: 'Search Practitioner',
          operationId: 'fhirSearchPractitioner',
          description:
            'The clinicians of the catalog (public reference data, no patient data): _id, name (case-insensitive substring), _count.',
          querystring: z.strictObject({
            _id: resourceId.optional(),
            name: nonBlankText(100).optional(),
            _count: z.coerce.number().int().min(1).max(100).default(50),
            _cursor: cursor,
            _format: format,
          }),
          response: { 200: fhirPractitionerBundle, ...outcomes(400, 406) },
        },
      },
      async (req, reply) => {
        const q = req.query;
        const after = decodeKey(q._cursor, ['i'])?.i;
        const all = [...CLINICIANS]
          .sort((a, b) => a.id.localeCompare(b.id))
          .filter(
            (c) =>
              (q._id === undefined || c.id === q._id) &&
              (q.name === undefined || c.name.toLowerCase().includes(q.name.toLowerCase())) &&
              (after === undefined || c.id > after),
          );
        const page = all.slice(0, q._count);
        const entry = page.map((c) => match(urlOf('Practitioner', c.id), toFhirPractitioner(c)));
        return fhirReply(reply).send(
          searchsetBundle(entry, {
            self: selfUrl(req),
            next: nextOf('Practitioner', q, all.length > q._count ? encodeKey({ i: page[page.length - 1]!.id }) : null),
          }),
        );
      },
    );

    app.get(
      `${FHIR_BASE_PATH}/Practitioner/:id`,
      {
        schema: {
          tags: ['fhir'],
          summary: 'Read Practitioner',
          operationId: 'fhirReadPractitioner',
          description: 'A clinician of the catalog (public).',
          params: idParams,
          querystring: readQuery,
          response: { 200: fhirPractitioner, ...outcomes(400, 404, 406) },
        },
      },
      async (req, reply) => {
        const c = CLINICIANS.find((x) => x.id === req.params.id);
        if (!c) throw notFound(`Practitioner ${req.params.id} does not exist.`);
        return fhirReply(reply).send(toFhirPractitioner(c));
      },
    );

    // ---- Schedule, Slot, Appointment (appointments service) ----
    app.get(
      `${FHIR_BASE_PATH}/Schedule`,
      {
        config: { auth: { scopes: ['read:appointments'] } },
        schema: {
          tags: ['fhir'],
          summary: 'Search Schedule',
          operationId: 'fhirSearchSchedule',
          description:
            "Each clinician's Schedule (id = the clinician id): _id, actor (Practitioner/{id}), _count. A sandbox token: the synthetic clinicians.",
          querystring: z.strictObject({
            _id: resourceId.optional(),
            actor: z.string().max(300).optional(),
            _count: z.coerce.number().int().min(1).max(100).default(50),
            _cursor: cursor,
            _format: format,
          }),
          response: { 200: fhirScheduleBundle, ...SEARCH_ERRORS },
        },
      },
      async (req, reply) => {
        const q = req.query;
        const wanted = [q._id, q.actor === undefined ? undefined : referenceIdOf('Practitioner', 'actor', q.actor)].filter(
          (x): x is string => x !== undefined,
        );
        const ids = wanted.length === 2 && wanted[0] !== wanted[1] ? [] : wanted.slice(0, 1);
        const { ids: page, more } = await listSchedules(pool, callerOf(req), {
          ids: wanted.length ? ids : undefined,
          limit: q._count,
          after: decodeKey(q._cursor, ['i'])?.i,
        });
        const entry = page.map((id) => match(urlOf('Schedule', id), toFhirSchedule(id)));
        return fhirReply(reply).send(
          searchsetBundle(entry, {
            self: selfUrl(req),
            next: nextOf('Schedule', q, more ? encodeKey({ i: page[page.length - 1]! }) : null),
          }),
        );
      },
    );

    app.get(
      `${FHIR_BASE_PATH}/Schedule/:id`,
      {
        config: { auth: { scopes: ['read:appointments'] } },
        schema: {
          tags: ['fhir'],
          summary: 'Read Schedule',
          operationId: 'fhirReadSchedule',
          description: "A clinician's Schedule.",
          params: idParams,
          querystring: readQuery,
          response: { 200: fhirSchedule, ...READ_ERRORS },
        },
      },
      async (req, reply) => {
        const { ids } = await listSchedules(pool, callerOf(req), { ids: [req.params.id], limit: 1 });
        if (ids.length === 0) throw notFound(`Schedule ${req.params.id} does not exist.`);
        return fhirReply(reply).send(toFhirSchedule(req.params.id));
      },
    );

    app.get(
      `${FHIR_BASE_PATH}/Slot`,
      {
        config: { auth: { scopes: ['read:appointments'] } },
        schema: {
          tags: ['fhir'],
          summary: 'Search Slot',
          operationId: 'fhirSearchSlot',
          description:
            "Slots by start: schedule (Schedule/{id}), start (ge/gt/le/lt/eq, repeatable), status (free|busy), _count. Served by the appointments service's listing (the projection; a sandbox token: synthetic slots).",
          querystring: z.strictObject({
            schedule: z.string().max(300).optional(),
            start: oneOrMany.optional(),
            status: z.enum(['free', 'busy']).optional(),
            _count: z.coerce.number().int().min(1).max(500).default(100),
            _cursor: cursor,
            _format: format,
          }),
          response: { 200: fhirSlotBundle, ...SEARCH_ERRORS },
        },
      },
      async (req, reply) => {
        const q = req.query;
        const { from, to } = isoBounds(listOf(q.start));
        const after = decodeKey(q._cursor, ['t', 's']);
        const clinician = q.schedule === undefined ? undefined : referenceIdOf('Schedule', 'schedule', q.schedule);
        const { slots, more } = await listSlots(pool, callerOf(req), { clinician, from, to, status: q.status, limit: q._count, after });
        const last = slots[slots.length - 1];
        const entry = slots.map((s) => match(urlOf('Slot', s.id), toFhirSlot(s)));
        return fhirReply(reply).send(
          searchsetBundle(entry, {
            self: selfUrl(req),
            next: nextOf('Slot', q, more && last ? encodeKey({ t: last.start, s: last.id }) : null),
          }),
        );
      },
    );

    app.get(
      `${FHIR_BASE_PATH}/Slot/:id`,
      {
        config: { auth: { scopes: ['read:appointments'] } },
        schema: {
          tags: ['fhir'],
          summary: 'Read Slot',
          operationId: 'fhirReadSlot',
          description: 'The current Slot, folded from its event stream. ETag W/"<versionId>".',
          params: idParams,
          querystring: readQuery,
          response: { 200: fhirSlot, ...READ_ERRORS },
        },
      },
      async (req, reply) => {
        const s = await getSlot(pool, callerOf(req), req.params.id);
        return fhirReply(reply).header('etag', weakEtag(s.version)).send(toFhirSlot(s));
      },
    );
    app.get(
      `${FHIR_BASE_PATH}/Slot/:id/_history/:vid`,
      {
        config: { auth: { scopes: ['read:appointments'] } },
        schema: {
          tags: ['fhir'],
          summary: 'Read a Slot version (vread)',
          operationId: 'fhirVreadSlot',
          description: 'The Slot as it was at versionId `vid`.',
          params: vidParams,
          querystring: readQuery,
          response: { 200: fhirSlot, ...READ_ERRORS },
        },
      },
      async (req, reply) => {
        const s = await getSlot(pool, callerOf(req), req.params.id, req.params.vid);
        return fhirReply(reply).header('etag', weakEtag(s.version)).send(toFhirSlot(s));
      },
    );

    app.get(
      `${FHIR_BASE_PATH}/Appointment`,
      {
        config: { auth: { scopes: ['read:appointments'] } },
        schema: {
          tags: ['fhir'],
          summary: 'Search Appointment',
          operationId: 'fhirSearchAppointment',
          description:
            "Current bookings by start: patient, date (ge/gt/le/lt/eq, repeatable), status (booked), _count; `_include=Appointment:slot` adds each booked Slot (search mode include). A patient user: its own bookings. Served by the appointments service's listing (audited appointment.list).",
          querystring: z.strictObject({
            patient: z.string().max(300).optional(),
            date: oneOrMany.optional(),
            status: z.string().max(100).optional(),
            _include: z.string().max(100).optional().describe('Appointment:slot'),
            _count: z.coerce.number().int().min(1).max(500).default(100),
            _cursor: cursor,
            _format: format,
          }),
          response: { 200: fhirAppointmentBundle, ...SEARCH_ERRORS },
        },
      },
      async (req, reply) => {
        const q = req.query;
        if (q._include !== undefined && q._include !== 'Appointment:slot' && q._include !== 'Appointment:slot:Slot')
          throw notSupported(`_include=${q._include} is not supported (Appointment:slot is).`);
        const caller = callerOf(req);
        const { from, to } = isoBounds(listOf(q.date));
        const patient = q.patient === undefined ? tokenPatient(caller.principal) : patientIdOf('patient', q.patient);
        if (statusesOf(q.status, ['booked'] as const) === null) return fhirReply(reply).send(searchsetBundle([], { self: selfUrl(req) }));
        const after = decodeKey(q._cursor, ['t', 's']);
        const { slots, more } = await listSlots(pool, caller, { patient, from, to, status: 'busy', limit: q._count, after });
        const booked = slots.filter((s) => s.appointmentId !== null);
        const entry = [
          ...booked.map((s) => match(urlOf('Appointment', s.appointmentId!), toFhirAppointment(s))),
          ...(q._include !== undefined ? booked.map((s) => included(urlOf('Slot', s.id), toFhirSlot(s))) : []),
        ];
        const last = slots[slots.length - 1];
        return fhirReply(reply).send(
          searchsetBundle(entry, {
            self: selfUrl(req),
            next: nextOf('Appointment', q, more && last ? encodeKey({ t: last.start, s: last.id }) : null),
          }),
        );
      },
    );

    app.get(
      `${FHIR_BASE_PATH}/Appointment/:id`,
      {
        config: { auth: { scopes: ['read:appointments'] } },
        schema: {
          tags: ['fhir'],
          summary: 'Read Appointment',
          operationId: 'fhirReadAppointment',
          description: 'A current booking (id {slot}.{version}); a patient user: its own. Audited appointment.read.',
          params: z.object({ id: z.string().regex(/^[A-Za-z0-9-]{1,64}\.\d{1,9}$/, 'must be an appointment id') }),
          querystring: readQuery,
          response: { 200: fhirAppointment, ...READ_ERRORS },
        },
      },
      async (req, reply) => fhirReply(reply).send(toFhirAppointment(await getAppointment(pool, callerOf(req), req.params.id))),
    );

    // ---- Device (vitals service: the devices the append log knows) ----
    app.get(
      `${FHIR_BASE_PATH}/Device`,
      {
        config: { auth: { scopes: ['read:vitals'] } },
        schema: {
          tags: ['fhir'],
          summary: 'Search Device',
          operationId: 'fhirSearchDevice',
          description:
            "The devices reporting a patient's vitals now (those of its latest observation per code): patient (required), _count. The vitals service's access rule (a patient user: its own; a sandbox token: synthetic patients) and audit.",
          querystring: z.strictObject({
            patient: z.string().max(300).describe('Patient/{id} or {id} (required)'),
            _count: z.coerce.number().int().min(1).max(100).default(50),
            _cursor: cursor,
            _format: format,
          }),
          response: { 200: fhirDeviceBundle, ...SEARCH_ERRORS },
        },
      },
      async (req, reply) => {
        const q = req.query;
        const patientId = patientIdOf('patient', q.patient);
        const after = decodeKey(q._cursor, ['i'])?.i;
        const all = (await readDevices(pool, callerOf(req), patientId, 'fhir')).filter((d) => after === undefined || d > after);
        const page = all.slice(0, q._count);
        const entry = page.map((d) => match(urlOf('Device', d), toFhirDevice(d, patientId)));
        return fhirReply(reply).send(
          searchsetBundle(entry, {
            self: selfUrl(req),
            next: nextOf('Device', q, all.length > q._count ? encodeKey({ i: page[page.length - 1]! }) : null),
          }),
        );
      },
    );
    app.get(
      `${FHIR_BASE_PATH}/Device/:id`,
      {
        config: { auth: { scopes: ['read:vitals'] } },
        schema: {
          tags: ['fhir'],
          summary: 'Read Device',
          operationId: 'fhirReadDevice',
          description:
            'A device of the append log and the patient it last reported for (the vitals access rule on that patient; audited vitals.read).',
          params: idParams,
          querystring: readQuery,
          response: { 200: fhirDevice, ...READ_ERRORS },
        },
      },
      async (req, reply) => {
        const { deviceId, patientId } = await readDevice(pool, callerOf(req), req.params.id, 'fhir');
        return fhirReply(reply).send(toFhirDevice(deviceId, patientId));
      },
    );

    // ---- ServiceRequest, DiagnosticReport (diagnostics service) ----
    app.get(
      `${FHIR_BASE_PATH}/ServiceRequest`,
      {
        config: { auth: { scopes: ['read:diagnostics'] } },
        schema: {
          tags: ['fhir'],
          summary: 'Search ServiceRequest',
          operationId: 'fhirSearchServiceRequest',
          description:
            'Diagnostic orders, newest first: patient, status (comma-separated), code (LOINC), _count. Served by the diagnostics service (the projection; audited diagnostics.order.list).',
          querystring: z.strictObject({
            patient: z.string().max(300).optional(),
            status: z.string().max(200).optional(),
            code: z.string().max(300).optional(),
            _count: z.coerce.number().int().min(1).max(100).default(50),
            _cursor: cursor,
            _format: format,
          }),
          response: { 200: fhirServiceRequestBundle, ...SEARCH_ERRORS },
        },
      },
      async (req, reply) => {
        const q = req.query;
        const status = statusesOf<ServiceRequestStatus>(q.status, SERVICE_REQUEST_STATUSES);
        const codes = loincCodes(q.code);
        if (codes !== undefined && codes !== null && codes.length > 1)
          throw notSupported('code accepts one token here; a comma-separated list is not supported.');
        const patientId = q.patient === undefined ? undefined : patientIdOf('patient', q.patient);
        const after = decodeKey(q._cursor, ['t', 'i']);
        const caller = callerOf(req);
        // nothing can match: the access rule still holds (a refusal is a 403, audited)
        const { orders, next } = await searchOrders(pool, caller, {
          patientId,
          status: status ?? undefined,
          code: codes?.[0],
          limit: status === null || codes === null ? 0 : q._count,
          after,
        });
        const entry = orders.map((o) => match(urlOf('ServiceRequest', o.id), toFhirServiceRequest(o)));
        return fhirReply(reply).send(
          searchsetBundle(entry, { self: selfUrl(req), next: nextOf('ServiceRequest', q, next ? positionKey(next) : null) }),
        );
      },
    );

    const orderRead = async (req: FastifyRequest<{ Params: { id: string; vid?: number } }>, reply: Parameters<typeof fhirReply>[0]) => {
      const o = await getOrder(pool, callerOf(req), req.params.id, req.params.vid);
      return fhirReply(reply).header('etag', weakEtag(o.version)).send(toFhirServiceRequest(o));
    };
    app.get(
      `${FHIR_BASE_PATH}/ServiceRequest/:id`,
      {
        config: { auth: { scopes: ['read:diagnostics'] } },
        schema: {
          tags: ['fhir'],
          summary: 'Read ServiceRequest',
          operationId: 'fhirReadServiceRequest',
          description: 'A diagnostic order, folded from its event stream. ETag W/"<versionId>".',
          params: idParams,
          querystring: readQuery,
          response: { 200: fhirServiceRequest, ...READ_ERRORS },
        },
      },
      orderRead,
    );
    app.get(
      `${FHIR_BASE_PATH}/ServiceRequest/:id/_history/:vid`,
      {
        config: { auth: { scopes: ['read:diagnostics'] } },
        schema: {
          tags: ['fhir'],
          summary: 'Read a ServiceRequest version (vread)',
          operationId: 'fhirVreadServiceRequest',
          description: 'The order as it was at versionId `vid`.',
          params: vidParams,
          querystring: readQuery,
          response: { 200: fhirServiceRequest, ...READ_ERRORS },
        },
      },
      orderRead,
    );

    const reportScopes = ['read:diagnostics', 'patient/DiagnosticReport.rs'] as const;
    app.get(
      `${FHIR_BASE_PATH}/DiagnosticReport`,
      {
        config: { auth: { anyOf: [...reportScopes] } },
        schema: {
          tags: ['fhir'],
          summary: 'Search DiagnosticReport',
          operationId: 'fhirSearchDiagnosticReport',
          description:
            'Diagnostic reports, newest first: patient, code (LOINC), status (comma-separated), category (v2-0074 section, e.g. LAB), _count. A patient user (patient/DiagnosticReport.rs): its own final reports. Served by the diagnostics service (audited diagnostics.report.list).',
          querystring: z.strictObject({
            patient: z.string().max(300).optional(),
            code: z.string().max(300).optional(),
            status: z.string().max(200).optional(),
            category: z.string().max(300).optional(),
            _count: z.coerce.number().int().min(1).max(100).default(50),
            _cursor: cursor,
            _format: format,
          }),
          response: { 200: fhirDiagnosticReportBundle, ...SEARCH_ERRORS },
        },
      },
      async (req, reply) => {
        const q = req.query;
        const status = statusesOf(q.status, DIAGNOSTIC_REPORT_STATUSES);
        let codes = loincCodes(q.code);
        if (q.category !== undefined) {
          const inCategory = tokenCodes(q.category, SECTION_SYSTEM).flatMap((s) => (s === null ? [] : codesInSection(s)));
          codes = codes === null ? null : codes === undefined ? inCategory : codes.filter((c) => inCategory.includes(c));
          if (codes !== null && codes.length === 0) codes = null;
        }
        const patientId = q.patient === undefined ? undefined : patientIdOf('patient', q.patient);
        const after = decodeKey(q._cursor, ['t', 'i']);
        const { reports, next } = await searchReports(pool, callerOf(req), {
          patientId,
          codes: codes ?? undefined,
          status: status ?? undefined,
          limit: status === null || codes === null ? 0 : q._count,
          after,
        });
        const entry = reports.map((r) => match(urlOf('DiagnosticReport', r.id), toFhirDiagnosticReport(r)));
        return fhirReply(reply).send(
          searchsetBundle(entry, { self: selfUrl(req), next: nextOf('DiagnosticReport', q, next ? positionKey(next) : null) }),
        );
      },
    );

    const reportRead = async (req: FastifyRequest<{ Params: { id: string; vid?: number } }>, reply: Parameters<typeof fhirReply>[0]) => {
      const r = await getReport(pool, callerOf(req), req.params.id, 'diagnostics.report.read', req.params.vid);
      return fhirReply(reply).header('etag', weakEtag(r.version)).send(toFhirDiagnosticReport(r));
    };
    app.get(
      `${FHIR_BASE_PATH}/DiagnosticReport/:id`,
      {
        config: { auth: { anyOf: [...reportScopes] } },
        schema: {
          tags: ['fhir'],
          summary: 'Read DiagnosticReport',
          operationId: 'fhirReadDiagnosticReport',
          description: 'A report with its Observations contained; a patient user: its own final report. ETag W/"<versionId>".',
          params: idParams,
          querystring: readQuery,
          response: { 200: fhirDiagnosticReport, ...READ_ERRORS },
        },
      },
      reportRead,
    );
    app.get(
      `${FHIR_BASE_PATH}/DiagnosticReport/:id/_history/:vid`,
      {
        config: { auth: { anyOf: [...reportScopes] } },
        schema: {
          tags: ['fhir'],
          summary: 'Read a DiagnosticReport version (vread)',
          operationId: 'fhirVreadDiagnosticReport',
          description: 'The report as it was at versionId `vid` (its event stream folded to that version).',
          params: vidParams,
          querystring: readQuery,
          response: { 200: fhirDiagnosticReport, ...READ_ERRORS },
        },
      },
      reportRead,
    );

    // ---- DetectedIssue: bedside alarms (alarms service; ADR 0020) ----
    const alarms = alarmsDepsOf(deps);
    app.get(
      `${FHIR_BASE_PATH}/DetectedIssue`,
      {
        config: { auth: { scopes: ['read:vitals'] } },
        schema: {
          tags: ['fhir'],
          summary: 'Search DetectedIssue (bedside alarms)',
          operationId: 'fhirSearchDetectedIssue',
          description:
            'Bedside alarms as DetectedIssues, highest severity first: patient (without it: across every patient the caller reaches, a ward view), status (preliminary: must still be seen, the default; final: resolved in the last 24 h; comma-separated), _count. Doctors, nurses (read:vitals). Served by the alarms service (audited alarm.read).',
          querystring: z.strictObject({
            patient: z.string().max(300).optional(),
            status: z.string().max(200).optional(),
            _count: z.coerce.number().int().min(1).max(500).default(100),
            _format: format,
          }),
          response: { 200: fhirDetectedIssueBundle, ...SEARCH_ERRORS },
        },
      },
      async (req, reply) => {
        const q = req.query;
        const wanted = statusesOf(q.status, ['preliminary', 'final'] as const);
        const states = wanted === undefined ? ACTIVE_ALARM_STATES : (wanted ?? []).flatMap((s) => ISSUE_STATUS_STATES[s]);
        const patientId = q.patient === undefined ? undefined : patientIdOf('patient', q.patient);
        // nothing can match (an unknown status): the access rule still holds (a refusal is a 403, audited)
        const found = await listAlarms(
          alarms,
          callerOf(req),
          { patientId, states: states.length > 0 ? states : ACTIVE_ALARM_STATES, limit: wanted === null ? 0 : q._count },
          'fhir',
        );
        const entry = found.map((a) => match(urlOf('DetectedIssue', a.id), toFhirDetectedIssue(alarms.settings, a)));
        return fhirReply(reply).send(searchsetBundle(entry, { self: selfUrl(req) }));
      },
    );
    app.get(
      `${FHIR_BASE_PATH}/DetectedIssue/:id`,
      {
        config: { auth: { scopes: ['read:vitals'] } },
        schema: {
          tags: ['fhir'],
          summary: 'Read DetectedIssue (a bedside alarm)',
          operationId: 'fhirReadDetectedIssue',
          description:
            "One alarm, current (its patient's alert stream folded): status preliminary or final, severity from its priority, its acknowledgement and escalation as mitigations. Audited alarm.read.",
          params: idParams,
          querystring: readQuery,
          response: { 200: fhirDetectedIssue, ...READ_ERRORS },
        },
      },
      async (req, reply) => {
        const a = await getAlarm(alarms, callerOf(req), req.params.id, 'fhir');
        return fhirReply(reply).header('etag', weakEtag(a.version)).send(toFhirDetectedIssue(alarms.settings, a));
      },
    );
  };
}
