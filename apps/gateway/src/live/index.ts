/**
 * Live vitals' transports (SSE, WebSocket) and the plugin that registers them. The hub (one per
 * gateway, vitals/hub.ts) and the synthetic source of the sandbox patients (vitals/synthetic-live.ts)
 * are the vitals domain's: `createLiveHub` builds the hub from the gateway's dependencies, and
 * buildGateway decorates the app with both (`app.liveHub`, `app.syntheticLive`); the transports
 * (SSE, WebSocket, MCP) subscribe through the one chooser of the two (vitals/live-sources.ts):
 * `subscribe({ patients, codes, after }, sink)`.
 */
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { GatewayDeps } from '../deps';
import type { SyntheticLive } from '../vitals/synthetic-live';
import { LiveHub } from '../vitals/hub';
import type { LiveSource } from '../vitals/live-sources';
import { WS_SERVICE_RESTART } from './reconnect';
import { sseRoutes } from './sse';
import { wsRoutes } from './ws';

declare module 'fastify' {
  interface FastifyInstance {
    /** The live vitals hub (SSE, WebSocket and MCP subscriptions of real patients). */
    liveHub: LiveHub;
    /** The live source of the synthetic sandbox patients (vitals/synthetic-live.ts). */
    syntheticLive: SyntheticLive;
  }
}

export function createLiveHub(deps: GatewayDeps, revokedAmong?: (ids: string[]) => Promise<Set<string>>): LiveHub {
  return new LiveHub({
    pool: deps.pool,
    redis: deps.redis,
    topic: deps.config.LIVE_TOPIC,
    logger: deps.logger,
    maxQueue: deps.config.LIVE_MAX_QUEUE,
    revokedAmong,
    tracing: deps.tracing,
    onHandOver: (event, seconds) => {
      if (event.kind === 'observation') deps.metrics.observationDelivered(seconds);
      else deps.metrics.alertDelivered(event.data.severity, seconds);
    },
  });
}

/** `alsoOverWebSocket`: other route plugins with WebSocket routes (registered where @fastify/websocket is). */
export function liveRoutes(deps: GatewayDeps, hub: LiveSource, alsoOverWebSocket: FastifyPluginAsyncZod[] = []): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(websocket, {
      options: { maxPayload: 64 * 1024 },
      // At close, a socket still open (no subscription left to carry a reconnect hint) is told
      // 1012 "service restart" rather than the default bare close.
      preClose: function (this: FastifyInstance, done: () => void) {
        for (const client of this.websocketServer.clients) client.close(WS_SERVICE_RESTART, 'service restart');
        this.websocketServer.close();
        done();
      },
    });
    await app.register(sseRoutes(deps, hub));
    await app.register(wsRoutes(deps, hub));
    for (const routes of alsoOverWebSocket) await app.register(routes);
  };
}
