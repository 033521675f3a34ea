/**
 * The event store against the real PostgreSQL: optimistic concurrency and the gap-safe reader
 * under concurrent writers (the forced interleavings are in commit-order.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createPool } from '@vitalis/db';
import {
  append,
  ANY,
  ConcurrencyError,
  DuplicateEventError,
  headPosition,
  listenForEvents,
  readAll,
  readStream,
  subscribe,
  type StoredEvent,
} from '@vitalis/eventstore';
import { testEnv } from '../../helpers/env';

const pool = createPool({ url: testEnv.DATABASE_URL, max: 12 });
afterAll(() => pool.end());
const stream = () => `test-${randomUUID()}`;

describe('event store', () => {
  it('appends with versions and metadata and reads the stream back in order', async () => {
    const s = stream();
    const r = await append(
      pool,
      s,
      0,
      [
        { type: 'A', data: { n: 1 } },
        { type: 'B', data: { n: 2 } },
      ],
      { actor: 'u1', correlationId: 'c1' },
    );
    expect(r.version).toBe(2);
    const events = await readStream(pool, s);
    expect(events.map((e) => [e.streamVersion, e.type, e.data.n])).toEqual([
      [1, 'A', 1],
      [2, 'B', 2],
    ]);
    expect(events[0]!.metadata).toMatchObject({ actor: 'u1', correlationId: 'c1' });
    expect(typeof events[0]!.metadata.time).toBe('string');
    expect(events[1]!.globalPosition).toBeGreaterThan(events[0]!.globalPosition);
  });

  it('refuses a stale expected version and lets exactly one of many concurrent writers win', async () => {
    const s = stream();
    await append(pool, s, 0, [{ type: 'Created', data: {} }]);
    await expect(append(pool, s, 0, [{ type: 'X', data: {} }])).rejects.toBeInstanceOf(ConcurrencyError);
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => append(pool, s, 1, [{ type: 'Changed', data: { i } }])));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(rejected).toHaveLength(9);
    for (const r of rejected) expect(r.reason).toBeInstanceOf(ConcurrencyError);
    expect((await readStream(pool, s)).map((e) => e.streamVersion)).toEqual([1, 2]);
    await expect(append(pool, s, ANY, [{ type: 'Any', data: {} }])).resolves.toMatchObject({ version: 3 });
  });

  it('a redelivered event (same event id) is refused as a duplicate and stored once', async () => {
    const s = stream();
    const eventId = randomUUID();
    await append(pool, s, ANY, [{ type: 'Once', data: {}, eventId }]);
    await expect(append(pool, s, ANY, [{ type: 'Once', data: {}, eventId }])).rejects.toBeInstanceOf(DuplicateEventError);
    expect(await readStream(pool, s)).toHaveLength(1);
  });

  it('under concurrent writers, a reader advancing a checkpoint sees every committed event exactly once', async () => {
    const tag = randomUUID();
    const start = (await pool.query<{ p: number | null }>('SELECT max(global_position) AS p FROM events')).rows[0]!.p ?? 0;
    const writers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; i < 25; i++) {
        // Random delays inside the transaction make commits land out of position order.
        const c = await pool.connect();
        try {
          await c.query('BEGIN');
          await append(c, `test-${tag}-${w}-${i}`, 0, [{ type: 'T', data: { tag } }]);
          await c.query('SELECT pg_sleep($1)', [Math.random() * 0.01]);
          await c.query('COMMIT');
        } finally {
          c.release();
        }
      }
    });
    const seen: string[] = [];
    let checkpoint = start;
    let done = false;
    const all = Promise.all(writers).then(() => {
      done = true;
    });
    for (;;) {
      const batch = await readAll(pool, checkpoint, 7);
      for (const e of batch) if (e.data.tag === tag) seen.push(e.streamId);
      if (batch.length > 0) checkpoint = batch[batch.length - 1]!.globalPosition;
      else if (done) break;
      else await new Promise((r) => setTimeout(r, 2));
    }
    await all;
    // drain whatever the reader had not reached when the last writer committed
    const deadline = Date.now() + 30_000;
    while (seen.length < 200 && Date.now() < deadline) {
      const batch = await readAll(pool, checkpoint, 1000);
      for (const e of batch) if (e.data.tag === tag) seen.push(e.streamId);
      if (batch.length > 0) checkpoint = batch[batch.length - 1]!.globalPosition;
      else await new Promise((r) => setTimeout(r, 20));
    }
    expect(seen).toHaveLength(200);
    expect(new Set(seen).size).toBe(200);
  });

  it('LISTEN/NOTIFY wakes listeners on append, and subscribe delivers every new event once, in order', async () => {
    let woken = 0;
    let resolveWake!: () => void;
    const wokenOnce = new Promise<void>((r) => (resolveWake = r));
    const listener = listenForEvents(pool, () => {
      woken++;
      resolveWake();
    });
    const from = await headPosition(pool);
    const s = stream();
    const got: StoredEvent[] = [];
    let resolveAll!: () => void;
    const allSeen = new Promise<void>((r) => (resolveAll = r));
    const sub = subscribe(
      pool,
      from,
      async (events) => {
        got.push(...events.filter((e) => e.streamId === s));
        if (got.length >= 5) resolveAll();
      },
      { intervalMs: 50 },
    );
    try {
      // keep appending until the listener (connecting asynchronously) has heard one
      for (let i = 0; woken === 0 && i < 300; i++) {
        await append(pool, `${s}-ping`, ANY, [{ type: 'Ping', data: {} }]);
        await Promise.race([wokenOnce, new Promise((r) => setTimeout(r, 100))]);
      }
      expect(woken).toBeGreaterThan(0);
      for (let i = 0; i < 5; i++) await append(pool, s, i, [{ type: 'N', data: { i } }]);
      await allSeen;
      expect(got.map((e) => e.data.i)).toEqual([0, 1, 2, 3, 4]);
    } finally {
      await sub.stop();
      await listener.stop();
    }
  });
});
