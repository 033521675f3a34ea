/**
 * The Bulk Data export's kick-off (Bulk Data Access IG v2, docs/export.md) at the system, Patient
 * and Group levels: `Prefer: respond-async` required, `_type`, `_since`, `_until`, `_typeFilter`,
 * `_outputFormat`; the job is created in PostgreSQL (the projector's export worker runs it) and the
 * answer is 202 with Content-Location, the status URL (export-status.ts). Who sees what: the access
 * policy's Observation read cell (a patient user only itself, a sandbox principal nothing of the
 * append log), the vitals rule on a Group's members; audited export.kickoff. The CapabilityStatement
 * entries of the two kick-offs the statement lists are declared here, beside their routes.
 */
import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FHIR_JSON, badRequest, notFound, tooManyRequests } from '@vitalis/http';
import { must } from '@vitalis/runtime';
import type { Pool } from '@vitalis/db';
import { resourceId } from '@vitalis/schemas';
import { createExportJob, groupMembers, type ExportFilter } from '@vitalis/export';
import type { GatewayDeps } from '../../deps';
import { audit, type Caller } from '../../access/caller';
import { callerOf } from '../../access/http';
import { insufficientScope } from '../../access/refusal';
import { reach } from '../../access/policy';
import { requireVitalsAccess } from '../../vitals/service';
import { FHIR_BASE_PATH } from '../base';
import type { FhirOperationEntry } from '../definition';
import type { FhirApp } from '../register';
import { fhirOperationOutcome, outcomes } from '../schemas';
import { dateBounds, notSupported, vitalCodeOf } from '../search-params';
import { accepted, exportStatusUrl, NDJSON, ownerOf } from './export-shared';

/** The statement's system-level `$export` (rest.operation); Group/{id}/$export is served too. */
export const SYSTEM_EXPORT_OPERATION: FhirOperationEntry = {
  name: 'export',
  definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/export',
  documentation: "Bulk Data export (Observations; Prefer: respond-async). Group/{id}/$export exports a Group's members.",
};
/** The statement's Patient-level `$export` (under Patient). */
export const PATIENT_EXPORT_OPERATION: FhirOperationEntry = {
  name: 'export',
  definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/patient-export',
  documentation: "Bulk Data export of the patients' Observations (docs/export.md).",
};

const OUTPUT_FORMATS = new Set([NDJSON, 'application/ndjson', 'ndjson']);
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

const kickOffQuery = z.strictObject({
  _outputFormat: z
    .string()
    .max(100)
    .optional()
    .describe('application/fhir+ndjson (the default and only format; application/ndjson and ndjson are its aliases)'),
  _type: z.string().max(300).optional().describe('Comma-separated resource types: Observation (the only type exported)'),
  _since: z
    .string()
    .max(40)
    .optional()
    .describe("FHIR instant: only rows written after it (a previous manifest's transactionTime gives exactly the rows since that export)"),
  _until: z.string().max(40).optional().describe('FHIR instant: only rows written up to it'),
  _typeFilter: z
    .union([z.string().max(1_000), z.array(z.string().max(1_000)).max(20)])
    .optional()
    .describe("Observation?code=<token>[,<token>]&date=<prefix><date>[&date=...]; several are OR'ed"),
});

/** One `_typeFilter` value as a filter clause: Observation codes and an effective-time range. */
export function typeFilterOf(value: string): ExportFilter {
  const m = /^Observation\?(.*)$/.exec(value);
  if (!m) throw notSupported(`_typeFilter=${value}: only Observation filters are supported (Observation?code=...&date=...).`);
  const params = new URLSearchParams(m[1]);
  const filter: ExportFilter = {};
  const dates: string[] = [];
  for (const [name, v] of params) {
    if (name === 'code') {
      const codes = v.split(',').map((t) => vitalCodeOf(t));
      filter.codes = [...new Set([...(filter.codes ?? []), ...codes.filter((c): c is string => c !== null)])];
    } else if (name === 'date') dates.push(v);
    else throw notSupported(`_typeFilter: the Observation search parameter ${name} is not supported in an export (code and date are).`);
  }
  const { fromMs, toMs } = dateBounds(dates);
  if (fromMs !== undefined) filter.from = new Date(fromMs).toISOString();
  if (toMs !== undefined) filter.to = new Date(toMs).toISOString();
  return filter;
}

function instantOf(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!INSTANT.test(value) || Number.isNaN(Date.parse(value)))
    throw badRequest(`${name} must be a FHIR instant (e.g. 2026-01-01T00:00:00.000Z).`);
  return new Date(value).toISOString();
}

/** `Prefer: respond-async` is required (the IG); `handling=lenient` lets unsupported types pass. */
function preferences(req: FastifyRequest): { lenient: boolean } {
  const prefer = String(req.headers.prefer ?? '').toLowerCase();
  if (!/(^|[,;\s])respond-async($|[,;\s])/.test(prefer)) throw badRequest('A bulk export needs the header Prefer: respond-async.');
  return { lenient: /handling\s*=\s*lenient/.test(prefer) };
}

