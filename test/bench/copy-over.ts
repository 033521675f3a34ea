/**
 * The COPY of the benches' baselines (copy.bench.ts) and of the WAL study (wal.bench.ts): rows
 * COPYed in the ingest's transaction size over the ingest's number of connections, timed, with the
 * CPU of the writing PostgreSQL backends and of every PostgreSQL process read from /proc.
 */
import { performance } from 'node:perf_hooks';
import type { Pool, PoolClient } from '@vitalis/db';
import { copyRows, type StoredRow } from '../../apps/ingest/src/store';
import { keyed } from './rows';
import { cpuOf, cpuUsedBetween, serversCpu } from './proc-cpu';
import { figure } from './report';

const env = process.env;
export const WRITERS = Number(env.INGEST_WRITERS ?? 4);
export const TX_ROWS = Number(env.INGEST_GROUP_MAX_ROWS ?? 5_000);

export interface CopyRun {
  seconds: number;
  /** CPU seconds of the writing backends. */
  backendCpu: number;
  /** CPU seconds of every PostgreSQL process (WAL writer and checkpointer included). */
  allCpu: number;
}

/** COPYs `rows` into `table` in TX_ROWS-row transactions over WRITERS connections. */
export async function copyOver(
  pool: Pool,
  table: string,
  rows: StoredRow[],
  copy: (client: PoolClient, table: string, rows: StoredRow[]) => Promise<void> = copyRows,
): Promise<CopyRun> {
  await keyed(pool, rows);
  const clients: PoolClient[] = await Promise.all(Array.from({ length: WRITERS }, () => pool.connect()));
  try {
    const pids = await Promise.all(
      clients.map(async (c) => (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid),
    );
    const backends0 = pids.reduce((s, p) => s + cpuOf(p), 0);
    const all0 = serversCpu().postgres;
    let next = 0;
    const started = performance.now();
    await Promise.all(
      clients.map(async (client) => {
        for (let at = next; at < rows.length; at = next) {
          next += TX_ROWS;
          await client.query('BEGIN');
          await copy(client, table, rows.slice(at, at + TX_ROWS));
          await client.query('COMMIT');
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return {
      seconds,
      backendCpu: pids.reduce((s, p) => s + cpuOf(p), 0) - backends0,
      allCpu: cpuUsedBetween(all0, serversCpu().postgres),
    };
  } finally {
    clients.forEach((c) => c.release());
  }
}

/** A COPY's figures: rows/s, the writing backends' CPU per row (with its goal, if any), all PostgreSQL processes' CPU per row. */
export function copyFigures(phase: string, name: string, rows: number, r: CopyRun, load: number, goal?: number): void {
  figure({ phase, name, value: rows / r.seconds, unit: 'rows/s', load });
  figure({
    phase,
    name: `${name}: PostgreSQL backend CPU per row`,
    value: (r.backendCpu * 1e6) / rows,
    unit: 'µs',
    load,
    ...(goal === undefined ? {} : { goal: { op: '<=', target: goal } }),
  });
  figure({ phase, name: `${name}: all PostgreSQL processes CPU per row`, value: (r.allCpu * 1e6) / rows, unit: 'µs', load });
}
