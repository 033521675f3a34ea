/**
 * One Kafka client producing a burst's recorded device bytes (apps/simulator/src/recording.ts) as
 * they are: the client's own share of a producer's CPU (child process of kafka-clients.bench.ts).
 *   node --import tsx test/bench/kafka-produce.ts <kafkajs|platformatic> <topic> <recording> <observations>
 * Both send as the simulator's burst does (acks=all, not idempotent, the Java-compatible partition of
 * each key, four sends in flight, pipelined): kafkajs as the vitals producer was set up before ADR
 * 0037, @platformatic/kafka through the product's `createVitalsProducer`. Prints one JSON line: the
 * observations sent, and the milliseconds and its own CPU seconds (getrusage) from the first send to
 * the last acknowledgement (reading the recording is not the client's cost).
 */
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { createVitalsProducer } from '@vitalis/kafka';
import { loadRecording } from '../../apps/simulator/src/recording';

const [client, topicArg, file, observationsArg] = process.argv.slice(2);
if (!client || !topicArg || !file || !observationsArg)
  throw new Error('usage: kafka-produce <kafkajs|platformatic> <topic> <recording> <observations>');
const topic: string = topicArg;
const observations = Number(observationsArg);
const brokers = (process.env.KAFKA_BROKERS ?? '127.0.0.1:59092').split(',');
const LANES = 4;

type Send = (messages: { key: Buffer; value: Buffer }[]) => Promise<unknown>;

async function withKafkajs(): Promise<{ send: Send; close: () => Promise<void> }> {
  const kafka = new Kafka({ brokers, clientId: 'vitalis-bench-kafkajs', logLevel: logLevel.ERROR });
  const producer = kafka.producer({ idempotent: false, allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  return { send: (messages) => producer.send({ topic, acks: -1, messages }), close: () => producer.disconnect() };
}

async function withPlatformatic(): Promise<{ send: Send; close: () => Promise<void> }> {
  const producer = createVitalsProducer(
    { settings: { brokers, clientId: 'vitalis-bench-platformatic' } },
    { retries: 'unbounded', requestsInFlight: 'several' },
  );
  await producer.connect();
  return { send: (messages) => producer.send({ topic, acks: -1, messages }), close: () => producer.disconnect() };
}

const batches = loadRecording(file);
const { send, close } = client === 'kafkajs' ? await withKafkajs() : await withPlatformatic();
let next = 0;
let sent = 0;
let taken = 0;
const started = performance.now();
const cpu0 = process.cpuUsage();
await Promise.all(
  Array.from({ length: LANES }, async () => {
    while (next < observations) {
      const batch = batches[taken++ % batches.length]!;
      next += batch.observations;
      await send(batch.messages);
      sent += batch.observations;
    }
  }),
);
const cpu = process.cpuUsage(cpu0);
const ms = performance.now() - started;
await close();
process.stdout.write(`${JSON.stringify({ observations: sent, ms, cpuSeconds: (cpu.user + cpu.system) / 1e6 })}\n`);
process.exit(0);
