/**
 * GET /api/v1/health (public): one check per dependency with its status and latency.
 * status: ok (all up) | degraded (PostgreSQL up, Redis or Kafka down: reads work, live streams,
 * revocation-backed auth or ingest may not) | down (PostgreSQL down: nothing works). 503 only when down.
 * A driver's error text names hosts, ports and user names, so an anonymous caller never sees it:
 * it goes to the log (once per change, credentials in URLs scrubbed) and to an operator at
 * GET /api/v1/health/details (read:audit, the admin scope).
 */
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { kafkaProbe } from '@vitalis/kafka';
import { runCheck, scrubError } from '@vitalis/runtime';
import type { GatewayDeps } from './deps';
import { problem, problems } from './access/http';

export const checkSchema = z.object({
  status: z.enum(['ok', 'down']),
  latency_ms: z.number().describe('Time the check took, in milliseconds'),
});

export const detailedCheckSchema = checkSchema.extend({
  error: z.string().optional().describe('Why the dependency is down (the driver\'s message)'),
});

const healthShape = {
  status: z.enum(['ok', 'degraded', 'down']),
  version: z.string(),
  time: z.string().datetime(),
  uptime_s: z.number(),
};
export const healthSchema = z.object({ ...healthShape, checks: z.object({ postgres: checkSchema, kafka: checkSchema, redis: checkSchema }) });
export const healthDetailsSchema = z.object({ ...healthShape, checks: z.object({ postgres: detailedCheckSchema, kafka: detailedCheckSchema, redis: detailedCheckSchema }) });

export type Check = z.infer<typeof detailedCheckSchema>;
type Checks = z.infer<typeof healthDetailsSchema>['checks'];
type Health = z.infer<typeof healthDetailsSchema>;

export { scrubError };

/** What an anonymous caller sees of a check: its status and latency, never the error text. */
const publicCheck = ({ status, latency_ms }: Check) => ({ status, latency_ms });

export function overallStatus(checks: Pick<Checks, 'postgres' | 'kafka' | 'redis'>): Health['status'] {
  if (checks.postgres.status === 'down') return 'down';
  return checks.kafka.status === 'ok' && checks.redis.status === 'ok' ? 'ok' : 'degraded';
}

export function healthRoutes(deps: GatewayDeps, version: string): FastifyPluginAsyncZod {
  const { config, pool, redis } = deps;
  const probeKafka = kafkaProbe(config.KAFKA_BROKERS, 'vitalis-gateway-health');
  const startedAt = Date.now();

  // The last error logged per dependency: a down dependency is logged when it goes down or its
  // error changes, and once when it is back, not on every probe.
  const lastLogged = new Map<string, string>();
  const logChanges = (checks: Checks) => {
    for (const [component, check] of Object.entries(checks)) {
      const before = lastLogged.get(component);
      if (check.error !== undefined && check.error !== before) deps.logger.warn({ component, error: check.error }, 'health check failed');
      if (check.error === undefined && before !== undefined) deps.logger.info({ component }, 'health check recovered');
      if (check.error === undefined) lastLogged.delete(component);
      else lastLogged.set(component, check.error);
    }
  };

  const probeAll = async (): Promise<Health> => {
    const timeout = config.HEALTH_TIMEOUT_MS;
    const [postgres, kafka, redisCheck] = await Promise.all([
      runCheck('postgres', () => pool.query('SELECT 1'), timeout),
      runCheck('kafka', probeKafka, timeout),
      runCheck('redis', () => redis.ping(), timeout),
    ]);
    const checks = { postgres, kafka, redis: redisCheck };
    logChanges(checks);
    return { status: overallStatus(checks), version, time: new Date().toISOString(), uptime_s: Math.round((Date.now() - startedAt) / 1000), checks };
  };

  return async (app) => {
    app.get(
      '/api/v1/health',
      {
        schema: {
          tags: ['system'],
          summary: 'System health',
          description: 'Overall status and one check per dependency (PostgreSQL, Kafka, Redis) with latency. 503 when down. Error texts are not shown here (see /api/v1/health/details).',
          response: { 200: healthSchema, 503: healthSchema },
        },
      },
      async (_req, reply) => {
        const health = await probeAll();
        const { postgres, kafka, redis: redisCheck } = health.checks;
        reply.header('cache-control', 'no-store');
        return reply.code(health.status === 'down' ? 503 : 200).send({
          ...health,
          checks: { postgres: publicCheck(postgres), kafka: publicCheck(kafka), redis: publicCheck(redisCheck) },
        });
      },
    );

    app.get(
      '/api/v1/health/details',
      {
        config: { auth: { scopes: ['read:audit'] } },
        schema: {
          tags: ['system'],
          summary: 'System health with error texts (operators)',
          description: 'The health document with each failing dependency\'s driver error (hosts, ports, user names; credentials scrubbed). Needs read:audit (admins). 503 when down.',
          // 503: the health document when PostgreSQL is down, or the guard's problem when the
          // revocation list (Redis) cannot be read and no token can be trusted (fail closed).
          response: { 200: healthDetailsSchema, 503: z.union([healthDetailsSchema, problem]), ...problems(401, 403) },
        },
      },
      async (_req, reply) => {
        const health = await probeAll();
        reply.header('cache-control', 'no-store');
        return reply.code(health.status === 'down' ? 503 : 200).send(health);
      },
    );
  };
}
