/**
 * Versioned SQL migrations: `libs/db/migrations/NNNN_name.sql`, applied in order at app start,
 * each in its own transaction, recorded in `schema_migrations` with a checksum. A session-level
 * advisory lock makes concurrent starters (several apps, parallel tests) apply each file once.
 * An applied file whose content changed is an error: migrations are append-only.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/', import.meta.url));
const LOCK_KEY = 7_202_611; // arbitrary, constant: "vitalis migrations"

export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f)).sort();
  return Promise.all(
    files.map(async (file) => {
      const sql = await readFile(`${dir}${file}`, 'utf8');
      return {
        version: Number(file.slice(0, 4)),
        name: file.slice(5, -4),
        sql,
        checksum: createHash('sha256').update(sql).digest('hex'),
      };
    }),
  );
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/** Applies pending migrations; returns the versions applied by this call. */
export async function migrate(pool: pg.Pool, dir = MIGRATIONS_DIR): Promise<number[]> {
  const migrations = await readMigrations(dir);
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ version: number; checksum: string }>('SELECT version, checksum FROM schema_migrations');
    const applied = new Map(rows.map((r) => [r.version, r.checksum]));
    const done: number[] = [];
    for (const m of migrations) {
      const checksum = applied.get(m.version);
      if (checksum !== undefined) {
        if (checksum !== m.checksum) {
          throw new MigrationError(`migration ${m.version}_${m.name} was changed after it was applied; add a new migration instead`);
        }
        continue;
      }
      try {
        await client.query('BEGIN');
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [m.version, m.name, m.checksum]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw new MigrationError(`migration ${m.version}_${m.name} failed: ${(err as Error).message}`);
      }
      done.push(m.version);
    }
    return done;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => {});
    client.release();
  }
}

/** Which storage engine the vitals append log runs on (decided by migration 0002). */
export async function storageMode(pool: pg.Pool): Promise<'timescaledb' | 'partitioned'> {
  const { rows } = await pool.query<{ installed: boolean }>(
    "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'timescaledb') AS installed",
  );
  return rows[0]?.installed ? 'timescaledb' : 'partitioned';
}
