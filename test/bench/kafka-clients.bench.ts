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
 * Then the producers (ADR 0037): the same burst recorded once (the simulator's `--record`), each
 * client sends the recorded bytes to a topic of its own (kafka-produce.ts: acks=all, not idempotent,
 * the Java-compatible partitioner, four sends in flight), BENCH_CLIENTS_ROUNDS times in turn; prints
 * its CPU per observation from the first send to the last acknowledgement, the broker's (read from
 * /proc over the same run) and its rate, the mean of the rounds.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import { consumeFigure, KAFKA_CLIENTS, produceFigure, RECORD_SHAPES, type KafkaClient, type RecordShape } from './figure-names';
import { benchTopic, BROKERS, consumeTopic, groupProgress, produceRecording, simulate, type ConsumeRun } from './pipeline';
import { cpuUsedBetween, loadAverage, serversCpu } from './proc-cpu';
import { figure, fmt, out } from './report';

const env = process.env;
const OBSERVATIONS = Number(env.BENCH_CLIENTS_OBSERVATIONS ?? 1_000_000);
const ROUNDS = Number(env.BENCH_CLIENTS_ROUNDS ?? 2);

/** The mean of `f` over the rounds' runs. */
const meanOf = <T>(runs: readonly T[], f: (run: T) => number): number => runs.reduce((sum, run) => sum + f(run), 0) / runs.length;

/** Each client producing `shape`'s burst, recorded once, to a topic of its own per run, ROUNDS times in turn. */
async function compareProducers(admin: Admin, shape: RecordShape): Promise<void> {
  const { label, args } = RECORD_SHAPES[shape];
  const file = join(tmpdir(), `vitalis-bench-clients-${shape}-${randomUUID().slice(0, 8)}.rec`);
  try {
    await simulate('unused-recording', [
      '--burst',
      String(OBSERVATIONS),
      '--real-time',
      ...args,
      '--prefix',
      `produce-${shape}`,
      '--record',
      file,
    ]);
    out(`${label}: the same recorded burst produced by each client ${ROUNDS} times in turn`);
    const load = loadAverage();
    const runs: Record<KafkaClient, { cpu: number; kafka: number; seconds: number }[]> = { kafkajs: [], platformatic: [] };
    for (let round = 0; round < ROUNDS; round++)
      for (const client of Object.keys(KAFKA_CLIENTS) as KafkaClient[]) {
        const { topic, drop } = await benchTopic(admin, `produce-${shape}-${client}`);
        try {
          const broker0 = serversCpu().kafka;
          const r = await produceRecording(client, topic, file, OBSERVATIONS);
          const kafkaCpu = cpuUsedBetween(broker0, serversCpu().kafka);
          runs[client].push({
            cpu: r.cpuSeconds / r.observations,
            kafka: kafkaCpu / r.observations,
            seconds: r.ms / 1000 / r.observations,
          });
          out(
            `  round ${round + 1}, ${KAFKA_CLIENTS[client]}: ${fmt((r.observations * 1000) / r.ms)} obs/s, ${((r.cpuSeconds * 1e6) / r.observations).toFixed(2)} µs CPU per observation`,
          );
        } finally {
          await drop();
        }
      }
    for (const client of Object.keys(KAFKA_CLIENTS) as KafkaClient[]) {
      const mean = (f: (r: (typeof runs)[KafkaClient][number]) => number) => meanOf(runs[client], f);
      const name = produceFigure(shape, client);
      figure({ phase: 'clients', name: `${name}: producer CPU per observation`, value: mean((r) => r.cpu) * 1e6, unit: 'µs', load });
      figure({ phase: 'clients', name: `${name}: kafka CPU per observation`, value: mean((r) => r.kafka) * 1e6, unit: 'µs', load });
      figure({ phase: 'clients', name: `${name}: rate`, value: 1 / mean((r) => r.seconds), unit: 'obs/s', load });
    }
  } finally {
    await rm(file, { force: true });
  }
}

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
        const mean = (f: (r: ConsumeRun) => number) => meanOf(runs[client], f);
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
    await compareProducers(admin, shape);
  }
} finally {
  await admin.disconnect();
}
process.exit(0);
