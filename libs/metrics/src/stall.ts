/**
 * The stall clock: per partition, how long the consumer group has made no progress while
 * messages wait. One definition for the ingest's gauge (vitalis_ingest_partition_stalled_seconds)
 * and the gateway's health (`pipeline`), fed by the same reading: the group's committed offset and
 * the partition's lag, from the brokers.
 *
 * A partition is progressing when its committed offset moved since the last reading, or when
 * nothing waits (lag 0): its clock restarts. Otherwise its stall is the time since the last reading
 * that saw it progress (at most one reading interval more than the truth). A partition first seen
 * lagging starts its clock at that first sight (nobody can tell how long it was stuck before).
 */
export interface StallClock {
  /** Records a reading; returns how long (ms) the partition has been stalled (0: progressing or caught up). */
  observe: (partition: number, committed: number, lag: number, now?: number) => number;
  /** Forgets partitions not in `partitions` (the topic shrank, or was recreated). */
  retain: (partitions: Iterable<number>) => void;
}

export function createStallClock(): StallClock {
  const seen = new Map<number, { committed: number; since: number }>();
  return {
    observe(partition, committed, lag, now = Date.now()) {
      const last = seen.get(partition);
      if (!last || last.committed !== committed || lag <= 0) {
        seen.set(partition, { committed, since: now });
        return 0;
      }
      return Math.max(0, now - last.since);
    },
    retain(partitions) {
      const keep = new Set(partitions);
      for (const p of [...seen.keys()]) if (!keep.has(p)) seen.delete(p);
    },
  };
}
