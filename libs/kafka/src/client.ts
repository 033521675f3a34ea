import { setTimeout as sleep } from 'node:timers/promises';
import { Kafka, logLevel as KafkaLogLevel, type Admin, type KafkaConfig, type LogEntry } from 'kafkajs';
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

/**
 * An app's Kafka: the kafkajs client its consumers and admin use, and the settings the vitals
 * producers (./producer.ts, another client: ADR 0037) connect with.
 */
export interface VitalisKafka extends Kafka {
  readonly settings: Readonly<Pick<KafkaOptions, 'brokers' | 'clientId'>>;
}

export function createKafka({ brokers, clientId, logger, retries = 8 }: KafkaOptions): VitalisKafka {
  const kafka = new Kafka({
    brokers,
    clientId,
    connectionTimeout: 3_000,
    requestTimeout: 30_000,
    retry: { retries, initialRetryTime: 200, maxRetryTime: 5_000 },
    logLevel: KafkaLogLevel.WARN,
    logCreator: logCreator(logger),
  });
  return Object.assign(kafka, { settings: { brokers: [...brokers], clientId } });
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
      await admin.createTopics({ topics: missing });
    } catch (err) {
      // Another app created it between listTopics and createTopics: fine.
      if ((err as { type?: string }).type !== 'TOPIC_ALREADY_EXISTS') throw err;
    }
    const created = missing.map((spec) => spec.topic);
    await waitForLeaders(admin, created);
    return created;
  } finally {
    await admin.disconnect();
  }
}

/**
 * Waits until every partition of `topics` has a leader in the cluster's metadata. Not kafkajs's
 * `createTopics({ waitForLeaders })`: it asks one broker, and gives up at the first answer that the
 * topic is unknown, which a broker of a multi-broker cluster gives until the new topic's metadata
 * reaches it (an app starting beside others on 3 brokers then exited). A retriable answer is asked
 * again, every 200 ms, until `withinMs`.
 */
export async function waitForLeaders(admin: Pick<Admin, 'fetchTopicMetadata'>, topics: string[], withinMs = 30_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    try {
      const { topics: found } = await admin.fetchTopicMetadata({ topics });
      const led = found.filter((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0));
      if (led.length === topics.length) return;
    } catch (err) {
      if ((err as { retriable?: boolean }).retriable !== true || Date.now() > deadline) throw err;
    }
    if (Date.now() > deadline) throw new Error(`Kafka topics without a leader after ${withinMs} ms: ${topics.join(', ')}`);
    await sleep(200);
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
