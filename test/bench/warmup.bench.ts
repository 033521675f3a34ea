/**
 * Warms the Kafka broker before the measured phases (`make bench` runs it after "calibrate"). A
 * broker JVM just started (`make up` right before the bench, a fresh machine, a restarted stack)
 * spends its first heavy minutes compiling its produce and fetch paths: in run 6 the first
 * phases read 2–3 times the broker CPU per observation they read on the same code minutes later
 * (the v1 JSON producer's 2.80 against 0.88 µs), which would be charged to whichever phase ran
 * first. The same bursts the producer phases send (v1 records, then frames) go to a scratch topic
 * and are consumed to its end by kafkajs with the ingest's fetch sizes (kafka-consume.ts), round
 * after round until the broker has settled: at least MIN_ROUNDS, then until a round's v1 figure is
 * within SETTLED of the round before (measured from a cold start: 6.2, 3.7, 4.1, 1.5, 2.7, 1.4,
 * 1.1 µs per v1 observation produced and consumed, about 9 s a round), at most BENCH_WARMUP_MAX_ROUNDS.
 * The figures: the broker's CPU per observation in each round and the rounds it took, so a run shows
 * that its measured phases met a warm broker.
 */
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { RECORD_SHAPES, type RecordShape } from './figure-names';
import { benchTopic, BROKERS, consumeTopic, simulate } from './pipeline';
import { cpuOfMatching, cpuUsedBetween, loadAverage, SERVERS } from './proc-cpu';
import { figure, out } from './report';

const OBSERVATIONS = Number(process.env.BENCH_WARMUP_OBSERVATIONS ?? 300_000);
const MIN_ROUNDS = 4;
const MAX_ROUNDS = Number(process.env.BENCH_WARMUP_MAX_ROUNDS ?? 10);
/** Settled: a round's v1 figure within this fraction of the round before. */
const SETTLED = 0.2;
const runId = randomUUID().slice(0, 8);

const kafka = new Kafka({ brokers: BROKERS, clientId: 'vitalis-bench-warmup', logLevel: logLevel.ERROR });
const admin = kafka.admin();
await admin.connect();

/** One round for one record shape: the burst into a scratch topic, consumed back; the broker's CPU per observation over both. */
async function warm(shape: RecordShape, round: number): Promise<number> {
  const scratch = await benchTopic(admin, `warmup-${shape}`);
  try {
    const load = loadAverage();
    const before = cpuOfMatching(SERVERS.kafka);
    const produced = await simulate(scratch.topic, [
      '--burst',
      String(OBSERVATIONS),
      '--real-time',
      ...RECORD_SHAPES[shape].args,
      '--prefix',
      `warmup-${shape}-${runId}-${round}`,
    ]);
    const records = (await admin.fetchTopicOffsets(scratch.topic)).reduce((sum, p) => sum + Number(p.high), 0);
    await consumeTopic('kafkajs', scratch.topic, records, 'warmup');
    const perObservation = (cpuUsedBetween(before, cpuOfMatching(SERVERS.kafka)) * 1e6) / produced.sent;
    figure({
      phase: 'warmup',
      name: `broker warm-up round ${round}, ${RECORD_SHAPES[shape].label}: kafka CPU per observation (produce and consume)`,
      value: perObservation,
      unit: 'µs',
      load,
    });
    return perObservation;
  } finally {
    await scratch.drop();
  }
}

try {
  out(`warming the broker: rounds of ${OBSERVATIONS.toLocaleString('en-US')} observations, v1 records then frames, each consumed back`);
  let previous = Number.POSITIVE_INFINITY;
  let round = 0;
  let settled = false;
  while (!settled && round < MAX_ROUNDS) {
    round += 1;
    const v1 = await warm('v1', round);
    await warm('frames', round);
    settled = round >= MIN_ROUNDS && Math.abs(v1 - previous) <= SETTLED * previous;
    previous = v1;
  }
  out(
    settled
      ? `the broker settled after ${round} rounds`
      : `the broker had not settled after ${round} rounds: the Kafka figures may read high`,
  );
  figure({ phase: 'warmup', name: 'broker warm-up rounds until settled', value: round, unit: 'rounds' });
} finally {
  await admin.disconnect();
}
