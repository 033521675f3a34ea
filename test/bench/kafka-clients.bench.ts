/**
 * kafkajs against @platformatic/kafka (issue 34 item 3; a research phase: `BENCH_ONLY=kafka-clients`,
 * or beside the drain as `BENCH_ONLY=drain,kafka-clients` so the runner can weigh it against the
 * ingest's CPU). The ingest keeps kafkajs unless a maintained client saves more than 25 % of the
 * ingest's CPU per observation; this measures the client's own share. For v1 records and for frames
 * (the drain's backlog: BENCH_CLIENTS_OBSERVATIONS, 1,000,000, from the simulator's burst), each
 * client consumes the whole topic from its beginning in a child process of its own
 * (kafka-consume.ts: the ingest's fetch sizes, a consumer group, the bytes of every record read,
 * nothing else), BENCH_CLIENTS_ROUNDS times (2) in turn; prints its CPU per observation from the
 * first record to the last (the child's getrusage) and its rate, the mean of the rounds.
 */
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { consumeFigure, KAFKA_CLIENTS, RECORD_SHAPES, type KafkaClient, type RecordShape } from './figure-names';
import { benchTopic, BROKERS, consumeTopic, groupProgress, simulate, type ConsumeRun } from './pipeline';
import { loadAverage } from './proc-cpu';
import { figure, fmt, out } from './report';

const env = process.env;
const OBSERVATIONS = Number(env.BENCH_CLIENTS_OBSERVATIONS ?? 1_000_000);
const ROUNDS = Number(env.BENCH_CLIENTS_ROUNDS ?? 2);

const kafka = new Kafka({ brokers: BROKERS, clientId: 'vitalis-bench-clients', logLevel: logLevel.ERROR });
const admin = kafka.admin();
await admin.connect();
try {
  for (const shape of Object.keys(RECORD_SHAPES) as RecordShape[]) {
    const { label, args } = RECORD_SHAPES[shape];
    const { topic, drop } = await benchTopic(admin, `clients-${shape}`);
    try {
      const produced = await simulate(topic, ['--burst', String(OBSERVATIONS), '--real-time', ...args, '--prefix', `clients-${shape}`]);
      const { end: records } = await groupProgress(admin, topic, `vitalis-bench-clients-none-${randomUUID().slice(0, 8)}`);
      out(`${label}: ${fmt(produced.sent)} observations in ${fmt(records)} records; each client consumes them ${ROUNDS} times in turn`);
      const load = loadAverage();
      const runs: Record<KafkaClient, ConsumeRun[]> = { kafkajs: [], platformatic: [] };
      for (let round = 0; round < ROUNDS; round++)
        for (const client of Object.keys(KAFKA_CLIENTS) as KafkaClient[]) {
          const r = await consumeTopic(client, topic, records, 'clients');
          runs[client].push(r);
          out(
            `  round ${round + 1}, ${KAFKA_CLIENTS[client]}: ${fmt((produced.sent * 1000) / r.ms)} obs/s, ${((r.cpuSeconds * 1e6) / produced.sent).toFixed(2)} µs CPU per observation`,
          );
        }
      for (const client of Object.keys(KAFKA_CLIENTS) as KafkaClient[]) {
        const mean = (f: (r: ConsumeRun) => number) => runs[client].reduce((s, r) => s + f(r), 0) / runs[client].length;
        const name = consumeFigure(shape, client);
        figure({
          phase: 'clients',
          name: `${name}: consumer CPU per observation`,
          value: (mean((r) => r.cpuSeconds) * 1e6) / produced.sent,
          unit: 'µs',
          load,
        });
        figure({ phase: 'clients', name: `${name}: rate`, value: produced.sent / (mean((r) => r.ms) / 1000), unit: 'obs/s', load });
      }
    } finally {
      await drop();
    }
  }
} finally {
  await admin.disconnect();
}
process.exit(0);
