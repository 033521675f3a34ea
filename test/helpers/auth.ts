/**
 * Real OAuth for tests: registers a client with the given scopes at the gateway and returns a
 * Bearer header from the client_credentials grant, exactly as a backend agent would.
 */
import type { Scope } from '@vitalis/schemas';

export interface RegisteredClient {
  client_id: string;
  client_secret: string;
  scope: string;
}

export async function registerClient(baseUrl: string, scopes: Scope[], name = 'vitalis-test'): Promise<RegisteredClient> {
  const res = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
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

/** `{ authorization: 'Bearer …' }` for a fresh client holding exactly `scopes`. */
export async function authHeaders(baseUrl: string, scopes: Scope[]): Promise<{ authorization: string }> {
  const client = await registerClient(baseUrl, scopes);
  return { authorization: `Bearer ${await clientCredentialsToken(baseUrl, client)}` };
}
