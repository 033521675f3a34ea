/**
 * The gateway's metrics (@vitalis/metrics): its registry with the process, pool, Redis and audit
 * series, created once with the deps (main.ts or a test); buildGateway adds the HTTP hook and the
 * live hub's series. Served on its own listener (METRICS_HOST:METRICS_PORT), never on the API port.
 */
import type { FastifyInstance } from 'fastify';
import { auditWriteStats } from '@vitalis/audit';
import type { Pool } from '@vitalis/db';
import {
  METRIC,
  createGatewayMetrics,
  createRegistry,
  mirrorCounter,
  observePool,
  observeRedis,
  type GatewayMetrics,
  type Registry,
} from '@vitalis/metrics';
import type { Redis } from '@vitalis/redis';
import client from 'prom-client';
import type { LiveHub } from './vitals/hub';

export function gatewayMetrics({ pool, redis }: { pool: Pool; redis: Redis }): GatewayMetrics {
  const registry = createRegistry('gateway');
  observePool(registry, pool);
  observeRedis(registry, redis);
  mirrorCounter(
    registry,
    METRIC.auditWriteFailures,
    'Audit rows that could not be written (each one a refused request)',
    () => auditWriteStats.failures,
  );
  return createGatewayMetrics(registry);
}

/**
 * Every response, by route pattern (fastify's `routeOptions.url`, e.g. /api/v1/patients/:id), never
 * the raw URL: the path of a patient's record carries the patient id.
 */
export function instrumentHttp(app: FastifyInstance, metrics: GatewayMetrics): void {
  app.addHook('onResponse', async (req, reply) => {
    metrics.httpRequest(req.method, req.routeOptions.url, reply.statusCode, reply.elapsedTime / 1_000);
  });
}

/** The live hub's counts, read at scrape time (the hub keeps them as plain numbers). */
export function observeLiveHub(registry: Registry, hub: LiveHub): void {
  new client.Gauge({
    name: METRIC.liveSubscribers,
    help: 'Open live subscriptions by transport (sse, ws, mcp)',
    labelNames: ['transport'] as const,
    registers: [registry],
    collect() {
      for (const [transport, n] of Object.entries(hub.subscribersByTransport())) this.set({ transport }, n);
    },
  });
  mirrorCounter(registry, METRIC.liveDelivered, "Live events handed to subscribers' transports", () => hub.stats.delivered);
  mirrorCounter(registry, METRIC.liveLagged, 'Live subscribers closed because they fell behind (told `lagged`)', () => hub.stats.lagged);
  mirrorCounter(
    registry,
    METRIC.liveGaps,
    'Holes seen in the live channel (lost publications), each refilled from the append log',
    () => hub.stats.gaps,
  );
  mirrorCounter(
    registry,
    METRIC.liveResyncs,
    'Subscribers refilled from the append log after a gap or a Redis reconnect',
    () => hub.stats.resyncs,
  );
}
