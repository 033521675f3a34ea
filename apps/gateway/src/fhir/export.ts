/**
 * FHIR Bulk Data export (Bulk Data Access IG v2, issue 23, docs/export.md): the kick-off at the
 * system, Patient and Group levels, the status URL (202 with X-Progress and Retry-After while the
 * job runs, 200 with the manifest after, DELETE to cancel), and the file downloads (same token,
 * Range, gzip when asked, audited). The work itself is a job in PostgreSQL that the projector's
 * export worker runs (@vitalis/export); this file only asks, answers and serves.
 *
 * Who sees what: the route needs read:vitals (system/Observation.rs and user/Observation.rs stand
 * for it; a patient user's patient/Observation.rs too), the vitals service's rule decides which
 * patients (a patient user only itself, a sandbox principal nothing of the append log); a job is
 * visible only to the client and subject that kicked it off (404 to anyone else).
 *
 * The CapabilityStatement `operation` entries of the kick-offs are declared here, beside their routes
 * (the system-level one in rest.operation, the Patient-level one under Patient).
 */
import { createGzip } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FHIR_JSON, badRequest, notFound, problemOf, tooManyRequests } from '@vitalis/http';
import { must } from '@vitalis/runtime';
import { resourceId } from '@vitalis/schemas';
import {
  createExportJob,
  deleteExportJob,
  exportFiles,
  exportStorage,
  findExportJob,
  groupMembers,
  type ExportFilter,
  type ExportJob,
} from '@vitalis/export';
import type { GatewayDeps } from '../deps';
import { audit, type Caller } from '../access/caller';
import { callerOf } from '../access/http';
import { insufficientScope } from '../access/refusal';
import { reach } from '../access/policy';
import { requireVitalsAccess } from '../vitals/service';
import { FHIR_BASE_PATH } from './base';
import type { FhirOperationEntry } from './definition';
import { fhirOperationOutcome, outcomes } from './schemas';
import { dateBounds, notSupported, vitalCodeOf } from './search-params';

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

export const NDJSON = 'application/fhir+ndjson';
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

export const bulkExportManifest = z
  .object({
    transactionTime: z.string().describe('FHIR instant: the export holds exactly what was committed at this time'),
    request: z.string().describe('The kick-off request URL'),
    requiresAccessToken: z.literal(true).describe('Files are downloaded with the same access token'),
    output: z.array(z.object({ type: z.string(), url: z.string(), count: z.number().int() })),
    error: z
      .array(z.object({ type: z.string(), url: z.string(), count: z.number().int().optional() }))
      .describe('Always empty: rows that cannot be exported fail the job'),
  })
  .describe('The Bulk Data export manifest (Bulk Data Access IG v2, complete status)')
  .meta({ id: 'BulkExportManifest' });

