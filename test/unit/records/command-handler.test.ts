/**
 * The command handler (@vitalis/eventstore handleCommand, ADR 0024): the order of its checks
 * (pure: `settle`), then, against the real event store (the development stack's PostgreSQL), what
 * a pure step cannot show: a version conflict read and decided again, then appended; a conflict
 * past the bound refused; a caller's expected version never retried; a decider's refusal; the
 * audit callbacks (the success's once, in the events' transaction; a refusal's once, after nothing
 * was written); the writes before and after the events in their transaction; a command run inside
 * the caller's transaction. The decider is a small tally, so only the handler is under test.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createPool, withTransaction } from '@vitalis/db';
import {
  ANY,
  append,
  ConcurrencyError,
  handleCommand,
  inTransaction,
  loadStream,
  readStream,
  settle,
  type Decider,
  type Loaded,
  type Queryable,
} from '@vitalis/eventstore';
import { testEnv } from '../../helpers/env';

type TallyEvent = { type: 'Counted'; data: { n: number } };
type TallyState = { total: number; version: number } | null;
/** `add` starts a tally or adds to it; `take` needs one that exists and holds enough. */
type TallyCommand = { type: 'add'; n: number } | { type: 'take'; n: number };
type TallyRefusal = { kind: 'not-found' } | { kind: 'not-positive'; n: number } | { kind: 'too-little'; total: number };

const TALLY: Decider<TallyState, TallyCommand, TallyEvent, TallyRefusal> = {
  initialState: () => null,
  evolve: (s, e) => ({ total: (s?.total ?? 0) + Number(e.data.n), version: e.streamVersion }),
  decide: (c, s) => {
    if (c.n <= 0) return { ok: false, error: { kind: 'not-positive', n: c.n } };
    if (c.type === 'add') return { ok: true, events: [{ type: 'Counted', data: { n: c.n } }] };
    if (!s) return { ok: false, error: { kind: 'not-found' } };
    if (s.total < c.n) return { ok: false, error: { kind: 'too-little', total: s.total } };
    return { ok: true, events: [{ type: 'Counted', data: { n: -c.n } }] };
  },
};

describe('the order of the checks (settle)', () => {
  const append1 = { ok: true as const, events: [{ type: 'Counted', data: { n: 1 } }] };

  it('a missing record first, whatever version the caller expected', () => {
    expect(settle<TallyEvent, TallyRefusal>({ ok: false, error: { kind: 'not-found' } }, 5, 0)).toEqual({
      ok: false,
      error: { kind: 'not-found' },
    });
  });

  it("then a version other than the expected one, before the decider's other refusals and before appending", () => {
    expect(settle<TallyEvent, TallyRefusal>({ ok: false, error: { kind: 'too-little', total: 1 } }, 1, 2)).toEqual({
      ok: false,
      error: { kind: 'version-mismatch', expected: 1, actual: 2 },
    });
    expect(settle(append1, 3, 2)).toEqual({ ok: false, error: { kind: 'version-mismatch', expected: 3, actual: 2 } });
  });

  it('at the expected version, or with none, the decision as it is', () => {
    expect(settle(append1, 2, 2)).toBe(append1);
    expect(settle(append1, undefined, 7)).toBe(append1);
    const refused = { ok: false as const, error: { kind: 'too-little' as const, total: 0 } };
    expect(settle<TallyEvent, TallyRefusal>(refused, undefined, 1)).toBe(refused);
  });
});

const pool = createPool({ url: testEnv.DATABASE_URL, max: 4, application: 'vitalis-test-command-handler' });
afterAll(() => pool.end());
const stream = () => `test-${randomUUID()}`;
const metadata = { actor: 'usr-1', client: 'cli-1', scope: 'write:test' };
const ns = async (s: string) => (await readStream(pool, s)).map((e) => e.data.n);

/** A load that lets another writer append to the stream right after the first `times` reads (as a concurrent request would). */
function racingLoad(s: string, times: number): { load: (db: Queryable) => Promise<Loaded<TallyState>>; reads: () => number } {
  let reads = 0;
  return {
    reads: () => reads,
    load: async (db) => {
      const loaded = await loadStream(db, TALLY, s);
      if (reads++ < times) await append(pool, s, ANY, [{ type: 'Counted', data: { n: 100 } }], { actor: 'other' });
      return loaded;
    },
  };
}

