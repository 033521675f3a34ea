/**
 * The one producer contract for the vitals topics, used by every producer in the repository (the
 * gateway's POST /api/v1/vitals, the simulator, the ingest's dead-letter queue):
 *  - acks=all: a record is acknowledged once every in-sync replica has it (min.insync.replicas);
 *  - NOT idempotent (ADR 0033): kafkajs's idempotent producer, after a request the broker wrote but
 *    whose answer was lost (a broker killed, a connection cut, a timeout), hands that batch's
 *    sequence numbers to the next batch of the partition; the broker takes the next batch of the
 *    same size for a duplicate and acknowledges it without writing it (a silent loss,
 *    test/integration/foundation/kafka-lost-answer.test.ts). Without it a retried batch may be in
 *    the topic twice, which the append log stores once ((device_id, seq, effective_at)), as it
 *    does a device's re-sent batch;
 *  - one request in flight per broker connection: records reach a partition in the order sent, a
 *    retried batch aside;
 *  - the Java-compatible murmur2 partitioner, named explicitly: every producer of the topic
 *    (gateway, simulator, devices in other languages) must map a patient id to the same partition;
 *  - no topic auto-creation (topics come from `ensureTopics`, with their partition counts).
 * What differs per caller is how long a send may retry: a request must answer (bounded, the device
 * retries the batch and the append log dedups it), a worker waits for Kafka as long as it takes.
 */
import { Partitioners, type Kafka, type Producer } from 'kafkajs';

/** The partitioner every producer of the vitals topics uses (kafkajs's Java-compatible default). */
export const vitalsPartitioner = Partitioners.DefaultPartitioner;

export interface VitalsProducerOptions {
  /**
   * `bounded`: a few retries (the caller answers with an error and the sender retries the same
   * batch). `unbounded`: retry until Kafka answers (workers, whose shutdown is bounded by the
   * runtime's grace period).
   */
  retries: 'bounded' | 'unbounded';
  /**
   * `one` (default): one request in flight per broker connection, as every service sends.
   * `several`: kafkajs's pipelining, for a load generator filling a backlog (order per partition
   * is then not kept; the append log does not need it).
   */
  requestsInFlight?: 'one' | 'several';
}

export function createVitalsProducer(kafka: Kafka, opts: VitalsProducerOptions): Producer {
  return kafka.producer({
    idempotent: false,
    ...((opts.requestsInFlight ?? 'one') === 'one' ? { maxInFlightRequests: 1 } : {}),
    allowAutoTopicCreation: false,
    createPartitioner: vitalsPartitioner,
    retry:
      opts.retries === 'bounded'
        ? { retries: 5, initialRetryTime: 100, maxRetryTime: 2_000 }
        : { retries: Number.MAX_SAFE_INTEGER, initialRetryTime: 200, maxRetryTime: 5_000 },
  });
}
