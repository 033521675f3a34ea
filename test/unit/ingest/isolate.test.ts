/**
 * Isolating refused rows (apps/ingest/src/isolate.ts) over an in-memory write that refuses the
 * rows marked bad, as PostgreSQL refuses a batch holding one (all or nothing): every good row is
 * written once, every bad row refused once with its own error, in a bounded number of writes.
 * And the stall clock (@vitalis/metrics) the ingest gauge and the gateway's health share.
 */
import { describe, expect, it } from 'vitest';
import { copyLineOf, isolate, type IsolateSteps } from '../../../apps/ingest/src/isolate';
import { createStallClock } from '@vitalis/metrics';

class Refused extends Error {
  code = '23514';
  where?: string;
}

/** A table that takes a part all or nothing; `withLines`: its error names the first bad row as COPY does. */
function table(bad: ReadonlySet<number>, withLines: boolean) {
  const written: number[] = [];
  let betweens = 0;
  const steps: IsolateSteps<number> = {
    attempt: async (part) => {
      const i = part.findIndex((row) => bad.has(row));
      if (i >= 0) {
        const err = new Refused(`row ${part[i]} violates check`);
        if (withLines) err.where = `COPY vitals_observations, line ${i + 1}: "…"`;
        throw err;
      }
      written.push(...part);
    },
    isRefusal: (err) => err instanceof Refused,
    culprit: (err) => copyLineOf(err, ['vitals_observations']),
    between: async () => {
      betweens += 1;
    },
  };
  const failureOf = async (rows: number[]) =>
    steps.attempt(rows).then(
      () => undefined,
      (err: unknown) => err,
    );
  return { steps, written, betweens: () => betweens, failureOf };
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

async function run(n: number, bad: number[], withLines: boolean) {
  const rows = range(n);
  const t = table(new Set(bad), withLines);
  const failure = await t.failureOf(rows);
  expect(failure).toBeInstanceOf(Refused);
  const result = await isolate(rows, failure, t.steps);
  // every good row written exactly once, every bad one refused once with its own reason
  expect([...t.written].sort((a, b) => a - b)).toEqual(rows.filter((r) => !bad.includes(r)));
  expect(result.refused.map((r) => r.item).sort((a, b) => a - b)).toEqual([...bad].sort((a, b) => a - b));
  for (const { item, err } of result.refused) expect((err as Error).message).toBe(`row ${item} violates check`);
  expect(t.betweens()).toBe(result.attempts); // a heartbeat before every write
  return result;
}

describe('isolating refused rows by bisection (no row named: an INSERT)', () => {
  it('one bad row among 5,000 costs between log2 and 2·log2 of 5,000 writes (14 to 24 here), not 5,000', async () => {
    const counts: number[] = [];
    for (const at of [0, 1, 17, 2_499, 2_500, 3_333, 4_998, 4_999]) counts.push((await run(5_000, [at], false)).attempts);
    for (const c of counts) {
      expect(c).toBeGreaterThanOrEqual(13);
      expect(c).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(5_000)));
    }
    // the last row: always in the right half, one write per level and one to prove it alone
    expect((await run(5_000, [4_999], false)).attempts).toBe(14);
  });

  it('several bad rows: about 2·log2(n/k) writes each, every good row written', async () => {
    const bad = [3, 4, 900, 2_000, 4_999];
    const { attempts } = await run(5_000, bad, false);
    expect(attempts).toBeLessThanOrEqual(bad.length * 2 * Math.ceil(Math.log2(5_000)));
  });

  it('a batch of one bad row is refused without another write; every row bad is every row refused', async () => {
    expect((await run(1, [0], false)).attempts).toBe(0);
    const all = await run(8, range(8), false);
    expect(all.refused).toHaveLength(8);
  });
});

