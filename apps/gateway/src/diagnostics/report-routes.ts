/**
 * The diagnostic report routes (DiagnosticReport with contained Observations): post, list, read, update,
 * amend, cancel, history, and the critical-result routes (acknowledge, list). Registered in this order
 * by routes.ts.
 */
import { z } from 'zod';
import { must } from '@vitalis/runtime';
import { enumCsv, instant, nonBlankText, resourceId } from '@vitalis/schemas';
import { DIAGNOSTIC_CODE, LOINC } from '@vitalis/clinical';
import { etag, expectedFromIfMatch } from '../access/caller';
import { callerOf, problems } from '../access/http';
import { amendIn, reportIn, reportUpdateIn, toFhirDiagnosticReport } from './fhir';
import { criticalJson, criticalOut } from './json';
import {
  acknowledgeCriticalResult,
  changeReport,
  criticalViewOf,
  CRITICAL_STATES,
  DEFAULT_ACKNOWLEDGED_WINDOW_SECONDS,
  getReport,
  listCriticalResults,
  listReports,
  postReport,
  reportHistory,
} from './service';
import {
  idParams,
  ifMatch,
  reportOut,
  bundleOf,
  bundle,
  reasonBody,
  resultsOf,
  orderIdOf,
  type DiagnosticsApp,
  type DiagnosticsRouteContext,
} from './route-shared';

/** POST /api/v1/diagnostics/reports: the performing department posts results (a DiagnosticReport). */
export function postReportRoute(app: DiagnosticsApp, { d }: DiagnosticsRouteContext): void {
  app.post(
    '/api/v1/diagnostics/reports',
    {
      config: { auth: { scopes: ['write:diagnostics'] } },
      schema: {
        tags: ['diagnostics'],
        summary: 'Post results (a DiagnosticReport)',
        description:
          "The performing department (role lab) posts a FHIR DiagnosticReport basedOn an active order, its results as contained Observations (LOINC code, valueQuantity in the catalog's UCUM unit, or valueString for a finding). Interpretations (L/H/LL/HH) are computed from the catalog's ranges; a critical result is raised on the live stream and the triage board until acknowledged. A final report completes the order. 201 new; 200 with the stored report when the same filler identifier was posted before with the same content (a redelivery); 409 when it names other content.",
        body: reportIn.meta({
          example: {
            resourceType: 'DiagnosticReport',
            status: 'final',
            identifier: [{ system: 'urn:lab:accession', value: 'ACC-1001' }],
            basedOn: [{ reference: 'ServiceRequest/sr-0123456789ab' }],
            contained: [
              {
                resourceType: 'Observation',
                code: { coding: [{ system: LOINC, code: DIAGNOSTIC_CODE.potassium }] },
                valueQuantity: { value: 6.8, unit: 'mmol/L', system: 'http://unitsofmeasure.org', code: 'mmol/L' },
              },
            ],
          },
        }),
        response: { 200: reportOut, 201: reportOut, ...problems(400, 401, 403, 409, 422) },
      },
    },
    async (req, reply) => {
      const b = req.body;
      const { report, created } = await postReport(d, callerOf(req), {
        orderId: orderIdOf(must(b.basedOn[0], 'the one basedOn the schema requires').reference),
        identifier: must(b.identifier[0], 'the identifier the schema requires'),
        status: b.status,
        results: resultsOf(b.contained),
        conclusion: b.conclusion ?? null,
        effectiveAt: b.effectiveDateTime,
      });
      if (created) reply.code(201).header('location', `/api/v1/diagnostics/reports/${report.id}`);
      return reply.header('etag', etag(report.version)).send(toFhirDiagnosticReport(report));
    },
  );
}

/** GET /api/v1/diagnostics/reports: reports by patient or order, from the projection. */
export function listReportsRoute(app: DiagnosticsApp, { pool, deps }: DiagnosticsRouteContext): void {
  app.get(
    '/api/v1/diagnostics/reports',
    {
      config: { auth: { anyOf: ['read:diagnostics', 'patient/DiagnosticReport.rs'] } },
      schema: {
        tags: ['diagnostics'],
        summary: 'List reports',
        description:
          'By patient or order, newest first. read:diagnostics; a patient user (patient/DiagnosticReport.rs) gets its own final reports only. Reads the projection.',
        querystring: z.object({
          patient: resourceId.optional(),
          order: resourceId.optional(),
          limit: z.coerce.number().int().min(1).max(100).default(50),
        }),
        response: { 200: bundleOf(reportOut), ...problems(400, 401, 403) },
      },
    },
    async (req) =>
      bundle(
        deps.config.baseUrl,
        req.url,
        'reports',
        (await listReports(pool, callerOf(req), { patientId: req.query.patient, orderId: req.query.order, limit: req.query.limit })).map(
          (r) => toFhirDiagnosticReport(r),
        ),
      ),
  );
}

