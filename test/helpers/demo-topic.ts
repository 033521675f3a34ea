/**
 * Running the tests never changes what `make run` shows (issue 29 item 6). `make test` marks the
 * demo's observations topic (TOPICS.vitalsObservations) before the suites and checks it after:
 * every record that reached it in between must be the demo simulator's (a demo patient's key and
 * one of its devices, apps/simulator), so a test gateway, ingest or the contract check that
 * published to the demo topic fails the run, whether or not a demo is running meanwhile.
 *
 *   node --import tsx test/helpers/demo-topic.ts mark    # end offsets -> .data/test-demo-topic-mark.json
 *   node --import tsx test/helpers/demo-topic.ts check   # the records since the mark; exit 1 naming strangers
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Admin } from 'kafkajs';
import { createKafka, TOPICS } from '@vitalis/kafka';
import { testEnv } from './env';

const MARK = fileURLToPath(new URL('../../.data/test-demo-topic-mark.json', import.meta.url));
/** The demo's topic (another only to try this check itself on a scratch topic). */
const TOPIC = process.env.DEMO_TOPIC ?? TOPICS.vitalsObservations;
/** The demo simulator's patients and devices (apps/simulator: demoPatientId, `<patient>-monitor`, `<patient>-ecg`). */
const DEMO_KEY = /^pat-\d{4}$/;
const DEMO_DEVICE = /^pat-\d{4}-(monitor|ecg)$/;

type Offsets = Record<string, string>;

async function endOffsets(admin: Admin): Promise<Offsets | null> {
  if (!(await admin.listTopics()).includes(TOPIC)) return null;
  return Object.fromEntries((await admin.fetchTopicOffsets(TOPIC)).map((p) => [String(p.partition), p.high]));
}

/** Why a record is not the demo simulator's, or undefined when it is. */
export function strangerReason(key: string | null, value: string | null): string | undefined {
  if (key === null || !DEMO_KEY.test(key)) return `key ${JSON.stringify(key)}`;
  try {
    const body = JSON.parse(value ?? '') as { device_id?: unknown; patient_id?: unknown };
    if (body.patient_id !== key) return `patient ${JSON.stringify(body.patient_id)} under key ${key}`;
    if (typeof body.device_id !== 'string' || !DEMO_DEVICE.test(body.device_id)) return `device ${JSON.stringify(body.device_id)}`;
    return undefined;
  } catch {
    return 'a value that is not JSON';
  }
}

/** The records between `from` and `to` (per partition) that are not the demo simulator's. */
async function strangersBetween(from: Offsets, to: Offsets): Promise<string[]> {
  const pending = Object.keys(to).filter((p) => BigInt(to[p]!) > BigInt(from[p] ?? '0'));
  if (pending.length === 0) return [];
  const kafka = createKafka({ brokers: testEnv.KAFKA_BROKERS, clientId: 'vitalis-test-demo-topic', retries: 2 });
  const groupId = `vitalis-test-demo-topic-${randomUUID()}`;
  const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 200 });
  const found: string[] = [];
  const left = new Set(pending);
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: TOPIC, fromBeginning: false });
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    // Each partition from its marked offset (a new group would start at the end).
    consumer.on(consumer.events.GROUP_JOIN, () => {
      for (const p of pending) consumer.seek({ topic: TOPIC, partition: Number(p), offset: from[p] ?? '0' });
    });
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        const p = String(batch.partition);
        if (!left.has(p)) return;
        for (const m of batch.messages) {
          if (BigInt(m.offset) < BigInt(from[p] ?? '0') || BigInt(m.offset) >= BigInt(to[p]!)) continue;
          const why = strangerReason(m.key?.toString() ?? null, m.value?.toString() ?? null);
          if (why && found.length < 20) found.push(`partition ${p} offset ${m.offset}: ${why}`);
        }
        if (BigInt(batch.messages[batch.messages.length - 1]?.offset ?? '-1') + 1n >= BigInt(to[p]!)) {
          left.delete(p);
          if (left.size === 0) done();
        }
      },
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise(
      (_, reject) => (timer = setTimeout(() => reject(new Error(`reading ${TOPIC} since the mark took over 120 s`)), 120_000)),
    );
    await Promise.race([finished, timeout]).finally(() => clearTimeout(timer));
  } finally {
    await consumer.disconnect();
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteGroups([groupId]).catch(() => undefined);
    await admin.disconnect();
  }
  return found;
}

async function main(command: string | undefined): Promise<number> {
  const kafka = createKafka({ brokers: testEnv.KAFKA_BROKERS, clientId: 'vitalis-test-demo-topic', retries: 2 });
  const admin = kafka.admin();
  await admin.connect();
  try {
    if (command === 'mark') {
      mkdirSync(dirname(MARK), { recursive: true });
      writeFileSync(MARK, JSON.stringify({ topic: TOPIC, offsets: await endOffsets(admin) }));
      return 0;
    }
    if (command === 'check') {
      const mark = JSON.parse(readFileSync(MARK, 'utf8')) as { offsets: Offsets | null };
      const now = await endOffsets(admin);
      if (now === null) return 0; // no demo topic: nothing reached it
      const strangers = await strangersBetween(mark.offsets ?? {}, now);
      if (strangers.length === 0) {
        process.stdout.write(`demo topic ${TOPIC}: no test record reached it during the run\n`);
        return 0;
      }
      process.stderr.write(
        `demo topic ${TOPIC}: records that are not the demo simulator's reached it during the test run (a test must publish to TEST_TOPICS or private topics):\n  ${strangers.join('\n  ')}\n`,
      );
      return 1;
    }
    process.stderr.write('usage: demo-topic.ts mark|check\n');
    return 2;
  } finally {
    await admin.disconnect();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = await main(process.argv[2]);