describe('isolating refused rows COPY names (line N)', () => {
  it('one bad row among 5,000: 3 writes (before it, it alone, after it); 2 when the error is certainly its own', async () => {
    expect((await run(5_000, [2_345], true)).attempts).toBe(3);
    expect((await run(5_000, [0], true)).attempts).toBe(2); // nothing before it
    const rows = range(5_000);
    const t = table(new Set([2_345]), true);
    expect((await isolate(rows, await t.failureOf(rows), { ...t.steps, certain: () => true })).attempts).toBe(2);
  });

  it('k bad rows: 3 writes each (rows before it, it alone, the rest), whatever the batch size', async () => {
    const bad = range(100).map((i) => i * 50 + 7); // 1 in 50, as the poison run
    const { attempts } = await run(5_000, bad, true);
    expect(attempts).toBe(3 * bad.length);
  });

  it('an error certainly about the row it names (a CHECK): 2 writes each, the row not written alone', async () => {
    const bad = range(100).map((i) => i * 50 + 7);
    const rows = range(5_000);
    const t = table(new Set(bad), true);
    const result = await isolate(rows, await t.failureOf(rows), { ...t.steps, certain: () => true });
    expect(result.attempts).toBe(2 * bad.length);
    expect(result.refused.map((r) => r.item)).toEqual(bad);
    expect([...t.written].sort((a, b) => a - b)).toEqual(rows.filter((r) => !bad.includes(r)));
  });

  it("reads the line from a COPY context only, under a trigger's context too", () => {
    expect(copyLineOf({ where: 'COPY vitals_observations, line 12, column value: "x"' }, ['vitals_observations'])).toBe(11);
    expect(copyLineOf({ where: 'PL/pgSQL function f() line 3 at RAISE\nCOPY vitals_ingest_stage, line 2' }, ['vitals_ingest_stage'])).toBe(
      1,
    );
    expect(copyLineOf({ where: 'COPY other_table, line 2' }, ['vitals_observations'])).toBeUndefined();
    expect(copyLineOf({ where: 'SQL statement "INSERT …"' }, ['vitals_observations'])).toBeUndefined();
    expect(copyLineOf(new Error('x'), ['vitals_observations'])).toBeUndefined();
  });

  it('a wrong line never refuses a good row: the named row is written alone first', async () => {
    const rows = range(10);
    const t = table(new Set([7]), false);
    const lying = { ...t.steps, culprit: () => 2 }; // always names row 2
    const failure = await t.failureOf(rows);
    const result = await isolate(rows, failure, lying);
    expect(result.refused.map((r) => r.item)).toEqual([7]);
    expect([...t.written].sort((a, b) => a - b)).toEqual(rows.filter((r) => r !== 7));
  });

  it('an error that is not a refusal (the database unwell) is thrown, not isolated', async () => {
    const t = table(new Set([3]), true);
    let calls = 0;
    const steps = {
      ...t.steps,
      attempt: async () => {
        calls += 1;
        throw Object.assign(new Error('connection reset'), { code: '08006' });
      },
    };
    await expect(isolate(range(10), new Refused('x'), steps)).rejects.toThrow('connection reset');
    expect(calls).toBe(1);
  });
});

describe('the stall clock', () => {
  it("counts the time a partition's committed offset has not moved while messages wait, from its first sight", () => {
    const clock = createStallClock();
    expect(clock.observe(0, 100, 5, 1_000)).toBe(0); // first sight: no history
    expect(clock.observe(0, 100, 7, 16_000)).toBe(15_000);
    expect(clock.observe(0, 100, 9, 301_000)).toBe(300_000);
    expect(clock.observe(0, 104, 9, 316_000)).toBe(0); // it moved
    expect(clock.observe(0, 104, 9, 331_000)).toBe(15_000);
  });

  it('a caught-up partition is never stalled, however long it is quiet; nothing committed yet (-1) counts like an offset', () => {
    const clock = createStallClock();
    expect(clock.observe(1, 50, 0, 0)).toBe(0);
    expect(clock.observe(1, 50, 0, 3_600_000)).toBe(0);
    // messages arrive: counted from the last reading that saw it caught up (at most one reading early)
    expect(clock.observe(1, 50, 3, 3_615_000)).toBe(15_000);
    expect(clock.observe(1, 53, 0, 3_630_000)).toBe(0);
    expect(clock.observe(2, -1, 10, 0)).toBe(0);
    expect(clock.observe(2, -1, 10, 60_000)).toBe(60_000);
  });

  it('forgets partitions the topic no longer has', () => {
    const clock = createStallClock();
    clock.observe(5, 1, 1, 0);
    clock.retain([0, 1]);
    expect(clock.observe(5, 1, 1, 60_000)).toBe(0);
  });
});
