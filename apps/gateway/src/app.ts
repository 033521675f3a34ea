/**
 * Builds the gateway's fastify instance from its dependencies. main.ts listens; tests call
 * buildGateway with their own deps and listen on an ephemeral port. Every route module is a
 * plugin registered here, so this file is the map of the HTTP surface.
 */
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { newRequestId, problemDetails, clientErrorHandler, frameworkErrorsHandler } from '@vitalis/http';
import { VITALIS_VERSION, type ReadinessGate } from '@vitalis/runtime';
import type { GatewayDeps } from './deps';
import { authPlugin } from './auth';
import { developerSurface } from './developer';
import { healthRoutes } from './health';
import { gatewayReadiness, probeRoutes } from './probes';
import { vitalsRoutes } from './vitals/routes';
import { patientRoutes } from './patients/routes';
import { appointmentRoutes } from './appointments/routes';
import { triageRoutes } from './triage/routes';
import { diagnosticsRoutes } from './diagnostics/routes';
import { alarmRoutes } from './alarms/routes';
import { auditRoutes } from './audit/routes';
import { catalogRoutes } from './catalog/routes';
import { FHIR_BASE_PATH } from './fhir/capability';
import { fhirRoutes } from './fhir/routes';
import { exportRoutes } from './fhir/export';
import { SubscriptionNumberer } from './fhir/subscriptions/numberer';
import { fhirSubscriptionRoutes } from './fhir/subscriptions/routes';
import { createLiveHub, liveRoutes } from './live';
import { LiveSources } from './vitals/live-sources';
import { SyntheticLive } from './vitals/synthetic-live';
import { mcpRoutes } from './mcp';
import { uiRoutes } from './ui/routes';
import { instrumentHttp, observeLiveHub } from './metrics';
import { traceHttp } from './tracing';
import { routeModule } from './plugins';

/** The gateway's fastify type: zod schemas drive validation, serialisation and the OpenAPI document. */
export type GatewayApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Readiness (GET /readyz): 503 once drained at shutdown. */
    readiness: ReadinessGate;
    /** Ends every live stream with the reconnect hint (shutdown). */
    closeLive: () => Promise<void>;
  }
}

/**
 * The live routes (SSE, WebSocket, and the FHIR subscriptions' websocket) as a route module: the live
 * WebSocket verifies its bearer in the socket (verifyBearer), the FHIR subscriptions' socket checks
 * revocation (revocations), so both decorators are declared.
 */
function liveRouteModule(deps: GatewayDeps, liveSources: LiveSources, numberer: SubscriptionNumberer) {
  const routes = liveRoutes(deps, liveSources, [fhirSubscriptionRoutes(deps, numberer)]);
  return routeModule('vitalis-live-routes', routes, ['verifyBearer', 'revocations']);
}

