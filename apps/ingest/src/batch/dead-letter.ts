/**
 * The ingest's dead-letter topic: a poison record (undecodable, schema-invalid, or refused by the
 * database) is sent whole, with why and where it came from in headers, and acknowledged by every
 * in-sync replica (acks=all) before the batch's offsets are committed, so it is never lost and never
 * stalls its partition.
 */
import type { KafkaMessage } from 'kafkajs';
import type { VitalsMessage, VitalsProducer } from '@vitalis/kafka';
import type { Logger } from '@vitalis/log';

export const DLQ_HEADERS = {
  reason: 'x-dlq-reason',
  topic: 'x-dlq-source-topic',
  partition: 'x-dlq-source-partition',
  offset: 'x-dlq-source-offset',
  group: 'x-dlq-consumer-group',
  failedAt: 'x-dlq-failed-at',
  /** A frame's bad observations, by index (comma-separated); absent when the whole record is bad. */
  frameItems: 'x-dlq-frame-items',
} as const;

/** A record for the dead-letter topic: the whole record, with why (a frame: which observations and why). */
export interface Poison {
  message: KafkaMessage;
  reasons: string[];
  /** A frame's bad observations (indexes); empty when the record as a whole is bad. */
  items: number[];
}

/** Where the poison came from: the source topic and the consumer group, named in every record's headers. */
export interface PoisonSource {
  topic: string;
  groupId: string;
}

/** The dead-letter records of one partition's poison: key, value and headers kept, the DLQ headers added. */
export function deadLetterMessages(source: PoisonSource, partition: number, items: readonly Poison[], failedAt: string): VitalsMessage[] {
  return items.map(({ message, reasons, items: bad }) => ({
    key: message.key,
    value: message.value,
    headers: {
      ...message.headers,
      [DLQ_HEADERS.reason]: reasons.join('; ').slice(0, 2_000),
      [DLQ_HEADERS.topic]: source.topic,
      [DLQ_HEADERS.partition]: String(partition),
      [DLQ_HEADERS.offset]: message.offset,
      [DLQ_HEADERS.group]: source.groupId,
      [DLQ_HEADERS.failedAt]: failedAt,
      ...(bad.length > 0 ? { [DLQ_HEADERS.frameItems]: bad.join(',') } : {}),
    },
  }));
}

/** Sends one partition's poison to the dead-letter topic; resolves once Kafka acknowledged it (acks=all). */
export type DeadLetter = (partition: number, items: Poison[]) => Promise<void>;

export function createDeadLetter(producer: VitalsProducer, source: PoisonSource & { dlqTopic: string; logger: Logger }): DeadLetter {
  return async (partition, items) => {
    if (items.length === 0) return;
    const messages = deadLetterMessages(source, partition, items, new Date().toISOString());
    await producer.send({ topic: source.dlqTopic, acks: -1, messages });
    source.logger.warn({ partition, count: items.length, first: items[0]?.reasons[0] }, 'messages sent to the dead-letter topic');
  };
}
