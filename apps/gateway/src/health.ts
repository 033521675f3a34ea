/**
 * GET /api/v1/health (public): one check per dependency with its status and latency, and the
 * vitals pipeline (`pipeline`): per partition of the observations topic, the ingest's lag, for how
 * long it has made no progress while messages wait and for how long messages have waited, and the
 * age of the newest stored observation; whether readings are reaching the screens in time
 * (`pipeline.delayed`, what the UI cards' "Data delayed" banner reads).
 * status: ok (all up) | degraded (PostgreSQL up, Redis or Kafka down: reads work, live streams,
 * revocation-backed auth or ingest may not; or the pipeline is delayed: see judgePipeline) | down
 * (PostgreSQL down: nothing works). 503 only when down.
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
import type { RouteApp } from './route-app';
import { pipelineReaderOf, type PipelineReader } from './pipeline-reader';
import { pipelineSchema, type Pipeline } from './pipeline-judgement';

export { createPipelineReader, pipelineReaderOf, type PipelineReader } from './pipeline-reader';
export {
  judgePipeline,
  newestFields,
  pipelineSchema,
  pipelineSummarySchema,
  pipelineSummaryShape,
  summaryOf,
  type PartitionReading,
  type Pipeline,
  type PipelineSummary,
  type PipelineThresholds,
} from './pipeline-judgement';

export const checkSchema = z.object({
  status: z.enum(['ok', 'down']),
  latency_ms: z.number().describe('Time the check took, in milliseconds'),
});

export const detailedCheckSchema = checkSchema.extend({
  error: z.string().optional().describe("Why the dependency is down (the driver's message)"),
});

/** What readiness, the cards and the MCP tool get_pipeline_status read: the judgement and the data age, no partition list. */
const healthShape = {
  status: z.enum(['ok', 'degraded', 'down']),
  version: z.string(),
  time: z.string().datetime(),
  uptime_s: z.number(),
  pipeline: pipelineSchema,
};
export const healthSchema = z.object({
  ...healthShape,
  checks: z.object({ postgres: checkSchema, kafka: checkSchema, redis: checkSchema }),
});
export const healthDetailsSchema = z.object({
  ...healthShape,
  checks: z.object({ postgres: detailedCheckSchema, kafka: detailedCheckSchema, redis: detailedCheckSchema }),
});

export type Check = z.infer<typeof detailedCheckSchema>;
type Checks = z.infer<typeof healthDetailsSchema>['checks'];
type Health = z.infer<typeof healthDetailsSchema>;

export { scrubError };

/** What an anonymous caller sees of a check: its status and latency, never the error text. */
const publicCheck = ({ status, latency_ms }: Check) => ({ status, latency_ms });

export function overallStatus(checks: Pick<Checks, 'postgres' | 'kafka' | 'redis'>, pipeline?: Pick<Pipeline, 'status'>): Health['status'] {
  if (checks.postgres.status === 'down') return 'down';
  if (pipeline?.status === 'stalled' || pipeline?.status === 'delayed') return 'degraded';
  return checks.kafka.status === 'ok' && checks.redis.status === 'ok' ? 'ok' : 'degraded';
}

/** Logs the pipeline once when partitions stall (or are delayed), once when they move again (the clinical screens read health). */
function pipelineLogger(logger: GatewayDeps['logger']): (pipeline: Pipeline) => void {
  let stalledLogged = '';
  let delayedLogged = '';
  return (pipeline) => {
    if (pipeline.status === 'unknown') return;
    const now = pipeline.stalled_partitions.join(',');
    if (now !== stalledLogged && now !== '')
      logger.warn({ partitions: pipeline.stalled_partitions, stall_after_s: pipeline.stall_after_s }, 'ingest partitions stalled');
    if (now === '' && stalledLogged !== '') logger.info('ingest partitions progressing again');
    stalledLogged = now;
    const delayed = pipeline.delayed_partitions.join(',');
    if (delayed !== delayedLogged && delayed !== '') {
      logger.warn(
        {
          partitions: pipeline.delayed_partitions,
          newest_observation_age_s: pipeline.newest_observation_age_s,
          data_age_after_s: pipeline.data_age_after_s,
        },
        'vitals data delayed',
      );
    }
    if (delayed === '' && delayedLogged !== '') logger.info('vitals data no longer delayed');
    delayedLogged = delayed;
  };
}

