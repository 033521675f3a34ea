import pg from 'pg';

// bigint (int8) columns come back as strings by default; our positions and offsets fit in a JS number
// far beyond any realistic volume (2^53), so parse them as numbers once, here.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
/** A pool, or one client of it (inside a transaction): what a statement can run on. */
export type Queryable = pg.Pool | pg.PoolClient;

export interface PoolOptions {
  url: string;
  max?: number;
  application?: string;
}

export function createPool({ url, max = 20, application = 'vitalis' }: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    application_name: application,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection (server restart) must not crash the process;
  // the pool drops it and the next checkout reconnects.
  pool.on('error', () => {});
  return pool;
}

/** Runs `fn` inside BEGIN/COMMIT on one client; rolls back and rethrows on any error. */
export async function withTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/**
 * How many rows of `table` a listing's conditions select (FHIR `_summary=count`): `count(*)` under
 * the same WHERE (`where` joined by AND, placeholders bound to `args`). `table` is a name in code,
 * never input.
 */
export async function countRows(db: Queryable, table: string, where: readonly string[], args: readonly unknown[]): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*) AS n FROM ${table} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`,
    [...args],
  );
  return Number(rows[0]?.n ?? 0);
}
