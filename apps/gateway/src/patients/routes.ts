/**
 * Patients REST v1 (FHIR R4-shaped JSON). Access (see access/caller.ts):
 *  - read:patients: full record (demographics, identifiers, allergies; with read:vitals also the
 *    latest vitals and NEWS2); a patient user: the same, for their own record only;
 *  - write:patients without read:patients (reception): register, update, and read demographics.
 * The reads declare the scopes that can see anything (`anyOf`, enforced by the guard); what each
 * sees of which record (a patient user: their own only) is the service's decision, refused with
 * the same 403 as the guard's.
 * PUT needs If-Match (428 without, 412 on a stale version); allergy writes accept it optionally.
 * Every read and write lands in the audit trail.
 */
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { must } from '@vitalis/runtime';
import { FHIR_JSON, nextPageUrl } from '@vitalis/http';
import { bundleSchema, resourceId, searchsetBundle, nonBlankText, SNOMED_CT } from '@vitalis/schemas';
import type { GatewayDeps } from '../deps';
import type { RouteApp } from '../route-app';
import { etag, expectedFromIfMatch, PATIENT_READ_SCOPES } from '../access/caller';
import { callerOf, decodeKey, encodeKey, problems } from '../access/http';
import {
  allergyEntryOf,
  allergyIn,
  allergyOut,
  demographicsFrom,
  patientIn,
  patientOut,
  patientRecordOut,
  toFhirAllergy,
  toFhirPatient,
} from './fhir';
import {
  getPatient,
  patientHistory,
  recordAllergy,
  registerPatient,
  removeAllergy,
  searchPatients,
  updatePatient,
  type PatientRecord,
} from './service';

const idParams = z.object({ id: resourceId });
const ifMatch = z.object({ 'if-match': z.string().max(100).optional() });

/** The envelope { view, patient, allergies?, latest_vitals?, news2? }: FHIR resources side by side, none extended. */
function recordOut(r: PatientRecord): z.infer<typeof patientRecordOut> {
  const patient = toFhirPatient(r.patient);
  if (r.view !== 'clinical') return { view: 'demographics', patient };
  return {
    view: 'clinical',
    patient,
    allergies: r.patient.allergies.map((a) => toFhirAllergy(r.patient.id, a)),
    ...(r.news2 ? { latest_vitals: r.latestVitals ?? [], news2: r.news2 } : {}),
  };
}

/** The example body of a register or update (a FHIR Patient, the fields Vitalis keeps). */
const PATIENT_EXAMPLE = {
  resourceType: 'Patient',
  name: [{ family: 'Lovelace', given: ['Ada'] }],
  birthDate: '1815-12-10',
  gender: 'female',
  identifier: [{ system: 'urn:oid:2.16.840.1.113883.2.4.6.3', value: '999911120' }],
  telecom: [{ system: 'phone', value: '+44 20 7946 0000' }],
};

/** GET /api/v1/patients: search patients. */
function searchPatientsRoute(app: RouteApp, deps: GatewayDeps): void {
  const { pool } = deps;
  app.get(
    '/api/v1/patients',
    {
      config: { auth: { anyOf: PATIENT_READ_SCOPES } },
      schema: {
        tags: ['patients'],
        summary: 'Search patients',
        description:
          'By name (substring of given + family), birthdate (YYYY-MM-DD) and identifier (`system|value` or `value`); keyset-paginated. Needs read:patients or write:patients (demographics only); a patient user finds only themselves. Reads the projection (eventually consistent).',
        querystring: z.object({
          name: nonBlankText(100).optional(),
          birthdate: z.iso.date().optional(),
          identifier: z.string().min(1).max(300).optional(),
          limit: z.coerce.number().int().min(1).max(100).default(20),
          cursor: z.string().max(512).optional(),
        }),
        response: {
          200: bundleSchema(patientOut).describe(
            "FHIR R4 searchset Bundle of Patient; the next page is `link` relation `next`; each fullUrl is the patient's URL in this API",
          ),
          ...problems(400, 401, 403),
        },
      },
    },
    async (req) => {
      const q = req.query;
      const after = decodeKey(q.cursor, ['f', 'i']);
      const { patients, more } = await searchPatients(pool, callerOf(req), {
        name: q.name,
        birthdate: q.birthdate,
        identifier: q.identifier,
        limit: q.limit,
        after,
      });
      const last = patients[patients.length - 1];
      const next =
        more && last ? nextPageUrl(`${deps.config.baseUrl}/api/v1/patients`, q, encodeKey({ f: last.family, i: last.id }), 'cursor') : null;
      const entry = patients.map((p) => ({
        fullUrl: `${deps.config.baseUrl}/api/v1/patients/${p.id}`,
        resource: toFhirPatient(p),
        search: { mode: 'match' as const },
      }));
      return searchsetBundle(entry, { self: `${deps.config.baseUrl}${req.url}`, next });
    },
  );
}

