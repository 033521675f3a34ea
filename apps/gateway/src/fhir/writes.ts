/**
 * The cheap FHIR R4 writes (issue 22 item 2): Patient create (POST) and update (PUT, If-Match
 * required: 412 when stale, 428 without), Appointment create (POST: book a free Slot),
 * AllergyIntolerance create (POST: record an allergy of the Patient it names; issue 31 item 5).
 * Each is the REST v1 command of the same service (patients: registerPatient / updatePatient /
 * recordAllergy, whose one allergy rule answers 422 naming the field; appointments:
 * bookAppointment), so the same scopes, roles, patient rules and audit (the change and its audit
 * row in one transaction); only the FHIR shapes differ: a FHIR resource in, the resource out with
 * Location (and ETag W/"<versionId>" where the resource has a version of its own).
 */
import { must } from '@vitalis/runtime';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, fhirReply, weakEtag } from '@vitalis/http';
import { resourceId } from '@vitalis/schemas';
import type { GatewayDeps } from '../deps';
import { expectedFromIfMatch } from '../access/caller';
import { callerOf } from '../access/http';
import { allergyCreateIn, allergyEntryOf, demographicsFrom, toFhirAllergy, toFhirPatient } from '../patients/fhir';
import { recordAllergy, registerPatient, updatePatient } from '../patients/service';
import { toFhirAppointment } from '../appointments/fhir';
import { bookAppointment } from '../appointments/service';
import { FHIR_BASE_PATH } from './capability';
import { fhirAllergyIntolerance, fhirAppointment, fhirAppointmentCreate, fhirPatient, fhirPatientCreate, outcomes } from './schemas';
import { format, referenceIdOf } from './search-params';

const writeQuery = z.strictObject({ _format: format });

