import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { authHeaders } from '../../helpers/auth';
import { testEnv } from '../../helpers/env';
import { overallStatus, scrubError } from '../../../apps/gateway/src/health';

describe('GET /api/v1/health', () => {
  let gw: RunningGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => gw?.close());

  it('answers ok with a check per dependency, with latency', async () => {
    const res = await fetch(`${gw.url}/api/v1/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const body = (await res.json()) as any;
    expect(body.status).toBe('ok');
    for (const name of ['postgres', 'kafka', 'redis']) {
      expect(body.checks[name].status).toBe('ok');
      expect(typeof body.checks[name].latency_ms).toBe('number');
    }
    // the vitals pipeline, per partition of the observations topic (stalls: test/integration/vitals/poison.test.ts)
    expect(body.pipeline).toMatchObject({ status: 'ok', stall_after_s: 300, stalled_partitions: [] });
    expect(body.pipeline.partitions.length).toBeGreaterThan(0);
  });

  it('answers with its own request id; a sane caller id is echoed as x-client-request-id, an unsafe one dropped', async () => {
    const ok = await fetch(`${gw.url}/api/v1/health`, { headers: { 'x-request-id': 'trace-123' } });
    expect(ok.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(ok.headers.get('x-client-request-id')).toBe('trace-123');
    const bad = await fetch(`${gw.url}/api/v1/health`, { headers: { 'x-request-id': 'a b<script>' } });
    expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(bad.headers.get('x-client-request-id')).toBeNull();
    const long = await fetch(`${gw.url}/api/v1/health`, { headers: { 'x-request-id': 'a'.repeat(129) } });
    expect(long.headers.get('x-client-request-id')).toBeNull();
  });
});

describe('overall status', () => {
  const ok = { status: 'ok' as const, latency_ms: 1 };
  const down = { status: 'down' as const, latency_ms: 1, error: 'x' };
  it('is down only when PostgreSQL is down, degraded when Kafka or Redis is', () => {
    expect(overallStatus({ postgres: ok, kafka: ok, redis: ok })).toBe('ok');
    expect(overallStatus({ postgres: ok, kafka: down, redis: ok })).toBe('degraded');
    expect(overallStatus({ postgres: ok, kafka: ok, redis: down })).toBe('degraded');
    expect(overallStatus({ postgres: down, kafka: ok, redis: ok })).toBe('down');
  });

  it('is degraded when the vitals pipeline has a stalled partition (down still wins); not when it is unknown', () => {
    expect(overallStatus({ postgres: ok, kafka: ok, redis: ok }, { status: 'stalled' })).toBe('degraded');
    expect(overallStatus({ postgres: down, kafka: ok, redis: ok }, { status: 'stalled' })).toBe('down');
    expect(overallStatus({ postgres: ok, kafka: ok, redis: ok }, { status: 'unknown' })).toBe('ok');
    expect(overallStatus({ postgres: ok, kafka: ok, redis: ok }, { status: 'ok' })).toBe('ok');
  });
});

describe('health with a dependency down', () => {
  it('names kafka and answers degraded when the broker is unreachable; the error text only for an operator', async () => {
    const gw = await startGateway({ KAFKA_BROKERS: '127.0.0.1:9' });
    try {
      const res = await fetch(`${gw.url}/api/v1/health`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as any;
      expect(body.status).toBe('degraded');
      expect(body.checks.kafka.status).toBe('down');
      expect(body.checks.kafka).not.toHaveProperty('error');
      expect(body.checks.postgres.status).toBe('ok');
      const details = await fetch(`${gw.url}/api/v1/health/details`, { headers: await authHeaders(gw.url, ['read:audit']) });
      expect(details.status).toBe(200);
      const detailed = (await details.json()) as any;
      expect(detailed.checks.kafka.status).toBe('down');
      expect(detailed.checks.kafka.error).toBeTruthy();
    } finally {
      await gw.close();
    }
  });

  it('hides a Redis driver error (host, port) from anonymous callers and logs it', async () => {
    // Redis reached through a relay the test closes once the gateway is up: its port is then closed.
    const upstream = new URL(testEnv.REDIS_URL);
    const sockets = new Set<Socket>();
    const relay = createServer((client) => {
      const server = connect(Number(upstream.port), upstream.hostname);
      for (const s of [client, server]) {
        sockets.add(s);
        s.on('error', () => s.destroy());
        s.on('close', () => sockets.delete(s));
      }
      client.pipe(server).pipe(client);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const port = (relay.address() as AddressInfo).port;
    const lines: string[] = [];
    const logDestination = new Writable({
      write: (chunk, _enc, done) => {
        lines.push(String(chunk));
        done();
      },
    });
    const gw = await startGateway({ REDIS_URL: `redis://127.0.0.1:${port}`, HEALTH_TIMEOUT_MS: '1000' }, { logDestination });
    try {
      const operator = await authHeaders(gw.url, ['read:audit']);
      await new Promise<void>((resolve) => {
        relay.close(() => resolve());
        for (const s of sockets) s.destroy();
      });

      const res = await fetch(`${gw.url}/api/v1/health`);
      expect(res.status).toBe(200);
      const text = await res.text();
      const body = JSON.parse(text);
      expect(body.status).toBe('degraded');
      expect(body.checks.redis).toEqual({ status: 'down', latency_ms: expect.any(Number) });
      for (const check of Object.values(body.checks)) expect(check).not.toHaveProperty('error');
      expect(text).not.toContain(`127.0.0.1:${port}`);
      expect(text).not.toMatch(/ECONNREFUSED|max retries|did not answer/i);

      expect((await fetch(`${gw.url}/api/v1/health/details`)).status).toBe(401);
      // Without Redis no token can be checked against the revocation list: even an operator's
      // details request is refused (fail closed), so the log is where a Redis error is read.
      const refused = await fetch(`${gw.url}/api/v1/health/details`, { headers: operator });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);

      await expect.poll(() => lines.some((l) => l.includes('"component":"redis"') && l.includes('health check failed'))).toBe(true);
    } finally {
      await gw.close();
      relay.close();
    }
  });

  it('scrubs credentials from a driver message', () => {
    expect(scrubError('connect to redis://default:s3cret@cache.internal:6379 failed')).toBe(
      'connect to redis://[redacted]@cache.internal:6379 failed',
    );
    expect(scrubError('connect ECONNREFUSED 10.0.0.5:6379')).toBe('connect ECONNREFUSED 10.0.0.5:6379');
  });
});

describe('the error contract on unknown routes', () => {
  it("answers 404 as an RFC 9457 problem, never fastify's default shape", async () => {
    const gw = await startGateway();
    try {
      const res = await fetch(`${gw.url}/api/v1/nothing-here?x=1`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const body = (await res.json()) as any;
      expect(body).toMatchObject({ type: `${gw.url}/errors/not-found`, title: 'Not Found', status: 404, instance: '/api/v1/nothing-here' });
      expect(body.detail).toContain('GET /api/v1/nothing-here');
    } finally {
      await gw.close();
    }
  });
});
