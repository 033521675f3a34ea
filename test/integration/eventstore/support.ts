/** Shared by the event-store tests that force an interleaving of writers (commit-order, append-to-streams). */
import type { PoolClient } from '@vitalis/db';

/** Until `probe` holds (10 s at most): the test waits for a state, never for a duration. */
export async function until(probe: () => Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The PostgreSQL backend serving a client (to watch what it waits for in pg_stat_activity). */
export const backendPid = async (c: PoolClient) => (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
