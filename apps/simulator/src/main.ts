/**
 * vitalis-simulator: `node --import tsx apps/simulator/src/main.ts` runs the bedside simulation;
 * `--burst N` produces N observations as fast as possible and prints the rate (for benchmarks);
 * with `--frames`, as device frames (six numerics and a 1 s ECG chunk per record); `--monitor-records`:
 * the same monitor data, one record per observation; `--rate R` paces it; `--one-in-flight` sends as
 * the services do (one request in flight); `--record FILE` writes the batches to FILE
 * instead of Kafka, `--replay FILE` sends the recorded bytes as they are (apps/simulator/src/burst.ts).
 */
import { parseArgs } from 'node:util';
import { kafkaTopicDurability, loadConfig, metricsListenerAddress } from '@vitalis/config';
import { createKafka, ensureTopics, tolerateStrayKafkaRejections } from '@vitalis/kafka';
import { createLogger } from '@vitalis/log';
import { METRIC, createRegistry, mirrorCounter, startMetricsServer } from '@vitalis/metrics';
import { onShutdown, VITALIS_VERSION } from '@vitalis/runtime';
import { createTracing } from '@vitalis/tracing';
import { simulatorConfigShape } from './config';
import { burst } from './burst';
import { runSimulator } from './simulator';

const { values } = parseArgs({
  options: {
    burst: { type: 'string' },
    seconds: { type: 'string' },
    prefix: { type: 'string' },
    rate: { type: 'string' },
    'real-time': { type: 'boolean', default: false },
    frames: { type: 'boolean', default: false },
    'monitor-records': { type: 'boolean', default: false },
    'one-in-flight': { type: 'boolean', default: false },
    record: { type: 'string' },
    replay: { type: 'string' },
  },
});
const config = loadConfig('simulator', simulatorConfigShape, (c) => ({ ...c, topics: kafkaTopicDurability(c) }));
const logger = createLogger('simulator', config.LOG_LEVEL);
const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: 'vitalis-simulator', logger });
tolerateStrayKafkaRejections(logger); // kafkajs's stray request rejections (libs/kafka stray-rejections.ts)
await ensureTopics(kafka, config.topics);
// Traces: off unless OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md#traces).
const tracing = createTracing(config, { app: 'simulator', version: VITALIS_VERSION });

if (values.burst !== undefined) {
  const count = Number(values.burst);
  if (!Number.isInteger(count) || count <= 0) {
    process.stderr.write('vitalis-simulator: --burst needs a positive integer\n');
    process.exit(64);
  }
  const cpuBefore = process.cpuUsage();
  const result = await burst({
    kafka,
    topic: config.SIM_TOPIC,
    count,
    durationMs: values.seconds ? Number(values.seconds) * 1000 : undefined,
    patientPrefix: values.prefix,
    realTime: values['real-time'],
    ratePerSecond: values.rate ? Number(values.rate) : undefined,
    frames: values.frames,
    monitorRecords: values['monitor-records'],
    requestsInFlight: values['one-in-flight'] ? 'one' : 'several',
    recordTo: values.record,
    replayFrom: values.replay,
    tracing,
  });
  await tracing.shutdown();
  // The CPU this process used for the burst (getrusage: what /proc/<pid>/stat shows), for the benches' per-component figures.
  const cpu = process.cpuUsage(cpuBefore);
  process.stdout.write(`${JSON.stringify({ ...result, cpuSeconds: (cpu.user + cpu.system) / 1e6 })}\n`);
  process.exit(0);
}

const sim = await runSimulator({
  kafka,
  logger,
  topic: config.SIM_TOPIC,
  patients: config.SIM_PATIENTS,
  rateHz: config.SIM_RATE_HZ,
  deterioratingFraction: config.SIM_DETERIORATING_FRACTION,
  ecg: config.SIM_ECG,
  frames: config.SIM_FRAMES,
  seed: config.SIM_SEED,
  tracing,
});
const statsTimer = setInterval(() => logger.info({ sent: sim.sent() }, 'simulator stats'), 30_000);
statsTimer.unref();
const registry = createRegistry('simulator');
mirrorCounter(registry, METRIC.simulatorSent, 'Observations the simulator produced to Kafka', () => sim.sent());
const metricsAddress = metricsListenerAddress(config);
const metricsServer = metricsAddress ? await startMetricsServer(registry, metricsAddress) : undefined;
if (metricsServer) logger.info({ url: metricsServer.url }, 'metrics listening');
// A development tool: no probes, nothing routes to it, so no drain wait.
onShutdown({
  logger,
  drainMs: 0,
  graceMs: 10_000,
  steps: [
    { name: 'simulator', run: () => sim.stop() },
    { name: 'metrics', run: async () => metricsServer?.close() },
    { name: 'traces', run: () => tracing.shutdown() },
  ],
});
