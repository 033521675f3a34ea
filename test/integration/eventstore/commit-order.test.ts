/**
 * The event reader never skips an event (issue 29 item 1, ADR 0017), forced deterministically.
 *
 * `append`'s INSERT takes its global position (the identity's nextval, which assigns no
 * transaction id on most calls) before the `transaction_id` default gives the transaction its
 * xid. A writer paused between the two holds a position without an xid: a second writer takes the
 * next position and commits, and a reader that trusted the xid horizon returned that later
 * position, moved its checkpoint past the first and never saw it. Here the pause is made real: in
 * a database of this file's own, the `transaction_id` default sleeps when the session asks it to
 * (the position is already taken by then: defaults are computed in column order).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, migrate, type Pool } from '@vitalis/db';
import { append, readAll, type StoredEvent } from '@vitalis/eventstore';
import { testEnv } from '../../helpers/env';
import { backendPid, until } from './support';
import { recreateDatabase } from '../../helpers/fresh-database';

let pool: Pool;

beforeAll(async () => {
  const admin = Object.assign(new URL(testEnv.DATABASE_URL), { pathname: '/postgres' }).toString();
  const url = await recreateDatabase(admin, `${new URL(testEnv.DATABASE_URL).pathname.slice(1)}_commit_order`);
  pool = createPool({ url, max: 8 });
  await migrate(pool);
  await pool.query(`
    CREATE FUNCTION test_paused_xact_id() RETURNS xid8 LANGUAGE plpgsql AS $$
    BEGIN
      IF coalesce(current_setting('vitalis_test.pause_s', true), '') <> '' THEN
        PERFORM pg_sleep(current_setting('vitalis_test.pause_s')::float8);
      END IF;
      RETURN pg_current_xact_id();
    END $$`);
  await pool.query('ALTER TABLE events ALTER COLUMN transaction_id SET DEFAULT test_paused_xact_id()');
});
afterAll(() => pool?.end());

const backendXid = async (pid: number) =>
  (await pool.query<{ x: string | null }>('SELECT backend_xid::text AS x FROM pg_stat_activity WHERE pid = $1', [pid])).rows[0]?.x ?? null;
const waitEventOf = async (pid: number) =>
  (await pool.query<{ w: string | null }>("SELECT wait_event_type || ':' || wait_event AS w FROM pg_stat_activity WHERE pid = $1", [pid]))
    .rows[0]?.w ?? null;

describe('event reader: commit-ordered positions', () => {
  it('a writer paused between its position and its transaction id is never skipped by a reader advancing a checkpoint', async () => {
    const first = `test-${randomUUID()}`;
    const second = `test-${randomUUID()}`;
    const before = (await pool.query<{ p: number | null }>('SELECT max(global_position) AS p FROM events')).rows[0]!.p ?? 0;
    // nextval WAL-logs (and so takes an xid) on its first call and then every 32nd: one call
    // first, so the paused writer's own call is an ordinary one that takes no xid.
    await append(pool, `test-${randomUUID()}`, 0, [{ type: 'WarmUp', data: {} }]);
    const slow = await pool.connect();
    const other = await pool.connect();
    try {
      await slow.query('BEGIN');
      await slow.query("SET LOCAL vitalis_test.pause_s = '2'");
      const slowPid = await backendPid(slow);
      const otherPid = await backendPid(other);
      const held = append(slow, first, 0, [{ type: 'Slow', data: {} }]);
      // The first writer has its position and sleeps before taking its xid.
      await until(async () => (await waitEventOf(slowPid)) === 'Timeout:PgSleep', 'the first writer to pause');
      expect(await backendXid(slowPid)).toBeNull();

      let secondDone = false;
      const later = append(other, second, 0, [{ type: 'Fast', data: {} }]).then((r) => {
        secondDone = true;
        return r;
      });
      // Either the second writer commits now (the old reader's hole) or it waits for the first.
      await until(
        async () => secondDone || (await waitEventOf(otherPid))?.startsWith('Lock:') === true,
        'the second writer to commit or wait',
      );

      // A reader runs while the first writer is still open, and moves its checkpoint.
      const seen: StoredEvent[] = [];
      let checkpoint = before;
      const read = async () => {
        const batch = await readAll(pool, checkpoint, 1000);
        seen.push(...batch);
        if (batch.length > 0) checkpoint = batch[batch.length - 1]!.globalPosition;
      };
      await read();

      const a = await held;
      await slow.query('COMMIT');
      const b = await later;
      await until(async () => {
        await read();
        return seen.some((e) => e.streamId === second);
      }, 'the reader to reach the second event');
      await read();

      const ours = seen.filter((e) => e.streamId === first || e.streamId === second);
      expect(ours.map((e) => e.streamId)).toEqual([first, second]);
      expect(ours.map((e) => e.globalPosition)).toEqual([a.events[0]!.globalPosition, b.events[0]!.globalPosition]);
    } finally {
      await slow.query('ROLLBACK').catch(() => {});
      slow.release();
      other.release();
    }
  });

  it('positions follow commit order: a second writer takes its position only after the first commits', async () => {
    const first = `test-${randomUUID()}`;
    const second = `test-${randomUUID()}`;
    const holder = await pool.connect();
    const other = await pool.connect();
    try {
      await holder.query('BEGIN');
      const a = await append(holder, first, 0, [{ type: 'A', data: {} }]);
      const otherPid = await backendPid(other);
      const later = append(other, second, 0, [{ type: 'B', data: {} }]);
      await until(
        async () => (await waitEventOf(otherPid))?.startsWith('Lock:') === true,
        'the second writer to wait for the position lock',
      );
      // It waits before its INSERT takes a position: nothing above the holder's is taken yet.
      const { rows } = await pool.query<{ last: number }>('SELECT last_value AS last FROM events_global_position_seq');
      expect(Number(rows[0]!.last)).toBe(a.events[0]!.globalPosition);
      await holder.query('COMMIT');
      const b = await later;
      expect(b.events[0]!.globalPosition).toBeGreaterThan(a.events[0]!.globalPosition);
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      holder.release();
      other.release();
    }
  });

  it('a rolled-back writer leaves a hole that no reader waits for', async () => {
    const gone = `test-${randomUUID()}`;
    const kept = `test-${randomUUID()}`;
    const before = (await pool.query<{ p: number | null }>('SELECT max(global_position) AS p FROM events')).rows[0]!.p ?? 0;
    const c = await pool.connect();
    try {
      await c.query('BEGIN');
      await append(c, gone, 0, [{ type: 'Gone', data: {} }]);
      await c.query('ROLLBACK');
    } finally {
      c.release();
    }
    await append(pool, kept, 0, [{ type: 'Kept', data: {} }]);
    const seen = (await readAll(pool, before, 1000)).map((e) => e.streamId);
    expect(seen).toContain(kept);
    expect(seen).not.toContain(gone);
  });
});
