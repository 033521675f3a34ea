/**
 * One instance at a time across projector processes, without waiting: a job takes a connection,
 * tries a session advisory lock named by `name`, and runs only if it got it (a second instance
 * skips its run rather than queueing behind the first). The work runs on that same connection (the
 * lock's session), with the database's clock read in the same statement; the lock is released and
 * the connection returned whatever happens.
 */
import { must } from '@vitalis/runtime';
import type { Pool, PoolClient } from '@vitalis/db';

/** `work`'s result, or undefined when another instance holds the lock. */
export async function withTriedLock<T>(
  pool: Pool,
  name: string,
  work: (session: PoolClient, now: Date) => Promise<T>,
): Promise<T | undefined> {
  const session = await pool.connect();
  try {
    const { rows } = await session.query<{ ok: boolean; now: Date }>('SELECT pg_try_advisory_lock(hashtext($1)) AS ok, now() AS now', [
      name,
    ]);
    const lock = must(rows[0], 'the row of pg_try_advisory_lock');
    if (!lock.ok) return undefined;
    try {
      return await work(session, lock.now);
    } finally {
      await session.query('SELECT pg_advisory_unlock(hashtext($1))', [name]).catch(() => {});
    }
  } finally {
    session.release();
  }
}