/** GET /api/v1/diagnostics/reports/:id: one report with its ETag. */
export function readReportRoute(app: DiagnosticsApp, { pool }: DiagnosticsRouteContext): void {
  app.get(
    '/api/v1/diagnostics/reports/:id',
    {
      config: { auth: { anyOf: ['read:diagnostics', 'patient/DiagnosticReport.rs'] } },
      schema: {
        tags: ['diagnostics'],
        summary: 'Read a report',
        description: 'read:diagnostics; a patient user its own final report.',
        params: idParams,
        response: { 200: reportOut, ...problems(401, 403, 404) },
      },
    },
    async (req, reply) => {
      const r = await getReport(pool, callerOf(req), req.params.id);
      return reply.header('etag', etag(r.version)).send(toFhirDiagnosticReport(r));
    },
  );
}

/** PUT /api/v1/diagnostics/reports/:id: more results or the next status (If-Match required). */
export function updateReportRoute(app: DiagnosticsApp, { d }: DiagnosticsRouteContext): void {
  app.put(
    '/api/v1/diagnostics/reports/:id',
    {
      config: { auth: { scopes: ['write:diagnostics'] } },
      schema: {
        tags: ['diagnostics'],
        summary: 'Update a report (more results, or the next status)',
        description:
          'registered → partial → preliminary → final (role lab). If-Match required (428 without, 412 when stale). A final report completes its order. After final use amend.',
        params: idParams,
        headers: ifMatch,
        body: reportUpdateIn.meta({
          example: {
            resourceType: 'DiagnosticReport',
            status: 'final',
            contained: [
              {
                resourceType: 'Observation',
                code: { coding: [{ system: LOINC, code: DIAGNOSTIC_CODE.potassium }] },
                valueQuantity: { value: 4.1, unit: 'mmol/L', system: 'http://unitsofmeasure.org', code: 'mmol/L' },
              },
            ],
            conclusion: 'potassium within range on repeat',
          },
        }),
        response: { 200: reportOut, ...problems(400, 401, 403, 404, 409, 412, 422, 428) },
      },
    },
    async (req, reply) => {
      const expected = expectedFromIfMatch(req.headers['if-match'], true);
      const b = req.body;
      const r = await changeReport(d, callerOf(req), req.params.id, expected, {
        type: 'update',
        status: b.status,
        results: resultsOf(b.contained),
        conclusion: b.conclusion ?? null,
      });
      return reply.header('etag', etag(r.version)).send(toFhirDiagnosticReport(r));
    },
  );
}

/** POST /api/v1/diagnostics/reports/:id/amend: amend or correct a final report. */
export function amendReportRoute(app: DiagnosticsApp, { d }: DiagnosticsRouteContext): void {
  app.post(
    '/api/v1/diagnostics/reports/:id/amend',
    {
      config: { auth: { scopes: ['write:diagnostics'] } },
      schema: {
        tags: ['diagnostics'],
        summary: 'Amend or correct a final report',
        description:
          'Body: {status: amended|corrected, reason, contained (the full new results), conclusion}. The earlier revision stays readable in the history with the reason. If-Match optional (412 when stale).',
        params: idParams,
        headers: ifMatch,
        body: amendIn.meta({
          example: {
            status: 'corrected',
            reason: 'transcription error in the potassium value',
            contained: [
              {
                resourceType: 'Observation',
                code: { coding: [{ system: LOINC, code: DIAGNOSTIC_CODE.potassium }] },
                valueQuantity: { value: 5.2, unit: 'mmol/L', system: 'http://unitsofmeasure.org', code: 'mmol/L' },
              },
            ],
          },
        }),
        response: { 200: reportOut, ...problems(400, 401, 403, 404, 409, 412, 422) },
      },
    },
    async (req, reply) => {
      const expected = expectedFromIfMatch(req.headers['if-match'], false);
      const b = req.body;
      const r = await changeReport(d, callerOf(req), req.params.id, expected, {
        type: 'amend',
        status: b.status,
        reason: b.reason,
        results: resultsOf(b.contained),
        conclusion: b.conclusion ?? null,
      });
      return reply.header('etag', etag(r.version)).send(toFhirDiagnosticReport(r));
    },
  );
}

/** POST /api/v1/diagnostics/reports/:id/cancel: cancel a report that is not final. */
export function cancelReportRoute(app: DiagnosticsApp, { d }: DiagnosticsRouteContext): void {
  app.post(
    '/api/v1/diagnostics/reports/:id/cancel',
    {
      config: { auth: { scopes: ['write:diagnostics'] } },
      schema: {
        tags: ['diagnostics'],
        summary: 'Cancel a report that is not final',
        params: idParams,
        headers: ifMatch,
        body: reasonBody,
        response: { 200: reportOut, ...problems(400, 401, 403, 404, 409, 412) },
      },
    },
    async (req, reply) => {
      const r = await changeReport(d, callerOf(req), req.params.id, expectedFromIfMatch(req.headers['if-match'], false), {
        type: 'cancel',
        reason: req.body?.reason,
      });
      return reply.header('etag', etag(r.version)).send(toFhirDiagnosticReport(r));
    },
  );
}

