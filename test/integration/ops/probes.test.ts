/**
 * The orchestrator's probes against real gateways: GET /livez and GET /readyz answer 200 on a
 * healthy instance; readiness flips to 503 when Kafka or PostgreSQL becomes unreachable and back
 * to 200 when it returns. The shared servers are never stopped: each outage is a TCP proxy in
 * front of them (test/helpers/tcp-proxy.ts) that the test takes down and brings back. The ingest
 * (no API) serves the same probes on PROBE_PORT: run as a child process, it flips the same way and
 * answers `draining` from the SIGTERM until it exits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { testEnv } from '../../helpers/env';
import { freePort } from '../../helpers/processes';
import { startTcpProxy, type TcpProxy } from '../../helpers/tcp-proxy';
import { privateTopics, testKafka, uid } from '../vitals/support';

const gateways: RunningGateway[] = [];
const proxies: TcpProxy[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const p of proxies) await p.start(); // let the gateways close their connections cleanly
  for (const gw of gateways) await gw.close().catch(() => {});
  for (const p of proxies) await p.stop();
});

async function probe(gw: { address: string }, path: '/livez' | '/readyz'): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${gw.address}${path}`);
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/**
 * Polls /readyz until it answers `status` (the result is cached for about a second). `why`: what
 * the process behind it says when it never does (a child's exit state and stderr).
 */
async function readyzUntil(gw: { address: string }, status: number, timeoutMs = 30_000, why: () => string = () => ''): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await probe(gw, '/readyz').catch((err: Error) => ({
      status: 0,
      body: `not listening (${err.cause instanceof Error ? err.cause.message : err.message})`,
    }));
    if (r.status === status) return r.body;
    if (Date.now() > deadline) throw new Error(`/readyz never answered ${status}; last ${r.status} ${JSON.stringify(r.body)}${why()}`);
    await new Promise((res) => setTimeout(res, 250));
  }
}

/** The pipeline summary in a readiness body (schema PipelineSummary); its values are the test topic's. */
const pipelineSummary = {
  status: expect.stringMatching(/^(ok|delayed|stalled|unknown)$/),
  delayed: expect.any(Boolean),
  lag: expect.any(Number),
  stalled_partitions: expect.any(Array),
  delayed_partitions: expect.any(Array),
  delayed_s: expect.any(Number),
  newest_observation_at: expect.toSatisfy((v: unknown) => v === null || typeof v === 'string'),
  newest_observation_age_s: expect.toSatisfy((v: unknown) => v === null || typeof v === 'number'),
};

describe('gateway probes', () => {
  it('GET /livez and GET /readyz answer 200 with tiny public bodies, documented with named schemas', async () => {
    const gw = await startGateway();
    gateways.push(gw);
    const live = await probe(gw, '/livez');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'ok', event_loop_delay_ms: expect.any(Number) });
    expect(live.headers.get('cache-control')).toBe('no-store');
    const ready = await probe(gw, '/readyz');
    expect(ready.status).toBe(200);
    // the vitals pipeline is reported (never a reason to be not ready: test/integration/ops/pipeline-health.test.ts)
    expect(ready.body).toEqual({
      status: 'ready',
      checks: { schema: 'ok', postgres: 'ok', kafka: 'ok', redis: 'ok' },
      pipeline: pipelineSummary,
    });

    const doc = (await (await fetch(`${gw.address}/openapi.json`)).json()) as any;
    for (const [path, name] of [
      ['/livez', 'Liveness'],
      ['/readyz', 'Readiness'],
    ] as const) {
      const op = doc.paths[path].get;
      expect(op.security).toEqual([]); // public
      expect(op.responses['200'].content['application/json'].schema).toEqual({ $ref: `#/components/schemas/${name}` });
      expect(op.responses['503'].content['application/json'].schema).toEqual({ $ref: `#/components/schemas/${name}` });
      expect(doc.components.schemas[name]).toMatchObject({ type: 'object' });
    }
  });

  it('readiness flips to 503 while Kafka is unreachable and back to 200 when it returns; liveness stays 200', async () => {
    const [host, port] = testEnv.KAFKA_BROKERS[0]!.split(':');
    const kafka = await startTcpProxy(host!, Number(port));
    proxies.push(kafka);
    const gw = await startGateway({ KAFKA_BROKERS: kafka.hostPort, READINESS_TIMEOUT_MS: '1000' });
    gateways.push(gw);
    expect(await readyzUntil(gw, 200)).toMatchObject({ status: 'ready' });

    await kafka.stop();
    const down = await readyzUntil(gw, 503);
    expect(down).toEqual({
      status: 'not_ready',
      checks: { schema: 'ok', postgres: 'ok', kafka: 'down', redis: 'ok' },
      pipeline: pipelineSummary,
    });
    expect(JSON.stringify(down)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/); // no driver text in a public body
    expect((await probe(gw, '/livez')).status).toBe(200); // an outage is no reason to restart the process

    await kafka.start();
    expect(await readyzUntil(gw, 200)).toEqual({
      status: 'ready',
      checks: { schema: 'ok', postgres: 'ok', kafka: 'ok', redis: 'ok' },
      pipeline: pipelineSummary,
    });
  });

  it('readiness flips to 503 while PostgreSQL is unreachable and back to 200 when it returns', async () => {
    const db = new URL(testEnv.APP_DATABASE_URL);
    const pg = await startTcpProxy(db.hostname, Number(db.port));
    proxies.push(pg);
    db.host = pg.hostPort;
    const gw = await startGateway({ DATABASE_URL: db.toString(), READINESS_TIMEOUT_MS: '1000' });
    gateways.push(gw);
    expect(await readyzUntil(gw, 200)).toMatchObject({ status: 'ready' });

    await pg.stop();
    expect(await readyzUntil(gw, 503)).toEqual({
      status: 'not_ready',
      checks: { schema: 'ok', postgres: 'down', kafka: 'ok', redis: 'ok' },
      pipeline: pipelineSummary,
    });
    expect((await probe(gw, '/livez')).status).toBe(200);

    await pg.start();
    expect(await readyzUntil(gw, 200)).toMatchObject({ status: 'ready', checks: { postgres: 'ok' } });
  });

  it('answers 503 `draining` once drained (shutdown), without checking anything', async () => {
    const gw = await startGateway();
    gateways.push(gw);
    expect((await probe(gw, '/readyz')).status).toBe(200);
    gw.app.readiness.drain();
    const drained = await probe(gw, '/readyz');
    expect(drained).toMatchObject({ status: 503, body: { status: 'draining' } });
    expect(drained.body).toEqual({ status: 'draining' }); // the tiny body alone: no checks, no pipeline
    expect((await probe(gw, '/livez')).status).toBe(200);
  });
});

