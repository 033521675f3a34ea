/**
 * The one producer contract for the vitals topics, used by every producer in the repository (the
 * gateway's POST /api/v1/vitals, the simulator, the ingest's dead-letter queue):
 *  - acks=all: a record is acknowledged once every in-sync replica has it (min.insync.replicas);
 *  - NOT idempotent (ADR 0033): an idempotent producer, after a request the broker wrote but whose
 *    answer was lost (a broker killed, a connection cut, a timeout), may hand that batch's sequence
 *    numbers to the next batch of the partition; the broker takes the next batch of the same size
 *    for a duplicate and acknowledges it without writing it (a silent loss,
 *    test/integration/foundation/kafka-lost-answer.test.ts). Without it a retried batch may be in
 *    the topic twice, which the append log stores once ((device_id, seq, effective_at)), as it
 *    does a device's re-sent batch;
 *  - one request in flight per broker connection: records reach a partition in the order sent, a
 *    retried batch aside;
 *  - the Java-compatible murmur2 partitioner (`vitalsPartition`): every producer of the topic
 *    (gateway, simulator, devices in other languages) must map a patient id to the same partition;
 *  - no topic auto-creation (topics come from `ensureTopics`, with their partition counts).
 * What differs per caller is how long a send may retry: a request must answer (bounded, the device
 * retries the batch and the append log dedups it), a worker waits for Kafka as long as it takes.
 *
 * The client is @platformatic/kafka (ADR 0037): sending the same recorded device bytes it used 0.92
 * µs of CPU per observation in frames where kafkajs used 3.46 (a native CRC-32C, no buffer grown by
 * copying), 4.89 against 11.18 one observation a record. kafkajs stays the consumer and admin client
 * (ADR 0032: it consumes for less). Everything about the producing client stays in this file:
 * callers see `VitalsProducer`.
 */
import { murmur2, ProduceAcks, Producer, serializersFrom, type MessageToProduce } from '@platformatic/kafka';
import type { VitalisKafka } from './client';

/** A record's key, value or header value as callers give it: text (UTF-8) or bytes. */
export type RecordBytes = string | Buffer;

export interface VitalsMessage {
  /** Null only for a dead-lettered record that came without one; the client writes it as empty. */
  key: RecordBytes | null;
  /** Null only for a dead-lettered record that came without one; the client writes it as empty. */
  value: RecordBytes | null;
  /** An explicit partition (tests, tools); otherwise `vitalsPartition` of the key. */
  partition?: number;
  /** The record's timestamp in ms since the epoch, as text (the gateway sends the request's instant); default: now. */
  timestamp?: string;
  /** A header given several values (a dead-lettered record's) is written once per value, in order. */
  headers?: Record<string, RecordBytes | readonly RecordBytes[] | undefined>;
}

export interface VitalsRecord {
  topic: string;
  /** Always all in-sync replicas; the field only lets a call say so. */
  acks?: -1;
  messages: VitalsMessage[];
}

/** Where an acknowledged send's records went: per partition written, the offset of its first record. */
export interface SentBatch {
  topic: string;
  partition: number;
  baseOffset: string;
}

export interface VitalsProducer {
  /** Resolves once a broker answered (the cluster's metadata); rejects when none can be reached within the retries. */
  connect(): Promise<void>;
  /** Resolves once every record is acknowledged by all in-sync replicas; rejects when the retries run out. */
  send(record: VitalsRecord): Promise<SentBatch[]>;
  disconnect(): Promise<void>;
}

export interface VitalsProducerOptions {
  /**
   * `bounded`: a few retries (the caller answers with an error and the sender retries the same
   * batch). `unbounded`: retry until Kafka answers (workers, whose shutdown is bounded by the
   * runtime's grace period).
   */
  retries: 'bounded' | 'unbounded';
  /**
   * `one` (default): one request in flight per broker connection, as every service sends.
   * `several`: pipelined requests, for a load generator filling a backlog (order per partition
   * is then not kept; the append log does not need it).
   */
  requestsInFlight?: 'one' | 'several';
}

/**
 * The partition of a key among `partitions`, as Kafka's Java client (and kafkajs's default
 * partitioner) computes it: murmur2 of the key's bytes, its sign bit cleared, modulo the count.
 */
