/**
 * GET /api/v1/health: one check per dependency with its latency.
 * status: ok (all up) | degraded (PostgreSQL up, Redis or Kafka down: reads work, live streams,
 * revocation-backed auth or ingest may not) | down (PostgreSQL down: nothing works). 503 only when down.
 */
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createKafka } from '@vitalis/kafka';
import type { GatewayDeps } from './deps';

export const checkSchema = z.object({
  status: z.enum(['ok', 'down']),
  latency_ms: z.number().describe('Time the check took, in milliseconds'),
  error: z.string().optional().describe('Why the dependency is down'),
});

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded', 'down']),
  version: z.string(),
  time: z.string().datetime(),
  uptime_s: z.number(),
  checks: z.object({ postgres: checkSchema, kafka: checkSchema, redis: checkSchema }),
});

export type Check = z.infer<typeof checkSchema>;
type Health = z.infer<typeof healthSchema>;

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Times one probe; never throws. */
export async function runCheck(name: string, probe: () => Promise<unknown>, timeoutMs: number): Promise<Check> {
  const started = performance.now();
  try {
    await withTimeout(probe(), timeoutMs, name);
    return { status: 'ok', latency_ms: round(performance.now() - started) };
  } catch (err) {
    return { status: 'down', latency_ms: round(performance.now() - started), error: (err as Error).message };
  }
}

const round = (ms: number) => Math.round(ms * 100) / 100;

export function overallStatus(checks: Health['checks']): Health['status'] {
  if (checks.postgres.status === 'down') return 'down';
  return checks.kafka.status === 'ok' && checks.redis.status === 'ok' ? 'ok' : 'degraded';
}

export function healthRoutes(deps: GatewayDeps, version: string): FastifyPluginAsyncZod {
  const { config, pool, redis } = deps;
  // A separate Kafka client that never retries: health must report a dead broker in
  // milliseconds, not after the worker-grade retry schedule.
  const probeKafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: 'vitalis-gateway-health', retries: 0 });
  const startedAt = Date.now();

  const kafkaProbe = async () => {
    const admin = probeKafka.admin();
    try {
      await admin.connect();
      await admin.describeCluster();
    } finally {
      await admin.disconnect().catch(() => {});
    }
  };

  return async (app) => {
    app.get(
      '/api/v1/health',
      {
        schema: {
          tags: ['system'],
          summary: 'System health',
          description: 'Overall status and one check per dependency (PostgreSQL, Kafka, Redis) with latency. 503 when down.',
          response: { 200: healthSchema, 503: healthSchema },
        },
      },
      async (_req, reply) => {
        const timeout = config.HEALTH_TIMEOUT_MS;
        const [postgres, kafka, redisCheck] = await Promise.all([
          runCheck('postgres', () => pool.query('SELECT 1'), timeout),
          runCheck('kafka', kafkaProbe, timeout),
          runCheck('redis', () => redis.ping(), timeout),
        ]);
        const checks = { postgres, kafka, redis: redisCheck };
        const status = overallStatus(checks);
        reply.header('cache-control', 'no-store');
        return reply.code(status === 'down' ? 503 : 200).send({
          status,
          version,
          time: new Date().toISOString(),
          uptime_s: Math.round((Date.now() - startedAt) / 1000),
          checks,
        });
      },
    );
  };
}
