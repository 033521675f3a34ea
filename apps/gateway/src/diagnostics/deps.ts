/**
 * What the diagnostics service needs of the gateway's dependencies (the pool, Redis for the live
 * critical-result notices, the escalation delay), taken by its REST routes and its MCP tools alike.
 */
import type { GatewayDeps } from '../deps';
import type { DiagnosticsDeps } from './service';

/** The diagnostics service's dependencies, from the gateway's. */
export const diagnosticsDeps = (deps: GatewayDeps): DiagnosticsDeps => ({
  pool: deps.pool,
  redis: deps.redis,
  escalationSeconds: deps.config.DIAGNOSTICS_ESCALATION_SECONDS,
});
