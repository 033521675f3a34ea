/**
 * The Bulk Data export's status URL (`$export-status/{id}`): 202 with X-Progress and Retry-After
 * while the job runs, 200 with the manifest after (Expires: when the files go), 500 when it failed;
 * DELETE cancels it and removes its files. A job is visible only to its owner (404 to anyone else).
 */
import { z } from 'zod';
import { FHIR_JSON, notFound, problemOf } from '@vitalis/http';
import { must } from '@vitalis/runtime';
import { deleteExportJob, exportFiles, findExportJob, type ExportJob, type ExportStorage } from '@vitalis/export';
import type { GatewayDeps } from '../../deps';
import { callerOf } from '../../access/http';
import { FHIR_BASE_PATH } from '../base';
import type { FhirApp } from '../register';
import { fhirOperationOutcome, outcomes } from '../schemas';
import { accepted, ownerOf } from './export-shared';

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

/** The manifest of a completed job: its non-empty files, each at its download URL. */
async function manifestOf(deps: GatewayDeps, job: ExportJob) {
  const base = `${deps.config.baseUrl}${FHIR_BASE_PATH}`;
  const files = await exportFiles(deps.pool, job.id);
  return {
    transactionTime: job.transaction_time.toISOString(),
    request: job.request,
    requiresAccessToken: true as const,
    output: files
      .filter((f) => f.count > 0)
      .map((f) => ({ type: f.type, url: `${base}/$export-file/${job.id}/${f.type}-${f.part}.ndjson`, count: f.count })),
    error: [],
  };
}

/** Registers `GET` and `DELETE $export-status/{id}`. */
export function registerExportStatus(app: FhirApp, deps: GatewayDeps, storage: ExportStorage): void {
  const { pool, config } = deps;
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
      const job = await findExportJob(pool, req.params.id, ownerOf(callerOf(req)));
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
        .send(await manifestOf(deps, job));
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
      if (!(await deleteExportJob(pool, req.params.id, ownerOf(caller))))
        throw notFound('There is no such export (it may have been cancelled or expired).');
      await storage.removeAll(req.params.id);
      return reply
        .code(202)
        .type(FHIR_JSON)
        .send(accepted(`Export ${req.params.id} cancelled; its files are removed.`));
    },
  );
}
