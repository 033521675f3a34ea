/**
 * One prom-client Registry per app (never the library's global one: a test process runs several
 * gateways and workers side by side), the default process/runtime collectors, the PostgreSQL pool
 * and Redis health gauges every app shares, and the scrape endpoint.
 *
 * Why a separate port (METRICS_HOST:METRICS_PORT, 127.0.0.1 by default) and not a route on the
 * gateway: the ingest and the projector have no HTTP server, and one shape for all three is what a
 * Prometheus (or Kubernetes pod annotation) scrapes. Off the public listener, the scrape needs no
 * token, and the loopback default keeps it private until an operator binds it to the pod network.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import client from 'prom-client';
import { METRIC } from './names';

export type Registry = client.Registry;

export function createRegistry(app: string): client.Registry {
  const registry = new client.Registry();
  registry.setDefaultLabels({ app });
  client.collectDefaultMetrics({ register: registry });
  return registry;
}

/** What pg.Pool exposes about itself (read at scrape time). */
export interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** vitalis_pg_pool_clients{state="total|idle|waiting"}. */
export function observePool(registry: client.Registry, pool: PoolCounts): void {
  new client.Gauge({
    name: METRIC.pgPool,
    help: 'PostgreSQL pool clients: total open, idle, and checkouts waiting for one',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
}

/** vitalis_redis_up: 1 while the connection is ready. */
export function observeRedis(registry: client.Registry, redis: { status: string }): void {
  new client.Gauge({
    name: METRIC.redisUp,
    help: 'Redis connection ready (1) or not (0)',
    registers: [registry],
    collect() {
      this.set(redis.status === 'ready' ? 1 : 0);
    },
  });
}

/**
 * A counter that mirrors a monotonically increasing number kept elsewhere (an app's own stats
 * object): read at scrape time, so the hot path only does `stats.x += 1`.
 */
export function mirrorCounter(registry: client.Registry, name: string, help: string, read: () => number): void {
  let seen = 0;
  new client.Counter({
    name,
    help,
    registers: [registry],
    collect() {
      const now = read();
      if (now > seen) this.inc(now - seen);
      seen = Math.max(seen, now);
    },
  });
}

export interface MetricsServer {
  /** e.g. http://127.0.0.1:9464/metrics */
  url: string;
  close: () => Promise<void>;
}

/** Serves GET /metrics (Prometheus text format) and nothing else. Port 0: an ephemeral one (tests). */
export async function startMetricsServer(registry: client.Registry, options: { host: string; port: number }): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    registry.metrics().then(
      (body) =>
        res
          .writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' })
          .end(req.method === 'HEAD' ? undefined : body),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics collection failed\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
