import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { overallStatus } from '../../../apps/gateway/src/health';

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
  });

  it('echoes a sane caller request id and replaces an unsafe one', async () => {
    const ok = await fetch(`${gw.url}/api/v1/health`, { headers: { 'x-request-id': 'trace-123' } });
    expect(ok.headers.get('x-request-id')).toBe('trace-123');
    const bad = await fetch(`${gw.url}/api/v1/health`, { headers: { 'x-request-id': 'a b<script>' } });
    expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
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
});

describe('health with a dependency down', () => {
  it('names kafka and answers degraded when the broker is unreachable', async () => {
    const gw = await startGateway({ KAFKA_BROKERS: '127.0.0.1:9' });
    try {
      const res = await fetch(`${gw.url}/api/v1/health`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as any;
      expect(body.status).toBe('degraded');
      expect(body.checks.kafka.status).toBe('down');
      expect(body.checks.kafka.error).toBeTruthy();
      expect(body.checks.postgres.status).toBe('ok');
    } finally {
      await gw.close();
    }
  });
});

describe('the error contract on unknown routes', () => {
  it('answers 404 as an RFC 9457 problem, never fastify\'s default shape', async () => {
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
