/**
 * A gateway whose audit trail refuses some rows, for "no audit row, no answer" tests, without
 * touching the shared table: its pool's search_path puts a private schema first, whose
 * `audit_events` (the real table's shape) refuses every row whose action is LIKE `actions` (or any of them). Token
 * issuance and every other table go through to the real ones; no other gateway or test sees the
 * schema, and `close` drops it. The schema is made with the owner's connection; the gateway
 * connects as the app role, like every test gateway. The shadow rows are outside the audit hash
 * chain (migration 0014).
 */
import { randomUUID } from 'node:crypto';
import { createPool } from '@vitalis/db';
import { startGateway, type RunningGateway } from './gateway';
import { APP_ROLE, testEnv } from './env';

export async function startGatewayRefusingAudit(
  actions: string | string[],
  overrides: Record<string, string> = {},
): Promise<RunningGateway & { schema: string }> {
  const schema = `audit_refused_${randomUUID().slice(0, 8)}`;
  const admin = createPool({ url: testEnv.DATABASE_URL, max: 1, application: 'vitalis-test-audit-refusal' });
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.query(`CREATE TABLE ${schema}.audit_events (LIKE public.audit_events INCLUDING ALL)`);
    // Not part of the real hash chain (its trigger, which also assigns ids, is not copied): ids of its own, chain columns empty.
    await admin.query(
      `ALTER TABLE ${schema}.audit_events ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY, ALTER COLUMN prev_hash DROP NOT NULL, ALTER COLUMN hash DROP NOT NULL`,
    );
    await admin.query(
      `CREATE FUNCTION ${schema}.refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit trail unavailable (test)'; END $$`,
    );
    await admin.query(
      `CREATE TRIGGER refuse BEFORE INSERT ON ${schema}.audit_events FOR EACH ROW WHEN (NEW.action LIKE ANY (ARRAY[${[actions].flat().map(literal).join(', ')}])) EXECUTE FUNCTION ${schema}.refuse()`,
    );
    // The gateway connects as the app role: it may use the schema (its table has the owner's default grants).
    await admin.query(`GRANT USAGE ON SCHEMA ${schema} TO ${APP_ROLE}`);
  } finally {
    await admin.end();
  }
  const url = new URL(testEnv.APP_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema},public`);
  const gw = await startGateway({ ...overrides, DATABASE_URL: url.toString() });
  return {
    ...gw,
    schema,
    close: async () => {
      await gw.close();
      const pool = createPool({ url: testEnv.DATABASE_URL, max: 1, application: 'vitalis-test-audit-refusal' });
      await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => pool.end());
    },
  };
}

const literal = (s: string) => `'${s.replaceAll("'", "''")}'`;
