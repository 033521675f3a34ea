/**
 * The FHIR R4 REST API at /fhir/R4 (issue 22 item 2, the core): the CapabilityStatement, Patient
 * read / vread / search, Observation search and `$lastn`. Same services as REST v1, hence the same
 * scopes (every route declares them for the one guard), patient rules, sandbox rule and audit:
 * Patient through the patients service, Observation through the vitals service (readHistory,
 * readLatest: its range rules, cursors and audit, never SQL of its own; audit `via: fhir`).
 * This file is the FHIR shape: search parameters (search-params.ts), Bundles with `link` next,
 * ETag / Last-Modified / If-None-Match, `_format`. Errors are OperationOutcomes, answered by the
 * one problem serialiser (libs/http) for every path under /fhir/R4.
 */
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { badRequest, fhirReply, negotiateFormat, nextPageUrl, notModified, weakEtag } from '@vitalis/http';
import {
  CALENDAR_DATE_PATTERN,
  observationSearchsetJson,
  resourceId,
  searchsetBundle,
  toFhirObservation,
  nonBlankText,
} from '@vitalis/schemas';
import type { GatewayDeps } from '../deps';
import { PATIENT_READ_SCOPES } from '../access/caller';
import { callerOf, decodeKey, encodeKey } from '../access/http';
import { toFhirPatient } from '../patients/fhir';
import { getPatient, getPatientVersion, searchPatients } from '../patients/service';
import { orderedRange, readHistory, readLatest, readObservation, requireVitalsAccess } from '../vitals/service';
import { capabilityStatement, FHIR_BASE_PATH } from './capability';
import { fhirCapabilityStatement, fhirObservation, fhirObservationBundle, fhirPatient, fhirPatientBundle, outcomes } from './schemas';
import { cursor, format, notSupported, observationRange, patientIdOf, vitalCodeOf } from './search-params';
import { fhirResourceRoutes } from './resources';
import { fhirWriteRoutes } from './writes';

// ---------------------------------------------------------------------------------------------
// Query schemas: the parameters the CapabilityStatement lists, and nothing else (400 otherwise)

const oneOrMany = z.union([z.string().max(300), z.array(z.string().max(300)).max(4)]);

const patientSearch = z.strictObject({
  _id: resourceId.optional(),
  identifier: z.string().min(1).max(300).optional(),
  name: nonBlankText(100).optional(),
  family: nonBlankText(100).optional(),
  given: nonBlankText(100).optional(),
  birthdate: z
    .string()
    .regex(new RegExp(`^(?:eq)?${CALENDAR_DATE_PATTERN}$`), 'must be a date YYYY-MM-DD, year 0001 or later (optionally eqYYYY-MM-DD)')
    .optional(),
  gender: z.enum(['male', 'female', 'other', 'unknown']).optional(),
  _count: z.coerce.number().int().min(1).max(100).default(20),
  _cursor: cursor,
  _format: format,
});

const observationSearch = z.strictObject({
  patient: z.string().max(300).optional().describe('Patient/{id} or {id} (this or subject is required)'),
  subject: z.string().max(300).optional().describe('Patient/{id} or {id}'),
  code: z.string().max(300).optional().describe('system|code or code'),
  date: oneOrMany.optional().describe('[prefix]date-time, prefixes ge gt le lt eq; repeat for a range'),
  category: z.string().max(300).optional().describe('vital-signs'),
  _include: z.string().max(100).optional().describe('Observation:patient (the searched Patient, search mode include)'),
  _count: z.coerce.number().int().min(1).max(1_000).default(100),
  _sort: z.string().max(20).optional().describe('date (ascending, the default) or -date (newest first)'),
  _cursor: cursor,
  _format: format,
});

const lastnQuery = z.strictObject({
  patient: z.string().max(300).optional(),
  subject: z.string().max(300).optional(),
  code: z.string().max(300).optional(),
  category: z.string().max(300).optional(),
  max: z.coerce.number().int().min(1).default(1).describe('1 only (the latest per code)'),
  _format: format,
});

