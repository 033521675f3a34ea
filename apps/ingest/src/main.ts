/**
 * vitalis-ingest: consumes vitals.observations.v1 and writes the append log. No API: only the
 * probes (GET /livez, /readyz on PROBE_PORT) and the Prometheus scrape (METRICS_HOST:METRICS_PORT).
 * SIGTERM: readiness 503, the drain wait, then the in-flight batches finish (DB commit + offset
 * commit) before the process exits.
 */
import { kafkaTopicDurability, loadConfig, metricsListenerAddress, probeServerAddress, shutdownTimings } from '@vitalis/config';
import { createPool, pendingMigrations, requireAppDatabase } from '@vitalis/db';
import { createKafka, ensureTopics, kafkaProbe, tolerateStrayKafkaRejections } from '@vitalis/kafka';
import { createLogger } from '@vitalis/log';
import { createIngestMetrics, createRegistry, observePool, observeRedis, startMetricsServer } from '@vitalis/metrics';
import { createTracing } from '@vitalis/tracing';
import { clockLimits } from '@vitalis/schemas';
import { createReadiness, logDependencyChanges, onShutdown, startAppProbes, VITALIS_VERSION } from '@vitalis/runtime';
import { INGEST_PROBE_PORT, ingestAlarms, ingestConfigShape } from './config';
import { createRedis } from '@vitalis/redis';
import { createLiveStage } from './live/stage';
import { startIngest } from './worker';

const config = loadConfig('ingest', ingestConfigShape, (c) => ({
  ...c,
  shutdown: shutdownTimings(c),
  topics: kafkaTopicDurability(c),
  alarms: ingestAlarms(c),
}));
const logger = createLogger('ingest', config.LOG_LEVEL);
const pool = createPool({
  url: config.DATABASE_URL,
  max: Math.max(config.DATABASE_POOL_MAX, config.INGEST_WRITERS + 2),
  application: 'vitalis-ingest',
});
const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: `vitalis-ingest-${process.pid}`, logger, retries: 20 });
tolerateStrayKafkaRejections(logger); // kafkajs's stray request rejections (libs/kafka stray-rejections.ts)

// The migration step (npm run migrate, as the owner) ran before; this app only checks it did.
await requireAppDatabase(pool, 'ingest', { production: config.NODE_ENV === 'production', warn: (message) => logger.warn(message) });
// Ready while PostgreSQL and Kafka answer (Redis only feeds the live fan-out: not a reason to stop).
const readiness = createReadiness({
  timeoutMs: config.READINESS_TIMEOUT_MS,
  schemaCurrent: async () => (await pendingMigrations(pool)).length === 0,
  dependencies: [
    { name: 'postgres', probe: () => pool.query('SELECT 1') },
    { name: 'kafka', probe: kafkaProbe(config.KAFKA_BROKERS, 'vitalis-ingest-ready') },
  ],
  onChecks: logDependencyChanges(logger),
});
const probes = await startAppProbes({ address: probeServerAddress(config, INGEST_PROBE_PORT), readiness, logger });
await ensureTopics(kafka, config.topics);
// Live fan-out to the gateways (Redis pub/sub) and alert rules, after each batch is committed.
const redis = createRedis({ url: config.REDIS_URL, name: 'vitalis-ingest' });
// Redis down at start does not stop the ingest (the append log is what matters); ioredis keeps reconnecting.
await redis.connect().catch((err) => logger.warn({ err }, 'redis unreachable; live fan-out paused until it is back'));
const registry = createRegistry('ingest');
observePool(registry, pool);
observeRedis(registry, redis);
const metrics = createIngestMetrics(registry);
// Listening before the consumer joins: a taken port stops the start, not a running worker.
const metricsAddress = metricsListenerAddress(config);
const metricsServer = metricsAddress ? await startMetricsServer(registry, metricsAddress) : undefined;
if (metricsServer) logger.info({ url: metricsServer.url }, 'metrics listening');
// Traces: off unless OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md#traces).
const tracing = createTracing(config, { app: 'ingest', version: VITALIS_VERSION });
if (tracing.enabled) logger.info('traces exported over OTLP');
const live = createLiveStage({
  pool,
  redis,
  topic: config.INGEST_TOPIC,
  logger,
  alerts: config.INGEST_ALERTS,
  alarms: config.alarms,
  metrics,
  tracing,
});

const worker = await startIngest({
  kafka,
  pool,
  logger,
  groupId: config.INGEST_GROUP_ID,
  topic: config.INGEST_TOPIC,
  dlqTopic: config.INGEST_DLQ_TOPIC,
  concurrency: config.INGEST_CONCURRENCY,
  maxBytesPerPartition: config.INGEST_MAX_BYTES_PER_PARTITION,
  maxBytes: config.INGEST_MAX_BYTES,
  maxWaitTimeInMs: config.INGEST_MAX_WAIT_MS,
  writeMethod: config.INGEST_WRITE_METHOD,
  maxGroupRows: config.INGEST_GROUP_MAX_ROWS,
  writers: config.INGEST_WRITERS,
  partitionCheckMs: config.INGEST_PARTITION_CHECK_MS,
  sessionTimeoutMs: config.INGEST_SESSION_TIMEOUT_MS,
  clockLimits: clockLimits({ maxSkewSeconds: config.VITALS_MAX_CLOCK_SKEW_SECONDS, retentionDays: config.VITALS_RETENTION_DAYS }),
  afterCommit: live.afterCommit,
  metrics,
  lagPollMs: config.INGEST_LAG_POLL_MS,
  tracing,
});
logger.info({ groupId: config.INGEST_GROUP_ID, topic: config.INGEST_TOPIC, method: config.INGEST_WRITE_METHOD }, 'ingest running');

const statsTimer = setInterval(() => logger.info({ ...worker.stats }, 'ingest stats'), 60_000);
statsTimer.unref();

onShutdown({
  logger,
  readiness,
  ...config.shutdown,
  steps: [
    { name: 'consumer: in-flight batches and offset commits', run: () => worker.stop() },
    { name: 'postgres', run: () => (live.stop(), pool.end()) },
    { name: 'redis', run: () => redis.quit() },
    { name: 'metrics', run: async () => metricsServer?.close() },
    { name: 'traces: export what is left', run: () => tracing.shutdown() },
    { name: 'probes', run: () => probes.close() },
  ],
});
