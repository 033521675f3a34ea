import { Kafka, logLevel as KafkaLogLevel, type KafkaConfig, type LogEntry } from 'kafkajs';
import type { Logger } from '@vitalis/log';
import { topicSpecs, type TopicDurability, type TopicNames } from './topics';

export interface KafkaOptions {
  brokers: string[];
  clientId: string;
  logger?: Logger;
  /** Connection retries; health checks want few, workers want many. */
  retries?: number;
}

const LEVELS: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [KafkaLogLevel.ERROR]: 'error',
  [KafkaLogLevel.WARN]: 'warn',
  [KafkaLogLevel.INFO]: 'info',
  [KafkaLogLevel.DEBUG]: 'debug',
};

/** kafkajs logs through our pino logger (WARN and above) instead of its own console writer. */
function logCreator(logger: Logger | undefined): KafkaConfig['logCreator'] {
  return () =>
    ({ namespace, level, log }: LogEntry) => {
      if (!logger) return;
      const { message, ...extra } = log;
      logger[LEVELS[level] ?? 'info']({ kafka: namespace, ...extra }, message);
    };
}

export function createKafka({ brokers, clientId, logger, retries = 8 }: KafkaOptions): Kafka {
  return new Kafka({
    brokers,
    clientId,
    connectionTimeout: 3_000,
    requestTimeout: 30_000,
    retry: { retries, initialRetryTime: 200, maxRetryTime: 5_000 },
    logLevel: KafkaLogLevel.WARN,
    logCreator: logCreator(logger),
  });
}

/**
 * Creates missing topics (idempotent, safe to run from every app at start) with the cluster's
 * durability (the apps pass KAFKA_REPLICATION_FACTOR and KAFKA_MIN_INSYNC_REPLICAS). Existing
 * topics are left as they are: changing a topic's replication is an operator's reassignment.
 * `names`: the topics of another deployment on the same cluster (a test run's), default TOPICS.
 */
export async function ensureTopics(kafka: Kafka, durability?: TopicDurability, names?: TopicNames): Promise<string[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topicSpecs(durability, names).filter((spec) => !existing.has(spec.topic));
    if (missing.length === 0) return [];
    try {
      await admin.createTopics({ topics: missing, waitForLeaders: true });
    } catch (err) {
      // Another app created it between listTopics and createTopics: fine.
      if ((err as { type?: string }).type !== 'TOPIC_ALREADY_EXISTS') throw err;
    }
    return missing.map((spec) => spec.topic);
  } finally {
    await admin.disconnect();
  }
}

/**
 * A reachability probe (health, readiness): connects an admin client, asks for the cluster, and
 * disconnects. Its own client never retries: a dead broker must show in milliseconds, not after
 * the worker-grade retry schedule.
 */
export function kafkaProbe(brokers: string[], clientId: string): () => Promise<void> {
  const kafka = createKafka({ brokers, clientId, retries: 0 });
  return async () => {
    const admin = kafka.admin();
    try {
      await admin.connect();
      await admin.describeCluster();
    } finally {
      await admin.disconnect().catch(() => {});
    }
  };
}
