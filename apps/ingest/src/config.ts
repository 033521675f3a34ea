import { z } from 'zod';
import { alarmSettingsVariable, parseAlarmSettings, type AlarmSettings } from '@vitalis/clinical';
import {
  boolean,
  infraShape,
  lifecycleShape,
  positiveInt,
  probeServerShape,
  metricsShape,
  tracingShape,
  vitalsClockShape,
} from '@vitalis/config';
import { TOPICS } from '@vitalis/kafka';

/** Every env var the ingest worker reads, with its default. */
export const ingestConfigShape = {
  ...infraShape,
  ...lifecycleShape,
  ...probeServerShape,
  DATABASE_POOL_MAX: positiveInt(8),
  ...metricsShape(9465),
  ...tracingShape,
  /** Bounded device clocks: a record whose effective_at is out of bounds at its timestamp is dead-lettered. */
  ...vitalsClockShape,
  /** Consumer group; several ingest instances with the same id share the topic's partitions. */
  INGEST_GROUP_ID: z.string().min(1).default('vitalis-ingest'),
  INGEST_TOPIC: z.string().min(1).default(TOPICS.vitalsObservations),
  INGEST_DLQ_TOPIC: z.string().min(1).default(TOPICS.vitalsDeadLetter),
  /**
   * Partitions processed at once (kafkajs partitionsConsumedConcurrently). Their batches are
   * group-committed, so this costs no extra transactions: keep it at the topic's partition count.
   */
  INGEST_CONCURRENCY: positiveInt(12),
  /** Batches fetched together share one transaction up to this many rows. */
  INGEST_GROUP_MAX_ROWS: positiveInt(5_000),
  /** Transactions written at once when a fetch holds more rows than that (a backlog). */
  INGEST_WRITERS: positiveInt(4),
  /** Upper bound of one fetch per partition, so one batch (= one transaction) stays bounded. */
  INGEST_MAX_BYTES_PER_PARTITION: positiveInt(1_048_576),
  INGEST_MAX_BYTES: positiveInt(10_485_760),
  /** How long the broker may hold a fetch waiting for data. */
  INGEST_MAX_WAIT_MS: positiveInt(500),
  /** copy (COPY into a staging table, then INSERT ... ON CONFLICT DO NOTHING) or unnest (one multi-row INSERT). */
  INGEST_WRITE_METHOD: z.enum(['copy', 'unnest']).default('copy'),
  /** How long the group waits for a silent (crashed) member before giving its partitions to others. */
  INGEST_SESSION_TIMEOUT_MS: positiveInt(30_000),
  /** Evaluate the physiological alarm conditions (VITALIS_ALARMS) on the stream and append alert events. */
  INGEST_ALERTS: boolean(true),
  /**
   * The site's alarm settings (libs/clinical/src/alarms.ts, `parseAlarmSettings`): a JSON document
   * of overrides, unset or empty for the defaults. The ingest evaluates the physiological conditions
   * with their priority, onset delay and latching from it, and stamps each raise's escalation time;
   * the gateway and the projector read the same variable. A bad document stops the start naming it.
   */
  VITALIS_ALARMS: alarmSettingsVariable,
  /** How often the consumer group's lag per partition is read from the brokers for the metrics. */
  INGEST_LAG_POLL_MS: positiveInt(15_000),
  /** How often daily partitions are created ahead (vitalis_ensure_vitals_partitions). */
  INGEST_PARTITION_CHECK_MS: positiveInt(3_600_000),
};

/** The ingest's probe server port when PROBE_PORT is unset in production (docs/operations.md). */
export const INGEST_PROBE_PORT = 8091;

export type IngestConfig = z.infer<z.ZodObject<typeof ingestConfigShape>>;

/** The alarm settings of a parsed configuration (VITALIS_ALARMS applied to the defaults; the shape has validated it). */
export const ingestAlarms = (config: Pick<IngestConfig, 'VITALIS_ALARMS'>): AlarmSettings => parseAlarmSettings(config.VITALIS_ALARMS);
