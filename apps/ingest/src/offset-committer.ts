/**
 * Commits consumer offsets to Kafka off the hot path (what the Java consumer calls commitAsync):
 * a batch hands over its next offset once its rows are committed to PostgreSQL and published, and
 * returns at once, so the next fetch does not wait for an OffsetCommit round trip. One request is
 * in flight at a time; offsets handed over meanwhile are merged, the latest per partition winning.
 *
 * Safe because storage is idempotent: an offset committed late, or lost (a failed request, a
 * rebalance, a crash), only means a batch is delivered again, and its rows are skipped as
 * duplicates. Order is kept: an offset is only ever handed over after the rows before it are stored.
 */
import type { Offsets } from 'kafkajs';
import { must } from '@vitalis/runtime';
import type { Logger } from '@vitalis/log';

export interface OffsetToCommit {
  topic: string;
  partition: number;
  /** The next offset to read (last processed + 1). */
  offset: string;
}

export interface OffsetCommitter {
  /** Queues an offset; `send` is the consumer's commit function (kafkajs eachBatch's commitOffsetsIfNecessary). */
  commit: (next: OffsetToCommit, send: (offsets: Offsets) => Promise<void>) => void;
  /** Resolves once everything handed over so far was sent (or failed and was logged). */
  flush: () => Promise<void>;
}

export function createOffsetCommitter(logger: Logger): OffsetCommitter {
  const waiting = new Map<string, OffsetToCommit>();
  let send: ((offsets: Offsets) => Promise<void>) | undefined;
  let inFlight: Promise<void> | undefined;

  const pump = async () => {
    while (waiting.size > 0) {
      const items = [...waiting.values()];
      waiting.clear();
      try {
        await must(send, 'the send function given with the commit that started this pump')(toOffsets(items));
      } catch (err) {
        // Not retried: the partition's next batch commits a later offset; if none comes, the
        // batch is redelivered after a restart or rebalance and stored once.
        logger.warn({ err, partitions: items.map((i) => i.partition) }, 'offset commit failed; those batches may be delivered again');
      }
    }
    inFlight = undefined;
  };

  return {
    commit(next, sendFn) {
      waiting.set(`${next.topic}\u0000${next.partition}`, next);
      send = sendFn;
      inFlight ??= pump();
    },
    flush: async () => {
      while (inFlight) await inFlight;
    },
  };
}

export function toOffsets(items: OffsetToCommit[]): Offsets {
  const byTopic = new Map<string, { partition: number; offset: string }[]>();
  for (const { topic, partition, offset } of items) {
    const list = byTopic.get(topic) ?? [];
    list.push({ partition, offset });
    byTopic.set(topic, list);
  }
  return { topics: [...byTopic].map(([topic, partitions]) => ({ topic, partitions })) };
}
