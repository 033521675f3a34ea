/**
 * What the gateway's plugins need of one another, declared rather than remembered: each plugin
 * names the plugins (fastify-plugin `dependencies`) and decorators (`decorators`) it uses, and
 * fastify checks them when it loads the plugin, so a plugin registered without, or before, what it
 * needs stops the server from starting (FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED,
 * FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE) instead of serving routes that are unguarded, missing
 * from the OpenAPI document or answered without problem details. The order in app.ts is then
 * checked by fastify, not only written down.
 */
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** The names the gateway's shared plugins register under (fastify-plugin `name`). */
export const PLUGIN = {
  /** libs/http's problem details (plugin.ts): the error handler and 404 every route answers through. */
  problems: 'vitalis-problem-details',
  /** developer/index.ts: its onRoute hook catalogues every later route (OpenAPI, deprecation headers). */
  developer: 'vitalis-developer-surface',
  /** auth/index.ts: the bearer guard on every later route, and `verifyBearer`, `bearerAuth`, `revocations`, `signingKeys`. */
  auth: 'vitalis-auth',
  /** auth/rate-limits.ts: `rateLimiter` and `failureBudget`. */
  rateLimits: 'vitalis-rate-limits',
  /** mcp/index.ts: the MCP endpoint and `mcpSessions`. */
  mcp: 'vitalis-mcp',
} as const;

/** The fastify versions every gateway plugin is written for (fastify-plugin `fastify`). */
export const FASTIFY_VERSIONS = '5.x';

/** What every route module needs registered before it: problem details, the route catalogue and the auth guard. */
export const ROUTE_MODULE_NEEDS: readonly string[] = [PLUGIN.problems, PLUGIN.developer, PLUGIN.auth];

/**
 * A route module with what it needs declared: fastify refuses to start when it is registered
 * before ROUTE_MODULE_NEEDS or on an instance without the instance `decorators` it uses (e.g.
 * `verifyBearer`). `encapsulate: true` keeps it a plain plugin: its hooks, decorators and
 * settings stay inside it, as when it was registered bare.
 */
export function routeModule(name: string, plugin: FastifyPluginAsyncZod, decorators: readonly string[] = []): FastifyPluginAsyncZod {
  return fp(plugin, {
    name,
    fastify: FASTIFY_VERSIONS,
    encapsulate: true,
    dependencies: [...ROUTE_MODULE_NEEDS],
    decorators: { fastify: [...decorators] },
  });
}
