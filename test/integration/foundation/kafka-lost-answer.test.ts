/**
 * A produce request the broker wrote but whose answer never came back (the broker died or the
 * connection broke after the write: "possibly persisted"), against the real broker. The producer's
 * connections go through a fault that, once armed, swallows the answer to the next Produce request
 * and cuts the connection, then refuses new connections until the send has failed, as a gateway
 * sees it when a broker dies under it: the send fails, the device is told 503.
 *
 * Then the next batch of the same size to the same partition must be written and acknowledged: an
 * idempotent producer (kafkajs's did, ADR 0033) may hand the failed batch's sequence numbers to it,
 * the broker takes it for a duplicate of the batch it wrote and acknowledges it WITHOUT writing it
 * (the silent loss behind the scale-out test's failure). The vitals producer contract (libs/kafka
 * producer.ts) is not idempotent, so this holds: every acknowledged record is in the topic.
 *
 * The producer's client (@platformatic/kafka, ADR 0037) opens its connections with node:net's
 * `createConnection`; the fault wraps that function while a producer of this file is open
 * (`syncBuiltinESMExports` carries the wrapper to the client's ESM import), and only for the
 * broker's connections. The consumer that reads the topic back (kafkajs) connects with `net.connect`,
 * untouched.
 */
import { randomUUID } from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import net, { type NetConnectOpts, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import { createVitalsProducer } from '@vitalis/kafka';
import { testEnv } from '../../helpers/env';
import { freePort } from '../../helpers/processes';

const PRODUCE_API_KEY = 0;
const originalCreateConnection = net.createConnection;
/** The brokers' ports: the only connections the fault touches. */
const BROKER_PORTS = new Set(testEnv.KAFKA_BROKERS.map((broker) => Number(broker.split(':').pop())));

/** Puts node:net's `createConnection` back (after each test). */
function restoreCreateConnection(): void {
  net.createConnection = originalCreateConnection;
  syncBuiltinESMExports();
}

/**
 * The fault: armed, the next Produce request's answer is swallowed and its connection cut; with
 * `refuseAfter`, connections are then refused until `heal()` (the send runs out of retries).
 * Installed as node:net's `createConnection` until `restoreCreateConnection`.
 */
function lostAnswerSockets(refusingPort: number, refuseAfter: boolean) {
  let armed = false;
  let refusing = false;
  let fired = false;
  const faulty = (options: NetConnectOpts, listener?: () => void): Socket => {
    if (!('port' in options) || !BROKER_PORTS.has(Number(options.port))) return originalCreateConnection(options, listener);
    if (refusing) return originalCreateConnection({ ...options, host: '127.0.0.1', port: refusingPort }, listener);
    const socket: Socket = originalCreateConnection(options, listener);
    let swallowNextAnswer = false;
    const write = socket.write.bind(socket) as (chunk: Uint8Array | string, ...rest: unknown[]) => boolean;
    socket.write = ((chunk: Uint8Array | string, ...rest: unknown[]) => {
      // a request: int32 size, int16 api key, ...
      if (armed && typeof chunk !== 'string' && chunk.length >= 6 && Buffer.from(chunk).readInt16BE(4) === PRODUCE_API_KEY) {
        armed = false;
        swallowNextAnswer = true;
      }
      return write(chunk, ...rest);
    }) as Socket['write'];
    const emit = socket.emit.bind(socket) as (event: string | symbol, ...args: unknown[]) => boolean;
    socket.emit = ((event: string | symbol, ...args: unknown[]) => {
      if (event === 'data' && swallowNextAnswer) {
        swallowNextAnswer = false;
        fired = true;
        refusing = refuseAfter;
        socket.destroy(new Error('injected: the answer to a written Produce request was lost'));
        return true;
      }
      return emit(event, ...args);
    }) as Socket['emit'];
    return socket;
  };
  net.createConnection = faulty as typeof net.createConnection;
  syncBuiltinESMExports();
  return {
    arm: () => (armed = true),
    heal: () => (refusing = false),
    get fired() {
      return fired;
    },
  };
}

const topic = `vitalis-test.lost-answer.${randomUUID()}`;
let admin: Admin;
const plain = new Kafka({ brokers: testEnv.KAFKA_BROKERS, clientId: 'vitalis-test-lost-answer-admin', logLevel: logLevel.NOTHING });

beforeAll(async () => {
  admin = plain.admin();
  await admin.connect();
  await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 1, replicationFactor: 1 }] });
});