describe('handleCommand against the event store', () => {
  it('appends at the version read, with the metadata, and answers the state before and after', async () => {
    const s = stream();
    const recorded = vi.fn(async () => {});
    const refused = vi.fn(async () => {});
    const first = await handleCommand(pool, TALLY, s, { type: 'add', n: 2 }, { metadata, recorded, refused });
    expect(first).toMatchObject({
      ok: true,
      before: null,
      state: { total: 2, version: 1 },
      decided: [{ type: 'Counted', data: { n: 2 } }],
      version: 1,
    });
    const second = await handleCommand(pool, TALLY, s, { type: 'take', n: 1 }, { metadata, recorded, refused });
    expect(second).toMatchObject({ ok: true, before: { total: 2, version: 1 }, state: { total: 1, version: 2 }, version: 2 });
    const stored = await readStream(pool, s);
    expect(stored.map((e) => [e.streamVersion, e.data.n])).toEqual([
      [1, 2],
      [2, -1],
    ]);
    expect(stored[1]!.metadata).toMatchObject(metadata);
    expect(second.ok && second.stored.map((e) => e.eventId)).toEqual([stored[1]!.eventId]);
    expect(recorded).toHaveBeenCalledTimes(2);
    expect(refused).not.toHaveBeenCalled();
  });

  it('a refusal appends nothing, is answered with the state decided on, and calls `refused` once (never `recorded`)', async () => {
    const s = stream();
    await handleCommand(pool, TALLY, s, { type: 'add', n: 1 }, { metadata });
    const recorded = vi.fn(async () => {});
    const refused = vi.fn(async () => {});
    const outcome = await handleCommand(pool, TALLY, s, { type: 'take', n: 5 }, { metadata, recorded, refused });
    expect(outcome).toEqual({ ok: false, error: { kind: 'too-little', total: 1 }, state: { total: 1, version: 1 } });
    expect(refused).toHaveBeenCalledTimes(1);
    expect(refused).toHaveBeenCalledWith({ kind: 'too-little', total: 1 }, { total: 1, version: 1 });
    expect(recorded).not.toHaveBeenCalled();
    expect(await ns(s)).toEqual([1]);
    const missing = await handleCommand(pool, TALLY, stream(), { type: 'take', n: 1 }, { metadata, refused });
    expect(missing).toEqual({ ok: false, error: { kind: 'not-found' }, state: null });
  });

  it('a version conflict is read and decided again, then appended (audited once)', async () => {
    const s = stream();
    await handleCommand(pool, TALLY, s, { type: 'add', n: 1 }, { metadata });
    const race = racingLoad(s, 1);
    const recorded = vi.fn(async () => {});
    const refused = vi.fn(async () => {});
    const outcome = await handleCommand(
      pool,
      TALLY,
      s,
      { type: 'take', n: 1 },
      { metadata, retries: 1, load: race.load, recorded, refused },
    );
    // decided first on version 1, appended after the other writer's event: conflict; decided again on version 2
    expect(outcome).toMatchObject({ ok: true, before: { total: 101, version: 2 }, state: { total: 100, version: 3 } });
    expect(race.reads()).toBe(2);
    expect(await ns(s)).toEqual([1, 100, -1]);
    expect(recorded).toHaveBeenCalledTimes(1);
    expect(refused).not.toHaveBeenCalled();
  });

  it('a conflict past the bound is refused (`concurrent-change`, how many attempts), audited once, nothing of it appended', async () => {
    const s = stream();
    const race = racingLoad(s, Infinity);
    const recorded = vi.fn(async () => {});
    const refused = vi.fn(async () => {});
    const outcome = await handleCommand(
      pool,
      TALLY,
      s,
      { type: 'add', n: 7 },
      { metadata, retries: 2, load: race.load, recorded, refused },
    );
    expect(outcome).toMatchObject({ ok: false, error: { kind: 'concurrent-change', attempts: 3 } });
    expect(race.reads()).toBe(3);
    expect(refused).toHaveBeenCalledTimes(1);
    expect(recorded).not.toHaveBeenCalled();
    expect(await ns(s)).toEqual([100, 100, 100]);
  });

  it('without retries the first conflict is the answer; with an expected version a conflict is never retried', async () => {
    const s = stream();
    await handleCommand(pool, TALLY, s, { type: 'add', n: 1 }, { metadata });
    expect(await handleCommand(pool, TALLY, s, { type: 'add', n: 1 }, { metadata, load: racingLoad(s, 1).load })).toMatchObject({
      ok: false,
      error: { kind: 'concurrent-change', attempts: 1 },
    });
    const version = (await readStream(pool, s)).length;
    const race = racingLoad(s, 1);
    const outcome = await handleCommand(
      pool,
      TALLY,
      s,
      { type: 'add', n: 1 },
      { metadata, expectedVersion: version, retries: 3, load: race.load },
    );
    expect(outcome).toMatchObject({ ok: false, error: { kind: 'concurrent-change', attempts: 1 } });
    expect(race.reads()).toBe(1);
  });

  it('an expected version the stream is not at is refused before appending; a missing record is refused first', async () => {
    const s = stream();
    await handleCommand(pool, TALLY, s, { type: 'add', n: 3 }, { metadata });
    const refused = vi.fn(async () => {});
    expect(await handleCommand(pool, TALLY, s, { type: 'take', n: 1 }, { metadata, expectedVersion: 4, refused })).toEqual({
      ok: false,
      error: { kind: 'version-mismatch', expected: 4, actual: 1 },
      state: { total: 3, version: 1 },
    });
    expect(refused).toHaveBeenCalledTimes(1);
    expect(await handleCommand(pool, TALLY, s, { type: 'take', n: 1 }, { metadata, expectedVersion: 1 })).toMatchObject({
      ok: true,
      version: 2,
    });
    expect(await handleCommand(pool, TALLY, stream(), { type: 'take', n: 1 }, { metadata, expectedVersion: 4 })).toMatchObject({
      ok: false,
      error: { kind: 'not-found' },
    });
  });

  it('the writes before and after the events, and the audit, are one transaction: a failing audit rolls all of it back', async () => {
    const [s, before, after] = [stream(), stream(), stream()];
    const options = {
      metadata,
      beforeAppend: async (tx: Queryable) => {
        await append(tx, before, 0, [{ type: 'Counted', data: { n: 1 } }]);
      },
      afterAppend: async (tx: Queryable) => {
        await append(tx, after, 0, [{ type: 'Counted', data: { n: 1 } }]);
      },
    };
    const failing = handleCommand(
      pool,
      TALLY,
      s,
      { type: 'add', n: 1 },
      {
        ...options,
        recorded: async () => {
          throw new Error('no audit row');
        },
      },
    );
    await expect(failing).rejects.toThrow('no audit row');
    expect([await ns(s), await ns(before), await ns(after)]).toEqual([[], [], []]);
    const done = await handleCommand(pool, TALLY, s, { type: 'add', n: 1 }, { ...options, recorded: async () => {} });
    expect(done.ok).toBe(true);
    const positions = await Promise.all([before, s, after].map(async (x) => (await readStream(pool, x))[0]!.globalPosition));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it("inside the caller's transaction: one attempt, a conflict thrown (the caller rolls back), a success committed with the caller", async () => {
    const [s, other] = [stream(), stream()];
    await withTransaction(pool, async (client) => {
      expect(await handleCommand(inTransaction(client), TALLY, s, { type: 'add', n: 1 }, { metadata })).toMatchObject({
        ok: true,
        version: 1,
      });
      await append(client, other, 0, [{ type: 'Counted', data: { n: 1 } }]);
    });
    expect([await ns(s), await ns(other)]).toEqual([[1], [1]]);
    const race = racingLoad(s, 1);
    const add5 = { type: 'add' as const, n: 5 };
    const conflicted = withTransaction(pool, (client) =>
      handleCommand(inTransaction(client), TALLY, s, add5, { metadata, retries: 3, load: race.load }),
    );
    await expect(conflicted).rejects.toBeInstanceOf(ConcurrencyError);
    expect(race.reads()).toBe(1);
    expect(await ns(s)).toEqual([1, 100]);
  });
});