/** The patients an export covers for this caller: undefined = every patient. */
async function scopeOf(pool: Pool, caller: Caller, level: 'system' | 'patient' | 'group', groupId?: string): Promise<string[] | undefined> {
  let members: string[] | undefined;
  if (level === 'group') {
    members = await groupMembers(pool, must(groupId, 'the Group id of a group-level export'));
    if (!members) throw notFound(`There is no Group ${groupId}.`);
  }
  // the access policy's Observation read cell decides whose data an export may cover
  const reached = reach(caller.principal, 'Observation', 'read');
  if (reached.allowed && reached.patient !== undefined) {
    // a patient user exports its own data, whatever the level (a Group: only if it is a member)
    return members === undefined || members.includes(reached.patient) ? [reached.patient] : [];
  }
  if (reached.allowed && reached.rule === 'synthetic')
    throw insufficientScope(['read:vitals'], {
      detail: 'A sandbox token reads synthetic sbx- data only; the bulk export reads the append log.',
    });
  if (!reached.allowed) throw insufficientScope([reached.scope], { detail: reached.detail });
  if (members) await requireVitalsAccess(pool, caller, members, { action: 'export.kickoff', via: 'fhir' });
  return members;
}

/** A kick-off: its parameters checked, its patients decided, the job created and audited; 202 with the status URL. */
async function kickOff(
  deps: GatewayDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  level: 'system' | 'patient' | 'group',
  groupId?: string,
) {
  const { pool, config } = deps;
  const { lenient } = preferences(req);
  const q = req.query as z.infer<typeof kickOffQuery>;
  if (q._outputFormat !== undefined && !OUTPUT_FORMATS.has(q._outputFormat)) {
    throw notSupported(`_outputFormat=${q._outputFormat} is not supported: exports are ${NDJSON}.`);
  }
  if (q._type !== undefined) {
    const types = q._type
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    const others = types.filter((t) => t !== 'Observation');
    if (others.length > 0 && !lenient)
      throw notSupported(`_type: ${others.join(', ')} cannot be exported (Observation can; Prefer: handling=lenient exports what can be).`);
    if (!types.includes('Observation') && !lenient) throw notSupported('_type names no exportable type (Observation).');
  }
  const since = instantOf('_since', q._since);
  const until = instantOf('_until', q._until);
  const typeFilters = q._typeFilter === undefined ? [] : Array.isArray(q._typeFilter) ? q._typeFilter : [q._typeFilter];
  const filters = typeFilters.flatMap((f) => f.split(/,(?=Observation\?)/)).map(typeFilterOf);
  const caller = callerOf(req);
  const patients = await scopeOf(pool, caller, level, groupId);
  const created = await createExportJob(
    pool,
    {
      ...ownerOf(caller),
      request: `${config.baseUrl}${req.url}`,
      patients,
      filters,
      since,
      until,
    },
    config.EXPORT_MAX_ACTIVE_PER_CLIENT,
  );
  if (created.kind === 'limited') {
    throw tooManyRequests(
      `This client already has ${created.active} exports queued or running (at most ${config.EXPORT_MAX_ACTIVE_PER_CLIENT}); wait for one to finish or cancel one.`,
      config.EXPORT_RETRY_AFTER_SECONDS,
    );
  }
  const job = created.job;
  await audit(pool, caller, {
    action: 'export.kickoff',
    scope: 'read:vitals',
    resourceType: level === 'group' ? 'Group' : 'Patient',
    resourceId: level === 'group' ? groupId : patients?.length === 1 ? patients[0] : undefined,
    detail: {
      job: job.id,
      level,
      patients: patients?.length ?? 'all',
      filters: filters.length,
      since: since ?? null,
      until: until ?? null,
    },
  });
  return reply
    .code(202)
    .header('content-location', exportStatusUrl(deps, job.id))
    .type(FHIR_JSON)
    .send(accepted(`Export ${job.id} accepted; poll ${exportStatusUrl(deps, job.id)}.`));
}

/** The route options of a kick-off. */
const kickOffSchema = (summary: string, description: string, params?: z.ZodType) => ({
  config: { auth: { scopes: ['read:vitals' as const] } },
  schema: {
    tags: ['fhir'],
    summary,
    description,
    ...(params ? { params } : {}),
    querystring: kickOffQuery,
    headers: z.looseObject({
      prefer: z.string().max(200).optional().describe('respond-async (required); handling=lenient to skip unsupported _type values'),
    }),
    response: { 202: fhirOperationOutcome, ...outcomes(400, 401, 403, 404, 406, 429) },
  },
});

/** Registers the three kick-offs: `$export`, `Patient/$export`, `Group/{id}/$export`. */
export function registerExportKickOffs(app: FhirApp, deps: GatewayDeps): void {
  app.get(
    `${FHIR_BASE_PATH}/$export`,
    kickOffSchema(
      'Bulk export: every patient',
      'System-level Bulk Data kick-off (Bulk Data Access IG v2): the vital-sign Observations of every patient the caller may read (a patient user: its own). 202 with Content-Location: the status URL.',
    ),
    (req, reply) => kickOff(deps, req, reply, 'system'),
  );
  app.get(
    `${FHIR_BASE_PATH}/Patient/$export`,
    kickOffSchema(
      'Bulk export: patients',
      'Patient-level Bulk Data kick-off: the Observations of every patient (a patient user: its own). 202 with Content-Location: the status URL.',
    ),
    (req, reply) => kickOff(deps, req, reply, 'patient'),
  );
  app.get(
    `${FHIR_BASE_PATH}/Group/:id/$export`,
    kickOffSchema(
      'Bulk export: a Group',
      "Group-level Bulk Data kick-off: the Observations of the Group's members (a ward, a cohort; docs/export.md). 202 with Content-Location: the status URL.",
      z.object({ id: resourceId }),
    ),
    (req, reply) => kickOff(deps, req, reply, 'group', (req.params as { id: string }).id),
  );
}