afterAll(async () => {
  await admin.deleteTopics({ topics: [topic] }).catch(() => {});
  await admin.disconnect();
});

/** Every record value in the (one-partition) topic. */
async function recordsIn(): Promise<string[]> {
  const [end] = await admin.fetchTopicOffsets(topic);
  const high = Number(end!.high);
  if (high === 0) return [];
  const groupId = `vitalis-test-lost-answer-${randomUUID()}`;
  const consumer = plain.consumer({ groupId });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const values: string[] = [];
  await new Promise<void>((resolve) => {
    void consumer.run({
      eachMessage: async ({ message }) => {
        values.push(message.value!.toString());
        if (Number(message.offset) >= high - 1) resolve();
      },
    });
  });
  await consumer.disconnect();
  await admin.deleteGroups([groupId]).catch(() => {});
  return values;
}

/** The gateway's producer (bounded retries: the request answers 503 when they run out), its connections through the fault installed before it. */
async function gatewayProducer() {
  const producer = createVitalsProducer(
    { settings: { brokers: testEnv.KAFKA_BROKERS, clientId: 'vitalis-test-lost-answer' } },
    { retries: 'bounded' },
  );
  await producer.connect();
  return producer;
}

/** Four records for partition 0 (the same size every time: what makes a reused sequence range look like a duplicate). */
const batch = (name: string) => Array.from({ length: 4 }, (_, i) => ({ key: 'pat-1', value: `${name}-${i}`, partition: 0 }));

afterEach(restoreCreateConnection);

describe('the vitals producer when a written batch loses its answer (real broker)', () => {
  it('after the send failed (503), the next batch of the same size is written, not taken for a duplicate of the lost one', async () => {
    const sockets = lostAnswerSockets(await freePort(), true);
    const producer = await gatewayProducer();
    await producer.send({ topic, acks: -1, messages: batch('before') });

    sockets.arm();
    const lost = await producer.send({ topic, acks: -1, messages: batch('lost-answer') }).then(
      () => 'acknowledged',
      () => 'failed',
    );
    expect(sockets.fired).toBe(true);
    sockets.heal();
    // the device was told 503 (or, had a retry got through, 202): either way the batch is in the topic
    expect(['failed', 'acknowledged']).toContain(lost);

    await producer.send({ topic, acks: -1, messages: batch('next') });
    await producer.disconnect();

    const values = await recordsIn();
    for (const name of ['before', 'lost-answer', 'next']) for (const { value } of batch(name)) expect(values).toContain(value);
  });

  it('sends waiting behind the one that lost its answer are written too, as it is when it is retried', async () => {
    // the gateway's concurrent requests: the retried send and the waiting ones must not share sequence numbers
    const sockets = lostAnswerSockets(await freePort(), false);
    const producer = await gatewayProducer();
    const rounds = 5;
    for (let r = 0; r < rounds; r++) {
      sockets.arm();
      const sends = [`lost-${r}`, `waiting-${r}`, `later-${r}`].map((name) => producer.send({ topic, acks: -1, messages: batch(name) }));
      await Promise.all(sends); // retried within the send: every one acknowledged
    }
    await producer.disconnect();
    expect(sockets.fired).toBe(true);
    const values = await recordsIn();
    for (let r = 0; r < rounds; r++)
      for (const name of [`lost-${r}`, `waiting-${r}`, `later-${r}`]) for (const { value } of batch(name)) expect(values).toContain(value);
  });
});
