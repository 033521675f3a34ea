/**
 * A database of a test's own on the shared PostgreSQL server, migrated: for tests that must change
 * the schema under the code (a CHECK constraint that refuses some rows, a trigger that slows or
 * fails every write) without touching the suite's database (`vitalis_test`) or anyone else's rows.
 * Dropped (FORCE) by `drop()`.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createPool, migrate, MIGRATIONS_DIR, type Pool } from '@vitalis/db';
import { recreateDatabase } from './fresh-database';
import { testEnv } from './env';

export interface PrivateDatabase {
  url: string;
  /** The owner's pool (DATABASE_URL's user): migrations, arrangements, and the ingest under test. */
  pool: Pool;
  drop: () => Promise<void>;
}

/** The migrations up to `last` (a folder of links to them): the schema as a release before `last + 1` left it. */
export async function migrationsUpTo(last: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'vitalis-migrations-'));
  for (const name of await readdir(MIGRATIONS_DIR)) {
    if (/^\d{4}_.*\.sql$/.test(name) && Number(name.slice(0, 4)) <= last) await symlink(join(MIGRATIONS_DIR, name), join(dir, name));
  }
  return `${dir}/`; // migrate() joins the folder and a file name as MIGRATIONS_DIR has it: with the slash
}

/** `migrations`: the folder migrated from (`migrationsUpTo`: an older release's schema); every migration by default. */
export async function privateDatabase(tag: string, poolMax = 12, migrations = MIGRATIONS_DIR): Promise<PrivateDatabase> {
  const server = Object.assign(new URL(testEnv.DATABASE_URL), { pathname: '/postgres' }).toString();
  const name = `vitalis_test_${tag}_${randomUUID().slice(0, 8)}`;
  const url = await recreateDatabase(server, name);
  const pool = createPool({ url, max: poolMax, application: `vitalis-test-${tag}` });
  await migrate(pool, migrations);
  return {
    url,
    pool,
    drop: async () => {
      await pool.end();
      const admin = new pg.Client({ connectionString: server });
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}
