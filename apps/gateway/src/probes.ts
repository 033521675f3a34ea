/**
 * GET /livez and GET /readyz (public, no PHI, tiny bodies): the orchestrator's probes. The rules
 * (what is checked, caching, draining) are libs/runtime's (probes.ts), shared with the ingest and
 * the projector; this file wires the gateway's dependencies and serves them. Readiness needs
 * PostgreSQL (everything), Kafka (vitals ingestion) and Redis (live streams, token revocation):
 * a gateway missing one is taken out of rotation rather than serving 503s. /api/v1/health stays
 * the human-facing document (degraded vs down, latencies).
 */
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pendingMigrations } from '@vitalis/db';
import { kafkaProbe } from '@vitalis/kafka';
import { createReadiness, livenessCode, logDependencyChanges, readinessCode, watchEventLoop, type ReadinessGate } from '@vitalis/runtime';
import type { GatewayDeps } from './deps';

export const livenessSchema = z
  .object({
    status: z.enum(['ok', 'stuck']).describe('stuck: the event loop ran late by more than the limit (503)'),
    event_loop_delay_ms: z.number().int().describe('How late the last event-loop tick ran'),
  })
  .meta({ id: 'Liveness', description: 'GET /livez: the process runs and its event loop is not stuck. No dependency is checked.' });

export const readinessSchema = z
  .object({
    status: z.enum(['ready', 'not_ready', 'draining']),
    checks: z
      .record(z.string(), z.enum(['ok', 'down', 'pending']))
      .optional()
      .describe('schema: ok | pending (migrations not applied); postgres, kafka, redis: ok | down. Absent while draining.'),
  })
  .meta({ id: 'Readiness', description: 'GET /readyz: whether this instance should get traffic. 503 unless ready.' });

/** The gateway's readiness gate (main.ts drains it at shutdown). */
export function gatewayReadiness(deps: GatewayDeps): ReadinessGate {
  const { config, pool, redis, logger } = deps;
  const probeKafka = kafkaProbe(config.KAFKA_BROKERS, 'vitalis-gateway-ready');
  return createReadiness({
    timeoutMs: config.READINESS_TIMEOUT_MS,
    schemaCurrent: async () => (await pendingMigrations(pool)).length === 0,
    dependencies: [
      { name: 'postgres', probe: () => pool.query('SELECT 1') },
      { name: 'kafka', probe: probeKafka },
      { name: 'redis', probe: () => redis.ping() },
    ],
    onChecks: logDependencyChanges(logger),
  });
}

export function probeRoutes(readiness: ReadinessGate): FastifyPluginAsyncZod {
  const loop = watchEventLoop();
  return async (app) => {
    app.addHook('onClose', async () => loop.stop());
    app.get(
      '/livez',
      {
        logLevel: 'warn',
        schema: {
          tags: ['system'],
          summary: 'Liveness probe',
          description: 'The process runs and its event loop is not stuck (no dependency is checked). 503 when the loop ran late by more than 10 s.',
          response: { 200: livenessSchema, 503: livenessSchema },
        },
      },
      async (_req, reply) => {
        const state = loop.state();
        reply.header('cache-control', 'no-store');
        return reply.code(livenessCode(state)).send(state);
      },
    );
    app.get(
      '/readyz',
      {
        logLevel: 'warn',
        schema: {
          tags: ['system'],
          summary: 'Readiness probe',
          description: 'Ready when the schema is current and PostgreSQL, Kafka and Redis answer (each within READINESS_TIMEOUT_MS; the result is cached for 1 s). 503 when not ready, and from the start of a shutdown (draining).',
          response: { 200: readinessSchema, 503: readinessSchema },
        },
      },
      async (_req, reply) => {
        const state = await readiness.state();
        reply.header('cache-control', 'no-store');
        return reply.code(readinessCode(state)).send(state);
      },
    );
  };
}