/** GET /api/v1/diagnostics/reports/:id/history: every revision of a report. */
export function reportHistoryRoute(app: DiagnosticsApp, { pool }: DiagnosticsRouteContext): void {
  app.get(
    '/api/v1/diagnostics/reports/:id/history',
    {
      config: { auth: { anyOf: ['read:diagnostics', 'patient/DiagnosticReport.rs'] } },
      schema: {
        tags: ['diagnostics'],
        summary: 'Every revision of a report',
        description:
          'Oldest first; each revision is the DiagnosticReport as it was, with when, by whom and why (amendments). Same access as reading the report.',
        params: idParams,
        response: {
          200: z.object({
            report_id: z.string(),
            revisions: z.array(
              z.object({
                revision: z.number().int(),
                status: z.string(),
                at: z.string(),
                by: z.string().nullable(),
                reason: z.string().nullable(),
                report: reportOut,
              }),
            ),
          }),
          ...problems(401, 403, 404),
        },
      },
    },
    async (req) => {
      const r = await reportHistory(pool, callerOf(req), req.params.id);
      return {
        report_id: r.id,
        revisions: r.revisions.map((v) => ({
          revision: v.revision,
          status: v.status,
          at: v.at,
          by: v.by,
          reason: v.reason,
          report: toFhirDiagnosticReport(r, v, { versionId: `r${v.revision}`, lastUpdated: v.at }),
        })),
      };
    },
  );
}

/** POST /api/v1/diagnostics/reports/:id/acknowledge: a signed-in clinician acknowledges a report's critical result. */
export function acknowledgeCriticalRoute(app: DiagnosticsApp, { d }: DiagnosticsRouteContext): void {
  app.post(
    '/api/v1/diagnostics/reports/:id/acknowledge',
    {
      config: { auth: { scopes: ['write:diagnostics'] } },
      schema: {
        tags: ['diagnostics'],
        summary: "Acknowledge a report's critical result",
        description:
          'A signed-in clinician (role doctor, a token that names the user: authorization code) acknowledges the open or escalated critical result: the user (id and display name), the app used and when are recorded in the event store and the audit trail; it leaves the board for its acknowledged history (GET …/critical-results?state=acknowledged). A token that names no user (client credentials: an app acting for itself) is refused 403: a person must acknowledge. Nothing to acknowledge: 409 naming the state.',
        params: idParams,
        body: z
          .object({ note: nonBlankText(2_000).optional() })
          .nullish()
          .meta({ example: { note: 'called the ward; potassium replacement started' } }),
        response: { 200: criticalOut, ...problems(400, 401, 403, 404, 409) },
      },
    },
    async (req) =>
      criticalJson(
        must(
          criticalViewOf(await acknowledgeCriticalResult(d, callerOf(req), req.params.id, req.body?.note)),
          'the critical result just acknowledged',
        ),
      ),
  );
}

/** GET /api/v1/diagnostics/critical-results: critical results waiting, and acknowledged (history). */
export function listCriticalResultsRoute(app: DiagnosticsApp, { pool }: DiagnosticsRouteContext): void {
  app.get(
    '/api/v1/diagnostics/critical-results',
    {
      config: { auth: { scopes: ['read:diagnostics'] } },
      schema: {
        tags: ['diagnostics'],
        summary: 'Critical results: waiting, and acknowledged (history)',
        description: `By state (comma-separated; default open,escalated: what waits for a clinician, oldest first, whatever its age). \`acknowledged\`: the history, newest first, with who (user id and name), the app and when, acknowledged at or after \`since\` (default: the last ${DEFAULT_ACKNOWLEDGED_WINDOW_SECONDS / 3_600} h), at most \`limit\`. Optionally for one patient. Reads the projection (one projector tick behind).`,
        querystring: z.object({
          patient: resourceId.optional(),
          state: enumCsv(CRITICAL_STATES)
            .optional()
            .describe(`Comma-separated, each one of ${CRITICAL_STATES.join(', ')}; default open,escalated`),
          since: instant.optional().describe('Acknowledged results: acknowledged at or after this instant'),
          limit: z.coerce.number().int().min(1).max(500).default(100).describe('Most acknowledged results listed'),
        }),
        response: { 200: z.object({ count: z.number().int(), critical_results: z.array(criticalOut) }), ...problems(400, 401, 403) },
      },
    },
    async (req) => {
      const list = await listCriticalResults(pool, callerOf(req), {
        patientId: req.query.patient,
        states: req.query.state,
        since: req.query.since,
        limit: req.query.limit,
      });
      return { count: list.length, critical_results: list.map(criticalJson) };
    },
  );
}
