/**
 * The vitals pipeline's judgement, pure: the document health publishes (`pipeline`), its summary
 * (readiness, the MCP tool get_pipeline_status), and when a partition is stalled or delayed.
 * pipeline-reader.ts reads, this file judges, health.ts serves: split so the reader and the route
 * both import the judgement and neither imports the other.
 */
import { z } from 'zod';
import type { NewestObservation } from '@vitalis/metrics';
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

export type Pipeline = z.infer<typeof pipelineSchema>;
export type PipelineSummary = z.infer<typeof pipelineSummarySchema>;

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
