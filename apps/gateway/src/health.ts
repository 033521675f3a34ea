/**
 * GET /api/v1/health (public): one check per dependency with its status and latency, and the
 * vitals pipeline: per partition of the observations topic, the ingest's lag and for how long it
 * has made no progress while messages wait (`pipeline`).
 * status: ok (all up) | degraded (PostgreSQL up, Redis or Kafka down: reads work, live streams,
 * revocation-backed auth or ingest may not; or a partition stalled past HEALTH_STALL_AFTER_MS:
 * readings on it are not being stored) | down (PostgreSQL down: nothing works). 503 only when down.
 * A driver's error text names hosts, ports and user names, so an anonymous caller never sees it:
 * it goes to the log (once per change, credentials in URLs scrubbed) and to an operator at
 * GET /api/v1/health/details (read:audit, the admin scope).
 */
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Admin } from 'kafkajs';
import { kafkaProbe } from '@vitalis/kafka';
import { createStallClock } from '@vitalis/metrics';
import { runCheck, scrubError, withTimeout } from '@vitalis/runtime';
import type { GatewayDeps } from './deps';
import { problem, problems } from './access/http';

export const checkSchema = z.object({
  status: z.enum(['ok', 'down']),
  latency_ms: z.number().describe('Time the check took, in milliseconds'),
});

export const detailedCheckSchema = checkSchema.extend({
  error: z.string().optional().describe('Why the dependency is down (the driver\'s message)'),
});

export const pipelineSchema = z
  .object({
    status: z
      .enum(['ok', 'stalled', 'unknown'])
      .describe('stalled: a partition made no progress for stall_after_s while messages wait; unknown: Kafka could not be read'),
    stall_after_s: z.number().describe('How long a partition may make no progress while messages wait before it is stalled (0: never judged)'),
    lag: z.number().int().describe('Messages the ingest has not yet processed, all partitions'),
    stalled_partitions: z.array(z.number().int()).describe('The partitions stalled, in order'),
    partitions: z.array(
      z.object({
        partition: z.number().int(),
        lag: z.number().int().describe('Messages after the ingest group\'s committed offset'),
        stalled_s: z.number().describe('Seconds without progress while messages wait (0: progressing or caught up)'),
      }),
    ),
  })
  .describe('The vitals pipeline: the ingest consumer group on the observations topic, from the brokers');

const healthShape = {
  status: z.enum(['ok', 'degraded', 'down']),
  version: z.string(),
  time: z.string().datetime(),
  uptime_s: z.number(),
  pipeline: pipelineSchema,
};
export const healthSchema = z.object({ ...healthShape, checks: z.object({ postgres: checkSchema, kafka: checkSchema, redis: checkSchema }) });
export const healthDetailsSchema = z.object({ ...healthShape, checks: z.object({ postgres: detailedCheckSchema, kafka: detailedCheckSchema, redis: detailedCheckSchema }) });

export type Check = z.infer<typeof detailedCheckSchema>;
export type Pipeline = z.infer<typeof pipelineSchema>;
type Checks = z.infer<typeof healthDetailsSchema>['checks'];
type Health = z.infer<typeof healthDetailsSchema>;

export { scrubError };

/** What an anonymous caller sees of a check: its status and latency, never the error text. */
const publicCheck = ({ status, latency_ms }: Check) => ({ status, latency_ms });

export function overallStatus(checks: Pick<Checks, 'postgres' | 'kafka' | 'redis'>, pipeline?: Pick<Pipeline, 'status'>): Health['status'] {
  if (checks.postgres.status === 'down') return 'down';
  if (pipeline?.status === 'stalled') return 'degraded';
  return checks.kafka.status === 'ok' && checks.redis.status === 'ok' ? 'ok' : 'degraded';
}

/**
 * The pipeline's progress, read from the brokers with the admin client: per partition of `topic`,
 * the end offset and the ingest group's committed offset.
 *
 * Why Kafka and not PostgreSQL (vitals_ingest_offsets, written in the rows' transactions): the
 * group's committed offset is where every consumer of the partition resumes after a restart or a
 * rebalance, so a partition whose committed offset does not move while messages wait is stuck
 * whatever the cause (a crash loop, a rebalance storm, a database refusing the writes, offset
 * commits failing); it is per consumer group (the database's is per topic, shared by every group
 * and test that ever wrote the topic), costs two small requests, and is the same reading the
 * ingest's own gauge (vitalis_ingest_partition_stalled_seconds) and lag use, through the same
 * clock (@vitalis/metrics createStallClock), so the health and the alert cannot disagree. The
 * brokers keep no time with a committed offset, so each gateway keeps the clock: a partition
 * stuck before this gateway started is reported `stall_after` after its first look, never early.
 */
