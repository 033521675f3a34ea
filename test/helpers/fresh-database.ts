/**
 * A database dropped and created anew (on the server `adminUrl` names, through its maintenance
 * database): for runs whose figures or findings must not depend on what earlier runs left behind,
 * and that must not touch the test suite's data (the benches, the contract check).
 * Returns the new database's URL with the admin URL's credentials; the caller migrates it.
 */
import pg from 'pg';

export async function recreateDatabase(adminUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