/** `_include` values an Observation search answers: the subject, a Patient. */
const OBSERVATION_INCLUDES = new Set([
  'Observation:patient',
  'Observation:patient:Patient',
  'Observation:subject',
  'Observation:subject:Patient',
]);

/** The patient of an Observation search: `patient` or `subject` (one of them, required). */
function searchedPatient(q: { patient?: string | undefined; subject?: string | undefined }): string {
  if (q.patient !== undefined && q.subject !== undefined) throw badRequest('Give patient or subject, not both.');
  const given = q.patient ?? q.subject;
  if (given === undefined)
    throw badRequest('An Observation search needs patient (or subject): Observations are searched one patient at a time.');
  return patientIdOf(q.patient !== undefined ? 'patient' : 'subject', given);
}

/** `category` matches every Observation here when it is vital-signs (with or without its system), none otherwise. */
function categoryMatches(category: string | undefined): boolean {
  if (category === undefined) return true;
  if (category.includes(',')) throw notSupported('category accepts one token; a comma-separated list is not supported.');
  return (
    /^(?:http:\/\/terminology\.hl7\.org\/CodeSystem\/observation-category\|)?vital-signs$/.test(category) || category === '|vital-signs'
  );
}

export function fhirRoutes(deps: GatewayDeps, version: string): FastifyPluginAsyncZod {
  const { pool } = deps;
  const base = () => `${deps.config.baseUrl}${FHIR_BASE_PATH}`;
  const selfUrl = (req: FastifyRequest) => `${deps.config.baseUrl}${req.url}`;

  return async (app) => {
    app.addHook('onRequest', async (req) => negotiateFormat(req));
    await app.register(fhirResourceRoutes(deps));
    await app.register(fhirWriteRoutes(deps));

    app.get(
      `${FHIR_BASE_PATH}/metadata`,
      {
        schema: {
          tags: ['fhir'],
          summary: 'FHIR CapabilityStatement',
          operationId: 'fhirCapabilities',
          description:
            'What this FHIR R4 server implements: resources, interactions, search parameters, operations; security: OAuth with the SMART oauth-uris extension. Public.',
          querystring: z.object({ _format: format, mode: z.enum(['full']).optional() }),
          response: { 200: fhirCapabilityStatement, ...outcomes(406) },
        },
      },
      async (_req, reply) => fhirReply(reply).send(capabilityStatement(deps.config.baseUrl, version)),
    );

    app.get(
      `${FHIR_BASE_PATH}/Patient`,
      {
        config: { auth: { anyOf: PATIENT_READ_SCOPES } },
        schema: {
          tags: ['fhir'],
          summary: 'Search Patient',
          operationId: 'fhirSearchPatient',
          description:
            'Parameters: _id, identifier, name, family, given, birthdate, gender, _count (see the CapabilityStatement). A patient user finds only themselves. Reads the projection (eventually consistent). Next page: Bundle.link next.',
          querystring: patientSearch,
          response: { 200: fhirPatientBundle, ...outcomes(400, 401, 403, 406) },
        },
      },
      async (req, reply) => {
        const q = req.query;
        const after = q._cursor === undefined ? undefined : decodeKey(q._cursor, ['f', 'i']);
        const { patients, more } = await searchPatients(pool, callerOf(req), {
          id: q._id,
          identifier: q.identifier,
          name: q.name,
          family: q.family,
          given: q.given,
          gender: q.gender,
          birthdate: q.birthdate?.replace(/^eq/, ''),
          limit: q._count,
          after,
        });
        const last = patients[patients.length - 1];
        const next = more && last ? nextPageUrl(`${base()}/Patient`, q, encodeKey({ f: last.family, i: last.id })) : null;
        const entry = patients.map((p) => ({
          fullUrl: `${base()}/Patient/${p.id}`,
          resource: toFhirPatient(p),
          search: { mode: 'match' as const },
        }));
        return fhirReply(reply).send(searchsetBundle(entry, { self: selfUrl(req), next }));
      },
    );

    app.get(
      `${FHIR_BASE_PATH}/Patient/:id`,
      {
        config: { auth: { anyOf: PATIENT_READ_SCOPES } },
        schema: {
          tags: ['fhir'],
          summary: 'Read Patient',
          operationId: 'fhirReadPatient',
          description:
            'The current Patient, folded from its event stream. ETag W/"<versionId>", Last-Modified; If-None-Match with the current ETag: 304.',
          params: z.object({ id: resourceId }),
          querystring: z.object({ _format: format }),
          response: { 200: fhirPatient, 304: z.null().describe('Not modified'), ...outcomes(401, 403, 404, 406) },
        },
      },
      async (req, reply) => {
        const { patient } = await getPatient(pool, callerOf(req), req.params.id);
        reply.header('etag', weakEtag(patient.version)).header('last-modified', new Date(patient.updatedAt).toUTCString());
        if (notModified(req, patient.version)) return reply.code(304).send(null);
        return fhirReply(reply).send(toFhirPatient(patient));
      },
    );

    app.get(
      `${FHIR_BASE_PATH}/Patient/:id/_history/:vid`,
      {
        config: { auth: { anyOf: PATIENT_READ_SCOPES } },
        schema: {
          tags: ['fhir'],
          summary: 'Read a Patient version (vread)',
          operationId: 'fhirVreadPatient',
          description: 'The Patient as it was at versionId `vid` (its event stream folded up to that version).',
          params: z.object({ id: resourceId, vid: z.coerce.number().int().min(1) }),
          querystring: z.object({ _format: format }),
          response: { 200: fhirPatient, ...outcomes(400, 401, 403, 404, 406) },
        },
      },
      async (req, reply) => {
        const patient = await getPatientVersion(pool, callerOf(req), req.params.id, req.params.vid);
        reply.header('etag', weakEtag(patient.version)).header('last-modified', new Date(patient.updatedAt).toUTCString());
        return fhirReply(reply).send(toFhirPatient(patient));
      },
    );

    app.get(
      `${FHIR_BASE_PATH}/Observation`,
      {
        config: { auth: { scopes: ['read:vitals'] } },
        schema: {
          tags: ['fhir'],
          summary: 'Search Observation (vital signs)',
          operationId: 'fhirSearchObservation',
          description:
            "One patient's vital-sign Observations (ECG as valueSampledData) in a date range, ascending by date: patient|subject (required), code, date (ge/gt/le/lt/eq; default the 24 h before now; at most 31 days), category=vital-signs, _count, _sort (date or -date). Served by the vitals service (same range rules, access rules and audit as GET /api/v1/vitals). Next page: Bundle.link next.",
          querystring: observationSearch,
          response: { 200: fhirObservationBundle, ...outcomes(400, 401, 403, 406) },
        },
      },
      async (req, reply) => {
        const q = req.query;
        if (q._sort !== undefined && q._sort !== 'date' && q._sort !== '-date')
          throw notSupported(
            `_sort=${q._sort} is not supported: Observations sort by date only (_sort=date, the default, or -date: newest first).`,
          );
        const descending = q._sort === '-date';
        if (q._include !== undefined && !OBSERVATION_INCLUDES.has(q._include))
          throw notSupported(`_include=${q._include} is not supported (Observation:patient is).`);
        const patient = searchedPatient(q);
        const codeToken = q.code;
        const code = codeToken === undefined ? undefined : vitalCodeOf(codeToken);
        const dates = q.date === undefined ? [] : Array.isArray(q.date) ? q.date : [q.date];
        const { from, to } = observationRange(dates, Date.now());
        const range = orderedRange(from, to);
        const caller = callerOf(req);
        if (code === null || !categoryMatches(q.category)) {
          // matches nothing stored; the access rule still holds (a refusal is a 403, audited)
          await requireVitalsAccess(pool, caller, [patient], { action: 'vitals.read', via: 'fhir' });
          return fhirReply(reply).send(searchsetBundle([], { self: selfUrl(req) }));
        }
        const page = await readHistory(pool, caller, { patient, code, range, limit: q._count, cursor: q._cursor, descending }, 'fhir');
        if (page.kind !== 'raw') throw new Error('unreachable: a raw query answered buckets');
        let next: string | undefined;
        if (page.next) {
          // the range made explicit, so the next page is the same query whatever "now" is then
          const params = new URLSearchParams({ patient });
          if (codeToken !== undefined) params.set('code', codeToken);
          params.append('date', `ge${range.from}`);
          params.append('date', `lt${range.to}`);
          if (q.category !== undefined) params.set('category', q.category);
          params.set('_count', String(q._count));
          if (descending) params.set('_sort', '-date');
          if (q._include !== undefined) params.set('_include', q._include);
          params.set('_cursor', page.next);
          next = `${base()}/Observation?${params}`;
        }
        const links = { self: selfUrl(req), observationBase: `${base()}/Observation`, ...(next ? { next } : {}) };
        // _include=Observation:patient: the searched Patient, read through the patients service (its access rule and audit)
        const included = q._include !== undefined && page.rows.length > 0 ? (await getPatient(pool, caller, patient)).patient : undefined;
        const include = included
          ? [{ fullUrl: `${base()}/Patient/${included.id}`, resource: toFhirPatient(included), search: { mode: 'include' as const } }]
          : [];
        // Sent as text, each Observation through its per-code template (schemas/src/fhir-json.ts): a page is up to
        // 1,000 Observations, and building and re-validating them as objects doubled the search's time (test/bench/fhir.bench.ts)
        return fhirReply(reply).send(observationSearchsetJson(page.rows, links, include));
      },
    );

    app.get(
      `${FHIR_BASE_PATH}/Observation/:id`,
      {
        config: { auth: { scopes: ['read:vitals'] } },
        schema: {
          tags: ['fhir'],
          summary: 'Read Observation',
          operationId: 'fhirReadObservation',
          description:
            'One stored vital-sign Observation by its id `{device_id}.{seq}` (a device numbers its observations with a strictly increasing seq, so that is one stored row; the ids the searches answer). Served by the vitals service (the same access rule as a search: a patient user its own, a sandbox token no stored row; audited vitals.read).',
          params: z.object({ id: resourceId }),
          querystring: z.strictObject({ _format: format }),
          response: { 200: fhirObservation, ...outcomes(400, 401, 403, 404, 406) },
        },
      },
      async (req, reply) => fhirReply(reply).send(toFhirObservation(await readObservation(pool, callerOf(req), req.params.id, 'fhir'))),
    );

    app.get(
      `${FHIR_BASE_PATH}/Observation/$lastn`,
      {
        config: { auth: { scopes: ['read:vitals'] } },
        schema: {
          tags: ['fhir'],
          summary: 'Observation $lastn',
          operationId: 'fhirLastnObservation',
          description:
            "The latest Observation per code of one patient (patient|subject required; code, category optional; max=1 only), from the vitals service's latest read.",
          querystring: lastnQuery,
          response: { 200: fhirObservationBundle, ...outcomes(400, 401, 403, 406) },
        },
      },
      async (req, reply) => {
        const q = req.query;
        if (q.max !== 1) throw notSupported('$lastn supports max=1 only (the latest Observation per code).');
        const patient = searchedPatient(q);
        const code = q.code === undefined ? undefined : vitalCodeOf(q.code);
        const caller = callerOf(req);
        if (code === null || !categoryMatches(q.category)) {
          await requireVitalsAccess(pool, caller, [patient], { action: 'vitals.read_latest', via: 'fhir' });
          return fhirReply(reply).send(searchsetBundle([], { self: selfUrl(req) }));
        }
        const rows = await readLatest(pool, caller, patient, code, 'fhir');
        return fhirReply(reply).send(observationSearchsetJson(rows, { self: selfUrl(req), observationBase: `${base()}/Observation` }));
      },
    );
  };
}
