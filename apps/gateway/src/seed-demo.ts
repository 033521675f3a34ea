/**
 * `make run` demo seed (development only): as the operator, mints an initial access token for the
 * `system` role (every scope) and registers one demo OAuth client with it through the real
 * registration endpoint, keeping its credentials in .data/demo-client.json, so a person can get a
 * token at once. Re-running reuses the client while it still obtains every scope. It also mints a
 * fresh initial access token (role system, 24 h, 10 registrations) for registering your own
 * PHI-capable clients, saves it in .data/initial-access-token (mode 0600, where /auth.md and
 * docs/api.md read it) and prints it; open registration gives the public scopes only.
 * The bedside simulator seeds the vitals (patients pat-0001...).
 */
import { readFile } from 'node:fs/promises';
import { SCOPE_NAMES, needsUser } from '@vitalis/schemas';
import { DEFAULT_DATABASE_URL } from '@vitalis/config';
import { createPool } from '@vitalis/db';
import { saveGroup } from '@vitalis/export';
import { mintInitialAccessToken } from './auth/initial-access';
import { DEMO_CLIENT_FILE, INITIAL_ACCESS_TOKEN_FILE, saveInitialAccessToken, saveSecretFile } from './demo-files';
import { seedRecords } from './seed-records';

const base = (process.env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8080}`).replace(/\/+$/, '');
const file = DEMO_CLIENT_FILE;

interface DemoClient {
  client_id: string;
  client_secret: string;
}

async function tokenFor(client: DemoClient): Promise<Response> {
  return fetch(`${base}/api/auth/oauth2/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret }),
  });
}

async function existing(): Promise<DemoClient | undefined> {
  try {
    const client = JSON.parse(await readFile(file, 'utf8')) as DemoClient;
    const res = await tokenFor(client);
    const granted = res.ok ? ((await res.json()) as { scope: string }).scope.split(' ') : [];
    // Every scope a machine token can hold (the sign-in scopes need a user).
    return SCOPE_NAMES.filter((s) => !needsUser(s)).every((s) => granted.includes(s)) ? client : undefined;
  } catch {
    return undefined;
  }
}

const pool = createPool({ url: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, max: 2, application: 'vitalis-seed' });
const mint = (maxUses: number) =>
  mintInitialAccessToken(pool, { role: 'system', createdBy: 'make-run', ttlSeconds: 86_400, maxUses, label: 'make run demo' });

let client = await existing();
if (!client) {
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${(await mint(1)).initial_access_token}` },
    body: JSON.stringify({
      client_name: 'vitalis-demo',
      grant_types: ['client_credentials'],
      response_types: ['token'],
      token_endpoint_auth_method: 'client_secret_post',
      scope: SCOPE_NAMES.join(' '),
    }),
  });
  if (res.status !== 201) throw new Error(`demo client registration failed: ${res.status} ${await res.text()}`);
  client = (await res.json()) as DemoClient;
  await saveSecretFile(file, JSON.stringify(client, null, 2));
}

const operator = await mint(10);
await saveInitialAccessToken(operator.initial_access_token);
process.stdout.write(`
Demo OAuth client (role system, every scope; credentials in ${file}):
  curl -s -X POST ${base}/api/auth/oauth2/token -d grant_type=client_credentials \\
       -d client_id=${client.client_id} -d client_secret=$(sed -n 's/.*"client_secret": "\\(.*\\)".*/\\1/p' ${file})
Initial access token (role system, 10 registrations, 24 h) to register PHI-capable clients of your own,
saved in ${INITIAL_ACCESS_TOKEN_FILE} (mode 0600; the walkthrough ${base}/auth.md reads it from there):
  ${operator.initial_access_token}
  curl -s -X POST ${base}/api/auth/register -H "authorization: Bearer $(cat ${INITIAL_ACCESS_TOKEN_FILE})" \\
       -H 'content-type: application/json' -d '{"client_name":"my-agent","grant_types":["client_credentials"],"scope":"read:vitals"}'
  (open registration without it gets the public scope read:appointments only)
`);

// Patients, slots and ED arrivals through the event store (idempotent).
{
  try {
    const seeded = await seedRecords(pool);
    process.stdout.write(
      `Seeded ${seeded.patients} new patients (pat-0001..pat-0020 ensured) and ensured ${seeded.slots} appointment slots.\n`,
    );
    // a demo ward for the bulk export (docs/export.md): GET /fhir/R4/Group/ward-3/$export
    await saveGroup(pool, { id: 'ward-3', name: 'Ward 3 (demo)', members: ['pat-0001', 'pat-0002', 'pat-0003', 'pat-0004', 'pat-0005'] });
    process.stdout.write('Bulk export demo ward: Group ward-3 (pat-0001..pat-0005), see docs/export.md.\n');
  } finally {
    await pool.end();
  }
}
