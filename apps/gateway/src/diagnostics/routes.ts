/**
 * Diagnostics REST v1 (issue 21, docs/diagnostics.md): orders (FHIR ServiceRequest), reports
 * (DiagnosticReport with contained Observations) and critical results. Routes are thin: the
 * service (./service.ts) checks access, decides, appends and audits; the same service backs the
 * MCP tools. ETag = the stream version; If-Match is required on PUT (428 without), optional on the
 * other writes (412 when stale). An illegal transition is a 409 naming the current state.
 */
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bundleSchema, enumCsv, nonBlankText, resourceId, searchsetBundle } from '@vitalis/schemas';
import { ANALYTES, DIAGNOSTIC_CODE, LOINC, ORDERABLE_CODES, ORDERABLE_TESTS, isOrderableCode, type OrderableCode } from '@vitalis/clinical';
import { SERVICE_REQUEST_PRIORITIES, SERVICE_REQUEST_STATUSES } from '@vitalis/records';
import type { GatewayDeps } from '../deps';
import { etag, expectedFromIfMatch } from '../access/caller';
import { callerOf, problems } from '../access/http';
import { fulfilFromTelemetry, MAX_STRIP_SECONDS } from './telemetry';
import {
  amendIn,
  diagnosticReportOut,
  serviceRequestOut,
  reportIn,
  reportUpdateIn,
  resultInputs,
  toFhirDiagnosticReport,
  toFhirServiceRequest,
  UnitMismatch,
} from './fhir';
import { diagnosticsDeps } from './deps';
import { criticalJson, criticalOut } from './json';
import {
  acknowledgeCriticalResult,
  analyteUnit,
  changeOrder,
  changeReport,
  createOrder,
  criticalViewOf,
  CRITICAL_STATES,
  DEFAULT_ACKNOWLEDGED_WINDOW_SECONDS,
  getOrder,
  getReport,
  listCriticalResults,
  listOrders,
  listReports,
  postReport,
  reportHistory,
  unprocessable,
} from './service';

const idParams = z.object({ id: resourceId });
const ifMatch = z.object({ 'if-match': z.string().max(100).optional() });
const reportOut = diagnosticReportOut;
const bundleOf = (entry: z.ZodType) => bundleSchema(entry).extend({ total: z.number().int() });
/** A searchset Bundle (the one builder); each entry's fullUrl is the resource's API URL (its identity, where it can be read). */
const bundle = (baseUrl: string, self: string, path: string, resources: Record<string, unknown>[]) => ({
  total: resources.length,
  ...searchsetBundle(
    resources.map((resource) => ({
      fullUrl: `${baseUrl}/api/v1/diagnostics/${path}/${resource.id as string}`,
      resource,
      search: { mode: 'match' as const },
    })),
    { self: `${baseUrl}${self}`, total: resources.length },
  ),
});
const limits = z.object({ low: z.number().optional(), high: z.number().optional() });
// Optional: no body (null to the validator), `{}` or a reason.
const reasonBody = z
  .object({ reason: nonBlankText(2_000).optional() })
  .nullish()
  .meta({ example: { reason: 'requested by the attending physician' } });

const orderIn = z
  .object({
    resourceType: z.literal('ServiceRequest'),
    intent: z.enum(['order', 'proposal']).default('order'),
    status: z.enum(['draft', 'active']).optional().describe('Default: active for an order, draft for a proposal'),
    priority: z.enum(SERVICE_REQUEST_PRIORITIES).default('routine'),
    code: z
      .object({
        coding: z
          .array(
            z.object({
              system: z.literal(LOINC),
              code: z.enum(ORDERABLE_CODES as [OrderableCode, ...OrderableCode[]]),
              display: z.string().max(500).optional(),
            }),
          )
          .min(1)
          .max(1),
      })
      .describe(`LOINC, one of: ${ORDERABLE_CODES.map((c) => `${c} ${ORDERABLE_TESTS[c].display}`).join('; ')}`),
    subject: z.object({ reference: z.string().regex(/^Patient\/[A-Za-z0-9\-.]{1,64}$/, 'must be Patient/<id>') }),
    reasonCode: z
      .array(z.object({ text: nonBlankText(500) }))
      .max(1)
      .optional(),
    note: z
      .array(z.object({ text: nonBlankText(2_000) }))
      .max(1)
      .optional(),
  })
  .meta({
    example: {
      resourceType: 'ServiceRequest',
      intent: 'order',
      priority: 'stat',
      subject: { reference: 'Patient/pat-0001' },
      code: { coding: [{ system: LOINC, code: DIAGNOSTIC_CODE.lactate }] },
      reasonCode: [{ text: 'suspected sepsis' }],
    },
  });