export const vitalsPartition = (key: RecordBytes, partitions: number): number => positiveMurmur2(key) % partitions;

/** murmur2 with the sign bit cleared; the client takes it modulo the topic's partition count. */
const positiveMurmur2 = (key: RecordBytes): number => murmur2(key) & 0x7fffffff;

const bytesOf = (data?: RecordBytes): Buffer | undefined => (data === undefined || Buffer.isBuffer(data) ? data : Buffer.from(data));

const EMPTY = Buffer.alloc(0);

/** A message's headers as the client writes them: a repeated header's name as a key object of its own per value, so none is merged. */
function headerEntries(headers: NonNullable<VitalsMessage['headers']>): Map<RecordBytes, RecordBytes> {
  const out = new Map<RecordBytes, RecordBytes>();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (typeof value === 'string' || Buffer.isBuffer(value)) out.set(name, value);
    else for (const one of value) out.set(Buffer.from(name), one);
  }
  return out;
}

/** A message as the client takes it. */
const clientMessage = (topic: string, m: VitalsMessage): MessageToProduce<RecordBytes, RecordBytes, RecordBytes, RecordBytes> => ({
  topic,
  ...(m.key === null ? {} : { key: m.key }),
  value: m.value ?? EMPTY,
  ...(m.partition === undefined ? {} : { partition: m.partition }),
  ...(m.timestamp === undefined ? {} : { timestamp: BigInt(m.timestamp) }),
  ...(m.headers === undefined ? {} : { headers: headerEntries(m.headers) }),
});

/**
 * The client's failure as one error: its message and the first underlying attempt's, not the tree
 * of every attempt's errors with their stacks (about 10 KB, logged by the gateway on every refused
 * request while Kafka is down). The client's error code stays.
 */
function producerFailure(err: unknown): Error {
  if (!(err instanceof Error)) return new Error(String(err));
  let leaf: Error = err;
  for (let next = firstInner(leaf); next; next = firstInner(leaf)) leaf = next;
  const failure = new Error(leaf === err ? err.message : `${err.message} (first cause: ${leaf.message})`);
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? Object.assign(failure, { code }) : failure;
}

/** The first error an aggregate (or a `cause`) holds. */
function firstInner(err: Error): Error | undefined {
  const inner = (err as { errors?: unknown[] }).errors?.[0] ?? err.cause;
  return inner instanceof Error ? inner : undefined;
}

/** A request answers: about 1.2 s of retries (a device retries the batch after a 503). */
const BOUNDED = { retries: 6, retryDelay: 200 };
/** A worker waits for Kafka as long as it takes. */
const UNBOUNDED = { retries: true, retryDelay: 500 };

export function createVitalsProducer(kafka: Pick<VitalisKafka, 'settings'>, opts: VitalsProducerOptions): VitalsProducer {
  const { brokers, clientId } = kafka.settings;
  const client = new Producer<RecordBytes, RecordBytes, RecordBytes, RecordBytes>({
    clientId,
    bootstrapBrokers: brokers,
    ...(opts.retries === 'bounded' ? BOUNDED : UNBOUNDED),
    connectTimeout: 3_000,
    timeout: 30_000,
    maxInflights: (opts.requestsInFlight ?? 'one') === 'one' ? 1 : 5,
    idempotent: false,
    // every metadata request, the connect's and each send's: a send names only existing topics
    autocreateTopics: false,
    partitioner: (message) => positiveMurmur2(message.key ?? ''),
    serializers: serializersFrom(bytesOf),
  });
  return {
    connect: async () => {
      await client.metadata({ topics: [] }).catch((err: unknown) => Promise.reject(producerFailure(err)));
    },
    send: async ({ topic, messages }) => {
      const result = await client
        // acks per send: the client reads it from each send's options only (a non-idempotent send defaults to the leader's)
        .send({ acks: ProduceAcks.ALL, messages: messages.map((m) => clientMessage(topic, m)) })
        .catch((err: unknown) => Promise.reject(producerFailure(err)));
      return (result.offsets ?? []).map((o) => ({ topic: o.topic, partition: o.partition, baseOffset: String(o.offset) }));
    },
    disconnect: () => client.close(),
  };
}
