/**
 * FHIR Patient (patients service): search over the projection, read and vread folded from the
 * patient's event stream (ETag, Last-Modified; a read answers 304 to If-None-Match with the current
 * ETag); create and update (registerPatient, updatePatient: ETag, If-Match required on update);
 * `$export`: operations/export-kickoff.ts.
 */
import { z } from 'zod';
import { nonBlankText } from '@vitalis/schemas';
import { PATIENT_READ_SCOPES } from '../../access/caller';
import { decodeKey, encodeKey } from '../../access/http';
import { demographicsFrom, toFhirPatient } from '../../patients/fhir';
import { getPatient, getPatientVersion, registerPatient, searchPatients, updatePatient } from '../../patients/service';
import { countParam, defineCreate, defineFhirResource, defineUpdate, lastUpdatedParam, searchParam } from '../definition';
import { PATIENT_EXPORT_OPERATION } from '../operations/export-kickoff';
import { fhirPatient, fhirPatientBundle, fhirPatientCreate, outcomes } from '../schemas';
import {
  DATE_DOC,
  anyOfCodes,
  cursor,
  dateParam,
  format,
  identifiersOf,
  isoDateFilter,
  listOf,
  statusesOf,
  tokenList,
} from '../search-params';

/** The genders a Patient has (FHIR administrative-gender, a required binding). */
const GENDERS = ['male', 'female', 'other', 'unknown'] as const;
const ADMINISTRATIVE_GENDER_SYSTEM = 'http://hl7.org/fhir/administrative-gender';

const query = z.strictObject({
  _id: searchParam(tokenList(1_000).optional(), 'token', 'Patient ids, comma-separated (any of).'),
  identifier: searchParam(tokenList(1_000).optional(), 'token', 'system|value or value (exact; no system: any), comma-separated (any of).'),
  name: searchParam(nonBlankText(100).optional(), 'string', 'Case-insensitive substring of the given and family names.'),
  family: searchParam(nonBlankText(100).optional(), 'string', 'Case-insensitive prefix of the family name.'),
  given: searchParam(nonBlankText(100).optional(), 'string', 'Case-insensitive prefix of any given name.'),
  birthdate: searchParam(
    dateParam.optional(),
    'date',
    `${DATE_DOC} A birth date is the day it names (eq1970-05-06 finds it, gt1970-05-06 finds later ones).`,
  ),
  gender: searchParam(
    tokenList(100).optional(),
    'token',
    'male | female | other | unknown (http://hl7.org/fhir/administrative-gender), comma-separated (any of).',
  ),
  _lastUpdated: lastUpdatedParam(),
  _count: countParam(100, 20),
  _cursor: cursor,
  _format: format,
});

export const patientResource = defineFhirResource({
  type: 'Patient',
  auth: { anyOf: PATIENT_READ_SCOPES },
  interactions: ['read', 'vread', 'search-type', 'create', 'update'],
  schema: fhirPatient,
  bundle: fhirPatientBundle,
  documentation:
    'create: write:patients (the id is minted). update: write:patients, If-Match required (W/"<versionId>"; 412 when stale, 428 without).',
  operations: [PATIENT_EXPORT_OPERATION],
  search: {
    description:
      'Parameters: _id, identifier (comma: any of), name, family, given, birthdate (every date prefix), gender (comma: any of), _lastUpdated (every date prefix), _count (see the CapabilityStatement). A patient user finds only themselves. Reads the projection (eventually consistent). Next page: Bundle.link next.',
    query,
    search: async ({ q, deps, caller, match, count }) => {
      const after = q._cursor === undefined ? undefined : decodeKey(q._cursor, ['f', 'i']);
      const updated = isoDateFilter('_lastUpdated', listOf(q._lastUpdated));
      const born = isoDateFilter('birthdate', listOf(q.birthdate));
      const ids = anyOfCodes(q._id);
      const genders = statusesOf(q.gender, GENDERS, ADMINISTRATIVE_GENDER_SYSTEM);
      // nothing can match: the access rule still holds (a refusal is a 403, audited)
      const none = ids === null || genders === null || updated.none || born.none;
      const exact = updated.exact && born.exact;
      const { patients, more, total } = await searchPatients(deps.pool, caller(), {
        id: none ? [] : ids,
        identifier: q.identifier === undefined ? undefined : identifiersOf(q.identifier),
        updatedFrom: updated.from,
        updatedTo: updated.to,
        countOnly: count === true && exact,
        name: q.name,
        family: q.family,
        given: q.given,
        gender: genders ?? undefined,
        bornFrom: born.from,
        bornTo: born.to,
        limit: q._count,
        after,
      });
      if (total !== undefined) return { entries: [], total };
      const last = patients[patients.length - 1];
      return {
        entries: patients
          .filter(
            (p) =>
              exact ||
              (updated.matches(p.updatedAt) &&
                (q.birthdate === undefined || (p.birthDate !== null && born.matches(`${p.birthDate}T00:00:00Z`)))),
          )
          .map((p) => match('Patient', p.id, toFhirPatient(p))),
        nextCursor: more && last ? encodeKey({ f: last.family, i: last.id }) : null,
      };
    },
  },
  read: {
    description:
      'The current Patient, folded from its event stream. ETag W/"<versionId>", Last-Modified; If-None-Match with the current ETag: 304.',
    query: z.object({ _format: format }),
    errors: { 304: z.null().describe('Not modified'), ...outcomes(401, 403, 404, 406) },
    conditional: true,
    read: async ({ deps, caller, id }) => {
      const { patient } = await getPatient(deps.pool, caller(), id);
      return { resource: toFhirPatient(patient), version: patient.version, lastModified: patient.updatedAt };
    },
  },
  vread: {
    description: 'The Patient as it was at versionId `vid` (its event stream folded up to that version).',
    read: async ({ deps, caller, id, vid }) => {
      if (vid === undefined) throw new Error('unreachable: the vread route always has a version');
      const patient = await getPatientVersion(deps.pool, caller(), id, vid);
      return { resource: toFhirPatient(patient), version: patient.version, lastModified: patient.updatedAt };
    },
  },
  create: defineCreate({
    auth: { scopes: ['write:patients'] },
    description:
      'Registers a patient (the patients service, as POST /api/v1/patients): name (exactly one), birthDate, gender, identifier, telecom are kept; the id is minted. 201 with Location (…/_history/1) and ETag W/"1". An identifier another patient holds: 409.',
    body: fhirPatientCreate,
    errors: outcomes(400, 401, 403, 406, 409),
    create: async ({ deps, caller, body }) => {
      const p = await registerPatient(deps.pool, caller(), demographicsFrom(body));
      return { resource: toFhirPatient(p), id: p.id, version: p.version };
    },
  }),
  update: defineUpdate({
    auth: { scopes: ['write:patients'] },
    description:
      'Replaces the demographics (the patients service, as PUT /api/v1/patients/{id}). If-Match required: W/"<versionId>" of the version read (412 when stale, 428 without). No create on update (404 for an unknown id).',
    body: fhirPatientCreate,
    errors: outcomes(400, 401, 403, 404, 406, 409, 412, 428),
    update: async ({ deps, caller, id, expected, body }) => {
      const p = await updatePatient(deps.pool, caller(), id, expected, demographicsFrom(body));
      return { resource: toFhirPatient(p), version: p.version, lastModified: p.updatedAt };
    },
  }),
});
