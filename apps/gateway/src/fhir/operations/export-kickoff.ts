/**
 * The Bulk Data export's kick-off (Bulk Data Access IG 3.0.0, docs/export.md) at the system, Patient
 * and Group levels, by GET (the query) or POST (a FHIR Parameters body; export-params.ts reads
 * both into one ask): `Prefer: respond-async` required; `_type` (Patient, Observation and the
 * patient-compartment types served), `_elements`, `patient` (POST), `organizeOutputBy=Patient`,
 * `allowPartialManifests`, `includeAssociatedData` (none served: 400, or noted with
 * `handling=lenient`), `_since`, `_until`, `_typeFilter`, `_outputFormat`. The job is created in
 * PostgreSQL with the resources other than Observations read through the FHIR API's own
 * definitions (export-records.ts: the caller's access rules and audit) and the projector's export
 * worker writes the files; the answer is 202 with Content-Location, the status URL (export-status.ts).
 * Whose data: the access policy's Observation read cell (a patient user only itself, a sandbox
 * principal nothing of the append log), the vitals rule on a Group's members or the patients named;
 * audited export.kickoff. The CapabilityStatement entries of the kick-offs are declared here.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FHIR_JSON, badRequest, notFound, tooManyRequests } from '@vitalis/http';
import { must } from '@vitalis/runtime';
import type { Pool } from '@vitalis/db';
import { resourceId } from '@vitalis/schemas';
import { createExportJob, groupMembers, type ExportMessage } from '@vitalis/export';
import type { GatewayDeps } from '../../deps';
import { audit, type Caller } from '../../access/caller';
import { callerOf } from '../../access/http';
import { insufficientScope } from '../../access/refusal';
import { reach } from '../../access/policy';
import { smartResourceTypesOf } from '../../auth/route-auth';
import { requireVitalsAccess } from '../../vitals/service';
import { FHIR_BASE_PATH } from '../base';
import type { FhirOperationEntry, FhirResourceDefinition } from '../definition';
import type { FhirApp } from '../register';
import { fhirOperationOutcome, outcomes } from '../schemas';
import { notSupported } from '../search-params';
import { accepted, exportStatusUrl, NDJSON, ownerOf } from './export-shared';
import { askOfParameters, askOfQuery, kickOffParameters, kickOffQuery, type ExportAsk } from './export-params';
import { allPatientIds, gatherRecords, mayRead, recordDefinitions, type RecordSource } from './export-records';

/** The statement's system-level `$export` (rest.operation); Group/{id}/$export is served too. */
export const SYSTEM_EXPORT_OPERATION: FhirOperationEntry = {
  name: 'export',
  definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/export',
  documentation:
    "Bulk Data export (Bulk Data Access IG 3.0: GET or POST with Parameters; Prefer: respond-async): Patient, Observation and the patient-compartment types served. Group/{id}/$export exports a Group's members.",
};
/** The statement's Patient-level `$export` (under Patient). */
export const PATIENT_EXPORT_OPERATION: FhirOperationEntry = {
  name: 'export',
  definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/patient-export',
  documentation:
    "Bulk Data export of the patients' resources: Patient, Observation and the patient-compartment types served (docs/export.md).",
};
const OUTPUT_FORMATS = new Set([NDJSON, 'application/ndjson', 'ndjson']);

type Level = 'system' | 'patient' | 'group';

/** `Prefer` holds respond-async (any case), the IG's requirement of every kick-off; published as the header's pattern. */
const RESPOND_ASYNC = /(^|[,;\s])[Rr][Ee][Ss][Pp][Oo][Nn][Dd]-[Aa][Ss][Yy][Nn][Cc]($|[,;\s])/;

/** `handling=lenient` lets unsupported types pass (`respond-async` is the header schema's pattern: without it, a 400 before the handler). */
function preferences(req: FastifyRequest): { lenient: boolean } {
  return { lenient: /handling\s*=\s*lenient/i.test(String(req.headers.prefer ?? '')) };
}

/** The patients an export covers for this caller: undefined = every patient. `named`: the POST's `patient` values. */
async function scopeOf(pool: Pool, caller: Caller, level: Level, groupId?: string, named?: string[]): Promise<string[] | undefined> {
  let members: string[] | undefined;
  if (level === 'group') {
    members = await groupMembers(pool, must(groupId, 'the Group id of a group-level export'));
    if (!members) throw notFound(`There is no Group ${groupId}.`);
    const outside = named?.filter((p) => !members?.includes(p)) ?? [];
    if (outside.length > 0) throw badRequest(`patient: ${outside.join(', ')} is not a member of Group ${groupId}.`);
  }
  if (named && level === 'system') throw badRequest('patient applies to Patient- and Group-level exports only.');
  const asked = named ?? members;
  // the access policy's Observation read cell decides whose data an export may cover
  const reached = reach(caller.principal, 'Observation', 'read');
  if (reached.allowed && reached.patient !== undefined) {
    const self = reached.patient;
    if (named?.some((p) => p !== self))
      throw insufficientScope(['read:vitals'], { detail: 'A patient user exports its own data only; patient names someone else.' });
    // a patient user exports its own data, whatever the level (a Group: only if it is a member)
    return members === undefined || members.includes(self) ? [self] : [];
  }
  if (reached.allowed && reached.rule === 'synthetic')
    throw insufficientScope(['read:vitals'], {
      detail: 'A sandbox token reads synthetic sbx- data only; the bulk export reads the append log.',
    });
  if (!reached.allowed) throw insufficientScope([reached.scope], { detail: reached.detail });
  if (asked) await requireVitalsAccess(pool, caller, asked, { action: 'export.kickoff', via: 'fhir' });
  return asked;
}