describe('ingest probes (PROBE_PORT)', () => {
  it('serves /livez and /readyz; readiness follows Kafka; SIGTERM: draining, then exit 0', async () => {
    const admin = testKafka('ops-probes').admin();
    await admin.connect();
    const topics = await privateTopics(admin, 1);
    const [host, port] = testEnv.KAFKA_BROKERS[0]!.split(':');
    const kafka = await startTcpProxy(host!, Number(port));
    proxies.push(kafka);
    const probePort = await freePort();
    const ingest = { address: `http://127.0.0.1:${probePort}` };
    let stderr = '';
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/ingest/src/main.ts'], {
      env: {
        ...process.env,
        DATABASE_URL: testEnv.APP_DATABASE_URL,
        KAFKA_BROKERS: kafka.hostPort,
        LOG_LEVEL: 'warn',
        INGEST_GROUP_ID: `vitalis-test-probes-${uid()}`,
        INGEST_TOPIC: topics.topic,
        INGEST_DLQ_TOPIC: topics.dlqTopic,
        PROBE_PORT: String(probePort),
        READINESS_DRAIN_SECONDS: '2',
        SHUTDOWN_GRACE_SECONDS: '20',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    // seen once in a fresh-clone run: /readyz stopped answering after the Kafka proxy went down; say why next time
    const childState = () =>
      `\ningest: exit code ${child.exitCode}, signal ${child.signalCode}; stderr (last 4000 characters):\n${stderr.slice(-4_000)}`;
    children.push(child);
    const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    try {
      expect(await readyzUntil(ingest, 200, 60_000, childState)).toEqual({
        status: 'ready',
        checks: { schema: 'ok', postgres: 'ok', kafka: 'ok' },
      });
      expect(await probe(ingest, '/livez')).toMatchObject({ status: 200, body: { status: 'ok' } });
      expect((await fetch(`${ingest.address}/metrics`)).status).toBe(404); // probes only

      await kafka.stop();
      expect(await readyzUntil(ingest, 503, 30_000, childState)).toEqual({
        status: 'not_ready',
        checks: { schema: 'ok', postgres: 'ok', kafka: 'down' },
      });
      await kafka.start();
      await readyzUntil(ingest, 200, 30_000, childState);

      child.kill('SIGTERM');
      expect(await readyzUntil(ingest, 503, 30_000, childState)).toEqual({ status: 'draining' });
      expect({ ...(await exit), stderr }).toMatchObject({ code: 0, signal: null });
    } finally {
      await topics.drop();
      await admin.disconnect();
    }
  }, 120_000);
});
