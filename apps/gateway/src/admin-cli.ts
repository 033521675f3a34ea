/**
 * The operator's command line (no HTTP, straight to the database; run where the gateway runs):
 *
 *   npm run admin -- initial-access-token --role device [--uses 1] [--ttl 86400] [--label "ward 3"]
 *       mints an RFC 7591 §3 initial access token: a client that registers with it gets the role
 *       (--uses 0: any number of registrations until it expires)
 *
 * The admin API (`/api/auth/admin/...`, scope admin:clients) does the same over HTTP once an
 * admin can sign in; this command is how the first one is made. DATABASE_URL names the database.
 */
import { parseArgs } from 'node:util';
import { createPool } from '@vitalis/db';
import { ROLES, isRole } from '@vitalis/schemas';
import { mintInitialAccessToken } from './auth/initial-access';

const usage = `usage: npm run admin -- initial-access-token --role <${ROLES.join('|')}> [--uses N (0: unlimited)] [--ttl SECONDS] [--label TEXT]`;
const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { role: { type: 'string' }, uses: { type: 'string', default: '1' }, ttl: { type: 'string', default: '86400' }, label: { type: 'string', default: '' } },
});
if (positionals[0] !== 'initial-access-token' || !values.role || !isRole(values.role)) {
  process.stderr.write(`${usage}\n`);
  process.exit(2);
}
const uses = Number(values.uses);
const ttl = Number(values.ttl);
if (!Number.isInteger(uses) || uses < 0 || !Number.isInteger(ttl) || ttl < 60) {
  process.stderr.write(`${usage}\n`);
  process.exit(2);
}
const pool = createPool({ url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/vitalis', max: 1, application: 'vitalis-admin-cli' });
try {
  const minted = await mintInitialAccessToken(pool, { role: values.role, createdBy: `cli:${process.env.USER ?? 'operator'}`, ttlSeconds: ttl, maxUses: uses === 0 ? null : uses, label: values.label });
  process.stdout.write(`${JSON.stringify(minted, null, 2)}\n`);
} finally {
  await pool.end();
}
