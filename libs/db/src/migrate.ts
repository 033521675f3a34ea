/**
 * Versioned SQL migrations: `libs/db/migrations/NNNN_name.sql`, applied in order by the migration
 * step (`npm run migrate`, src/migrate-cli.ts) with the owner's credentials, never by the apps:
 * they connect as the least-privileged `vitalis_app` (migration 0013) and only check at start that
 * nothing is pending (assertAppDatabase). Each file runs in its own transaction, recorded in
 * `schema_migrations` with a checksum. A session-level advisory lock makes concurrent migrators
 * (parallel tests) apply each file once. An applied file whose content changed is an error:
 * migrations are append-only.
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

/** An app connecting with more than the app role's privileges (refused in production). */
export class AppRoleError extends Error {
  override name = 'AppRoleError';
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

/** The migrations not applied yet (an app's start check; it may only read schema_migrations). */
export async function pendingMigrations(pool: pg.Pool, dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const migrations = await readMigrations(dir);
  const { rows } = await pool.query<{ version: number }>('SELECT version FROM schema_migrations');
  const applied = new Set(rows.map((r) => r.version));
  return migrations.filter((m) => !applied.has(m.version));
}

/** What is wrong with an app connecting as this role: it must not own the schema or be a superuser. */
export async function appRoleRisks(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ role: string; superuser: boolean; owns_audit: boolean }>(
    `SELECT current_user AS role, r.rolsuper AS superuser,
            coalesce(pg_has_role(current_user, c.relowner, 'USAGE'), false) AS owns_audit
       FROM pg_roles r LEFT JOIN pg_class c ON c.oid = to_regclass('audit_events')
      WHERE r.rolname = current_user`,
  );
  const who = rows[0];
  if (!who) return [];
  const risks: string[] = [];
  if (who.superuser) risks.push(`${who.role} is a superuser`);
  else if (who.owns_audit) risks.push(`${who.role} owns audit_events`);
  return risks;
}

export interface AppDatabaseCheck {
  /** Production refuses an owner or superuser connection; elsewhere it is a warning. */
  production: boolean;
  warn: (message: string) => void;
}

/**
 * An app's start check: every migration is applied (the migration step ran first) and the app does
 * not connect as the owner or a superuser, which could TRUNCATE or DISABLE TRIGGER the audit trail.
 */
export async function assertAppDatabase(pool: pg.Pool, check: AppDatabaseCheck): Promise<void> {
  let pending: Migration[];
  try {
    pending = await pendingMigrations(pool);
  } catch (err) {
    // No table yet (never migrated), or no SELECT on it (migrated before 0013); anything else (the
    // server unreachable) is not about migrations and stays as it is.
    const code = (err as { code?: string }).code;
    if (code !== '42P01' && code !== '42501') throw err;
    throw new MigrationError(
      `cannot read schema_migrations (${(err as Error).message}): run the migrations first (npm run migrate, with MIGRATION_DATABASE_URL naming the owner)`,
    );
  }
  const [first] = pending;
  if (first) {
    throw new MigrationError(
      `${pending.length} migration(s) pending, first ${first.version}_${first.name}: run the migrations first (npm run migrate, with MIGRATION_DATABASE_URL naming the owner)`,
    );
  }
  const risks = await appRoleRisks(pool);
  if (risks.length === 0) return;
  const message = `DATABASE_URL connects with more than the app's privileges (${risks.join('; ')}): connect as vitalis_app`;
  if (check.production) throw new AppRoleError(message);
  check.warn(message);
}

/** assertAppDatabase for an app's entry point: one line naming the problem and exit 78 (EX_CONFIG), no stack trace. */
export async function requireAppDatabase(pool: pg.Pool, app: string, check: AppDatabaseCheck): Promise<void> {
  try {
    await assertAppDatabase(pool, check);
  } catch (err) {
    if (!(err instanceof MigrationError) && !(err instanceof AppRoleError)) throw err;
    process.stderr.write(`vitalis-${app}: ${err.message}\n`);
    process.exit(78);
  }
}

/** Which storage engine the vitals append log runs on (decided by migration 0002). */
export async function storageMode(pool: pg.Pool): Promise<'timescaledb' | 'partitioned'> {
  const { rows } = await pool.query<{ installed: boolean }>(
    "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'timescaledb') AS installed",
  );
  return rows[0]?.installed ? 'timescaledb' : 'partitioned';
}
