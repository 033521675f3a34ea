/**
 * Live-stream test plumbing: a private topic with an in-process ingest worker running the live
 * stage (alerts + Redis fan-out), a gateway serving that topic, and small SSE / WebSocket clients.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import WebSocket from 'ws';
import type { Admin } from 'kafkajs';
import { createVitalsProducer, type VitalisKafka, type VitalsProducer } from '@vitalis/kafka';
import type { Pool } from '@vitalis/db';
import { createLogger } from '@vitalis/log';
import { createRedis, type Redis } from '@vitalis/redis';
import { createLiveStage, type LiveStage } from '../../../apps/ingest/src/live/stage';
import type { IngestWorker } from '../../../apps/ingest/src/worker';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { testEnv } from '../../helpers/env';
import { pumpSse } from '../../helpers/sse';
import { privateTopics, startTestIngest, testKafka, testPool } from '../vitals/support';

export { uid, numeric, waitFor } from '../vitals/support';

export interface LiveRig {
  kafka: VitalisKafka;
  admin: Admin;
  pool: Pool;
  redis: Redis;
  producer: VitalsProducer;
  topic: string;
  worker: IngestWorker;
  stage: LiveStage;
  gw: RunningGateway;
  send: (key: string, values: object[]) => Promise<void>;
  close: () => Promise<void>;
}

export async function startRig(name: string, gatewayEnv: Record<string, string> = {}): Promise<LiveRig> {
  const kafka = testKafka(name);
  const admin = kafka.admin();
  await admin.connect();
  const pool = testPool();
  const redis = createRedis({ url: testEnv.REDIS_URL, name: 'vitalis-test-live' });
  await redis.connect();
  const topics = await privateTopics(admin, 3);
  const stage = createLiveStage({ pool, redis, topic: topics.topic, logger: createLogger('test-live', 'error') });
  const worker = await startTestIngest(kafka, pool, {
    topic: topics.topic,
    dlqTopic: topics.dlqTopic,
    maxWaitTimeInMs: 50,
    afterCommit: stage.afterCommit,
  });
  const producer = createVitalsProducer(kafka, { retries: 'unbounded' });
  await producer.connect();
  const gw = await startGateway({ LIVE_TOPIC: topics.topic, ...gatewayEnv });
  return {
    kafka,
    admin,
    pool,
    redis,
    producer,
    topic: topics.topic,
    worker,
    stage,
    gw,
    send: async (key, values) => {
      await producer.send({ topic: topics.topic, acks: -1, messages: values.map((v) => ({ key, value: JSON.stringify(v) })) });
    },
    close: async () => {
      await gw.close();
      await worker.stop();
      stage.stop();
      await producer.disconnect();
      await topics.drop();
      await admin.disconnect();
      redis.disconnect();
      await pool.end();
    },
  };
}

export interface SseEvent {
  id?: string;
  event?: string;
  data: any;
}

export interface SseClient {
  status: number;
  contentType: string | null;
  events: SseEvent[];
  /** The `retry:` values the server sent (reconnect delays, ms). */
  retries: number[];
  /** Resolves when the stream has ended (server closed it). */
  ended: Promise<void>;
  waitForEvents: (n: number, what?: string, timeoutMs?: number) => Promise<SseEvent[]>;
  close: () => void;
  body?: any;
}

/** A minimal EventSource over fetch (headers allowed: Authorization, Last-Event-ID). */
export async function openSse(url: string, headers: Record<string, string>): Promise<SseClient> {
  const ctrl = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: ctrl.signal });
  const events: SseEvent[] = [];
  const retries: number[] = [];
  let wake: (() => void) | undefined;
  const client: SseClient = {
    status: res.status,
    contentType: res.headers.get('content-type'),
    events,
    retries,
    ended: Promise.resolve(),
    waitForEvents: async (n, what = `${n} events`, timeoutMs = 45_000) => {
      const deadline = Date.now() + timeoutMs;
      while (events.length < n) {
        if (Date.now() > deadline)
          throw new Error(`timed out waiting for ${what}; have ${events.length}: ${JSON.stringify(events.slice(-3))}`);
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, 200);
        });
      }
      return events;
    },
    close: () => ctrl.abort(),
  };
  if (res.status !== 200 || !res.body) {
    client.body = await res.json().catch(() => undefined);
    return client;
  }
  const parser = createParser({
    onEvent: (e: EventSourceMessage) => {
      events.push({ id: e.id, event: e.event, data: JSON.parse(e.data) });
      wake?.();
    },
    onRetry: (ms: number) => retries.push(ms),
  });
  client.ended = pumpSse(res.body, parser);
  return client;
}

export interface WsClient {
  socket: WebSocket;
  messages: any[];
  closed: Promise<{ code: number; reason: string }>;
  send: (msg: object) => void;
  waitFor: (pred: (msgs: any[]) => boolean, what: string, timeoutMs?: number) => Promise<any[]>;
}

export async function openWs(url: string, headers: Record<string, string> = {}): Promise<WsClient> {
  const socket = new WebSocket(url.replace(/^http/, 'ws'), { headers });
  const messages: any[] = [];
  socket.on('message', (raw) => messages.push(JSON.parse(raw.toString())));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
    socket.once('unexpected-response', (_req, res) =>
      reject(Object.assign(new Error(`upgrade refused: ${res.statusCode}`), { statusCode: res.statusCode })),
    );
  });
  return {
    socket,
    messages,
    closed,
    send: (msg) => socket.send(JSON.stringify(msg)),
    waitFor: async (pred, what, timeoutMs = 45_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!pred(messages)) {
        if (Date.now() > deadline)
          throw new Error(`timed out waiting for ${what}; have ${messages.length}: ${JSON.stringify(messages.slice(-3))}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      return messages;
    },
  };
}

export const streamUrl = (gw: RunningGateway, q: Record<string, string>) => `${gw.url}/api/v1/vitals/stream?${new URLSearchParams(q)}`;
