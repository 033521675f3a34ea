/**
 * Starts a real gateway on an ephemeral port against the real test infrastructure and returns
 * its base URL. Tests then speak HTTP to it like any client would.
 */
import type { AddressInfo } from 'node:net';
import { createPool } from '@vitalis/db';
import { createKafka } from '@vitalis/kafka';
import { createLogger, type DestinationStream } from '@vitalis/log';
import { createRedis } from '@vitalis/redis';
import { startMetricsServer, type MetricsServer } from '@vitalis/metrics';
import { parseConfig } from '@vitalis/config';
import type { Tracing } from '@vitalis/tracing';
import { buildGateway, type GatewayApp } from '../../apps/gateway/src/app';
import { gatewayConfigShape, withBaseUrl, type GatewayConfig } from '../../apps/gateway/src/config';
import type { GatewayDeps } from '../../apps/gateway/src/deps';
import { RemoteKeySets, keySetFetchPolicy } from '../../apps/gateway/src/remote-key-sets';
import { gatewayMetrics } from '../../apps/gateway/src/metrics';
import { ONE_ADDRESS_LIMITS, TEST_TOPICS, testEnv } from './env';

export interface RunningGateway {
  /** The public base URL (issuer); equals `address` unless PUBLIC_BASE_URL was overridden. */
  url: string;
  /** Where this instance really listens. */
  address: string;
  app: GatewayApp;
  deps: GatewayDeps;
  /** The Prometheus scrape URL, when started with `metrics: true`. */
  metricsUrl?: string;
  close: () => Promise<void>;
}

export interface GatewayTestOptions {
  /** Where the gateway's log lines go (default stdout): a test that reads its logs passes a stream. */
  logDestination?: DestinationStream;
  /** Serve the metrics registry too (an ephemeral loopback port, as main.ts does on METRICS_PORT). */
  metrics?: boolean;
  /** Its traces (e.g. createTracing with an InMemorySpanExporter); default off, as without an OTLP endpoint. */
  tracing?: Tracing;
}

/** `overrides` are env-style settings (e.g. { ACCESS_TOKEN_TTL_SECONDS: '2' }). */
export async function startGateway(overrides: Record<string, string> = {}, options: GatewayTestOptions = {}): Promise<RunningGateway> {
  const env = {
    ...process.env,
    // As in production: the least-privileged app role, never the owner (test/helpers/env.ts).
    DATABASE_URL: testEnv.APP_DATABASE_URL,
    REDIS_URL: testEnv.REDIS_URL,
    KAFKA_BROKERS: testEnv.KAFKA_BROKERS.join(','),
    LOG_LEVEL: testEnv.LOG_LEVEL,
    PORT: '8080',
    // the test run's topics, never the demo's (TEST_TOPICS)
    VITALS_TOPIC: TEST_TOPICS.vitalsObservations,
    LIVE_TOPIC: TEST_TOPICS.vitalsObservations,
    ...ONE_ADDRESS_LIMITS,
    ...overrides,
  };
  const parsed = parseConfig(gatewayConfigShape, env);
  const logger = createLogger('gateway-test', parsed.LOG_LEVEL, options.logDestination);
  const pool = createPool({ url: parsed.DATABASE_URL, max: 10, application: 'vitalis-gateway-test' });
  const redis = createRedis({ url: parsed.REDIS_URL, name: 'vitalis-gateway-test' });
  await redis.connect();
  const kafka = createKafka({ brokers: parsed.KAFKA_BROKERS, clientId: 'vitalis-gateway-test', logger });

  // Bind first so the base URL (issuer, problem types) names the real ephemeral port.
  let config: GatewayConfig = withBaseUrl(parsed);
  let address = '';
  const deps: GatewayDeps = {
    config,
    pool,
    redis,
    kafka,
    logger,
    keySets: new RemoteKeySets(keySetFetchPolicy(config), logger),
    metrics: gatewayMetrics({ pool, redis }),
    ...(options.tracing ? { tracing: options.tracing } : {}),
  };
  const app = await buildGatewayOnFreePort(deps, (port) => {
    address = `http://127.0.0.1:${port}`;
    config = withBaseUrl({ ...parsed, PORT: port, PUBLIC_BASE_URL: overrides.PUBLIC_BASE_URL ?? `http://127.0.0.1:${port}` });
    deps.config = config;
  });
  const metricsServer: MetricsServer | undefined = options.metrics
    ? await startMetricsServer(deps.metrics.registry, { host: '127.0.0.1', port: 0 })
    : undefined;
  return {
    url: config.baseUrl,
    address,
    app,
    deps,
    ...(metricsServer ? { metricsUrl: metricsServer.url } : {}),
    close: async () => {
      await metricsServer?.close();
      await app.close();
      await pool.end();
      redis.disconnect();
    },
  };
}

/** Reserves a free port, fixes the config to it, then builds and listens. */
async function buildGatewayOnFreePort(deps: GatewayDeps, setPort: (port: number) => void): Promise<GatewayApp> {
  const { createServer } = await import('node:net');
  const port = await new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  setPort(port);
  const app = await buildGateway(deps);
  await app.listen({ host: '127.0.0.1', port });
  return app;
}
