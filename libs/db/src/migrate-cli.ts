/**
 * `npm run migrate`: the migration step, run with the owner's credentials before the apps start
 * (`make run` and `make migrate` through infra/bin/apps; a deployment's one-shot job). The apps never
 * migrate: they connect as vitalis_app, which may not change the schema.
 *   MIGRATION_DATABASE_URL   the owner's connection (default postgres@127.0.0.1:55432/vitalis)
 * Prints one line: what it applied. A failure exits 1 with the migration's error.
 */
import { loadConfig, migrationShape } from '@vitalis/config';
import { createPool } from './pool';
import { migrate } from './migrate';

const config = loadConfig('migrate', migrationShape);
const pool = createPool({ url: config.MIGRATION_DATABASE_URL, max: 1, application: 'vitalis-migrate' });
try {
  const applied = await migrate(pool);
  const database = new URL(config.MIGRATION_DATABASE_URL).pathname.slice(1);
  process.stdout.write(`vitalis-migrate: ${database}: ${applied.length > 0 ? `applied ${applied.join(', ')}` : 'up to date'}\n`);
} catch (err) {
  process.stderr.write(`vitalis-migrate: ${(err as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await pool.end();
}