export async function buildGateway(deps: GatewayDeps): Promise<GatewayApp> {
  const { config, logger } = deps;
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: config.BODY_LIMIT_BYTES,
    // The audit trail's request id: always the server's (a caller's x-request-id is echoed apart).
    genReqId: newRequestId,
    // Off unless TRUST_PROXY names the proxies (config.ts): then req.ip is the client's address
    // from X-Forwarded-For, past those hops only (auth/client-address.ts).
    trustProxy: config.TRUST_PROXY.length > 0 ? config.TRUST_PROXY : false,
    // A `__proto__` or `constructor.prototype` key in a JSON body is dropped like any other unknown
    // key (secure-json-parse), not a 400 "not valid JSON" for a body that is valid JSON.
    onProtoPoisoning: 'remove',
    onConstructorPoisoning: 'remove',
    // Query strings like ?agg=avg,min are split by the route schemas, not by the parser.
    // maxParamLength: above the longest path parameter the schemas allow once percent-encoded (100
    // characters x 4 UTF-8 bytes x 3), so the route's schema answers a bad one (400) and only a
    // longer segment meets the router's 414.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
    // The refusals made before any route runs answer RFC 9457 problems too (libs/http/src/framework-errors.ts).
    frameworkErrors: frameworkErrorsHandler(config.baseUrl),
    clientErrorHandler: clientErrorHandler(config.baseUrl),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(problemDetails, { baseUrl: config.baseUrl, fhirBasePaths: [FHIR_BASE_PATH] });
  // First: every route after it is counted by its pattern (metrics.ts).
  instrumentHttp(app, deps.metrics);
  // A span per request by its pattern too, when traces are on (tracing.ts).
  if (deps.tracing) traceHttp(app, deps.tracing);
  // Before every route module: it catalogues every route (OpenAPI, deprecation headers).
  await app.register(developerSurface(deps));

  // Auth first: its enforcement hook guards every route registered after it. Each route module declares
  // that it needs problem details, the developer surface and auth (routeModule, plugins.ts): fastify refuses another order.
  await app.register(authPlugin(deps));
  await app.register(routeModule('vitalis-health-routes', healthRoutes(deps, VITALIS_VERSION)));
  // The orchestrator's probes; main.ts drains the gate at shutdown (libs/runtime shutdown.ts).
  const readiness = gatewayReadiness(deps);
  app.decorate('readiness', readiness);
  await app.register(routeModule('vitalis-probe-routes', probeRoutes(readiness)));
  await app.register(routeModule('vitalis-vitals-routes', vitalsRoutes(deps, { topic: config.VITALS_TOPIC })));
  await app.register(routeModule('vitalis-patient-routes', patientRoutes(deps)));
  await app.register(routeModule('vitalis-appointment-routes', appointmentRoutes(deps)));
  await app.register(routeModule('vitalis-triage-routes', triageRoutes(deps)));
  await app.register(routeModule('vitalis-diagnostics-routes', diagnosticsRoutes(deps)));
  await app.register(routeModule('vitalis-alarm-routes', alarmRoutes(deps)));
  await app.register(routeModule('vitalis-audit-routes', auditRoutes(deps)));
  await app.register(routeModule('vitalis-catalog-routes', catalogRoutes(deps)));
  await app.register(routeModule('vitalis-fhir-routes', fhirRoutes(deps, VITALIS_VERSION)));
  await app.register(routeModule('vitalis-export-routes', exportRoutes(deps)));
  // Live vitals (SSE, WebSocket, MCP subscriptions): the hub for real patients, the synthetic source
  // for sandbox ones, one chooser (vitals/live-sources.ts). Streams end before the server closes.
  const revokedAmong = (ids: string[]) => app.revocations.revokedAmong(ids);
  const liveHub = createLiveHub(deps, revokedAmong);
  observeLiveHub(deps.metrics.registry, liveHub);
  await liveHub.start();
  const syntheticLive = new SyntheticLive({ logger: deps.logger, revokedAmong });
  syntheticLive.start();
  app.decorate('liveHub', liveHub);
  app.decorate('syntheticLive', syntheticLive);
  // Every live subscriber gets its reconnect hint (the 'shutdown' close) before the server stops;
  // main.ts calls it first at shutdown, the preClose hook covers a plain app.close(). Idempotent.
  // FHIR subscriptions: every active one numbered through the hub (fhir/subscriptions/numberer.ts)
  const subscriptionNumberer = new SubscriptionNumberer(deps.pool, liveHub, deps.config.LIVE_TOPIC, deps.logger);
  await subscriptionNumberer.start();
  const closeLive = async () => {
    subscriptionNumberer.close();
    syntheticLive.close();
    await liveHub.close();
  };
  app.decorate('closeLive', closeLive);
  app.addHook('preClose', closeLive);
  const liveSources = new LiveSources(liveHub, syntheticLive);
  await app.register(liveRouteModule(deps, liveSources, subscriptionNumberer));
  await app.register(mcpRoutes(deps, liveSources));
  await app.register(routeModule('vitalis-ui-routes', uiRoutes(deps)));
  return app;
}
