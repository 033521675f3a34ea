/**
 * The diagnostic order routes (FHIR ServiceRequest): order, list, read, the state transitions, and
 * fulfilment of an ECG order from the stored telemetry. Registered in this order by routes.ts.
 */
import { z } from 'zod';
import { must } from '@vitalis/runtime';
import { enumCsv, instant, nonBlankText, resourceId } from '@vitalis/schemas';
import { DIAGNOSTIC_CODE, LOINC, ORDERABLE_CODES, ORDERABLE_TESTS, isOrderableCode, type OrderableCode } from '@vitalis/clinical';
import { SERVICE_REQUEST_PRIORITIES, SERVICE_REQUEST_STATUSES } from '@vitalis/records';
import { etag, expectedFromIfMatch } from '../access/caller';
import { callerOf, problems } from '../access/http';
import { fulfilFromTelemetry, MAX_STRIP_SECONDS } from './telemetry';
import { serviceRequestOut, toFhirDiagnosticReport, toFhirServiceRequest } from './fhir';
import { changeOrder, createOrder, getOrder, listOrders, unprocessable } from './service';
import {
  idParams,
  ifMatch,
  reportOut,
  bundleOf,
  bundle,
  reasonBody,
  type DiagnosticsApp,
  type DiagnosticsRouteContext,
} from './route-shared';

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

/** POST /api/v1/diagnostics/orders: a doctor orders a test (a FHIR ServiceRequest). */
export function createOrderRoute(app: DiagnosticsApp, { pool }: DiagnosticsRouteContext): void {
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
      const code = must(b.code.coding[0], 'the one coding the schema requires').code;
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
}

/** GET /api/v1/diagnostics/orders: orders by patient and status, from the projection. */
export function listOrdersRoute(app: DiagnosticsApp, { pool, deps }: DiagnosticsRouteContext): void {
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
}

/** GET /api/v1/diagnostics/orders/:id: one order with its ETag. */
export function readOrderRoute(app: DiagnosticsApp, { pool }: DiagnosticsRouteContext): void {
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
}

/** POST /api/v1/diagnostics/orders/:id/{cancel,activate,hold,entered-in-error}: one route per transition of the order. */
export function orderTransitionRoutes(app: DiagnosticsApp, { pool }: DiagnosticsRouteContext): void {
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
}

/** POST /api/v1/diagnostics/orders/:id/fulfil-from-telemetry: an ECG order fulfilled from the stored telemetry. */
export function fulfilFromTelemetryRoute(app: DiagnosticsApp, { d }: DiagnosticsRouteContext): void {
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
            from: instant,
            to: instant,
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
}
