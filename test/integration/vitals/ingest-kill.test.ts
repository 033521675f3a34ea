/**
 * Crash safety: the real ingest app runs as a child process (`node --import tsx apps/ingest/src/main.ts`)
 * on a private topic with its own consumer group. It is SIGKILLed while thousands of observations are
 * in flight, then restarted: every observation is stored exactly once. A final SIGTERM finishes the
 * in-flight work, exits 0 and leaves the group's committed offsets at the end of the topic.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin, Message, Producer } from 'kafkajs';
import type { Pool } from '@vitalis/db';
import { testEnv } from '../../helpers/env';
import { countStored, numeric, privateTopics, testKafka, testPool, uid, waitFor } from './support';

const TOTAL = 5_000;
const PATIENTS = 40;
const kafka = testKafka('ingest-kill');
let admin: Admin;
let pool: Pool;
let producer: Producer;
let topics: Awaited<ReturnType<typeof privateTopics>>;
const children: ChildProcess[] = [];

beforeAll(async () => {
  admin = kafka.admin();
  await admin.connect();
  pool = testPool();
  topics = await privateTopics(admin, 6);
  producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await producer?.disconnect();
  await topics?.drop();
  await admin?.disconnect();
  await pool?.end();
});

function startIngestProcess(groupId: string): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/ingest/src/main.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: testEnv.APP_DATABASE_URL, // the real ingest, as in production: the app role
      KAFKA_BROKERS: testEnv.KAFKA_BROKERS.join(','),
      LOG_LEVEL: 'warn',
      INGEST_GROUP_ID: groupId,
      INGEST_TOPIC: topics.topic,
      INGEST_DLQ_TOPIC: topics.dlqTopic,
      // small fetches = many small batches, so a kill lands between and inside transactions
      INGEST_MAX_BYTES_PER_PARTITION: '8192',
      INGEST_MAX_WAIT_MS: '100',
      // the restarted member otherwise waits out the killed member's 30 s session
      INGEST_SESSION_TIMEOUT_MS: '6000',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', () => {}); // drain
  children.push(child);
  return child;
}

const exited = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });

describe('ingest worker crash safety (child process)', () => {
  it('SIGKILL mid-stream then restart: nothing lost, nothing duplicated; SIGTERM drains and commits', async () => {
    const prefix = `pat-kill-${uid()}`;
    const start = Date.now();
    const messages: Message[] = Array.from({ length: TOTAL }, (_, i) => {
      const patient = `${prefix}-${i % PATIENTS}`;
      return { key: patient, value: JSON.stringify(numeric(patient, `${patient}-dev`, i, new Date(start + i))) };
    });
    // first half before the worker starts (a backlog), second half while it runs
    for (let i = 0; i < TOTAL / 2; i += 500) await producer.send({ topic: topics.topic, acks: -1, messages: messages.slice(i, i + 500) });

    const groupId = `vitalis-test-kill-${uid()}`;
    const first = startIngestProcess(groupId);
    // Kill as soon as the worker is storing: small fetches keep it mid-stream (and usually inside
    // a transaction). The second half is produced only afterwards, so work is always outstanding
    // at the kill however fast this machine is.
    const before = await waitFor(() => countStored(pool, { devicePrefix: prefix }), (c) => c.rows >= 300, 60_000, 'first rows');
    first.kill('SIGKILL');
    expect((await exited(first)).signal).toBe('SIGKILL');
    const atKill = await countStored(pool, { devicePrefix: prefix });
    expect(before.rows).toBeLessThan(TOTAL);
    expect(atKill.rows).toBeLessThanOrEqual(TOTAL / 2);

    // The rest streams in while the restarted worker runs.
    const producing = (async () => {
      for (let i = TOTAL / 2; i < TOTAL; i += 250) {
        await producer.send({ topic: topics.topic, acks: -1, messages: messages.slice(i, i + 250) });
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const second = startIngestProcess(groupId);
    await producing;
    const after = await waitFor(() => countStored(pool, { devicePrefix: prefix }), (c) => c.rows >= TOTAL, 90_000, 'all rows after restart');
    expect(after).toEqual({ rows: TOTAL, distinct: TOTAL });

    // graceful stop: exit 0, and the group's committed offsets reach the end of every partition
    second.kill('SIGTERM');
    expect(await exited(second)).toEqual({ code: 0, signal: null });
    const ends = await admin.fetchTopicOffsets(topics.topic);
    const committed = await admin.fetchOffsets({ groupId, topics: [topics.topic] });
    for (const end of ends) {
      expect(committed[0]!.partitions.find((p) => p.partition === end.partition)?.offset).toBe(end.high);
    }
    expect(await countStored(pool, { devicePrefix: prefix })).toEqual({ rows: TOTAL, distinct: TOTAL });
    await admin.deleteGroups([groupId]).catch(() => {});
  }, 180_000);
});
