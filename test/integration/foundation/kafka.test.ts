import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createKafka, createVitalsProducer, topicSpecs } from '@vitalis/kafka';
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
    expect(meta?.errorCode).toBe(0);

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
});