/** A parameter the server does not serve: a 400, or (Prefer: handling=lenient) a message of the manifest's error file. */
function unserved(lenient: boolean, messages: ExportMessage[], detail: string): void {
  if (!lenient) throw notSupported(detail);
  messages.push({ severity: 'warning', code: 'not-supported', diagnostics: `${detail} (processed leniently)` });
}

/**
 * The types the export writes: those asked (each served and readable with the caller's token: a
 * 400 or a 403, or with handling=lenient skipped with a message), or, without `_type`, every one
 * within the token's authorization: the types its SMART resource scopes name (a token without
 * any: every type it may read).
 */
function typesOf(
  caller: Caller,
  ask: ExportAsk,
  lenient: boolean,
  definitions: readonly FhirResourceDefinition[],
  messages: ExportMessage[],
) {
  const served = ['Observation', ...recordDefinitions(definitions).map((d) => d.type)];
  const readable = (type: string) => {
    const def = definitions.find((d) => d.type === type);
    return def !== undefined && mayRead(caller, def);
  };
  if (ask.types === undefined) {
    // the token's authorization: the types its SMART resource scopes name (system/Observation.rs: Observations), else what it may read
    const named = smartResourceTypesOf(caller.principal);
    return served.filter((t) => readable(t) && (named.size === 0 || named.has(t)));
  }
  const types: string[] = [];
  for (const type of new Set(ask.types)) {
    if (!served.includes(type)) unserved(lenient, messages, `_type: ${type} cannot be exported (${served.join(', ')} can)`);
    else if (readable(type)) types.push(type);
    else if (lenient)
      messages.push({ severity: 'warning', code: 'forbidden', diagnostics: `_type: this token may not read ${type}; skipped.` });
    else
      throw insufficientScope([type], { detail: `_type: this token may not read ${type} (the scopes of a FHIR read of it are needed).` });
  }
  if (types.length === 0 && !lenient) throw notSupported('_type names no exportable type.');
  return types;
}

/** The ask's values the server does not serve (`_outputFormat`, `includeAssociatedData`, `organizeOutputBy` other than Patient). */
function checkServed(ask: ExportAsk, lenient: boolean, messages: ExportMessage[]): 'Patient' | undefined {
  if (ask.outputFormat !== undefined && !OUTPUT_FORMATS.has(ask.outputFormat))
    throw notSupported(`_outputFormat=${ask.outputFormat} is not supported: exports are ${NDJSON}.`);
  if (ask.includeAssociatedData && ask.includeAssociatedData.length > 0)
    unserved(
      lenient,
      messages,
      `includeAssociatedData=${ask.includeAssociatedData.join(',')}: this server keeps no Provenance resources, so no associated data is included`,
    );
  if (ask.organizeOutputBy === undefined || ask.organizeOutputBy === 'Patient') return ask.organizeOutputBy;
  unserved(lenient, messages, `organizeOutputBy=${ask.organizeOutputBy}: output is organized by type or by Patient only`);
  return undefined;
}

/** The patients whose records are read: the export's, or (every patient) those the Patient search finds. */
async function recordPatients(src: RecordSource, patients: string[] | undefined): Promise<string[]> {
  if (patients !== undefined) return patients;
  const patientDef = src.definitions.find((d) => d.type === 'Patient');
  if (!patientDef || !mayRead(src.caller, patientDef))
    throw insufficientScope(['read:patients'], {
      detail:
        'An export of every patient with types other than Observation, or organized by Patient, finds the patients with the Patient search.',
    });
  return allPatientIds(src, patientDef);
}

