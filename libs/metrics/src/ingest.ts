/**
 * The ingest worker's series: throughput (messages, rows stored, duplicates, dead-lettered), the
 * batch size and transaction time, consumer lag per partition, and the live stage (alerts raised
 * or cleared, device-to-publish latency, publish failures). Updated once per batch, never per
 * message label: the only per-message cost is one histogram observe for the publish latency.
 */
import client from 'prom-client';
import { DELIVERY_BUCKETS } from './gateway';
import { METRIC } from './names';

export interface BatchCounts {
  messages: number;
  stored: number;
  duplicates: number;
  deadLettered: number;
  /** Redelivered records the database already held (vitals_ingest_offsets): not written again. */
  skipped?: number;
}

export interface IngestMetrics {
  registry: client.Registry;
  batchCommitted(counts: BatchCounts): void;
  /** One PostgreSQL transaction of the append-log write, in seconds. */
  transaction(seconds: number): void;
  /** Messages behind the partition's high watermark after the consumer's position. */
  consumerLag(topic: string, partition: number, lag: number): void;
  /** Seconds from an observation's effective time to its publication to the gateways. */
  published(seconds: number): void;
  publishFailed(): void;
  /** An alert event appended: its IEC 60601-1-8 priority, condition rule and state (raised, cleared); never a patient. */
  alert(priority: string, rule: string, state: string): void;
  /** The stored offsets of newly assigned partitions were read (after a rebalance). */
  assignmentChecked(): void;
  /** A write the database refused as a whole was isolated: `refused` rows, in `statements` writes. */
  isolated(refused: number, statements: number): void;
  /** Seconds the group's committed offset has not moved while the partition's lag is above 0 (0: progressing). */
  partitionStalled(topic: string, partition: number, seconds: number): void;
  /**
   * The newest stored observation's effective time (./newest.ts), read with the lag: the gauge
   * vitalis_vitals_newest_observation_age_seconds is its age at scrape time, so it keeps growing
   * while nothing newer is stored, even when a reading fails (NaN until one has been read, or while
   * the log holds none).
   */
  newestObservation(at: Date | null): void;
}

/**
 * The ingest worker's metrics on `registry`, and the recorder the worker calls.
 * Long: a registry listing its metrics: one declaration per metric with its name, help and labels, then the recorder over them; nothing to split but the list.
 */
export function createIngestMetrics(registry: client.Registry): IngestMetrics {
  const counter = (name: string, help: string) => new client.Counter({ name, help, registers: [registry] });
  const batches = counter(METRIC.ingestBatches, 'Kafka batches written to the append log and committed');
  const messages = counter(METRIC.ingestMessages, 'Kafka messages consumed (good and poison)');
  const stored = counter(METRIC.ingestRowsStored, 'Observation rows newly stored in the append log');
  const duplicates = counter(METRIC.ingestDuplicates, 'Redelivered rows the append log already held (skipped)');
  const deadLettered = counter(METRIC.ingestDeadLettered, 'Poison messages sent to the dead-letter topic');
  const skipped = counter(
    METRIC.ingestRedeliveredSkipped,
    'Redelivered Kafka records the append log already held (its stored offset), skipped before the write',
  );
  const assignmentChecks = counter(
    METRIC.ingestAssignmentChecks,
    'Partition assignments (rebalances) whose stored offsets the ingest read',
  );
  const publishFailures = counter(
    METRIC.ingestPublishFailures,
    'Committed batches whose live publication to the gateways failed (they refill from the log)',
  );
  const batchSize = new client.Histogram({
    name: METRIC.ingestBatchSize,
    help: 'Messages per Kafka batch (one partition)',
    buckets: [1, 5, 10, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000],
    registers: [registry],
  });
  const transaction = new client.Histogram({
    name: METRIC.ingestTransaction,
    help: 'Seconds per append-log write transaction (a group commit of one or more batches)',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const publishLatency = new client.Histogram({
    name: METRIC.ingestDeviceToPublish,
    help: "Seconds from an observation's effective time (device clock) to its live publication",
    buckets: DELIVERY_BUCKETS,
    registers: [registry],
  });
  const alerts = new client.Counter({
    name: METRIC.alertsRaised,
    help: 'Alarm condition events appended by the live stage, by priority (high, medium, low), rule (the condition) and state (raised, cleared)',
    labelNames: ['priority', 'rule', 'state'] as const,
    registers: [registry],
  });
  const lag = new client.Gauge({
    name: METRIC.kafkaConsumerLag,
    help: 'Messages the ingest consumer group is behind the high watermark, per topic partition',
    labelNames: ['topic', 'partition'] as const,
    registers: [registry],
  });
  const lagByPartition = new Map<string, ReturnType<typeof lag.labels>>();
  const isolations = counter(
    METRIC.ingestIsolations,
    'Writes the database refused as a whole (a row it refuses), whose refused rows were isolated',
  );
  const refusedRows = counter(METRIC.ingestRefusedRows, 'Rows the database refused (isolated, then dead-lettered with their record)');
  const isolationStatements = counter(METRIC.ingestIsolationStatements, 'Statements the isolations took (about 3 per refused row)');
  const stalled = new client.Gauge({
    name: METRIC.ingestPartitionStalled,
    help: "Seconds the ingest group's committed offset has not moved while messages wait, per topic partition (0: progressing or caught up)",
    labelNames: ['topic', 'partition'] as const,
    registers: [registry],
  });
  let newestAt: Date | null = null;
  new client.Gauge({
    name: METRIC.newestObservationAge,
    help: 'Seconds since the effective time of the newest observation stored in the append log (NaN: none read yet)',
    registers: [registry],
    collect() {
      this.set(newestAt === null ? Number.NaN : Math.max(0, Math.round((Date.now() - newestAt.getTime()) / 1_000)));
    },
  });
  return {
    registry,
    batchCommitted(c) {
      batches.inc();
      messages.inc(c.messages);
      stored.inc(c.stored);
      duplicates.inc(c.duplicates);
      deadLettered.inc(c.deadLettered);
      if (c.skipped) skipped.inc(c.skipped);
      batchSize.observe(c.messages);
    },
    transaction: (seconds) => transaction.observe(seconds),
    consumerLag(topic, partition, value) {
      const key = `${topic}/${partition}`;
      let child = lagByPartition.get(key);
      if (!child) lagByPartition.set(key, (child = lag.labels(topic, String(partition))));
      child.set(Math.max(0, value));
    },
    published: (seconds) => publishLatency.observe(Math.max(0, seconds)),
    publishFailed: () => publishFailures.inc(),
    alert: (priority, rule, state) => alerts.labels(priority, rule, state).inc(),
    assignmentChecked: () => assignmentChecks.inc(),
    isolated(refused, statements) {
      isolations.inc();
      refusedRows.inc(refused);
      isolationStatements.inc(statements);
    },
    partitionStalled: (topic, partition, seconds) => stalled.labels(topic, String(partition)).set(Math.max(0, Math.round(seconds))),
    newestObservation(at) {
      if (at !== null) newestAt = at;
    },
  };
}