/** POST /api/v1/patients: register a patient. */
function registerPatientRoute(app: RouteApp, { pool }: GatewayDeps): void {
  app.post(
    '/api/v1/patients',
    {
      config: { auth: { scopes: ['write:patients'] } },
      schema: {
        tags: ['patients'],
        summary: 'Register a patient',
        description:
          'Body: a FHIR Patient. The id (pat-...) is minted by the server. 201 with Location and ETag. An identifier (system + value) already held by another patient: 409.',
        body: patientIn.meta({ example: PATIENT_EXAMPLE }),
        response: { 201: patientOut, ...problems(400, 401, 403, 409) },
      },
    },
    async (req, reply) => {
      const p = await registerPatient(pool, callerOf(req), demographicsFrom(req.body));
      return reply.code(201).header('location', `/api/v1/patients/${p.id}`).header('etag', etag(p.version)).send(toFhirPatient(p));
    },
  );
}

/** GET /api/v1/patients/:id: a patient (the clinical or administrative view). */
function readPatientRoute(app: RouteApp, { pool }: GatewayDeps): void {
  app.get(
    '/api/v1/patients/:id',
    {
      config: { auth: { anyOf: PATIENT_READ_SCOPES } },
      schema: {
        tags: ['patients'],
        summary: 'Read a patient',
        description:
          'The record as an envelope `{ view, patient, allergies?, latest_vitals?, news2? }` (the same envelope as the MCP tool get_patient): `patient` a FHIR R4 Patient; for clinical readers also `allergies` (FHIR AllergyIntolerance[]) and, with read:vitals, `latest_vitals` and `news2`. Reception sees `patient` only (view `demographics`). With `Accept: application/fhir+json` the bare FHIR Patient (what Bundle fullUrls resolve to). ETag = version. (In 0.1.0 the Patient itself carried `allergies` and `vitals`: see the 0.2.0 release notes.)',
        params: idParams,
        response: { 200: z.union([patientRecordOut, patientOut]), ...problems(401, 403, 404) },
      },
    },
    async (req, reply) => {
      const r = await getPatient(pool, callerOf(req), req.params.id);
      reply.header('etag', etag(r.patient.version)).header('vary', 'accept');
      if ((req.headers.accept ?? '').includes(FHIR_JSON)) return reply.type(FHIR_JSON).send(toFhirPatient(r.patient));
      return reply.send(recordOut(r));
    },
  );
}

/** PUT /api/v1/patients/:id: update a patient. */
function updatePatientRoute(app: RouteApp, { pool }: GatewayDeps): void {
  app.put(
    '/api/v1/patients/:id',
    {
      config: { auth: { scopes: ['write:patients'] } },
      schema: {
        tags: ['patients'],
        summary: 'Update a patient',
        description:
          'Replaces the demographics. If-Match required (428 without; 412 when stale). An identifier held by another patient: 409.',
        params: idParams,
        headers: ifMatch,
        body: patientIn.meta({ example: PATIENT_EXAMPLE }),
        response: { 200: patientOut, ...problems(400, 401, 403, 404, 409, 412, 428) },
      },
    },
    async (req, reply) => {
      const expected = expectedFromIfMatch(req.headers['if-match'], true);
      const p = await updatePatient(pool, callerOf(req), req.params.id, expected, demographicsFrom(req.body));
      return reply.header('etag', etag(p.version)).send(toFhirPatient(p));
    },
  );
}

