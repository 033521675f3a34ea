/**
 * The developer surface (spec sections 1, 4, 9): GET /openapi.json, GET /auth.md, GET /developers,
 * and the deprecation mechanism. Registered on the root instance BEFORE every route module: its
 * onRoute hook sees every route the server registers (the catalog) and attaches the deprecation
 * headers to deprecated ones, and @fastify/swagger collects the routes' zod schemas.
 */
import swagger from '@fastify/swagger';
import fp from 'fastify-plugin';
import { FASTIFY_VERSIONS, PLUGIN } from '../plugins';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { VITALIS_VERSION } from '@vitalis/runtime';
import type { GatewayDeps } from '../deps';
import { renderAuthMarkdown } from './auth-md';
import { attachDeprecationHeaders } from './deprecation';
import { swaggerOptions } from './openapi';
import { portalCsp, portalNonce, renderPortal } from './portal';
import { RouteCatalog } from './route-meta';

export { RouteCatalog, openapiPath, type CatalogRoute, type RouteDeprecation } from './route-meta';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route the server registered (method, pattern, auth, deprecation). */
    routeCatalog: RouteCatalog;
  }
}

const openapiDocument = z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) });

export function developerSurface(deps: GatewayDeps) {
  const plugin: FastifyPluginAsyncZod = async (app) => {
    const catalog = new RouteCatalog();
    const baseUrl = () => deps.config.baseUrl;
    app.decorate('routeCatalog', catalog);
    app.addHook('onRoute', (route) => {
      catalog.add(route);
      attachDeprecationHeaders(route, baseUrl);
    });
    await app.register(swagger, swaggerOptions(deps.config.baseUrl));

    app.get(
      '/openapi.json',
      {
        schema: {
          tags: ['developer'],
          summary: 'This OpenAPI 3.1 document',
          description: 'Generated from the zod schemas the routes validate with; also exported to schemas/openapi.json.',
          response: { 200: openapiDocument.describe('The OpenAPI 3.1 document') },
        },
      },
      async (_req, reply) => reply.header('cache-control', 'public, max-age=300').send(app.swagger() as z.infer<typeof openapiDocument>),
    );

    app.get(
      '/auth.md',
      {
        schema: {
          tags: ['developer'],
          summary: 'Authentication walkthrough (Markdown, copy-paste curl examples)',
          produces: ['text/markdown'],
          response: { 200: z.string().describe('The walkthrough (spec section 5) with runnable curl examples') },
        },
      },
      async (_req, reply) =>
        reply.type('text/markdown; charset=utf-8').header('cache-control', 'public, max-age=300').send(renderAuthMarkdown(baseUrl())),
    );

    app.get(
      '/developers',
      {
        schema: {
          tags: ['developer'],
          summary: 'Developer portal (HTML): quick start, docs, release and migration notes, #deprecation',
          produces: ['text/html'],
          response: { 200: z.string().describe('The developer portal page') },
        },
      },
      async (_req, reply) => {
        const nonce = portalNonce();
        const html = renderPortal({ baseUrl: baseUrl(), version: VITALIS_VERSION, deprecated: catalog.deprecated() }, nonce);
        return reply
          .type('text/html; charset=utf-8')
          .header('content-security-policy', portalCsp(nonce))
          .header('x-content-type-options', 'nosniff')
          .header('referrer-policy', 'no-referrer')
          .header('cache-control', 'no-cache')
          .send(html);
      },
    );
  };
  return fp(plugin, { name: PLUGIN.developer, fastify: FASTIFY_VERSIONS, dependencies: [PLUGIN.problems] });
}