/** A kick-off: its parameters checked, its patients decided, the records read, the job created and audited; 202 with the status URL. */
async function kickOff(
  deps: GatewayDeps,
  definitions: readonly FhirResourceDefinition[],
  req: FastifyRequest,
  reply: FastifyReply,
  ask: ExportAsk,
  level: Level,
  groupId?: string,
) {
  const { pool, config } = deps;
  const { lenient } = preferences(req);
  const messages: ExportMessage[] = [];
  const organizeBy = checkServed(ask, lenient, messages);
  const caller = callerOf(req);
  const types = typesOf(caller, ask, lenient, definitions, messages);
  const scoped = await scopeOf(pool, caller, level, groupId, ask.patients);
  const src: RecordSource = { req, deps, caller, definitions };
  const recordTypes = types.filter((t) => t !== 'Observation');
  const patients = organizeBy === 'Patient' ? await recordPatients(src, scoped) : scoped;
  const gathered =
    recordTypes.length === 0
      ? { records: [], messages: [] }
      : await gatherRecords(src, {
          types: recordTypes,
          patients: await recordPatients(src, patients),
          since: ask.since,
          until: ask.until,
          elements: ask.elements,
        });
  const id = randomUUID();
  const created = await createExportJob(
    pool,
    {
      ...ownerOf(caller),
      id,
      request: `${config.baseUrl}${req.url}`,
      patients,
      filters: ask.typeFilters,
      since: ask.since,
      until: ask.until,
      types,
      elements: ask.elements,
      organizeBy,
      partialManifests: ask.allowPartialManifests,
      messages: [...messages, ...gathered.messages],
      records: gathered.records,
    },
    config.EXPORT_MAX_ACTIVE_PER_CLIENT,
  );
  if (created.kind === 'limited') {
    throw tooManyRequests(
      `This client already has ${created.active} exports queued or running (at most ${config.EXPORT_MAX_ACTIVE_PER_CLIENT}); wait for one to finish or cancel one.`,
      config.EXPORT_RETRY_AFTER_SECONDS,
    );
  }
  await audit(pool, caller, {
    action: 'export.kickoff',
    scope: 'read:vitals',
    resourceType: level === 'group' ? 'Group' : 'Patient',
    resourceId: level === 'group' ? groupId : patients?.length === 1 ? patients[0] : undefined,
    detail: {
      job: id,
      level,
      method: req.method,
      types,
      patients: patients?.length ?? 'all',
      records: gathered.records.length,
      filters: ask.typeFilters.length,
      since: ask.since ?? null,
      until: ask.until ?? null,
    },
  });
  return reply
    .code(202)
    .header('content-location', exportStatusUrl(deps, id))
    .type(FHIR_JSON)
    .send(accepted(`Export ${id} accepted; poll ${exportStatusUrl(deps, id)}.`));
}

/** The route options of a kick-off, GET (the query) or POST (a Parameters body). */
const kickOffSchema = (method: 'GET' | 'POST', summary: string, description: string, params?: z.ZodType) => ({
  config: { auth: { scopes: ['read:vitals' as const] } },
  schema: {
    tags: ['fhir'],
    summary: method === 'POST' ? `${summary} (POST, Parameters)` : summary,
    description:
      method === 'POST'
        ? `${description} The parameters come in a FHIR Parameters body (application/fhir+json), as the GET query names them, plus patient (references).`
        : description,
    ...(params ? { params } : {}),
    ...(method === 'GET' ? { querystring: kickOffQuery } : { querystring: z.strictObject({}), body: kickOffParameters }),
    headers: z.looseObject({
      prefer: z
        .string()
        .max(200)
        .regex(RESPOND_ASYNC, 'must hold respond-async (a bulk export is asynchronous)')
        .describe('respond-async (required); handling=lenient to skip unsupported values (noted in the manifest error file)'),
    }),
    response: { 202: fhirOperationOutcome, ...outcomes(400, 401, 403, 404, 406, 429) },
  },
});

/** The three kick-off paths, with their words and level. */
const LEVELS = [
  {
    level: 'system',
    path: `${FHIR_BASE_PATH}/$export`,
    summary: 'Bulk export: every patient',
    description:
      'System-level Bulk Data kick-off (Bulk Data Access IG 3.0): the resources of every patient the caller may read (a patient user: its own). 202 with Content-Location: the status URL.',
  },
  {
    level: 'patient',
    path: `${FHIR_BASE_PATH}/Patient/$export`,
    summary: 'Bulk export: patients',
    description:
      'Patient-level Bulk Data kick-off: the resources of every patient (a patient user: its own; POST: the patients named). 202 with Content-Location: the status URL.',
  },
  {
    level: 'group',
    path: `${FHIR_BASE_PATH}/Group/:id/$export`,
    summary: 'Bulk export: a Group',
    description:
      "Group-level Bulk Data kick-off: the resources of the Group's members (a ward, a cohort; docs/export.md). 202 with Content-Location: the status URL.",
  },
] as const;

/** Registers the kick-offs, GET and POST: `$export`, `Patient/$export`, `Group/{id}/$export`. */
export function registerExportKickOffs(app: FhirApp, deps: GatewayDeps, definitions: readonly FhirResourceDefinition[]): void {
  for (const { level, path, summary, description } of LEVELS) {
    const params = level === 'group' ? z.object({ id: resourceId }) : undefined;
    const groupOf = (req: FastifyRequest) => (level === 'group' ? (req.params as { id: string }).id : undefined);
    app.get(path, kickOffSchema('GET', summary, description, params), (req, reply) =>
      kickOff(deps, definitions, req, reply, askOfQuery(req.query as z.infer<typeof kickOffQuery>), level, groupOf(req)),
    );
    app.post(path, kickOffSchema('POST', summary, description, params), (req, reply) =>
      kickOff(deps, definitions, req, reply, askOfParameters(req.body as z.infer<typeof kickOffParameters>), level, groupOf(req)),
    );
  }
}
