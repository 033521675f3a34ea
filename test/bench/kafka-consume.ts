/**
 * One Kafka client consuming a topic from its beginning, doing nothing with the records but reading
 * their bytes: the client's own share of a consumer's CPU (child process of kafka-clients.bench.ts).
 *   node --import tsx test/bench/kafka-consume.ts <kafkajs|platformatic> <topic> <records> <group>
 * Both clients are set up as the ingest's consumer is (apps/ingest/src/worker.ts): 10 MiB per fetch
 * (and 1 MiB per partition where the client has the limit: kafkajs), 500 ms fetch wait, a consumer group, no offset commits (the
 * ingest commits off the hot path). Prints one JSON line: records, value bytes, and the milliseconds
 * and its own CPU seconds (getrusage) from the first record to the last.
 */
import { Consumer, type MessagesStream } from '@platformatic/kafka';
import { Kafka, logLevel } from 'kafkajs';

const [client, topicArg, recordsArg, groupArg] = process.argv.slice(2);
if (!client || !topicArg || !recordsArg || !groupArg)
  throw new Error('usage: kafka-consume <kafkajs|platformatic> <topic> <records> <group>');
const topic: string = topicArg;
const groupId: string = groupArg;
const expected = Number(recordsArg);
const brokers = (process.env.KAFKA_BROKERS ?? '127.0.0.1:59092').split(',');
const FETCH = { maxBytesPerPartition: 1_048_576, maxBytes: 10_485_760, maxWaitMs: 500 };

let records = 0;
let bytes = 0;
let firstAt = 0;
/** CPU at the first record: what the module loading and the group join cost is not the client's per-record cost. */
let cpuAtFirst: NodeJS.CpuUsage | undefined;
let finish: () => void = () => {};
const finished = new Promise<void>((resolve) => (finish = resolve));
const count = (value: Buffer | null | undefined) => {
  if (firstAt === 0) {
    firstAt = performance.now();
    cpuAtFirst = process.cpuUsage();
  }
  records += 1;
  bytes += value?.byteLength ?? 0;
  if (records >= expected) finish();
};

async function withKafkajs(): Promise<() => Promise<void>> {
  const kafka = new Kafka({ brokers, clientId: 'vitalis-bench-kafkajs', logLevel: logLevel.ERROR });
  const consumer = kafka.consumer({
    groupId,
    maxBytesPerPartition: FETCH.maxBytesPerPartition,
    maxBytes: FETCH.maxBytes,
    maxWaitTimeInMs: FETCH.maxWaitMs,
  });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    partitionsConsumedConcurrently: 4,
    eachBatch: async ({ batch }) => {
      for (const message of batch.messages) count(message.value);
    },
  });
  return () => consumer.disconnect();
}

async function withPlatformatic(): Promise<() => Promise<void>> {
  const consumer = new Consumer({ groupId, clientId: 'vitalis-bench-platformatic', bootstrapBrokers: brokers });
  // 1.22 has no per-partition byte limit (its fetch takes maxBytes for the whole response)
  const stream = await (consumer.consume({
    topics: [topic],
    mode: 'earliest',
    autocommit: false,
    maxBytes: FETCH.maxBytes,
    maxWaitTime: FETCH.maxWaitMs,
  }) as Promise<MessagesStream<Buffer, Buffer, Buffer, Buffer>>);
  stream.on('data', (message) => count(message.value));
  return async () => {
    await stream.close();
    await consumer.close(true);
  };
}

const stop = client === 'kafkajs' ? await withKafkajs() : await withPlatformatic();
await finished;
const ms = performance.now() - firstAt;
const usage = process.cpuUsage(cpuAtFirst);
await stop();
process.stdout.write(`${JSON.stringify({ records, bytes, ms, cpuSeconds: (usage.user + usage.system) / 1e6 })}\n`);
process.exit(0);
