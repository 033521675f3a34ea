import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ProduceAcks, Producer } from '@platformatic/kafka';
import { createKafka, createVitalsProducer, topicSpecs, vitalsPartition } from '@vitalis/kafka';
import { TEST_TOPICS, testEnv } from '../../helpers/env';

const kafka = createKafka({ brokers: testEnv.KAFKA_BROKERS, clientId: 'vitalis-test-foundation' });
const admin = kafka.admin();
afterAll(async () => admin.disconnect());

describe('Kafka (real broker)', () => {
  it('topics exist with the partitions and retention the code declares', async () => {
    await admin.connect();
    const metadata = await admin.fetchTopicMetadata({ topics: [TEST_TOPICS.vitalsObservations, TEST_TOPICS.vitalsDeadLetter] });
    for (const spec of topicSpecs(undefined, TEST_TOPICS)) {
      const topic = metadata.topics.find((t) => t.name === spec.topic);
      expect(topic?.partitions.length).toBe(spec.numPartitions);
    }
    const configs = await admin.describeConfigs({
      includeSynonyms: false,
      resources: [{ type: 2 /* TOPIC */, name: TEST_TOPICS.vitalsObservations, configNames: ['retention.ms'] }],
    });
    expect(configs.resources[0]?.configEntries[0]?.configValue).toBe(String(7 * 24 * 3600 * 1000));
  });

  it('a message produced to the observations topic is consumed back by a consumer group, which commits', async () => {
    const producer = createVitalsProducer(kafka, { retries: 'unbounded' });
    await producer.connect();
    const key = `pat-test-${randomUUID()}`;
    const value = JSON.stringify({ probe: randomUUID() });
    const [meta] = await producer.send({ topic: TEST_TOPICS.vitalsObservations, acks: -1, messages: [{ key, value }] });
    await producer.disconnect();
    expect(meta).toMatchObject({ topic: TEST_TOPICS.vitalsObservations });
    expect(Number(meta?.baseOffset)).toBeGreaterThanOrEqual(0);

    const groupId = `vitalis-test-${randomUUID()}`;
    const consumer = kafka.consumer({ groupId });
    await consumer.connect();
    await consumer.subscribe({ topic: TEST_TOPICS.vitalsObservations, fromBeginning: false });
    const received = new Promise<string>((resolve) => {
      void consumer.run({
        autoCommit: false,
        eachMessage: async ({ topic, partition, message }) => {
          if (message.key?.toString() !== key) return;
          await consumer.commitOffsets([{ topic, partition, offset: String(Number(message.offset) + 1) }]);
          resolve(message.value?.toString() ?? '');
        },
      });
    });
    // The group starts at the latest offset; rewind its partition to the message we produced.
    consumer.seek({ topic: TEST_TOPICS.vitalsObservations, partition: meta!.partition, offset: meta!.baseOffset! });
    expect(await received).toBe(value);
    await consumer.disconnect();

    const offsets = await admin.fetchOffsets({ groupId, topics: [TEST_TOPICS.vitalsObservations] });
    const committed = offsets[0]?.partitions.find((p) => p.partition === meta!.partition)?.offset;
    expect(committed).toBe(String(Number(meta!.baseOffset) + 1));
    await admin.deleteGroups([groupId]).catch(() => {});
  });

  it('the vitals producer writes each key to the partition vitalsPartition names, with its value, headers and timestamp as sent', async () => {
    await admin.connect();
    const topic = `vitalis-test.partitions.${randomUUID()}`;
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 12, replicationFactor: 1 }] });
    try {
      const producer = createVitalsProducer(kafka, { retries: 'bounded' });
      await producer.connect();
      const keys = Array.from({ length: 48 }, (_, i) => `pat-${randomUUID().slice(0, 8)}-${i}`);
      const timestamp = String(Date.now() - 60_000);
      const sent = await producer.send({
        topic,
        acks: -1,
        messages: keys.map((key) => ({
          key,
          value: `v-${key}`,
          timestamp,
          headers: { traceparent: `t-${key}`, repeated: ['one', 'two'] },
        })),
      });
      await producer.disconnect();
      expect(sent.every((s) => s.topic === topic)).toBe(true);

      const consumer = kafka.consumer({ groupId: `vitalis-test-partitions-${randomUUID()}` });
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      const seen = new Map<string, { partition: number; value: string; timestamp: string; headers: Record<string, unknown> }>();
      await new Promise<void>((resolve) => {
        void consumer.run({
          eachMessage: async ({ partition, message }) => {
            seen.set(message.key!.toString(), {
              partition,
              value: message.value!.toString(),
              timestamp: message.timestamp,
              headers: message.headers ?? {},
            });
            if (seen.size === keys.length) resolve();
          },
        });
      });
      await consumer.disconnect();
      for (const key of keys) {
        const record = seen.get(key)!;
        expect(record.partition).toBe(vitalsPartition(key, 12));
        expect(record.value).toBe(`v-${key}`);
        expect(record.timestamp).toBe(timestamp);
        expect(String(record.headers.traceparent)).toBe(`t-${key}`);
        expect((record.headers.repeated as Buffer[]).map(String)).toEqual(['one', 'two']);
      }
      expect(new Set(keys.map((k) => seen.get(k)!.partition)).size).toBeGreaterThan(1);
    } finally {
      await admin.deleteTopics({ topics: [topic] }).catch(() => {});
    }
  });
  it('the vitals producer asks for every in-sync replica on every send, and a send to a missing topic fails without creating it', async () => {
    // acks is read from each send's options only (the client's default for a non-idempotent send is
    // the leader's acknowledgement), so every send the producer makes is watched, calling through
    const sends = vi.spyOn(Producer.prototype, 'send');
    await admin.connect();
    const producer = createVitalsProducer(kafka, { retries: 'bounded' });
    try {
      await producer.connect();
      await producer.send({ topic: TEST_TOPICS.vitalsObservations, messages: [{ key: `pat-acks-${randomUUID()}`, value: 'v' }] });
      const missing = `vitalis-test.missing.${randomUUID()}`;
      const failed = await producer.send({ topic: missing, messages: [{ key: 'k', value: 'v' }] }).then(
        () => false,
        () => true,
      );
      expect(failed).toBe(true);
      expect(await admin.listTopics()).not.toContain(missing);
      expect(sends).toHaveBeenCalledTimes(2);
      for (const [options] of sends.mock.calls) expect((options as { acks?: number }).acks).toBe(ProduceAcks.ALL);
    } finally {
      sends.mockRestore();
      await producer.disconnect();
    }
  });
});
