/**
 * The Bulk Data export's status URL (`$export-status/{id}`): 202 with X-Progress and Retry-After
 * while the job runs, 200 with the manifest after (Expires: when the files go), 500 when it failed;
 * DELETE cancels it and removes its files. A job is visible only to its owner (404 to anyone else).
 *
 * Bulk Data 3.0: organized by patient, the output items have no `type` and the manifest says
 * `outputOrganizedBy`; the messages of a job (a parameter processed leniently, a patient not found)
 * are one OperationOutcome file in `error`. With `allowPartialManifests=true` the files are listed in
 * manifest pages of MANIFEST_PAGE_FILES files (`?page=n`, linked by `link` next): a page is
 * answered once it is full (202 while the job runs) or the job is done (200), so a manifest once
 * answered never changes but for the link added when the next page has files.
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
import { accepted, ERROR_FILE, ownerOf } from './export-shared';

export const bulkExportManifest = z
  .object({
    transactionTime: z.string().describe('FHIR instant: the export holds exactly what was committed at this time'),
    request: z.string().describe('The kick-off request URL'),
    requiresAccessToken: z.literal(true).describe('Files are downloaded with the same access token'),
    outputOrganizedBy: z.literal('Patient').optional().describe('organizeOutputBy of the kick-off: files of patient blocks'),
    output: z.array(
      z.object({ type: z.string().optional().describe('Absent when organized by patient'), url: z.string(), count: z.number().int() }),
    ),
    error: z
      .array(z.object({ type: z.literal('OperationOutcome'), url: z.string(), count: z.number().int().optional() }))
      .describe(
        "The job's messages (parameters processed leniently, patients not found) as one OperationOutcome file; rows that cannot be exported fail the job",
      ),
    link: z
      .array(z.object({ relation: z.literal('next'), url: z.string() }))
      .optional()
      .describe('allowPartialManifests: the next manifest page'),
  })
  .describe('The Bulk Data export manifest (Bulk Data Access IG 3.0; with allowPartialManifests one page of it)')
  .meta({ id: 'BulkExportManifest' });

const jobParams = z.object({ id: z.uuid() });
const statusQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).optional().describe('allowPartialManifests: the manifest page (link next)'),
});

/** Files per manifest page when partial manifests are allowed. */
export const MANIFEST_PAGE_FILES = 10;

/**
 * The manifest (page) of a job: its non-empty files (a page's: `page` of MANIFEST_PAGE_FILES when
 * partial manifests are allowed), each at its download URL; undefined when that page is not
 * complete yet (the job still runs and the page would change).
 */
export async function manifestOf(deps: GatewayDeps, job: ExportJob, page = 1) {
  const base = `${deps.config.baseUrl}${FHIR_BASE_PATH}`;
  const done = job.status === 'completed';
  const all = await exportFiles(deps.pool, job.id);
  const from = job.partial_manifests ? (page - 1) * MANIFEST_PAGE_FILES : 0;
  const files = job.partial_manifests ? all.slice(from, from + MANIFEST_PAGE_FILES) : all;
  if (!done && files.length < MANIFEST_PAGE_FILES) return undefined;
  const organized = job.organize_by === 'Patient';
  const more = job.partial_manifests && all.length > from + MANIFEST_PAGE_FILES;
  return {
    transactionTime: job.transaction_time.toISOString(),
    request: job.request,
    requiresAccessToken: true as const,
    ...(organized ? { outputOrganizedBy: 'Patient' as const } : {}),
    output: files
      .filter((f) => f.count > 0)
      .map((f) => ({
        ...(organized ? {} : { type: f.type }),
        url: `${base}/$export-file/${job.id}/${f.type}-${f.part}.ndjson`,
        count: f.count,
      })),
    error:
      job.messages.length > 0 ? [{ type: 'OperationOutcome' as const, url: `${base}/$export-file/${job.id}/${ERROR_FILE}`, count: 1 }] : [],
    ...(more ? { link: [{ relation: 'next' as const, url: `${base}/$export-status/${job.id}?page=${page + 1}` }] } : {}),
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
          "While the export runs: 202 with X-Progress and Retry-After (with allowPartialManifests, and a full page of files written: that manifest page, application/json). Done: 200 with the manifest (application/json; Expires: when the files go; with allowPartialManifests one page, link next to the following one). A failed export: 500 with an OperationOutcome. Another caller's export, a cancelled or expired one: 404.",
        params: jobParams,
        querystring: statusQuery,
        response: {
          200: bulkExportManifest,
          202: z
            .union([bulkExportManifest, z.null()])
            .describe('In progress (X-Progress, Retry-After); with allowPartialManifests a full manifest page'),
          ...outcomes(401, 403, 404, 500),
        },
      },
    },
    async (req, reply) => {
      const job = await findExportJob(pool, req.params.id, ownerOf(callerOf(req)));
      if (!job) throw notFound('There is no such export (it may have been cancelled or expired).');
      if (job.status === 'failed') throw problemOf('export-failed', job.error ?? 'The export failed; start a new one.');
      const page = req.query.page ?? 1;
      if (page > 1 && !job.partial_manifests) throw notFound('This export has one manifest (allowPartialManifests was not asked for).');
      const running = job.status === 'queued' || job.status === 'running';
      const manifest = running && !job.partial_manifests ? undefined : await manifestOf(deps, job, page);
      if (running) {
        const files = await exportFiles(pool, job.id);
        reply
          .code(202)
          .header('x-progress', `${job.status}: ${job.exported} resources in ${files.length} files`)
          .header('retry-after', String(config.EXPORT_RETRY_AFTER_SECONDS));
        return manifest ? reply.header('cache-control', 'no-store').type('application/json').send(manifest) : reply.send(null);
      }
      return reply
        .header('expires', must(job.expires_at, 'the expiry of a completed export').toUTCString())
        .header('cache-control', 'no-store')
        .type('application/json')
        .send(must(manifest, 'the manifest of a completed export'));
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
