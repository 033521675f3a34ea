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
import type { NewestObservation } from '@vitalis/metrics';
import { runCheck, scrubError } from '@vitalis/runtime';
import type { GatewayDeps } from './deps';
import { problem, problems } from './access/http';
import type { RouteApp } from './route-app';
import { pipelineReaderOf, type PipelineReader } from './pipeline-reader';

export { createPipelineReader, pipelineReaderOf, type PipelineReader } from './pipeline-reader';

export const checkSchema = z.object({
  status: z.enum(['ok', 'down']),
  latency_ms: z.number().describe('Time the check took, in milliseconds'),
});

export const detailedCheckSchema = checkSchema.extend({
  error: z.string().optional().describe("Why the dependency is down (the driver's message)"),
});

/** What readiness, the cards and the MCP tool get_pipeline_status read: the judgement and the data age, no partition list. */
export const pipelineSummaryShape = {
  status: z
    .enum(['ok', 'delayed', 'stalled', 'unknown'])
    .describe(
      'stalled: a partition made no progress for stall_after_s while messages wait; delayed: messages have waited on a partition for data_age_after_s and the newest stored observation is older than that; unknown: Kafka could not be read (not judged)',
    ),
  delayed: z
    .boolean()
    .describe('Readings are not reaching storage and the screens in time: status is stalled or delayed (the UI cards show "Data delayed")'),
  lag: z.number().int().describe('Messages the ingest has not yet processed, all partitions'),
  stalled_partitions: z.array(z.number().int()).describe('The partitions stalled, in order'),
  delayed_partitions: z.array(z.number().int()).describe('The partitions stalled or delayed, in order'),
  delayed_s: z
    .number()
    .int()
    .describe('How long messages have waited on the delayed partitions, the longest, in seconds (0 when not delayed)'),
  newest_observation_at: z
    .string()
    .datetime()
    .nullable()
    .describe('Effective time of the newest observation stored (any patient); null when none is stored or the database could not be read'),
  newest_observation_age_s: z
    .number()
    .int()
    .nullable()
    .describe('Its age in seconds by the database clock (0 when a device clock is ahead); null with newest_observation_at'),
};

export const pipelineSummarySchema = z.object(pipelineSummaryShape).meta({
  id: 'PipelineSummary',
  description:
    "The vitals pipeline in short (GET /readyz, MCP get_pipeline_status): the ingest's judgement and the newest stored observation's age",
});

export const pipelineSchema = z
  .object({
    ...pipelineSummaryShape,
    stall_after_s: z
      .number()
      .describe(
        'How long a partition may make no progress while messages wait before it is stalled (HEALTH_STALL_AFTER_MS; 0: never judged)',
      ),
    data_age_after_s: z
      .number()
      .describe(
        'How old the newest stored observation may be, while messages have waited on a partition as long, before the pipeline is delayed (HEALTH_DATA_AGE_AFTER_MS; 0: never judged)',
      ),
    partitions: z.array(
      z.object({
        partition: z.number().int(),
        lag: z.number().int().describe("Messages after the ingest group's committed offset"),
        stalled_s: z.number().describe('Seconds without progress while messages wait (0: progressing or caught up)'),
        waiting_s: z
          .number()
          .describe('Seconds messages have waited on it at every reading, progressing or not (0: caught up at the last reading)'),
      }),
    ),
  })
  .meta({
    id: 'Pipeline',
    description:
      'The vitals pipeline: the ingest consumer group on the observations topic (from the brokers) and the newest observation stored (from PostgreSQL)',
  });

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
export type Pipeline = z.infer<typeof pipelineSchema>;
export type PipelineSummary = z.infer<typeof pipelineSummarySchema>;
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

/** One partition as read: its lag and how long (ms) it has been stalled and messages have waited. */
export interface PartitionReading {
  partition: number;
  lag: number;
  stalledMs: number;
  waitingMs: number;
}

