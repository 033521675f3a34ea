/**
 * vitalis-ingest: consumes vitals.observations.v1 and writes the append log. No HTTP surface but
 * the Prometheus scrape (METRICS_HOST:METRICS_PORT).
 * SIGTERM/SIGINT finish the in-flight batches (DB commit + offset commit) before exiting.
 */
import { loadConfig } from '@vitalis/config';
import { createPool, requireAppDatabase } from '@vitalis/db';
import { createKafka, ensureTopics } from '@vitalis/kafka';
import { createLogger } from '@vitalis/log';
import { createIngestMetrics, createRegistry, observePool, observeRedis, startMetricsServer } from '@vitalis/metrics';
import { onShutdown } from '@vitalis/runtime';
import { ingestConfigShape } from './config';
import { createRedis } from '@vitalis/redis';
import { createLiveStage } from './live/stage';
import { startIngest } from './worker';

const config = loadConfig('ingest', ingestConfigShape);
const logger = createLogger('ingest', config.LOG_LEVEL);
const pool = createPool({ url: config.DATABASE_URL, max: Math.max(config.DATABASE_POOL_MAX, config.INGEST_WRITERS + 2), application: 'vitalis-ingest' });
const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: `vitalis-ingest-${process.pid}`, logger, retries: 20 });

// The migration step (npm run migrate, as the owner) ran before; this app only checks it did.
await requireAppDatabase(pool, 'ingest', { production: config.NODE_ENV === 'production', warn: (message) => logger.warn(message) });
await ensureTopics(kafka);
// Live fan-out to the gateways (Redis pub/sub) and alert rules, after each batch is committed.
const redis = createRedis({ url: config.REDIS_URL, name: 'vitalis-ingest' });
// Redis down at start does not stop the ingest (the append log is what matters); ioredis keeps reconnecting.
await redis.connect().catch((err) => logger.warn({ err }, 'redis unreachable; live fan-out paused until it is back'));
const registry = createRegistry('ingest');
observePool(registry, pool);
observeRedis(registry, redis);
const metrics = createIngestMetrics(registry);
// Listening before the consumer joins: a taken port stops the start, not a running worker.
const metricsServer = config.METRICS_ENABLED ? await startMetricsServer(registry, { host: config.METRICS_HOST, port: config.METRICS_PORT }) : undefined;
if (metricsServer) logger.info({ url: metricsServer.url }, 'metrics listening');
const live = createLiveStage({ pool, redis, topic: config.INGEST_TOPIC, logger, alerts: config.INGEST_ALERTS, metrics });

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
  afterCommit: live.afterCommit,
  metrics,
  lagPollMs: config.INGEST_LAG_POLL_MS,
});
logger.info({ groupId: config.INGEST_GROUP_ID, topic: config.INGEST_TOPIC, method: config.INGEST_WRITE_METHOD }, 'ingest running');

const statsTimer = setInterval(() => logger.info({ ...worker.stats }, 'ingest stats'), 60_000);
statsTimer.unref();

onShutdown(logger, [async () => metricsServer?.close(), () => worker.stop(), () => (live.stop(), pool.end()), () => redis.quit()], 30_000);
