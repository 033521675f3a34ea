/**
 * What the diagnostics routes (routes.ts, order-routes.ts, report-routes.ts) share: the path and
 * header schemas, the searchset Bundle builder, the optional reason body, contained Observations read
 * as results, and the context each route function is given.
 */
import { z } from 'zod';
import { bundleSchema, nonBlankText, resourceId, searchsetBundle } from '@vitalis/schemas';
import type { GatewayDeps } from '../deps';
import type { RouteApp } from '../route-app';
import { diagnosticReportOut, resultInputs, UnitMismatch } from './fhir';
import { analyteUnit, unprocessable, type DiagnosticsDeps } from './service';

export const idParams = z.object({ id: resourceId });
export const ifMatch = z.object({ 'if-match': z.string().max(100).optional() });
export const reportOut = diagnosticReportOut;
export const bundleOf = (entry: z.ZodType) => bundleSchema(entry).extend({ total: z.number().int() });
/** A searchset Bundle (the one builder); each entry's fullUrl is the resource's API URL (its identity, where it can be read). */
export const bundle = (baseUrl: string, self: string, path: string, resources: Record<string, unknown>[]) => ({
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
// Optional: no body (null to the validator), `{}` or a reason.
export const reasonBody = z
  .object({ reason: nonBlankText(2_000).optional() })
  .nullish()
  .meta({ example: { reason: 'requested by the attending physician' } });

/** Contained Observations → results; a unit that is not the analyte's is a 422 (nothing stored). */
export function resultsOf(contained: Parameters<typeof resultInputs>[0]) {
  try {
    return resultInputs(contained, analyteUnit);
  } catch (err) {
    if (err instanceof UnitMismatch)
      throw unprocessable(err.message, [{ path: `body.contained.${err.index}.valueQuantity`, message: err.message }]);
    throw err;
  }
}
export const orderIdOf = (reference: string) => reference.slice('ServiceRequest/'.length);

/** The app a diagnostics route is registered on (the zod type provider's instance). */
export type DiagnosticsApp = RouteApp;

/** What the diagnostics routes use: the pool for reads, the service's dependencies for writes, the gateway's deps for its base URL. */
export interface DiagnosticsRouteContext {
  deps: GatewayDeps;
  pool: GatewayDeps['pool'];
  d: DiagnosticsDeps;
}
