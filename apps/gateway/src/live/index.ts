/**
 * Live vitals: the hub (one per gateway) and its transports. `createLiveHub` is called by
 * buildGateway, which decorates the app with it (`app.liveHub`) so the MCP server can subscribe
 * through the same API: `app.liveHub.subscribe({ patients, codes, after }, sink)` or
 * `app.liveHub.subscribeCallback(filter, onMessage) → unsubscribe`.
 */
import websocket from '@fastify/websocket';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { GatewayDeps } from '../deps';
import { LiveHub } from './hub';
import { sseRoutes } from './sse';
import { wsRoutes } from './ws';

export { LiveHub } from './hub';
export type { LiveMessage, LiveSink, LiveFilter, SubscribeOptions, Subscription, CloseReason } from './hub';

declare module 'fastify' {
  interface FastifyInstance {
    /** The live vitals hub (SSE, WebSocket and MCP subscriptions). */
    liveHub: LiveHub;
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
  });
}

export function liveRoutes(deps: GatewayDeps, hub: LiveHub): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
    await app.register(sseRoutes(deps, hub));
    await app.register(wsRoutes(deps, hub));
  };
}
