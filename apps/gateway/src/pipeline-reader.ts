/**
 * The vitals pipeline's reader (health.ts publishes what it reads): per partition of the
 * observations topic, the ingest group's lag, for how long it has made no progress while messages
 * wait and for how long messages have waited, and the newest stored observation, one reading a
 * second shared by health, readiness and the MCP tool get_pipeline_status.
 */
import type { Admin } from 'kafkajs';
import { createStallClock, readNewestObservation, type NewestObservation, type NewestQueryable } from '@vitalis/metrics';
import { withTimeout } from '@vitalis/runtime';
import type { GatewayDeps } from './deps';
import { judgePipeline, newestFields, type PartitionReading, type Pipeline } from './pipeline-judgement';

/**
 * Per partition, since when messages have waited (lag > 0) at every reading, progressing or not
 * (the stall clock, by contrast, restarts whenever the committed offset moves). A partition first
 * seen lagging starts its clock at that first sight.
 */
function createWaitClock() {
  const since = new Map<number, number>();
  return {
    observe(partition: number, lag: number, now: number): number {
      if (lag <= 0) {
        since.delete(partition);
        return 0;
      }
      const start = since.get(partition) ?? now;
      since.set(partition, start);
      return now - start;
    },
    retain(partitions: Iterable<number>) {
      const keep = new Set(partitions);
      for (const p of [...since.keys()]) if (!keep.has(p)) since.delete(p);
    },
  };
}

/** Per partition: its lag behind the end offset, and for how long it has made no progress and messages have waited (both clocks kept to the topic's partitions). */
function partitionReadings(
  ends: readonly { partition: number; high: string; low: string }[],
  committed: readonly { partition: number; offset: string }[],
  clock: ReturnType<typeof createStallClock>,
  waiting: ReturnType<typeof createWaitClock>,
): PartitionReading[] {
  const at = new Map(committed.map((p) => [p.partition, Number(p.offset)]));
  const now = Date.now();
  clock.retain(ends.map((e) => e.partition));
  waiting.retain(ends.map((e) => e.partition));
  return ends.map((end) => {
    const position = at.get(end.partition) ?? -1;
    // -1: the group committed nothing yet: it starts at the earliest retained offset.
    const lag = Math.max(0, Number(end.high) - Math.max(position, Number(end.low)));
    return {
      partition: end.partition,
      lag,
      stalledMs: clock.observe(end.partition, position, lag, now),
      waitingMs: waiting.observe(end.partition, lag, now),
    };
  });
}

export interface PipelineReader {
  /** The pipeline now (one reading per second at most, shared by concurrent callers); `unknown` when Kafka cannot be read within `timeoutMs` (default HEALTH_TIMEOUT_MS). */
  current(timeoutMs?: number): Promise<Pipeline>;
  close(): Promise<void>;
}

/**
 * The pipeline's progress, read from the brokers with the admin client: per partition of `topic`,
 * the end offset and the ingest group's committed offset; and the newest stored observation, from
 * PostgreSQL (@vitalis/metrics readNewestObservation: one backward index step per recent
 * partition), read beside it and cached with it.
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
export function createPipelineReader(opts: {
  admin: () => Admin;
  db: NewestQueryable;
  topic: string;
  groupId: string;
  stallAfterMs: number;
  dataAgeAfterMs: number;
  timeoutMs: number;
}): PipelineReader {
  const clock = createStallClock();
  const waiting = createWaitClock();
  const thresholds = { stallAfterMs: opts.stallAfterMs, dataAgeAfterMs: opts.dataAgeAfterMs };
  const limits = { stall_after_s: Math.round(opts.stallAfterMs / 1_000), data_age_after_s: Math.round(opts.dataAgeAfterMs / 1_000) };
  let admin: Admin | undefined;
  let connected: Promise<void> | undefined;
  let inFlight: Promise<Pipeline> | undefined;
  let last: { at: number; pipeline: Pipeline } | undefined;
  // The last newest observation read: what `unknown` (Kafka unreadable) still reports.
  let lastNewest: NewestObservation | undefined;
  const readNewest = () =>
    withTimeout(readNewestObservation(opts.db), opts.timeoutMs, 'newest observation').then(
      (n) => (lastNewest = n),
      () => undefined, // not judged; PostgreSQL's own check says why
    );
  const read = async (): Promise<Pipeline> => {
    const newest = readNewest();
    admin ??= opts.admin();
    const a = admin;
    await (connected ??= a.connect());
    const [ends, committed] = await Promise.all([
      a.fetchTopicOffsets(opts.topic),
      a.fetchOffsets({ groupId: opts.groupId, topics: [opts.topic] }),
    ]);
    const partitions = partitionReadings(ends, committed[0]?.partitions ?? [], clock, waiting);
    return { ...judgePipeline(partitions, await newest, thresholds), ...limits };
  };
  const unknown = (): Pipeline => ({
    status: 'unknown',
    delayed: false,
    lag: 0,
    stalled_partitions: [],
    delayed_partitions: [],
    delayed_s: 0,
    ...newestFields(lastNewest),
    ...limits,
    partitions: [],
  });
  return {
    async current(timeoutMs = opts.timeoutMs): Promise<Pipeline> {
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
      return withTimeout(inFlight, timeoutMs, 'pipeline').catch(unknown);
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

/**
 * The gateway's one pipeline reader (health, readiness and the MCP tool get_pipeline_status share
 * its clocks and its one reading a second), made on first use; health closes it with the app.
 */
const readers = new WeakMap<GatewayDeps, PipelineReader>();
export function pipelineReaderOf(deps: GatewayDeps): PipelineReader {
  let reader = readers.get(deps);
  if (!reader) {
    const { config } = deps;
    reader = createPipelineReader({
      admin: () => deps.kafka.admin(),
      db: deps.pool,
      topic: config.VITALS_TOPIC,
      groupId: config.INGEST_GROUP_ID,
      stallAfterMs: config.HEALTH_STALL_AFTER_MS,
      dataAgeAfterMs: config.HEALTH_DATA_AGE_AFTER_MS,
      timeoutMs: config.HEALTH_TIMEOUT_MS,
    });
    readers.set(deps, reader);
  }
  return reader;
}
