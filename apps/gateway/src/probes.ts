/**
 * GET /livez and GET /readyz (public, no PHI, tiny bodies): the orchestrator's probes. The rules
 * (what is checked, caching, draining) are libs/runtime's (probes.ts), shared with the ingest and
 * the projector; this file wires the gateway's dependencies and serves them. Readiness needs
 * PostgreSQL (everything), Kafka (vitals ingestion) and Redis (live streams, token revocation):
 * a gateway missing one is taken out of rotation rather than serving 503s. /api/v1/health stays
 * the human-facing document (degraded vs down, latencies).
 *
 * The readiness body also reports the vitals pipeline (`pipeline`: the health's judgement in short,
 * from the same reader) but never fails on it (ADR 0019): a stalled or delayed ingest is not this
 * gateway's fault, and every gateway reads the same pipeline, so failing readiness would take every
 * gateway out of rotation at once and hide the data that IS stored, the banner that says it is
 * late, and the health document itself. The orchestrator reads `status`; people and alerts read
 * the rest.
 */
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pendingMigrations } from '@vitalis/db';
import { kafkaProbe } from '@vitalis/kafka';
import { createReadiness, livenessCode, logDependencyChanges, readinessCode, watchEventLoop, type ReadinessGate } from '@vitalis/runtime';
import type { GatewayDeps } from './deps';
import { pipelineReaderOf, pipelineSummarySchema, summaryOf, type PipelineSummary } from './health';

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
    pipeline: pipelineSummarySchema
      .optional()
      .describe('The vitals pipeline (as in GET /api/v1/health): reported, never a reason to be not ready. Absent while draining.'),
  })
  .meta({ id: 'Readiness', description: 'GET /readyz: whether this instance should get traffic. 503 unless ready.' });

/** The readiness gate (main.ts drains it at shutdown) and the pipeline its body reports. */
export interface GatewayReadiness extends ReadinessGate {
  /** The pipeline in short, within READINESS_TIMEOUT_MS (`unknown` past it). */
  pipeline(): Promise<PipelineSummary>;
}

/** The gateway's readiness gate (main.ts drains it at shutdown). */
export function gatewayReadiness(deps: GatewayDeps): GatewayReadiness {
  const { config, pool, redis, logger } = deps;
  const probeKafka = kafkaProbe(config.KAFKA_BROKERS, 'vitalis-gateway-ready');
  const gate = createReadiness({
    timeoutMs: config.READINESS_TIMEOUT_MS,
    schemaCurrent: async () => (await pendingMigrations(pool)).length === 0,
    dependencies: [
      { name: 'postgres', probe: () => pool.query('SELECT 1') },
      { name: 'kafka', probe: probeKafka },
      { name: 'redis', probe: () => redis.ping() },
    ],
    onChecks: logDependencyChanges(logger),
  });
  const reader = pipelineReaderOf(deps);
  return Object.assign(gate, { pipeline: async () => summaryOf(await reader.current(config.READINESS_TIMEOUT_MS)) });
}

export function probeRoutes(readiness: ReadinessGate & Partial<Pick<GatewayReadiness, 'pipeline'>>): FastifyPluginAsyncZod {
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
          description:
            'The process runs and its event loop is not stuck (no dependency is checked). 503 when the loop ran late by more than 10 s.',
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
          description:
            'Ready when the schema is current and PostgreSQL, Kafka and Redis answer (each within READINESS_TIMEOUT_MS; the result is cached for 1 s). 503 when not ready, and from the start of a shutdown (draining). The body also reports the vitals pipeline (`pipeline`, as GET /api/v1/health judges it), which never makes the gateway not ready: a stalled ingest is reported here and in health, not a reason to take every gateway out of rotation.',
          response: { 200: readinessSchema, 503: readinessSchema },
        },
      },
      async (_req, reply) => {
        const [state, pipeline] = await Promise.all([readiness.state(), readiness.pipeline?.()]);
        reply.header('cache-control', 'no-store');
        // Draining: the tiny body alone (the instance is leaving; its pipeline view is beside the point).
        const body = pipeline && state.status !== 'draining' ? { ...state, pipeline } : state;
        return reply.code(readinessCode(state)).send(body);
      },
    );
  };
}
