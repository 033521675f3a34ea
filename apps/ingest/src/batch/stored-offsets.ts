/**
 * Per partition of the topic: the offset after the last record the database holds (-1: none),
 * read on every assignment (a rebalance, a join) and moved on by this member's own commits. A
 * record before it is redelivered (a Kafka offset commit lost to a crash or rebalance): it is not
 * written again (no COPY aborted at the identity index, no staged path), only re-checked for the
 * DLQ and the live stage, which are idempotent. Stale-low is safe (the identity index still
 * dedups); a value beyond the partition's high watermark means the topic was recreated, and is ignored.
 */
import type { Logger } from '@vitalis/log';

export interface StoredOffsets {
  /** A new assignment (kafkajs GROUP_JOIN): forget every partition and read the assigned ones again. */
  assigned: (partitions: number[]) => void;
  /** The offset after the last stored record of `partition` (-1n: none, or beyond `highWatermark`). */
  nextOf: (partition: number, highWatermark: string) => Promise<bigint>;
  /** This member stored (or recorded) up to `next`: a redelivery skips what is before it. Never moves back. */
  advance: (partition: number, next: bigint) => void;
}

export interface StoredOffsetsOptions {
  /** Reads the stored next offsets of these partitions (store.ts `storedOffsets`). */
  read: (partitions: readonly number[]) => Promise<Map<number, bigint>>;
  logger: Logger;
  /** An assignment's offsets were read (stats and metrics). */
  onAssignmentChecked: () => void;
}

export function createStoredOffsets({ read, logger, onAssignmentChecked }: StoredOffsetsOptions): StoredOffsets {
  const storedNext = new Map<number, bigint>();
  let assignment: Promise<void> = Promise.resolve();
  const load = async (partitions: readonly number[]) => {
    const found = await read(partitions);
    for (const p of partitions) storedNext.set(p, found.get(p) ?? -1n);
  };
  return {
    assigned(partitions) {
      storedNext.clear();
      assignment = load(partitions).then(onAssignmentChecked, (err) =>
        logger.warn({ err }, 'reading the stored offsets on assignment failed; the first batch of each partition reads them'),
      );
    },
    async nextOf(partition, highWatermark) {
      await assignment;
      if (!storedNext.has(partition)) await load([partition]);
      const next = storedNext.get(partition) ?? -1n;
      if (next > BigInt(highWatermark)) {
        const why = 'stored offset beyond the partition end (topic recreated?): not skipping';
        logger.warn({ partition, next: String(next), highWatermark }, why);
        storedNext.set(partition, -1n);
        return -1n;
      }
      return next;
    },
    advance(partition, next) {
      if (next > (storedNext.get(partition) ?? -1n)) storedNext.set(partition, next);
    },
  };
}
