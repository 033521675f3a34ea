/** Group commit and the asynchronous offset committer of the ingest worker (pure logic; Kafka and PostgreSQL in test/integration/vitals/group-commit.test.ts). */
import { describe, expect, it } from 'vitest';
import type { Offsets } from 'kafkajs';
import { createLogger } from '@vitalis/log';
import { groupCommit, mapLimit, packBySize } from '../../../apps/ingest/src/group-commit';
import { createOffsetCommitter, toOffsets } from '../../../apps/ingest/src/offset-committer';

const nextTurn = () => new Promise((r) => setImmediate(r));

describe('groupCommit', () => {
  it('flushes the calls made in one turn together, each caller getting its own result', async () => {
    const flushes: number[][] = [];
    const double = groupCommit<number, number>(async (items) => {
      flushes.push(items);
      return items.map((i) => i * 2);
    });
    const first = await Promise.all([double(1), double(2), Promise.resolve().then(() => double(3))]);
    expect(first).toEqual([2, 4, 6]);
    expect(flushes).toEqual([[1, 2, 3]]); // the microtask-delayed call joined the same group
    await double(4);
    expect(flushes).toEqual([[1, 2, 3], [4]]);
  });

  it('rejects every caller of a failed group, and the next group is unaffected', async () => {
    let fail = true;
    const run = groupCommit<string, string>(async (items) => {
      if (fail) throw new Error('database gone');
      return items;
    });
    const results = await Promise.allSettled([run('a'), run('b')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason.message).toBe('database gone');
    fail = false;
    await expect(run('c')).resolves.toBe('c');
  });

  it('refuses a flush that returns the wrong number of results (a bug, not a silent loss)', async () => {
    const run = groupCommit<number, number>(async () => [1]);
    const results = await Promise.allSettled([run(1), run(2)]);
    expect(results.every((r) => r.status === 'rejected' && /2 items/.test(String(r.reason)))).toBe(true);
  });

  it('turns a synchronous throw of flush into rejections', async () => {
    const run = groupCommit<number, number>(() => {
      throw new Error('sync');
    });
    await expect(run(1)).rejects.toThrow('sync');
  });
});

describe('packBySize', () => {
  const rows = (n: number) => ({ n });
  it('packs in order up to the limit; an item above it stays alone', () => {
    const groups = packBySize([rows(100), rows(300), rows(700), rows(5_000), rows(10), rows(20)], (r) => r.n, 1_000);
    expect(groups.map((g) => g.map((r) => r.n))).toEqual([[100, 300], [700], [5_000], [10, 20]]);
    expect(packBySize([], () => 1, 10)).toEqual([]);
  });
});

describe('mapLimit', () => {
  it('keeps at most `limit` calls in flight and the results in input order', async () => {
    let inFlight = 0;
    let max = 0;
    const results = await mapLimit([30, 10, 20, 5, 15, 1], 2, async (ms) => {
      max = Math.max(max, ++inFlight);
      await new Promise((r) => setTimeout(r, ms));
      inFlight--;
      return ms * 10;
    });
    expect(results).toEqual([300, 100, 200, 50, 150, 10]);
    expect(max).toBe(2);
    expect(await mapLimit([], 4, async () => 1)).toEqual([]);
  });

  it('rejects with the first failure', async () => {
    await expect(mapLimit([1, 2, 3], 2, async (n) => (n === 2 ? Promise.reject(new Error('two')) : n))).rejects.toThrow('two');
  });
});

describe('offset committer', () => {
  const logger = createLogger('test-offsets', 'silent');

  /** A commit function that records its calls and answers when released. */
  function broker() {
    const calls: Offsets[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const pending: { resolve: () => void; reject: (e: Error) => void }[] = [];
    const send = (offsets: Offsets) => {
      calls.push(offsets);
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      return new Promise<void>((resolve, reject) =>
        pending.push({ resolve: () => (inFlight--, resolve()), reject: (e) => (inFlight--, reject(e)) }),
      );
    };
    return { calls, send, pending, max: () => maxInFlight };
  }

  it('sends at once, merges what arrives meanwhile (latest offset per partition wins), one request at a time', async () => {
    const b = broker();
    const c = createOffsetCommitter(logger);
    c.commit({ topic: 't', partition: 0, offset: '10' }, b.send);
    expect(b.calls).toEqual([{ topics: [{ topic: 't', partitions: [{ partition: 0, offset: '10' }] }] }]);
    c.commit({ topic: 't', partition: 0, offset: '20' }, b.send);
    c.commit({ topic: 't', partition: 1, offset: '5' }, b.send);
    c.commit({ topic: 't', partition: 0, offset: '30' }, b.send);
    expect(b.calls).toHaveLength(1);
    const flushed = c.flush();
    b.pending.shift()!.resolve();
    await nextTurn();
    expect(b.calls[1]).toEqual({
      topics: [
        {
          topic: 't',
          partitions: [
            { partition: 0, offset: '30' },
            { partition: 1, offset: '5' },
          ],
        },
      ],
    });
    b.pending.shift()!.resolve();
    await flushed;
    expect(b.max()).toBe(1);
    expect(b.calls).toHaveLength(2);
  });

  it('logs a failed commit and keeps committing later offsets', async () => {
    const b = broker();
    const c = createOffsetCommitter(logger);
    c.commit({ topic: 't', partition: 2, offset: '7' }, b.send);
    c.commit({ topic: 't', partition: 3, offset: '8' }, b.send);
    b.pending.shift()!.reject(new Error('REBALANCE_IN_PROGRESS'));
    await nextTurn();
    b.pending.shift()!.resolve();
    await c.flush();
    c.commit({ topic: 't', partition: 2, offset: '9' }, b.send);
    b.pending.shift()!.resolve();
    await c.flush();
    expect(b.calls.map((o) => o.topics[0]!.partitions)).toEqual([
      [{ partition: 2, offset: '7' }],
      [{ partition: 3, offset: '8' }],
      [{ partition: 2, offset: '9' }],
    ]);
  });

  it('flush resolves at once when nothing is waiting', async () => {
    await expect(createOffsetCommitter(logger).flush()).resolves.toBeUndefined();
  });

  it('groups offsets by topic', () => {
    expect(
      toOffsets([
        { topic: 'a', partition: 0, offset: '1' },
        { topic: 'b', partition: 0, offset: '2' },
        { topic: 'a', partition: 1, offset: '3' },
      ]),
    ).toEqual({
      topics: [
        {
          topic: 'a',
          partitions: [
            { partition: 0, offset: '1' },
            { partition: 1, offset: '3' },
          ],
        },
        { topic: 'b', partitions: [{ partition: 0, offset: '2' }] },
      ],
    });
  });
});
