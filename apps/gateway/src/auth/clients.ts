/**
 * OAuth clients (RFC 7591 dynamic registration) and client authentication at the token
 * endpoint (client_secret_post, client_secret_basic). Registration metadata is validated with
 * zod; scopes outside the catalogue are refused as invalid_client_metadata.
 */
import { z } from 'zod';
import { SCOPE_NAMES, isScope, type Scope } from '@vitalis/schemas';
import type { Pool } from '@vitalis/db';
import { OAuthError } from './oauth-errors';
import { hashSecret, randomToken, verifySecret } from './secrets';

export const SUPPORTED_GRANTS = ['client_credentials'] as const;
export const SUPPORTED_AUTH_METHODS = ['client_secret_post', 'client_secret_basic'] as const;

export const registrationRequestSchema = z.object({
  client_name: z.string().trim().min(1).max(200),
  grant_types: z.array(z.string()).min(1).default(['client_credentials']),
  response_types: z.array(z.string()).default([]),
  token_endpoint_auth_method: z.string().default('client_secret_basic'),
  scope: z.string().max(1000).optional(),
});

export const registrationResponseSchema = z.object({
  client_id: z.string(),
  client_secret: z.string(),
  client_id_issued_at: z.number().int(),
  client_secret_expires_at: z.number().int(),
  client_name: z.string(),
  grant_types: z.array(z.string()),
  response_types: z.array(z.string()),
  token_endpoint_auth_method: z.string(),
  scope: z.string(),
});

export interface Client {
  clientId: string;
  clientName: string;
  grantTypes: string[];
  authMethod: string;
  scopes: Scope[];
  kind: 'registered' | 'sandbox';
}

/** Splits and checks a space-separated scope string; unknown names are returned separately. */
export function parseScopes(scope: string | undefined): { scopes: Scope[]; unknown: string[] } {
  const names = [...new Set((scope ?? '').split(' ').filter(Boolean))];
  return { scopes: names.filter(isScope), unknown: names.filter((n) => !isScope(n)) };
}

export type RegistrationRequest = z.infer<typeof registrationRequestSchema>;

/** Validates registration metadata against what this server supports; throws invalid_client_metadata. */
export function checkRegistration(request: RegistrationRequest): Scope[] {
  const { scopes, unknown } = parseScopes(request.scope ?? SCOPE_NAMES.join(' '));
  if (unknown.length > 0) throw new OAuthError(400, 'invalid_client_metadata', `unknown scope(s): ${unknown.join(', ')}`);
  if (scopes.length === 0) throw new OAuthError(400, 'invalid_client_metadata', 'scope must name at least one scope');
  const grants = request.grant_types.filter((g) => !(SUPPORTED_GRANTS as readonly string[]).includes(g));
  if (grants.length > 0) throw new OAuthError(400, 'invalid_client_metadata', `unsupported grant_types: ${grants.join(', ')}`);
  if (!(SUPPORTED_AUTH_METHODS as readonly string[]).includes(request.token_endpoint_auth_method)) {
    throw new OAuthError(400, 'invalid_client_metadata', `unsupported token_endpoint_auth_method: ${request.token_endpoint_auth_method}`);
  }
  if (request.response_types.some((t) => t !== 'token')) {
    throw new OAuthError(400, 'invalid_client_metadata', 'response_types may only list "token" for client_credentials clients');
  }
  return scopes;
}

export async function registerClient(
  pool: Pool,
  request: RegistrationRequest,
  { kind = 'registered', expiresAt }: { kind?: 'registered' | 'sandbox'; expiresAt?: Date } = {},
): Promise<z.infer<typeof registrationResponseSchema>> {
  const scopes = checkRegistration(request);
  const clientId = `${kind === 'sandbox' ? 'sbx' : 'cli'}_${randomToken(12)}`;
  const clientSecret = randomToken(32);
  const { rows } = await pool.query<{ issued: number }>(
    `INSERT INTO oauth_clients (client_id, secret_hash, client_name, grant_types, response_types, token_endpoint_auth_method, scope, kind, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING extract(epoch FROM issued_at)::bigint AS issued`,
    [clientId, await hashSecret(clientSecret), request.client_name, request.grant_types, request.response_types, request.token_endpoint_auth_method, scopes.join(' '), kind, expiresAt ?? null],
  );
  return {
    client_id: clientId,
    client_secret: clientSecret,
    client_id_issued_at: rows[0]!.issued,
    client_secret_expires_at: expiresAt ? Math.floor(expiresAt.getTime() / 1000) : 0,
    client_name: request.client_name,
    grant_types: request.grant_types,
    response_types: request.response_types,
    token_endpoint_auth_method: request.token_endpoint_auth_method,
    scope: scopes.join(' '),
  };
}

export interface PresentedCredentials {
  clientId: string;
  clientSecret: string;
  method: 'client_secret_basic' | 'client_secret_post';
}

/** Reads client credentials from HTTP Basic (RFC 6749 §2.3.1, form-urlencoded parts) or the body; never both. */
export function presentedCredentials(authorization: string | undefined, body: Record<string, unknown>): PresentedCredentials {
  const basic = authorization?.match(/^Basic\s+([A-Za-z0-9+/=]+)$/i);
  const inBody = typeof body.client_id === 'string' || typeof body.client_secret === 'string';
  if (basic && inBody) throw new OAuthError(400, 'invalid_request', 'client credentials must be sent in one way only');
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw invalidClient();
    const decode = (s: string) => decodeURIComponent(s.replaceAll('+', ' '));
    try {
      return { clientId: decode(decoded.slice(0, colon)), clientSecret: decode(decoded.slice(colon + 1)), method: 'client_secret_basic' };
    } catch {
      throw invalidClient();
    }
  }
  if (typeof body.client_id === 'string' && typeof body.client_secret === 'string') {
    return { clientId: body.client_id, clientSecret: body.client_secret, method: 'client_secret_post' };
  }
  throw invalidClient();
}

// RFC 6749 §5.2: 401, with a Basic challenge so a client may retry with the Authorization header.
const invalidClient = () =>
  new OAuthError(401, 'invalid_client', 'client authentication failed', { 'www-authenticate': 'Basic realm="vitalis"' });

/**
 * Authenticates a client; the same error whatever was wrong (unknown id, wrong secret, expired).
 * Either secret method is accepted for any secret client: both carry the same secret over TLS,
 * and the spec's own walkthrough posts credentials in the form while RFC 7591's default is Basic.
 */
export async function authenticateClient(pool: Pool, creds: PresentedCredentials): Promise<Client> {
  const { rows } = await pool.query(
    `SELECT client_id, secret_hash, client_name, grant_types, token_endpoint_auth_method, scope, kind,
            expires_at IS NOT NULL AND expires_at <= now() AS expired
     FROM oauth_clients WHERE client_id = $1`,
    [creds.clientId],
  );
  const row = rows[0];
  // Hash even for an unknown client so timing does not reveal which client ids exist.
  const ok = await verifySecret(creds.clientSecret, row?.secret_hash ?? DUMMY_HASH);
  if (!row || !ok || row.expired) throw invalidClient();
  return {
    clientId: row.client_id,
    clientName: row.client_name,
    grantTypes: row.grant_types,
    authMethod: row.token_endpoint_auth_method,
    scopes: parseScopes(row.scope).scopes,
    kind: row.kind,
  };
}

const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