/** POST /api/v1/patients/:id/allergies: record an allergy. */
function recordAllergyRoute(app: RouteApp, { pool }: GatewayDeps): void {
  app.post(
    '/api/v1/patients/:id/allergies',
    {
      config: { auth: { scopes: ['write:patients', 'read:patients'] } },
      schema: {
        tags: ['patients'],
        summary: 'Record an allergy',
        description:
          'Body: a FHIR AllergyIntolerance (code, criticality, reaction). The substance (`code`) is a SNOMED CT or RxNorm coding with a code of the right shape and a display, or a text of at least 3 printable characters with two letters, or both; a reaction\'s description is such a text. Anything else (a lone digit such as "0", symbols, garbled text such as "Ã©", an unknown code system, a SNOMED CT id failing its check digit) is a 422 `implausible-clinical-input` naming each field in `errors[]`. If-Match optional (412 when stale). Responds with the AllergyIntolerance and the patient ETag.',
        params: idParams,
        headers: ifMatch,
        body: allergyIn.meta({
          example: {
            resourceType: 'AllergyIntolerance',
            code: { coding: [{ system: SNOMED_CT, code: '764146007', display: 'Penicillin' }], text: 'Penicillin' },
            criticality: 'high',
            reaction: [{ description: 'Hives' }],
          },
        }),
        response: { 201: allergyOut, ...problems(400, 401, 403, 404, 409, 412, 422) },
      },
    },
    async (req, reply) => {
      const expected = expectedFromIfMatch(req.headers['if-match'], false);
      const { patient, allergyId } = await recordAllergy(pool, callerOf(req), req.params.id, expected, allergyEntryOf(req.body), {
        at: 'body',
        rename: (path) => (path === 'reaction' ? 'reaction.0.description' : path),
      });
      const a = must(
        patient.allergies.find((x) => x.id === allergyId),
        `allergy ${allergyId}, just recorded`,
      );
      return reply.code(201).header('etag', etag(patient.version)).send(toFhirAllergy(patient.id, a));
    },
  );
}

/** DELETE /api/v1/patients/:id/allergies/:allergyId: remove an allergy. */
function removeAllergyRoute(app: RouteApp, { pool }: GatewayDeps): void {
  app.delete(
    '/api/v1/patients/:id/allergies/:allergyId',
    {
      config: { auth: { scopes: ['write:patients', 'read:patients'] } },
      schema: {
        tags: ['patients'],
        summary: 'Remove an allergy',
        description: 'If-Match optional (412 when stale).',
        params: z.object({ id: resourceId, allergyId: resourceId }),
        headers: ifMatch,
        response: { 204: z.null(), ...problems(401, 403, 404, 409, 412) },
      },
    },
    async (req, reply) => {
      const expected = expectedFromIfMatch(req.headers['if-match'], false);
      const p = await removeAllergy(pool, callerOf(req), req.params.id, expected, req.params.allergyId);
      return reply.code(204).header('etag', etag(p.version)).send(null);
    },
  );
}

/** GET /api/v1/patients/:id/history: the event history of a patient. */
function patientHistoryRoute(app: RouteApp, { pool }: GatewayDeps): void {
  app.get(
    '/api/v1/patients/:id/history',
    {
      config: { auth: { scopes: ['read:patients'] } },
      schema: {
        tags: ['patients'],
        summary: 'Event history of a patient',
        description:
          'Every event of the patient stream, oldest first (clinical readers: read:patients; not a patient user, whose SMART scopes reach the record only).',
        params: idParams,
        response: {
          200: z.object({
            patient_id: z.string(),
            events: z.array(
              z.object({
                position: z.number(),
                version: z.number(),
                type: z.string(),
                schema_version: z.number(),
                recorded_at: z.string(),
                data: z.record(z.string(), z.unknown()),
                metadata: z.record(z.string(), z.unknown()),
              }),
            ),
          }),
          ...problems(401, 403, 404),
        },
      },
    },
    async (req) => {
      const events = await patientHistory(pool, callerOf(req), req.params.id);
      return {
        patient_id: req.params.id,
        events: events.map((e) => ({
          position: e.globalPosition,
          version: e.streamVersion,
          type: e.type,
          schema_version: e.schemaVersion,
          recorded_at: e.recordedAt,
          data: e.data,
          metadata: e.metadata,
        })),
      };
    },
  );
}

/** The patient REST routes, registered in the order the OpenAPI document lists them. */
export function patientRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  return async (app) => {
    searchPatientsRoute(app, deps);
    registerPatientRoute(app, deps);
    readPatientRoute(app, deps);
    updatePatientRoute(app, deps);
    recordAllergyRoute(app, deps);
    removeAllergyRoute(app, deps);
    patientHistoryRoute(app, deps);
  };
}