export function createPipelineReader(opts: { admin: () => Admin; topic: string; groupId: string; stallAfterMs: number; timeoutMs: number }) {
  const clock = createStallClock();
  let admin: Admin | undefined;
  let connected: Promise<void> | undefined;
  let inFlight: Promise<Pipeline> | undefined;
  let last: { at: number; pipeline: Pipeline } | undefined;
  const read = async (): Promise<Pipeline> => {
    admin ??= opts.admin();
    const a = admin;
    await (connected ??= a.connect());
    const [ends, committed] = await Promise.all([a.fetchTopicOffsets(opts.topic), a.fetchOffsets({ groupId: opts.groupId, topics: [opts.topic] })]);
    const at = new Map((committed[0]?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
    const now = Date.now();
    clock.retain(ends.map((e) => e.partition));
    const partitions = ends
      .map((end) => {
        const position = at.get(end.partition) ?? -1;
        // -1: the group committed nothing yet: it starts at the earliest retained offset.
        const lag = Math.max(0, Number(end.high) - Math.max(position, Number(end.low)));
        return { partition: end.partition, lag, stalled_s: Math.round(clock.observe(end.partition, position, lag, now) / 1_000) };
      })
      .sort((x, y) => x.partition - y.partition);
    const stalled = opts.stallAfterMs > 0 ? partitions.filter((p) => p.stalled_s * 1_000 >= opts.stallAfterMs).map((p) => p.partition) : [];
    return {
      status: stalled.length > 0 ? 'stalled' : 'ok',
      stall_after_s: Math.round(opts.stallAfterMs / 1_000),
      lag: partitions.reduce((n, p) => n + p.lag, 0),
      stalled_partitions: stalled,
      partitions,
    };
  };
  const unknown = (): Pipeline => ({ status: 'unknown', stall_after_s: Math.round(opts.stallAfterMs / 1_000), lag: 0, stalled_partitions: [], partitions: [] });
  return {
    /** The pipeline now (one reading per second at most, shared by concurrent callers); `unknown` when Kafka cannot be read in time. */
    async current(): Promise<Pipeline> {
      if (last && Date.now() - last.at < 1_000) return last.pipeline;
      inFlight ??= read()
        .then((pipeline) => {
          last = { at: Date.now(), pipeline };
          return pipeline;
        })
        .catch(async (err) => {
          // Reconnect on the next reading (the broker restarted, the connection broke).
          const broken = admin;
          admin = undefined;
          connected = undefined;
          await broken?.disconnect().catch(() => {});
          throw err;
        })
        .finally(() => (inFlight = undefined));
      return withTimeout(inFlight, opts.timeoutMs, 'pipeline').catch(unknown);
    },
    // Not waiting for a reading in flight: against an unreachable broker it retries for a while.
    close: async () => {
      const open = admin;
      admin = undefined;
      connected = undefined;
      await open?.disconnect().catch(() => {});
    },
  };
}

export function healthRoutes(deps: GatewayDeps, version: string): FastifyPluginAsyncZod {
  const { config, pool, redis } = deps;
  const probeKafka = kafkaProbe(config.KAFKA_BROKERS, 'vitalis-gateway-health');
  const startedAt = Date.now();
  const pipelineReader = createPipelineReader({
    admin: () => deps.kafka.admin(),
    topic: config.VITALS_TOPIC,
    groupId: config.INGEST_GROUP_ID,
    stallAfterMs: config.HEALTH_STALL_AFTER_MS,
    timeoutMs: config.HEALTH_TIMEOUT_MS,
  });
  // Logged once when partitions stall, once when they move again (the clinical screens read health).
  let stalledLogged = '';
  const logPipeline = (pipeline: Pipeline) => {
    if (pipeline.status === 'unknown') return;
    const now = pipeline.stalled_partitions.join(',');
    if (now !== stalledLogged && now !== '') deps.logger.warn({ partitions: pipeline.stalled_partitions, stall_after_s: pipeline.stall_after_s }, 'ingest partitions stalled');
    if (now === '' && stalledLogged !== '') deps.logger.info('ingest partitions progressing again');
    stalledLogged = now;
  };

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
    const [postgres, kafka, redisCheck, pipeline] = await Promise.all([
      runCheck('postgres', () => pool.query('SELECT 1'), timeout),
      runCheck('kafka', probeKafka, timeout),
      runCheck('redis', () => redis.ping(), timeout),
      pipelineReader.current(),
    ]);
    const checks = { postgres, kafka, redis: redisCheck };
    logChanges(checks);
    logPipeline(pipeline);
    return { status: overallStatus(checks, pipeline), version, time: new Date().toISOString(), uptime_s: Math.round((Date.now() - startedAt) / 1000), checks, pipeline };
  };

  return async (app) => {
    app.addHook('onClose', () => pipelineReader.close());
    app.get(
      '/api/v1/health',
      {
        schema: {
          tags: ['system'],
          summary: 'System health',
          description:
            'Overall status, one check per dependency (PostgreSQL, Kafka, Redis) with latency, and the vitals pipeline: per partition, the ingest\'s lag and how long it has made no progress while messages wait (degraded when a partition is stalled). 503 when down. Error texts are not shown here (see /api/v1/health/details).',
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
