/**
 * Crash safety: the real ingest app runs as a child process (`node --import tsx apps/ingest/src/main.ts`)
 * on a private topic with its own consumer group. It is SIGKILLed while thousands of observations are
 * in flight, then restarted: every observation is stored exactly once. A SIGTERM while a further
 * load streams in finishes the in-flight batches and commits their offsets (what is stored is
 * exactly what is committed) and exits 0; after a restart every observation is stored exactly
 * once. A final SIGTERM leaves the group's committed offsets at the end of the topic.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import { createVitalsProducer, type VitalsMessage, type VitalsProducer } from '@vitalis/kafka';
import type { Pool } from '@vitalis/db';
import { testEnv } from '../../helpers/env';
import { exited } from '../../helpers/processes';
import { countStored, numeric, privateTopics, testKafka, testPool, uid, waitFor } from './support';

const TOTAL = 5_000;
const PATIENTS = 40;
const kafka = testKafka('ingest-kill');
let admin: Admin;
let pool: Pool;
let producer: VitalsProducer;
let topics: Awaited<ReturnType<typeof privateTopics>>;
const children: ChildProcess[] = [];

beforeAll(async () => {
  admin = kafka.admin();
  await admin.connect();
  pool = testPool();
  topics = await privateTopics(admin, 6);
  producer = createVitalsProducer(kafka, { retries: 'unbounded' });
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
      // the shutdown sequence as in production (libs/runtime), with a short drain wait
      READINESS_DRAIN_SECONDS: '1',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', () => {}); // drain
  children.push(child);
  return child;
}

/** Each partition's stored Kafka offsets for these devices, ascending (one per stored observation). */
async function storedOffsets(devicePrefix: string): Promise<Map<number, number[]>> {
  const { rows } = await pool.query<{ p: number; o: string }>(
    `SELECT kafka_partition AS p, kafka_offset AS o FROM vitals_observations WHERE device_id LIKE $1 || '%' ORDER BY kafka_partition, kafka_offset`,
    [devicePrefix],
  );
  const byPartition = new Map<number, number[]>();
  for (const r of rows) {
    const list = byPartition.get(r.p) ?? [];
    list.push(Number(r.o));
    byPartition.set(r.p, list);
  }
  return byPartition;
}

describe('ingest worker crash safety (child process)', () => {
  it('SIGKILL mid-stream then restart: nothing lost, nothing duplicated; SIGTERM mid-load finishes and commits the in-flight batches; restart: exactly once', async () => {
    const prefix = `pat-kill-${uid()}`;
    const start = Date.now();
    const messages: VitalsMessage[] = Array.from({ length: TOTAL }, (_, i) => {
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
    const before = await waitFor(
      () => countStored(pool, { devicePrefix: prefix }),
      (c) => c.rows >= 300,
      60_000,
      'first rows',
    );
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
    const after = await waitFor(
      () => countStored(pool, { devicePrefix: prefix }),
      (c) => c.rows >= TOTAL,
      90_000,
      'all rows after restart',
    );
    expect(after).toEqual({ rows: TOTAL, distinct: TOTAL });

    // SIGTERM mid-load: a further TOTAL observations stream in while the worker stores them
    const more: VitalsMessage[] = Array.from({ length: TOTAL }, (_, i) => {
      const patient = `${prefix}-${i % PATIENTS}`;
      return { key: patient, value: JSON.stringify(numeric(patient, `${patient}-dev`, TOTAL + i, new Date(start + TOTAL + i))) };
    });
    const producingMore = (async () => {
      for (let i = 0; i < TOTAL; i += 100) {
        await producer.send({ topic: topics.topic, acks: -1, messages: more.slice(i, i + 100) });
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    await waitFor(
      () => countStored(pool, { devicePrefix: prefix }),
      (c) => c.rows >= TOTAL + 300,
      60_000,
      'rows of the further load',
    );
    second.kill('SIGTERM');
    expect(await exited(second)).toEqual({ code: 0, signal: null });
    await producingMore;
    // the in-flight batches were finished and their offsets committed: per partition, the stored
    // offsets are exactly 0 .. committed - 1 (nothing stored uncommitted, nothing committed unstored)
    const atTerm = await storedOffsets(prefix);
    const committedAtTerm = await admin.fetchOffsets({ groupId, topics: [topics.topic] });
    for (const { partition, offset } of committedAtTerm[0]!.partitions) {
      const offsets = atTerm.get(partition) ?? [];
      expect({ partition, stored: offsets.length, last: offsets.at(-1) ?? -1 }).toEqual({
        partition,
        stored: Math.max(0, Number(offset)),
        last: Math.max(0, Number(offset)) - 1,
      });
    }
    console.log(`SIGTERM mid-load: ${[...atTerm.values()].reduce((n, o) => n + o.length, 0)} of ${2 * TOTAL} stored and committed at exit`);

    const third = startIngestProcess(groupId);
    const all = await waitFor(
      () => countStored(pool, { devicePrefix: prefix }),
      (c) => c.rows >= 2 * TOTAL,
      90_000,
      'all rows after the SIGTERM restart',
    );
    expect(all).toEqual({ rows: 2 * TOTAL, distinct: 2 * TOTAL });

    // graceful stop: exit 0, and the group's committed offsets reach the end of every partition
    // (once the worker runs: its signal handlers are installed when it has joined the group)
    await waitFor(
      async () => (await admin.describeGroups([groupId])).groups[0]!,
      (g) => g.state === 'Stable' && g.members.length === 1,
      60_000,
      'the restarted worker in the group',
    );
    third.kill('SIGTERM');
    expect(await exited(third)).toEqual({ code: 0, signal: null });
    const ends = await admin.fetchTopicOffsets(topics.topic);
    const committed = await admin.fetchOffsets({ groupId, topics: [topics.topic] });
    for (const end of ends) {
      expect(committed[0]!.partitions.find((p) => p.partition === end.partition)?.offset).toBe(end.high);
    }
    expect(await countStored(pool, { devicePrefix: prefix })).toEqual({ rows: 2 * TOTAL, distinct: 2 * TOTAL });
    await admin.deleteGroups([groupId]).catch(() => {});
  }, 240_000);
});