/** Contained Observations → results; a unit that is not the analyte's is a 422 (nothing stored). */
function resultsOf(contained: Parameters<typeof resultInputs>[0]) {
  try {
    return resultInputs(contained, analyteUnit);
  } catch (err) {
    if (err instanceof UnitMismatch)
      throw unprocessable(err.message, [{ path: `body.contained.${err.index}.valueQuantity`, message: err.message }]);
    throw err;
  }
}

const orderIdOf = (reference: string) => reference.slice('ServiceRequest/'.length);

export function diagnosticsRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  const { pool } = deps;
  const d = diagnosticsDeps(deps);
  return async (app) => {
    app.get(
      '/api/v1/diagnostics/catalog',
      {
        schema: {
          tags: ['diagnostics'],
          summary: 'Orderable tests and reportable results (public reference data)',
          description:
            'LOINC codes that may be ordered, and the results a department may report with their UCUM unit, reference range and critical limits. Nothing patient-related.',
          response: {
            200: z.object({
              tests: z.array(
                z.strictObject({ code: z.string(), display: z.string(), section: z.enum(['LAB', 'EC', 'RAD']), performer: z.string() }),
              ),
              results: z.array(
                z.union([
                  z.strictObject({
                    kind: z.literal('quantity'),
                    code: z.string(),
                    display: z.string(),
                    short: z.string().describe('The clinical name shown on screens'),
                    unit: z.string().describe('UCUM'),
                    reference: limits.describe('Reference range'),
                    critical: limits.describe('Below low or above high: a critical result'),
                  }),
                  z.strictObject({
                    kind: z.literal('narrative'),
                    code: z.string(),
                    display: z.string(),
                    short: z.string().describe('The clinical name shown on screens'),
                  }),
                ]),
              ),
            }),
          },
        },
      },
      async () => ({
        tests: Object.values(ORDERABLE_TESTS).map((t) => ({ ...t })),
        results: Object.values(ANALYTES).map((a) => ({ ...a })),
      }),
    );

    // ---- orders ----
    app.post(
      '/api/v1/diagnostics/orders',
      {
        config: { auth: { scopes: ['write:diagnostics'] } },
        schema: {
          tags: ['diagnostics'],
          summary: 'Order a diagnostic test',
          description:
            'Body: a FHIR ServiceRequest (intent order or proposal, priority routine|urgent|asap|stat, code from the catalog, subject, reasonCode). Doctors (write:diagnostics, role doctor). 201 with Location and ETag; an unknown patient: 422.',
          body: orderIn,
          response: { 201: serviceRequestOut, ...problems(400, 401, 403, 422) },
        },
      },
      async (req, reply) => {
        const b = req.body;
        const code = b.code.coding[0]!.code;
        if (!isOrderableCode(code)) throw unprocessable(`${code} cannot be ordered.`);
        const o = await createOrder(pool, callerOf(req), {
          patientId: b.subject.reference.slice('Patient/'.length),
          code,
          priority: b.priority,
          intent: b.intent,
          status: b.status,
          reason: b.reasonCode?.[0]?.text,
          note: b.note?.[0]?.text,
        });
        return reply
          .code(201)
          .header('location', `/api/v1/diagnostics/orders/${o.id}`)
          .header('etag', etag(o.version))
          .send(toFhirServiceRequest(o));
      },
    );

    app.get(
      '/api/v1/diagnostics/orders',
      {
        config: { auth: { scopes: ['read:diagnostics'] } },
        schema: {
          tags: ['diagnostics'],
          summary: 'List orders',
          description:
            'By patient and status (comma-separated), newest first. Reads the projection (eventually consistent, one projector tick).',
          querystring: z.object({
            patient: resourceId.optional(),
            status: enumCsv(SERVICE_REQUEST_STATUSES)
              .optional()
              .describe(`Comma-separated, each one of ${SERVICE_REQUEST_STATUSES.join(', ')}`),
            limit: z.coerce.number().int().min(1).max(100).default(50),
          }),
          response: { 200: bundleOf(serviceRequestOut), ...problems(400, 401, 403) },
        },
      },
      async (req) =>
        bundle(
          deps.config.baseUrl,
          req.url,
          'orders',
          (await listOrders(pool, callerOf(req), { patientId: req.query.patient, status: req.query.status, limit: req.query.limit })).map(
            toFhirServiceRequest,
          ),
        ),
    );

    app.get(
      '/api/v1/diagnostics/orders/:id',
      {
        config: { auth: { scopes: ['read:diagnostics'] } },
        schema: {
          tags: ['diagnostics'],
          summary: 'Read an order',
          params: idParams,
          response: { 200: serviceRequestOut, ...problems(401, 403, 404) },
        },
      },
      async (req, reply) => {
        const o = await getOrder(pool, callerOf(req), req.params.id);
        return reply.header('etag', etag(o.version)).send(toFhirServiceRequest(o));
      },
    );

    const transitions = [
      ['cancel', 'revoke', 'Cancel (revoke) an order', 'draft, active or on-hold → revoked'],
      ['activate', 'activate', 'Activate an order', 'draft (a proposal) or on-hold → active'],
      ['hold', 'hold', 'Put an order on hold', 'active → on-hold'],
      ['entered-in-error', 'enterInError', 'Mark an order entered in error', 'any state but entered-in-error'],
    ] as const;
    for (const [path, command, summary, rule] of transitions) {
      app.post(
        `/api/v1/diagnostics/orders/:id/${path}`,
        {
          config: { auth: { scopes: ['write:diagnostics'] } },
          schema: {
            tags: ['diagnostics'],
            summary,
            description: `${rule}. Body optional: {reason}. If-Match optional (412 when stale). Any other state: 409 naming it.`,
            params: idParams,
            headers: ifMatch,
            body: reasonBody,
            response: { 200: serviceRequestOut, ...problems(400, 401, 403, 404, 409, 412) },
          },
        },
        async (req, reply) => {
          const expected = expectedFromIfMatch(req.headers['if-match'], false);
          const o = await changeOrder(pool, callerOf(req), req.params.id, expected, {
            type: command,
            ...(req.body?.reason ? { reason: req.body.reason } : {}),
          });
          return reply.header('etag', etag(o.version)).send(toFhirServiceRequest(o));
        },
      );
    }

    app.post(
      '/api/v1/diagnostics/orders/:id/fulfil-from-telemetry',
      {
        config: { auth: { scopes: ['write:diagnostics', 'read:vitals'] } },
        schema: {
          tags: ['diagnostics'],
          summary: 'Fulfil an ECG order from the stored telemetry',
          description: `A rhythm strip (${DIAGNOSTIC_CODE.ecgStudy}) or 12-lead (${DIAGNOSTIC_CODE.ecg12Lead}) order for a monitored patient becomes a final DiagnosticReport: every stored ECG chunk of [from, to) (at most ${MAX_STRIP_SECONDS} s) as an Observation with valueSampledData (the same samples the live stream delivered), and each vital sign's latest value within 10 minutes before \`to\`. Doctor (write:diagnostics + read:vitals). The same window again answers the stored report (200).`,
          params: idParams,
          body: z
            .object({
              from: z.iso.datetime({ offset: true }),
              to: z.iso.datetime({ offset: true }),
              conclusion: nonBlankText(10_000).optional(),
            })
            .meta({ example: { from: '2026-11-25T08:00:00Z', to: '2026-11-25T08:00:10Z', conclusion: 'sinus rhythm, no ST changes' } }),
          response: { 200: reportOut, 201: reportOut, ...problems(400, 401, 403, 409, 422) },
        },
      },
      async (req, reply) => {
        const { report, created } = await fulfilFromTelemetry(d, callerOf(req), req.params.id, req.body);
        if (created) reply.code(201).header('location', `/api/v1/diagnostics/reports/${report.id}`);
        return reply.header('etag', etag(report.version)).send(toFhirDiagnosticReport(report));
      },
    );

    // ---- reports ----
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
          orderId: orderIdOf(b.basedOn[0]!.reference),
          identifier: b.identifier[0]!,
          status: b.status,
          results: resultsOf(b.contained),
          conclusion: b.conclusion ?? null,
          effectiveAt: b.effectiveDateTime,
        });
        if (created) reply.code(201).header('location', `/api/v1/diagnostics/reports/${report.id}`);
        return reply.header('etag', etag(report.version)).send(toFhirDiagnosticReport(report));
      },
    );

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

    // ---- critical results ----
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
      async (req) => criticalJson(criticalViewOf(await acknowledgeCriticalResult(d, callerOf(req), req.params.id, req.body?.note))!),
    );

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
            since: z.iso.datetime({ offset: true }).optional().describe('Acknowledged results: acknowledged at or after this instant'),
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
  };
}
