/**
 * Live vitals: the hub (one per gateway) and its transports. `createLiveHub` is called by
 * buildGateway, which decorates the app with it (`app.liveHub`) and with the sandbox's synthetic
 * source (`app.syntheticLive`); the transports (SSE, WebSocket, MCP) subscribe through the one
 * chooser of the two (sources.ts): `subscribe({ patients, codes, after }, sink)`.
 */
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { GatewayDeps } from '../deps';
import type { SyntheticLive } from '../sandbox/live';
import { LiveHub } from './hub';
import type { LiveSource } from './sources';
import { WS_SERVICE_RESTART } from './reconnect';
import { sseRoutes } from './sse';
import { wsRoutes } from './ws';

export { LiveHub } from './hub';
export type { LiveMessage, LiveSink, LiveFilter, SubscribeOptions, Subscription, CloseReason } from './hub';
export type { LiveSource } from './sources';

declare module 'fastify' {
  interface FastifyInstance {
    /** The live vitals hub (SSE, WebSocket and MCP subscriptions of real patients). */
    liveHub: LiveHub;
    /** The live source of the synthetic sandbox patients (sandbox/live.ts). */
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
