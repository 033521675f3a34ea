/**
 * Diagnostics REST v1 (issue 21, docs/diagnostics.md): orders (FHIR ServiceRequest), reports
 * (DiagnosticReport with contained Observations) and critical results. Routes are thin: the
 * service (./service.ts) checks access, decides, appends and audits; the same service backs the
 * MCP tools. ETag = the stream version; If-Match is required on PUT (428 without), optional on the
 * other writes (412 when stale). An illegal transition is a 409 naming the current state.
 */
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ANALYTES, ORDERABLE_TESTS } from '@vitalis/clinical';
import type { GatewayDeps } from '../deps';
import { diagnosticsDeps } from './deps';
import { createOrderRoute, listOrdersRoute, readOrderRoute, orderTransitionRoutes, fulfilFromTelemetryRoute } from './order-routes';
import {
  postReportRoute,
  listReportsRoute,
  readReportRoute,
  updateReportRoute,
  amendReportRoute,
  cancelReportRoute,
  reportHistoryRoute,
  acknowledgeCriticalRoute,
  listCriticalResultsRoute,
} from './report-routes';
import { type DiagnosticsApp, type DiagnosticsRouteContext } from './route-shared';

const limits = z.object({ low: z.number().optional(), high: z.number().optional() });

/** GET /api/v1/diagnostics/catalog: the orderable tests and reportable results (public reference data). */
function catalogRoute(app: DiagnosticsApp): void {
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
}

/** The diagnostics REST routes, registered in the order the OpenAPI document lists them. */
export function diagnosticsRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  const context: DiagnosticsRouteContext = { deps, pool: deps.pool, d: diagnosticsDeps(deps) };
  return async (app) => {
    catalogRoute(app);
    createOrderRoute(app, context);
    listOrdersRoute(app, context);
    readOrderRoute(app, context);
    orderTransitionRoutes(app, context);
    fulfilFromTelemetryRoute(app, context);
    postReportRoute(app, context);
    listReportsRoute(app, context);
    readReportRoute(app, context);
    updateReportRoute(app, context);
    amendReportRoute(app, context);
    cancelReportRoute(app, context);
    reportHistoryRoute(app, context);
    acknowledgeCriticalRoute(app, context);
    listCriticalResultsRoute(app, context);
  };
}
