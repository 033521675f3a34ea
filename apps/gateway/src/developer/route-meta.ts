/**
 * Route metadata the developer surface reads: `config.deprecation` marks an endpoint deprecated
 * (spec section 9), and the catalog records every route the server registers (from an onRoute
 * hook) so the OpenAPI document, the deprecation list and the tests read one source.
 */
import type { RouteOptions } from 'fastify';
import type { ZodType } from 'zod';
import type { RouteAuth } from '../auth/route-auth';

export interface RouteDeprecation {
  /** When the deprecation was announced (ISO 8601). */
  since: string;
  /** When the endpoint stops being served (ISO 8601). */
  sunset: string;
  /** The path of the endpoint that replaces it (relative to the base URL). */
  replacement: string;
  /** What a client changes to migrate (shown at /developers#deprecation and in the OpenAPI). */
  migration: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    deprecation?: RouteDeprecation;
    /**
     * The request body as the OpenAPI document shows it, when the handler checks part of it itself
     * (POST /api/v1/vitals: every item, all-or-nothing, 422): the validator takes `schema.body`.
     */
    openapiBody?: ZodType;
  }
}

export interface CatalogRoute {
  method: string;
  /** fastify's pattern, e.g. /api/v1/patients/:id/vitals/latest */
  url: string;
  /** OpenAPI path template, e.g. /api/v1/patients/{id}/vitals/latest */
  path: string;
  auth?: RouteAuth;
  deprecation?: RouteDeprecation;
  summary?: string;
  /** fastify adds a HEAD twin to every GET (exposeHeadRoutes); documented through the GET. */
  headTwin: boolean;
}

/** `:id` → `{id}` (the rule @fastify/swagger applies too). */
export const openapiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** Every route the server registers, in registration order. */
export class RouteCatalog {
  readonly routes: CatalogRoute[] = [];

  add(route: RouteOptions): void {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const config = route.config as { auth?: RouteAuth; deprecation?: RouteDeprecation } | undefined;
    const schema = route.schema as { summary?: string } | undefined;
    for (const method of methods) {
      this.routes.push({
        method: method.toUpperCase(),
        url: route.url,
        path: openapiPath(route.url),
        auth: config?.auth,
        deprecation: config?.deprecation,
        summary: schema?.summary,
        headTwin: method.toUpperCase() === 'HEAD' && this.routes.some((r) => r.method === 'GET' && r.url === route.url),
      });
    }
  }

  find(method: string, path: string): CatalogRoute | undefined {
    return this.routes.find((r) => r.method === method.toUpperCase() && r.path === path);
  }

  deprecated(): CatalogRoute[] {
    return this.routes.filter((r) => r.deprecation && !r.headTwin);
  }
}