const jobParams = z.object({ id: z.uuid() });
const fileParams = z.object({
  id: z.uuid(),
  file: z
    .string()
    .regex(/^Observation-\d{1,6}\.ndjson$/)
    .describe('Observation-<n>.ndjson'),
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

export function exportRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  const { pool, config } = deps;
  const storage = exportStorage(config);
  const base = () => `${config.baseUrl}${FHIR_BASE_PATH}`;
  const statusUrl = (id: string) => `${base()}/$export-status/${id}`;
  const owner = (caller: Caller) => ({ clientId: caller.principal.clientId, subject: caller.principal.subject });

  /** The patients an export covers for this caller: undefined = every patient. */
  async function scopeOf(caller: Caller, level: 'system' | 'patient' | 'group', groupId?: string): Promise<string[] | undefined> {
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

  async function kickOff(req: FastifyRequest, reply: FastifyReply, level: 'system' | 'patient' | 'group', groupId?: string) {
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
        throw notSupported(
          `_type: ${others.join(', ')} cannot be exported (Observation can; Prefer: handling=lenient exports what can be).`,
        );
      if (!types.includes('Observation') && !lenient) throw notSupported('_type names no exportable type (Observation).');
    }
    const since = instantOf('_since', q._since);
    const until = instantOf('_until', q._until);
    const typeFilters = q._typeFilter === undefined ? [] : Array.isArray(q._typeFilter) ? q._typeFilter : [q._typeFilter];
    const filters = typeFilters.flatMap((f) => f.split(/,(?=Observation\?)/)).map(typeFilterOf);
    const caller = callerOf(req);
    const patients = await scopeOf(caller, level, groupId);
    const created = await createExportJob(
      pool,
      {
        ...owner(caller),
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
      .header('content-location', statusUrl(job.id))
      .type(FHIR_JSON)
      .send(accepted(`Export ${job.id} accepted; poll ${statusUrl(job.id)}.`));
  }

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

  return async (app) => {
    app.get(
      `${FHIR_BASE_PATH}/$export`,
      kickOffSchema(
        'Bulk export: every patient',
        'System-level Bulk Data kick-off (Bulk Data Access IG v2): the vital-sign Observations of every patient the caller may read (a patient user: its own). 202 with Content-Location: the status URL.',
      ),
      (req, reply) => kickOff(req, reply, 'system'),
    );
    app.get(
      `${FHIR_BASE_PATH}/Patient/$export`,
      kickOffSchema(
        'Bulk export: patients',
        'Patient-level Bulk Data kick-off: the Observations of every patient (a patient user: its own). 202 with Content-Location: the status URL.',
      ),
      (req, reply) => kickOff(req, reply, 'patient'),
    );
    app.get(
      `${FHIR_BASE_PATH}/Group/:id/$export`,
      kickOffSchema(
        'Bulk export: a Group',
        "Group-level Bulk Data kick-off: the Observations of the Group's members (a ward, a cohort; docs/export.md). 202 with Content-Location: the status URL.",
        z.object({ id: resourceId }),
      ),
      (req, reply) => kickOff(req, reply, 'group', (req.params as { id: string }).id),
    );

    app.get(
      `${FHIR_BASE_PATH}/$export-status/:id`,
      {
        config: { auth: { scopes: ['read:vitals'] } },
        schema: {
          tags: ['fhir'],
          summary: 'Bulk export status',
          description:
            "While the export runs: 202 with X-Progress and Retry-After. Done: 200 with the manifest (application/json; Expires: when the files go). A failed export: 500 with an OperationOutcome. Another caller's export, a cancelled or expired one: 404.",
          params: jobParams,
          response: {
            200: bulkExportManifest,
            202: z.null().describe('In progress (X-Progress, Retry-After)'),
            ...outcomes(401, 403, 404, 500),
          },
        },
      },
      async (req, reply) => {
        const job = await findExportJob(pool, req.params.id, owner(callerOf(req)));
        if (!job) throw notFound('There is no such export (it may have been cancelled or expired).');
        if (job.status === 'queued' || job.status === 'running') {
          const files = await exportFiles(pool, job.id);
          return reply
            .code(202)
            .header('x-progress', `${job.status}: ${job.exported} Observations in ${files.length} files`)
            .header('retry-after', String(config.EXPORT_RETRY_AFTER_SECONDS))
            .send(null);
        }
        if (job.status === 'failed') throw problemOf('export-failed', job.error ?? 'The export failed; start a new one.');
        return reply
          .header('expires', must(job.expires_at, 'the expiry of a completed export').toUTCString())
          .header('cache-control', 'no-store')
          .type('application/json')
          .send(await manifestOf(job));
      },
    );

    app.delete(
      `${FHIR_BASE_PATH}/$export-status/:id`,
      {
        config: { auth: { scopes: ['read:vitals'] } },
        schema: {
          tags: ['fhir'],
          summary: 'Cancel a bulk export',
          description: 'Cancels the export (running or finished) and removes its files: 202; the status URL then answers 404.',
          params: jobParams,
          response: { 202: fhirOperationOutcome, ...outcomes(401, 403, 404) },
        },
      },
      async (req, reply) => {
        const caller = callerOf(req);
        if (!(await deleteExportJob(pool, req.params.id, owner(caller))))
          throw notFound('There is no such export (it may have been cancelled or expired).');
        await storage.removeAll(req.params.id);
        return reply
          .code(202)
          .type(FHIR_JSON)
          .send(accepted(`Export ${req.params.id} cancelled; its files are removed.`));
      },
    );

    app.get(
      `${FHIR_BASE_PATH}/$export-file/:id/:file`,
      {
        config: { auth: { scopes: ['read:vitals'] } },
        schema: {
          tags: ['fhir'],
          summary: 'Download a bulk export file',
          description:
            'An NDJSON file of the manifest (application/fhir+ndjson), with the token that kicked the export off. Range: bytes=a-b (206; 416 outside the file). Accept-Encoding: gzip without Range: gzipped. Audited.',
          params: fileParams,
          headers: z.looseObject({ range: z.string().max(100).optional() }),
          response: {
            200: z.string().describe('NDJSON: one FHIR Observation per line'),
            206: z.string().describe('The requested byte range'),
            ...outcomes(401, 403, 404, 416),
          },
        },
      },
      async (req, reply) => {
        const caller = callerOf(req);
        const job = await findExportJob(pool, req.params.id, owner(caller));
        const part = Number(must(/\d+/.exec(req.params.file)?.[0], 'the part number in an export file name'));
        const file = job?.status === 'completed' ? (await exportFiles(pool, job.id)).find((f) => f.part === part) : undefined;
        const size = file ? await storage.size(file.storage_key) : undefined;
        if (!job || !file || size === undefined)
          throw notFound('There is no such export file (the export may have been cancelled or expired).');
        const range = byteRange(req.headers.range, size);
        await audit(pool, caller, {
          action: 'export.download',
          scope: 'read:vitals',
          resourceType: 'Observation',
          detail: { job: job.id, file: req.params.file, count: file.count, range: range ? `${range.start}-${range.end}` : null },
        });
        reply.hijack();
        const res = reply.raw;
        const headers: Record<string, string> = {
          'content-type': NDJSON,
          'accept-ranges': 'bytes',
          'cache-control': 'no-store',
          'x-request-id': req.id,
          vary: 'accept-encoding',
        };
        try {
          if (range) {
            res.writeHead(206, {
              ...headers,
              'content-range': `bytes ${range.start}-${range.end}/${size}`,
              'content-length': String(range.end - range.start + 1),
            });
            await pipeline(storage.read(file.storage_key, range), res);
          } else if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
            res.writeHead(200, { ...headers, 'content-encoding': 'gzip' });
            await pipeline(storage.read(file.storage_key), createGzip(), res);
          } else {
            res.writeHead(200, { ...headers, 'content-length': String(size) });
            await pipeline(storage.read(file.storage_key), res);
          }
        } catch (err) {
          req.log.warn({ err }, 'export download cut short');
          res.destroy();
        }
      },
    );
  };

  async function manifestOf(job: ExportJob) {
    const files = await exportFiles(pool, job.id);
    return {
      transactionTime: job.transaction_time.toISOString(),
      request: job.request,
      requiresAccessToken: true as const,
      output: files
        .filter((f) => f.count > 0)
        .map((f) => ({ type: f.type, url: `${base()}/$export-file/${job.id}/${f.type}-${f.part}.ndjson`, count: f.count })),
      error: [],
    };
  }
}

/** An informational OperationOutcome (the kick-off's and the cancel's 202 body). */
function accepted(text: string) {
  return { resourceType: 'OperationOutcome' as const, issue: [{ severity: 'information', code: 'informational', diagnostics: text }] };
}

/** One `Range: bytes=...` (a-b, a-, -n) within `size`, undefined without one; 416 outside the file. */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | undefined {
  if (header === undefined) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  const unsatisfiable = () =>
    problemOf('range-not-satisfiable', `The file has ${size} bytes; one range bytes=a-b within it is served.`, undefined, {
      'content-range': `bytes */${size}`,
    });
  if (!m || (m[1] === '' && m[2] === '')) throw unsatisfiable();
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start > end || start >= size) throw unsatisfiable();
  return { start, end };
}
