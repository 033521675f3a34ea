/**
 * Builds the gateway's fastify instance from its dependencies. main.ts listens; tests call
 * buildGateway with their own deps and listen on an ephemeral port. Every route module is a
 * plugin registered here, so this file is the map of the HTTP surface.
 */
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RawReplyDefaultExpression, type RawRequestDefaultExpression, type RawServerDefault } from 'fastify';
import swagger from '@fastify/swagger';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { problemDetails, requestIdFrom } from '@vitalis/http';
import { VITALIS_VERSION } from '@vitalis/runtime';
import type { GatewayDeps } from './deps';
import { authPlugin } from './auth';
import { healthRoutes } from './health';
import { vitalsRoutes } from './vitals/routes';
import { createLiveHub, liveRoutes } from './live';

/** The gateway's fastify type: zod schemas drive validation, serialisation and the OpenAPI document. */
export type GatewayApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export async function buildGateway(deps: GatewayDeps): Promise<GatewayApp> {
  const { config, logger } = deps;
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: config.BODY_LIMIT_BYTES,
    genReqId: requestIdFrom,
    trustProxy: false,
    // Query strings like ?agg=avg,min are split by the route schemas, not by the parser.
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(problemDetails, { baseUrl: config.baseUrl });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Vitalis API', version: VITALIS_VERSION, description: 'Healthcare telemetry platform: OAuth 2, REST v1, MCP.' },
      servers: [{ url: config.baseUrl }],
    },
    transform: jsonSchemaTransform,
  });

  // Auth first: its enforcement hook guards every route registered after it.
  await app.register(authPlugin(deps));
  await app.register(healthRoutes(deps, VITALIS_VERSION));
  await app.register(vitalsRoutes(deps));
  // Live vitals (SSE, WebSocket; MCP subscribes through app.liveHub). Streams end before the server closes.
  const liveHub = createLiveHub(deps, (ids) => app.revocations.revokedAmong(ids));
  await liveHub.start();
  app.decorate('liveHub', liveHub);
  app.addHook('preClose', () => liveHub.close());
  await app.register(liveRoutes(deps, liveHub));
  return app;
}
