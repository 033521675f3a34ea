import { startAuditCheckpoints } from '@vitalis/audit';
import { kafkaTopicDurability, loadConfig, metricsListenerAddress, shutdownTimings } from '@vitalis/config';
import { createPool, requireAppDatabase } from '@vitalis/db';
import { createKafka, ensureTopics, tolerateStrayKafkaRejections } from '@vitalis/kafka';
import { createLogger } from '@vitalis/log';
import { startMetricsServer } from '@vitalis/metrics';
import { createRedis } from '@vitalis/redis';
import { onShutdown, VITALIS_VERSION } from '@vitalis/runtime';
import { createTracing } from '@vitalis/tracing';
import { buildGateway } from './app';
import { RemoteKeySets, keySetFetchPolicy } from './remote-key-sets';
import { auditCheckpointSettings, gatewayConfigShape, withBaseUrl } from './config';
import { gatewayMetrics } from './metrics';

const { config, checkpoints, shutdown, topics } = loadConfig('gateway', gatewayConfigShape, (parsed) => ({
  config: withBaseUrl(parsed),
  checkpoints: auditCheckpointSettings(parsed),
  shutdown: shutdownTimings(parsed),
  topics: kafkaTopicDurability(parsed),
}));
const logger = createLogger('gateway', config.LOG_LEVEL);
const pool = createPool({ url: config.DATABASE_URL, max: config.DATABASE_POOL_MAX, application: 'vitalis-gateway' });
const redis = createRedis({ url: config.REDIS_URL, name: 'vitalis-gateway' });
const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: 'vitalis-gateway', logger });
tolerateStrayKafkaRejections(logger); // kafkajs's stray request rejections (libs/kafka stray-rejections.ts)

// The migration step (npm run migrate, as the owner) ran before; this app only checks it did.
await requireAppDatabase(pool, 'gateway', { production: config.NODE_ENV === 'production', warn: (message) => logger.warn(message) });
await ensureTopics(kafka, topics);
await redis.connect();

const keySets = new RemoteKeySets(keySetFetchPolicy(config), logger);
const metrics = gatewayMetrics({ pool, redis });
// Traces: off unless OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md#traces).
const tracing = createTracing(config, { app: 'gateway', version: VITALIS_VERSION });
if (tracing.enabled) logger.info('traces exported over OTLP');
const app = await buildGateway({ config, pool, redis, kafka, logger, keySets, metrics, tracing });
const metricsAddress = metricsListenerAddress(config);
const metricsServer = metricsAddress ? await startMetricsServer(metrics.registry, metricsAddress) : undefined;
if (metricsServer) logger.info({ url: metricsServer.url }, 'metrics listening');
await app.listen({ host: config.HOST, port: config.PORT });
logger.info({ url: config.baseUrl }, 'gateway listening');
const auditCheckpoints = startAuditCheckpoints({
  pool,
  dir: checkpoints.dir,
  key: checkpoints.key,
  seconds: checkpoints.seconds,
  onError: (err) => logger.error({ err }, 'audit checkpoint not written; the next period retries'),
});

// SIGTERM: /readyz turns 503, READINESS_DRAIN_SECONDS later app.close() hands every SSE and
// WebSocket subscriber a reconnect hint with its last id (the hub's 'shutdown' close), stops
// accepting and finishes in-flight requests; then the connections close.
onShutdown({
  logger,
  readiness: app.readiness,
  ...shutdown,
  steps: [
    { name: 'audit checkpoints', run: async () => auditCheckpoints.stop() },
    { name: 'live streams: reconnect hints', run: () => app.closeLive() },
    { name: 'http server: in-flight requests', run: () => app.close() },
    { name: 'postgres', run: () => pool.end() },
    { name: 'redis', run: () => redis.quit() },
    { name: 'metrics', run: async () => metricsServer?.close() },
    { name: 'traces: export what is left', run: () => tracing.shutdown() },
  ],
});