export function fhirWriteRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  const { pool } = deps;
  const base = () => `${deps.config.baseUrl}${FHIR_BASE_PATH}`;
  return async (app) => {
    app.post(
      `${FHIR_BASE_PATH}/Patient`,
      {
        config: { auth: { scopes: ['write:patients'] } },
        schema: {
          tags: ['fhir'],
          summary: 'Create Patient',
          operationId: 'fhirCreatePatient',
          description:
            'Registers a patient (the patients service, as POST /api/v1/patients): name (exactly one), birthDate, gender, identifier, telecom are kept; the id is minted. 201 with Location (…/_history/1) and ETag W/"1". An identifier another patient holds: 409.',
          body: fhirPatientCreate,
          querystring: writeQuery,
          response: { 201: fhirPatient, ...outcomes(400, 401, 403, 406, 409) },
        },
      },
      async (req, reply) => {
        const p = await registerPatient(pool, callerOf(req), demographicsFrom(req.body));
        return fhirReply(reply)
          .code(201)
          .header('location', `${base()}/Patient/${p.id}/_history/${p.version}`)
          .header('etag', weakEtag(p.version))
          .send(toFhirPatient(p));
      },
    );

    app.put(
      `${FHIR_BASE_PATH}/Patient/:id`,
      {
        config: { auth: { scopes: ['write:patients'] } },
        schema: {
          tags: ['fhir'],
          summary: 'Update Patient',
          operationId: 'fhirUpdatePatient',
          description:
            'Replaces the demographics (the patients service, as PUT /api/v1/patients/{id}). If-Match required: W/"<versionId>" of the version read (412 when stale, 428 without). No create on update (404 for an unknown id).',
          params: z.object({ id: resourceId }),
          headers: z.object({ 'if-match': z.string().max(100).optional() }),
          body: fhirPatientCreate,
          querystring: writeQuery,
          response: { 200: fhirPatient, ...outcomes(400, 401, 403, 404, 406, 409, 412, 428) },
        },
      },
      async (req, reply) => {
        if (req.body.id !== undefined && req.body.id !== req.params.id)
          throw badRequest(`The Patient's id (${req.body.id}) is not the one in the URL (${req.params.id}).`);
        const expected = expectedFromIfMatch(req.headers['if-match'], true);
        const p = await updatePatient(pool, callerOf(req), req.params.id, expected, demographicsFrom(req.body));
        return fhirReply(reply)
          .header('etag', weakEtag(p.version))
          .header('last-modified', new Date(p.updatedAt).toUTCString())
          .send(toFhirPatient(p));
      },
    );

    app.post(
      `${FHIR_BASE_PATH}/AllergyIntolerance`,
      {
        config: { auth: { scopes: ['write:patients', 'read:patients'] } },
        schema: {
          tags: ['fhir'],
          summary: 'Create AllergyIntolerance',
          operationId: 'fhirCreateAllergyIntolerance',
          description:
            "Records an allergy of the Patient that `patient` references (the patients service, as POST /api/v1/patients/{id}/allergies; write:patients and read:patients). `code`: a SNOMED CT (http://snomed.info/sct, a concept id with its check digit) or RxNorm (http://www.nlm.nih.gov/research/umls/rxnorm, an RXCUI) coding with a display, and/or a text of at least 3 printable characters with two letters; a reaction's description (else its first manifestation's text) the same. Anything else is a 422 OperationOutcome naming each field (`body.code.text: …`). criticality, and one reaction, are kept; other elements are ignored. 201 with the AllergyIntolerance and Location. An unknown patient: 404.",
          body: allergyCreateIn,
          querystring: writeQuery,
          response: { 201: fhirAllergyIntolerance, ...outcomes(400, 401, 403, 404, 406, 409, 422) },
        },
      },
      async (req, reply) => {
        const patientId = referenceIdOf('Patient', 'patient', req.body.patient.reference);
        const { patient, allergyId } = await recordAllergy(pool, callerOf(req), patientId, undefined, allergyEntryOf(req.body), {
          at: 'body',
          rename: (path) => (path === 'reaction' ? 'reaction.0.description' : path),
        });
        const allergy = must(
          patient.allergies.find((a) => a.id === allergyId),
          'the allergy just recorded',
        );
        return fhirReply(reply)
          .code(201)
          .header('location', `${base()}/AllergyIntolerance/${allergy.id}`)
          .send(toFhirAllergy(patient.id, allergy));
      },
    );

    app.post(
      `${FHIR_BASE_PATH}/Appointment`,
      {
        config: { auth: { scopes: ['write:appointments'] } },
        schema: {
          tags: ['fhir'],
          summary: 'Create Appointment (book a Slot)',
          operationId: 'fhirCreateAppointment',
          description:
            'Books the free Slot for the Patient participant (the appointments service, as POST /api/v1/appointments; a patient user books for themselves and may leave the patient out). 201 with the booked Appointment and Location; a taken slot: 409 (of concurrent bookings exactly one wins); an unknown patient: 422.',
          body: fhirAppointmentCreate,
          querystring: writeQuery,
          response: { 201: fhirAppointment, ...outcomes(400, 401, 403, 404, 406, 409, 422) },
        },
      },
      async (req, reply) => {
        const b = req.body;
        const slotId = referenceIdOf('Slot', 'slot', must(b.slot[0], 'a slot (the schema requires one)').reference);
        const patients = b.participant
          .map((p) => p.actor?.reference)
          .filter((r): r is string => r !== undefined && /(?:^|\/)Patient\/[^/]+$/.test(r));
        if (patients.length > 1) throw badRequest('An Appointment here has one Patient participant.');
        const patientId = patients[0] === undefined ? undefined : referenceIdOf('Patient', 'participant.actor', patients[0]);
        const s = await bookAppointment(pool, callerOf(req), { slotId, patientId, reason: b.description });
        return fhirReply(reply).code(201).header('location', `${base()}/Appointment/${s.appointmentId}`).send(toFhirAppointment(s));
      },
    );
  };
}
