/**
 * Real OAuth for tests: registers a client with the given scopes at the gateway and returns a
 * Bearer header from the client_credentials grant, exactly as a backend agent would. A client that
 * needs more than the public scopes registers the documented way: with an initial access token an
 * operator minted for a role (here the test suite is the operator, minting in the database as the
 * `npm run admin` CLI does).
 */
import { SCOPE_NAMES, needsUser, type Role, type Scope } from '@vitalis/schemas';
import { createPool } from '@vitalis/db';
import { mintInitialAccessToken } from '../../apps/gateway/src/auth/initial-access';
import { testEnv } from './env';

const operatorTokens = new Map<string, Promise<string>>();

/**
 * An initial access token for `role` (many uses, one day), minted once per test process and
 * database (`databaseUrl`: the gateway's database; the suite's by default).
 */
export function initialAccessToken(role: Role = 'system', databaseUrl = testEnv.DATABASE_URL): Promise<string> {
  let token = operatorTokens.get(`${role} ${databaseUrl}`);
  if (!token) {
    token = (async () => {
      const pool = createPool({ url: databaseUrl, max: 1, application: 'vitalis-test-operator' });
      try {
        return (
          await mintInitialAccessToken(pool, { role, createdBy: 'test-operator', ttlSeconds: 86_400, maxUses: null, label: 'test suite' })
        ).initial_access_token;
      } finally {
        await pool.end();
      }
    })();
    operatorTokens.set(`${role} ${databaseUrl}`, token);
  }
  return token;
}

export interface RegisteredClient {
  client_id: string;
  client_secret: string;
  scope: string;
}

/**
 * A client_credentials client holding `scopes`, registered with a `role` initial access token
 * (default: system, every scope) minted in `databaseUrl` (the gateway's database).
 */
export async function registerClient(
  baseUrl: string,
  scopes: Scope[],
  name = 'vitalis-test',
  role: Role = 'system',
  databaseUrl?: string,
): Promise<RegisteredClient> {
  const res = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await initialAccessToken(role, databaseUrl)}` },
    body: JSON.stringify({
      client_name: name,
      grant_types: ['client_credentials'],
      response_types: ['token'],
      token_endpoint_auth_method: 'client_secret_post',
      scope: scopes.join(' '),
    }),
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as RegisteredClient;
}

export async function clientCredentialsToken(baseUrl: string, client: RegisteredClient, scopes?: Scope[]): Promise<string> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret });
  if (scopes) form.set('scope', scopes.join(' '));
  const res = await fetch(`${baseUrl}/api/auth/oauth2/token`, { method: 'POST', body: form });
  if (res.status !== 200) throw new Error(`token failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** `{ authorization: 'Bearer …' }` for a fresh client holding exactly `scopes` (registered in `databaseUrl`, the gateway's database; the suite's by default). */
export async function authHeaders(baseUrl: string, scopes: Scope[], databaseUrl?: string): Promise<{ authorization: string }> {
  const client = await registerClient(baseUrl, scopes, 'vitalis-test', 'system', databaseUrl);
  return { authorization: `Bearer ${await clientCredentialsToken(baseUrl, client)}` };
}

/**
 * An operator approves a client (the admin API, as a system-role backend holding every scope it may give):
 * how a client that registered itself openly (an MCP host, say) gets the role it needs. `scope`:
 * exactly what it keeps (default: what it asked for, within the role).
 */
export async function approveClient(baseUrl: string, clientId: string, role: Role, scope?: string): Promise<void> {
  // Approving gives a role: the approver's token must hold that role's scopes (issue 30), so the
  // tests approve as a system-role backend holding every scope a client obtains on its own.
  const admin = await registerClient(
    baseUrl,
    SCOPE_NAMES.filter((s) => !needsUser(s)),
    'vitalis-test-operator',
    'system',
  );
  const res = await fetch(`${baseUrl}/api/auth/admin/clients/${encodeURIComponent(clientId)}/approve`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await clientCredentialsToken(baseUrl, admin)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ role, ...(scope === undefined ? {} : { scope }) }),
  });
  if (res.status !== 200) throw new Error(`approve failed: ${res.status} ${await res.text()}`);
}