export interface PipelineThresholds {
  /** HEALTH_STALL_AFTER_MS (0: stalls are never judged). */
  stallAfterMs: number;
  /** HEALTH_DATA_AGE_AFTER_MS (0: data age is never judged). */
  dataAgeAfterMs: number;
}

/**
 * The judgement, pure. Definitions (docs/operations.md#health-and-the-vitals-pipeline):
 *  - a partition is STALLED when messages wait on it (lag > 0) and the ingest group's committed
 *    offset has not moved for stallAfterMs;
 *  - the DATA IS OLD when the newest stored observation is older than dataAgeAfterMs, or none is
 *    stored (not judged when the database could not be read: `newest` undefined);
 *  - a partition is DELAYED when it is stalled, or when the data is old and messages have waited
 *    on it (lag > 0 at every reading, progressing or not) for at least dataAgeAfterMs.
 * status: stalled (a partition stalled) > delayed (a partition delayed) > ok; `delayed` is true for
 * both. Old data with nothing waiting is an idle ward (no device sending), never delayed; waiting
 * messages with fresh data is a busy pipeline (the commit trails the fetch), never delayed; a
 * message that arrives after a quiet spell waits a moment, far less than dataAgeAfterMs. Both
 * clocks start at this gateway's first reading: never early, at most one reading interval late.
 */
export function judgePipeline(
  partitions: readonly PartitionReading[],
  newest: NewestObservation | undefined,
  t: PipelineThresholds,
): PipelineSummary & Pick<Pipeline, 'partitions'> {
  const stalled = (p: PartitionReading) => t.stallAfterMs > 0 && p.lag > 0 && p.stalledMs >= t.stallAfterMs;
  const dataOld =
    t.dataAgeAfterMs > 0 && newest !== undefined && (newest.ageSeconds === null || newest.ageSeconds * 1_000 >= t.dataAgeAfterMs);
  const delayed = (p: PartitionReading) => stalled(p) || (dataOld && p.lag > 0 && p.waitingMs >= t.dataAgeAfterMs);
  const sorted = [...partitions].sort((x, y) => x.partition - y.partition);
  const stalledPartitions = sorted.filter(stalled).map((p) => p.partition);
  const delayedPartitions = sorted.filter(delayed).map((p) => p.partition);
  const status = stalledPartitions.length > 0 ? 'stalled' : delayedPartitions.length > 0 ? 'delayed' : 'ok';
  const delayedMs = Math.max(0, ...sorted.filter(delayed).map((p) => Math.max(p.waitingMs, p.stalledMs)));
  return {
    status,
    delayed: status !== 'ok',
    lag: sorted.reduce((n, p) => n + p.lag, 0),
    stalled_partitions: stalledPartitions,
    delayed_partitions: delayedPartitions,
    delayed_s: Math.round(delayedMs / 1_000),
    ...newestFields(newest),
    partitions: sorted.map((p) => ({
      partition: p.partition,
      lag: p.lag,
      stalled_s: Math.round(p.stalledMs / 1_000),
      waiting_s: Math.round(p.waitingMs / 1_000),
    })),
  };
}

/** The newest stored observation as the pipeline document states it (its instant and age in seconds, null when none). */
export const newestFields = (newest: NewestObservation | undefined) => ({
  newest_observation_at: newest?.at?.toISOString() ?? null,
  newest_observation_age_s: newest?.ageSeconds === null || newest?.ageSeconds === undefined ? null : Math.round(newest.ageSeconds),
});

/** The summary of a full reading (readiness, the MCP tool): the same judgement without the partition list. */
export function summaryOf(p: Pipeline): PipelineSummary {
  const { status, delayed, lag, stalled_partitions, delayed_partitions, delayed_s, newest_observation_at, newest_observation_age_s } = p;
  return { status, delayed, lag, stalled_partitions, delayed_partitions, delayed_s, newest_observation_at, newest_observation_age_s };
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

/** The health document now: every dependency probed within   app.get(
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
  );_TIMEOUT_MS and the pipeline read, changes logged. */
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
