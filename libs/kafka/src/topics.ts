/**
 * Every Kafka topic Vitalis uses, with explicit partitions and retention. Topics are created at
 * app start (auto-creation is off on our brokers) so a fresh cluster is ready without a manual step.
 */
export interface TopicSpec {
  topic: string;
  numPartitions: number;
  replicationFactor: number;
  configEntries: { name: string; value: string }[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

export const TOPICS = {
  /** Vitals observations from devices and POST /api/v1/vitals, keyed by patient id. */
  vitalsObservations: 'vitals.observations.v1',
  /** Messages the ingest worker could not store, with the reason in headers. */
  vitalsDeadLetter: 'vitals.observations.v1.dlq',
} as const;

/** The names of the topics of one deployment (the defaults are TOPICS; a test run names its own). */
export type TopicNames = { -readonly [K in keyof typeof TOPICS]: string };

/**
 * How many copies of every message the cluster keeps, and how many must have a write before it is
 * acknowledged (acks=all). One and one for the single development broker; production runs three
 * brokers with 3 and 2 (KAFKA_REPLICATION_FACTOR, KAFKA_MIN_INSYNC_REPLICAS): any one broker may
 * die without losing an acknowledged observation or refusing new ones (docs/operations.md#topology).
 */
export interface TopicDurability {
  replicationFactor: number;
  minInsyncReplicas: number;
}

export const SINGLE_BROKER: TopicDurability = { replicationFactor: 1, minInsyncReplicas: 1 };

export function topicSpecs(
  { replicationFactor, minInsyncReplicas }: TopicDurability = SINGLE_BROKER,
  names: TopicNames = TOPICS,
): TopicSpec[] {
  return [
    {
      topic: names.vitalsObservations,
      // 12 partitions: enough for several ingest instances and gateways to share the load,
      // few enough for a 2-core broker.
      numPartitions: 12,
      replicationFactor,
      configEntries: [
        { name: 'retention.ms', value: String(7 * DAY_MS) }, // the append log in PostgreSQL is the record; Kafka is the buffer
        { name: 'compression.type', value: 'producer' },
        { name: 'min.insync.replicas', value: String(minInsyncReplicas) },
      ],
    },
    {
      topic: names.vitalsDeadLetter,
      numPartitions: 1,
      replicationFactor,
      configEntries: [
        { name: 'retention.ms', value: String(30 * DAY_MS) }, // long enough for a human to look
        { name: 'min.insync.replicas', value: String(minInsyncReplicas) },
      ],
    },
  ];
}
