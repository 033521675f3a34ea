/**
 * The one producer contract for the vitals topics, used by every producer in the repository (the
 * gateway's POST /api/v1/vitals, the simulator, the ingest's dead-letter queue):
 *  - acks=all and idempotent, one request in flight: a retried send never duplicates or reorders
 *    within a partition;
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
   * `bounded`: a few retries (kafkajs warns this weakens exactly-once; the caller answers with an
   * error and the sender retries the same batch). `unbounded`: retry until Kafka answers (workers,
   * whose shutdown is bounded by the runtime's grace period).
   */
  retries: 'bounded' | 'unbounded';
  /**
   * false only for a load generator that wants several requests in flight (kafkajs allows one for
   * the idempotent producer); acks=all still holds and the append log absorbs a retried duplicate.
   */
  idempotent?: boolean;
}

export function createVitalsProducer(kafka: Kafka, opts: VitalsProducerOptions): Producer {
  const idempotent = opts.idempotent ?? true;
  return kafka.producer({
    idempotent,
    ...(idempotent ? { maxInFlightRequests: 1 } : {}),
    allowAutoTopicCreation: false,
    createPartitioner: vitalsPartitioner,
    retry:
      opts.retries === 'bounded'
        ? { retries: 5, initialRetryTime: 100, maxRetryTime: 2_000 }
        : { retries: Number.MAX_SAFE_INTEGER, initialRetryTime: 200, maxRetryTime: 5_000 },
  });
}