/**
 * Logs a down dependency when it goes down or its error changes, and once when it is back, not on
 * every probe (the last error logged per dependency).
 */
function checkChangeLogger(logger: GatewayDeps['logger']): (checks: Checks) => void {
  const lastLogged = new Map<string, string>();
  return (checks) => {
    for (const [component, check] of Object.entries(checks)) {
      const before = lastLogged.get(component);
      if (check.error !== undefined && check.error !== before) logger.warn({ component, error: check.error }, 'health check failed');
      if (check.error === undefined && before !== undefined) logger.info({ component }, 'health check recovered');
      if (check.error === undefined) lastLogged.delete(component);
      else lastLogged.set(component, check.error);
    }
  };
}

/** The health document now: every dependency probed within HEALTH_TIMEOUT_MS and the pipeline read, changes logged. */
function healthProbe(deps: GatewayDeps, version: string, pipelineReader: PipelineReader): () => Promise<Health> {
  const { config, pool, redis } = deps;
  const probeKafka = kafkaProbe(config.KAFKA_BROKERS, 'vitalis-gateway-health');
  const startedAt = Date.now();
  const logPipeline = pipelineLogger(deps.logger);
  const logChanges = checkChangeLogger(deps.logger);
  return async () => {
    const timeout = config.HEALTH_TIMEOUT_MS;
    const [postgres, kafka, redisCheck, pipeline] = await Promise.all([
      runCheck('postgres', () => pool.query('SELECT 1'), timeout),
      runCheck('kafka', probeKafka, timeout),
      runCheck('redis', () => redis.ping(), timeout),
      pipelineReader.current(),
    ]);
    const checks = { postgres, kafka, redis: redisCheck };
    logChanges(checks);
    logPipeline(pipeline);
    return {
      status: overallStatus(checks, pipeline),
      version,
      time: new Date().toISOString(),
      uptime_s: Math.round((Date.now() - startedAt) / 1000),
      checks,
      pipeline,
    };
  };
}

/** GET /api/v1/health (public): the health document without error texts. */
function healthRoute(app: RouteApp, probeAll: () => Promise<Health>): void {
  app.get(
    '/api/v1/health',
    {
      schema: {
        tags: ['system'],
        summary: 'System health',
        description:
          'Overall status, one check per dependency (PostgreSQL, Kafka, Redis) with latency, and the vitals pipeline: per partition, the ingest\'s lag, how long it has made no progress while messages wait and how long messages have waited; the newest stored observation and its age; `pipeline.delayed` (what the UI cards\' "Data delayed" banner reads). Degraded when a partition is stalled (no progress for HEALTH_STALL_AFTER_MS while messages wait) or delayed (messages have waited for HEALTH_DATA_AGE_AFTER_MS and the newest stored observation is older than that); an idle pipeline (nothing waiting) is never delayed. 503 when down. Error texts are not shown here (see /api/v1/health/details).',
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
}

/** GET /api/v1/health/details (read:audit): the health document with each failing dependency's error text. */
function healthDetailsRoute(app: RouteApp, probeAll: () => Promise<Health>): void {
  app.get(
    '/api/v1/health/details',
    {
      config: { auth: { scopes: ['read:audit'] } },
      schema: {
        tags: ['system'],
        summary: 'System health with error texts (operators)',
        description:
          "The health document with each failing dependency's driver error (hosts, ports, user names; credentials scrubbed). Needs read:audit (admins). 503 when down.",
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
}

/** The health plugin: the public document, then its operators' version (this order is the document's); the pipeline reader closes with the app. */
export function healthRoutes(deps: GatewayDeps, version: string): FastifyPluginAsyncZod {
  const pipelineReader = pipelineReaderOf(deps);
  const probeAll = healthProbe(deps, version, pipelineReader);
  return async (app) => {
    app.addHook('onClose', () => pipelineReader.close());
    healthRoute(app, probeAll);
    healthDetailsRoute(app, probeAll);
  };
}
