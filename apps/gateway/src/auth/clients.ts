/**
 * OAuth clients: RFC 7591 dynamic registration and lookup. Registration metadata is validated
 * with zod, then against what this server supports (grant types, authentication methods, redirect
 * URIs, keys); anything wrong is refused as invalid_client_metadata / invalid_redirect_uri.
 * Client secrets exist only for the client_secret_* methods and are stored as scrypt hashes.
 */
import { importJWK, type JWK } from 'jose';
import { z } from 'zod';
import {
  PUBLIC_SCOPES,
  ROLES,
  SANDBOX_SCOPES,
  clientScopeCeiling,
  isRole,
  needsUser,
  readScopeRequest,
  type Role,
  type Scope,
  type ScopeRequest,
  nonBlankText,
} from '@vitalis/schemas';
import { must } from '@vitalis/runtime';
import type { Pool } from '@vitalis/db';
import { OAuthError } from './oauth-errors';
import { keySetUriProblem } from '../remote-key-sets';
import { hashSecret, randomToken } from './secrets';
import { SIGNING_ALGS, type SigningAlg } from './keys';

export const GRANT_TYPES = {
  authorizationCode: 'authorization_code',
  refreshToken: 'refresh_token',
  clientCredentials: 'client_credentials',
  tokenExchange: 'urn:ietf:params:oauth:grant-type:token-exchange',
} as const;
export const SUPPORTED_GRANTS = Object.values(GRANT_TYPES);
export const SUPPORTED_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'] as const;
export type ClientAuthMethod = (typeof SUPPORTED_AUTH_METHODS)[number];
/**
 * Client assertion algorithms accepted for private_key_jwt (asymmetric only: no HS*, never none).
 * RS384 and ES384: SMART Backend Services says a server SHALL accept both.
 */
export const CLIENT_ASSERTION_ALGS = ['ES256', 'ES384', 'EdDSA', 'PS256', 'RS256', 'RS384'];

const jwksSchema = z.object({ keys: z.array(z.record(z.string(), z.unknown())).min(1).max(10) });

export const registrationRequestSchema = z.object({
  client_name: nonBlankText(200),
  grant_types: z.array(z.string()).min(1).optional(),
  response_types: z.array(z.string()).optional(),
  token_endpoint_auth_method: z.string().default('client_secret_basic'),
  scope: z.string().max(1000).optional(),
  redirect_uris: z.array(z.string().max(2000)).max(20).default([]),
  jwks: jwksSchema.optional(),
  jwks_uri: z.string().max(2000).optional(),
  software_statement: z
    .string()
    .max(16_384)
    .optional()
    .describe('RFC 7591 §2.3: a JWT from a trusted issuer binding this software to a role'),
  id_token_signed_response_alg: z
    .string()
    .optional()
    .describe('OpenID Connect Dynamic Client Registration 1.0 §2: RS256 (default) or ES256'),
});

export const registrationResponseSchema = z.object({
  client_id: z.string(),
  client_secret: z.string().optional(),
  client_id_issued_at: z.number().int(),
  client_secret_expires_at: z.number().int().optional(),
  client_name: z.string(),
  grant_types: z.array(z.string()),
  response_types: z.array(z.string()),
  token_endpoint_auth_method: z.string(),
  scope: z.string(),
  redirect_uris: z.array(z.string()),
  jwks: jwksSchema.optional(),
  jwks_uri: z.string().optional(),
  role: z
    .enum(ROLES)
    .optional()
    .describe('The operator-approved role bounding what this client may obtain (absent: the public scopes only)'),
  requested_scope: z
    .string()
    .optional()
    .describe('Present when the client asked for more than it was granted: everything it asked for, awaiting an operator'),
  approval: z.enum(['pending']).optional().describe('"pending" while an operator has not yet approved the scopes beyond what was granted'),
  id_token_signed_response_alg: z.enum(SIGNING_ALGS).optional().describe('How its ID tokens are signed (authorization_code clients)'),
});

export type RegistrationRequest = z.input<typeof registrationRequestSchema>;
export type RegistrationResponse = z.infer<typeof registrationResponseSchema>;

export interface Client {
  clientId: string;
  clientName: string;
  grantTypes: string[];
  authMethod: ClientAuthMethod;
  scopes: Scope[];
  redirectUris: string[];
  kind: 'registered' | 'sandbox';
  /** The operator-approved role bounding what the client obtains on its own; null: public scopes only. */
  role: Role | null;
  /** How it was registered: open (anonymous), or with an operator's role. */
  registration: Registration;
  secretHash: string | null;
  jwks: { keys: JWK[] } | null;
  jwksUri: string | null;
  expired: boolean;
  /** The algorithm its ID tokens are signed with. */
  idTokenAlg: SigningAlg;
}

/**
 * Splits and checks a space-separated scope string; unknown names are returned separately, and
 * SMART wildcards (`user/*.rs`) as the optional scopes they cover (@vitalis/schemas smart.ts).
 */
export function parseScopes(scope: string | undefined): ScopeRequest {
  return readScopeRequest(scope);
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);
const metadataError = (description: string) => new OAuthError(400, 'invalid_client_metadata', description);

/** https anywhere; http only on a loopback host (RFC 8252 §7.3); never a fragment (RFC 6749 §3.1.2). */
export function checkRedirectUri(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri} is not an absolute URL`;
  }
  if (url.hash || uri.includes('#')) return `${uri} must not contain a fragment`;
  if (url.username || url.password) return `${uri} must not contain credentials`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return undefined;
  return `${uri} must use https (http only for a loopback host)`;
}

/** Public keys only, importable, asymmetric. */
async function checkJwks(jwks: { keys: Record<string, unknown>[] }): Promise<void> {
  for (const key of jwks.keys) {
    if (typeof key.kty !== 'string' || key.kty === 'oct')
      throw metadataError('jwks: every key must be an asymmetric public key (kty EC, RSA or OKP)');
    if ('d' in key || 'p' in key || 'q' in key || 'k' in key)
      throw metadataError('jwks: must hold public keys only (a private key part was sent)');
    const alg = typeof key.alg === 'string' ? key.alg : key.kty === 'EC' ? 'ES256' : key.kty === 'OKP' ? 'EdDSA' : 'RS256';
    if (!CLIENT_ASSERTION_ALGS.includes(alg)) throw metadataError(`jwks: unsupported key alg ${alg}`);
    try {
      await importJWK(key as JWK, alg);
    } catch {
      throw metadataError('jwks: a key could not be read as a JWK');
    }
  }
}

export type Registration = 'open' | 'initial_access_token' | 'software_statement' | 'sandbox';

/** Who vouches for a registration: nobody (open), or an operator's role (initial access token, software statement). */
export interface RegistrationAuthority {
  registration: Registration;
  role: Role | null;
}

/** The most a client may ever hold: the sandbox scopes, or its role's ceiling (public scopes without one). */
export const scopeCeiling = (c: RegistrationAuthority): Scope[] =>
  c.registration === 'sandbox' ? SANDBOX_SCOPES : clientScopeCeiling(c.role);

/**
 * What a registration gets: the requested scopes (the public set when omitted, never all) within
 * the ceiling of its role (sandbox: the sandbox scopes), and what it asked for beyond that, which
 * waits for an operator's approval. The sign-in scopes (openid, profile) only mean something to a
 * client that signs users in (authorization_code): any other client does not get them, and they
 * wait for nobody (no approval would make them usable).
 */
export function grantRegistrationScopes(
  requested: Scope[] | undefined,
  authority: RegistrationAuthority,
  grantTypes: readonly string[],
  optional: Scope[] = [],
): { granted: Scope[]; beyond: Scope[] } {
  const ceiling = scopeCeiling(authority);
  const asked = (requested ?? PUBLIC_SCOPES).filter(usableWith(grantTypes));
  // A SMART wildcard's scopes beyond the ceiling are simply not granted (they wait for nobody).
  const covered = optional.filter(usableWith(grantTypes)).filter((s) => ceiling.includes(s) && !asked.includes(s));
  return { granted: [...asked.filter((s) => ceiling.includes(s)), ...covered], beyond: asked.filter((s) => !ceiling.includes(s)) };
}

/** The scopes that need a user (sign-in, SMART patient/ and user/ ...) are usable only by a client that signs users in (authorization_code). */
export const usableWith =
  (grantTypes: readonly string[]) =>
  (scope: Scope): boolean =>
    grantTypes.includes(GRANT_TYPES.authorizationCode) || !needsUser(scope);

export interface CheckedRegistration {
  /** What was asked for; undefined when `scope` was omitted. */
  scopes: Scope[] | undefined;
  /** What SMART wildcards in the request cover (granted within the ceiling, never pending). */
  optional: Scope[];
  grantTypes: string[];
  responseTypes: string[];
  authMethod: ClientAuthMethod;
  redirectUris: string[];
  idTokenAlg: SigningAlg;
}

export interface RegistrationOptions {
  /** Hosts whose literal address a jwks_uri may name although it is not public (test only: JWKS_FETCH_ALLOW_HOSTS). */
  jwksAllowHosts?: ReadonlySet<string>;
}

/** Validates registration metadata against what this server supports; throws invalid_client_metadata. */
export async function checkRegistration(
  request: z.infer<typeof registrationRequestSchema>,
  options: RegistrationOptions = {},
): Promise<CheckedRegistration> {
  const { scopes, optional, unknown } = parseScopes(request.scope);
  if (unknown.length > 0) throw metadataError(`unknown scope(s): ${unknown.join(', ')}`);
  if (request.scope !== undefined && scopes.length + optional.length === 0) throw metadataError('scope must name at least one scope');

  // RFC 7591 defaults grant_types to authorization_code; a client without redirect URIs cannot
  // use that, so such a client (the spec's machine flow) defaults to client_credentials.
  const grantTypes = [
    ...new Set(request.grant_types ?? [request.redirect_uris.length > 0 ? GRANT_TYPES.authorizationCode : GRANT_TYPES.clientCredentials]),
  ];
  const unsupported = grantTypes.filter((g) => !(SUPPORTED_GRANTS as readonly string[]).includes(g));
  if (unsupported.length > 0) throw metadataError(`unsupported grant_types: ${unsupported.join(', ')}`);
  const usesCode = grantTypes.includes(GRANT_TYPES.authorizationCode);
  if (grantTypes.includes(GRANT_TYPES.refreshToken) && !usesCode)
    throw metadataError('refresh_token is only issued with authorization_code');

  const authMethod = request.token_endpoint_auth_method as ClientAuthMethod;
  if (!(SUPPORTED_AUTH_METHODS as readonly string[]).includes(authMethod)) {
    throw metadataError(`unsupported token_endpoint_auth_method: ${request.token_endpoint_auth_method}`);
  }
  if (authMethod === 'none' && grantTypes.some((g) => g !== GRANT_TYPES.authorizationCode && g !== GRANT_TYPES.refreshToken)) {
    throw metadataError('public clients (token_endpoint_auth_method "none") may only use authorization_code and refresh_token');
  }
  if (authMethod === 'private_key_jwt') {
    if (Boolean(request.jwks) === Boolean(request.jwks_uri)) throw metadataError('private_key_jwt needs exactly one of jwks or jwks_uri');
    if (request.jwks) await checkJwks(request.jwks);
    if (request.jwks_uri) {
      // https, and a literal IP must be public; a DNS name is checked when the keys are fetched.
      const problem = keySetUriProblem(request.jwks_uri, options.jwksAllowHosts);
      if (problem) throw metadataError(`jwks_uri ${problem}`);
    }
  } else if (request.jwks || request.jwks_uri) {
    throw metadataError('jwks and jwks_uri are only used with token_endpoint_auth_method private_key_jwt');
  }

  const responseTypes = request.response_types ?? (usesCode ? ['code'] : []);
  if (usesCode) {
    if (responseTypes.length !== 1 || responseTypes[0] !== 'code')
      throw metadataError('authorization_code clients use response_types ["code"]');
    if (request.redirect_uris.length === 0)
      throw new OAuthError(400, 'invalid_redirect_uri', 'authorization_code clients must register at least one redirect URI');
  } else {
    if (responseTypes.some((t) => t !== 'token')) {
      // The spec's own example registers a client_credentials client with ["token"]; accepted, unused.
      throw metadataError('response_types may only list "code" (authorization_code clients) or "token" (client_credentials clients)');
    }
    // No authorization endpoint use, so nowhere to redirect to: such a client never causes a redirect.
    if (request.redirect_uris.length > 0)
      throw new OAuthError(400, 'invalid_redirect_uri', 'only authorization_code clients register redirect URIs');
  }
  for (const uri of request.redirect_uris) {
    const problem = checkRedirectUri(uri);
    if (problem) throw new OAuthError(400, 'invalid_redirect_uri', problem);
  }
  const idTokenAlg = request.id_token_signed_response_alg ?? 'RS256';
  if (!(SIGNING_ALGS as readonly string[]).includes(idTokenAlg))
    throw metadataError(`id_token_signed_response_alg must be one of ${SIGNING_ALGS.join(', ')}`);
  return {
    scopes: request.scope === undefined ? undefined : scopes,
    optional,
    grantTypes,
    responseTypes,
    authMethod,
    redirectUris: [...new Set(request.redirect_uris)],
    idTokenAlg: idTokenAlg as SigningAlg,
  };
}

/** Registers a client under a new random id (RFC 7591): checked, scoped by its authority, stored. */
export async function registerClient(
  pool: Pool,
  request: z.infer<typeof registrationRequestSchema>,
  authority: RegistrationAuthority,
  options: { expiresAt?: Date } & RegistrationOptions = {},
): Promise<RegistrationResponse> {
  return (await storeClient(pool, request, authority, options)).response;
}

/**
 * Checks and stores a client. With `clientId` (a Client ID Metadata Document's URL) the row is
 * created on first use and its metadata refreshed afterwards; its scope, role and approval stay as
 * they were granted or an operator set them. `inserted`: this call created the row.
 */
export async function storeClient(
  pool: Pool,
  request: z.infer<typeof registrationRequestSchema>,
  authority: RegistrationAuthority,
  { expiresAt, clientId: fixedId, ...options }: { expiresAt?: Date; clientId?: string } & RegistrationOptions = {},
): Promise<{ response: RegistrationResponse; inserted: boolean }> {
  const checked = await checkRegistration(request, options);
  const kind = authority.registration === 'sandbox' ? 'sandbox' : 'registered';
  const signsUsersIn = checked.grantTypes.includes(GRANT_TYPES.authorizationCode);
  const { granted, beyond } = grantRegistrationScopes(checked.scopes, authority, checked.grantTypes, checked.optional);
  const requestedScope = beyond.length > 0 ? (checked.scopes ?? []).join(' ') : '';
  const clientId = fixedId ?? `${kind === 'sandbox' ? 'sbx' : 'cli'}_${randomToken(12)}`;
  const hasSecret = checked.authMethod === 'client_secret_basic' || checked.authMethod === 'client_secret_post';
  const clientSecret = hasSecret ? randomToken(32) : undefined;
  // A random id never meets an existing row; a document's URL does, and then only its metadata changes.
  const refresh = fixedId
    ? `ON CONFLICT (client_id) DO UPDATE SET client_name = $3, grant_types = $4, response_types = $5, token_endpoint_auth_method = $6,
         redirect_uris = $8, jwks = $9, jwks_uri = $10, id_token_signed_response_alg = $17`
    : '';
  const { rows } = await pool.query<{ issued: number; inserted: boolean; scope: string; requested_scope: string }>(
    `INSERT INTO oauth_clients (client_id, secret_hash, client_name, grant_types, response_types, token_endpoint_auth_method, scope,
                                redirect_uris, jwks, jwks_uri, kind, expires_at, role, registration, requested_scope, approval,
                                id_token_signed_response_alg)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) ${refresh}
     RETURNING extract(epoch FROM issued_at)::bigint AS issued, (xmax = 0) AS inserted, scope, requested_scope`,
    [
      clientId,
      clientSecret ? await hashSecret(clientSecret) : null,
      request.client_name,
      checked.grantTypes,
      checked.responseTypes,
      checked.authMethod,
      granted.join(' '),
      checked.redirectUris,
      request.jwks ?? null,
      request.jwks_uri ?? null,
      kind,
      expiresAt ?? null,
      authority.role,
      authority.registration,
      requestedScope,
      requestedScope ? 'pending' : 'none',
      checked.idTokenAlg,
    ],
  );
  const row = must(rows[0], 'the client row the INSERT ... RETURNING returned');
  const response: RegistrationResponse = {
    client_id: clientId,
    ...(clientSecret
      ? { client_secret: clientSecret, client_secret_expires_at: expiresAt ? Math.floor(expiresAt.getTime() / 1000) : 0 }
      : {}),
    client_id_issued_at: Number(row.issued),
    client_name: request.client_name,
    grant_types: checked.grantTypes,
    response_types: checked.responseTypes,
    token_endpoint_auth_method: checked.authMethod,
    scope: row.scope,
    redirect_uris: checked.redirectUris,
    ...(request.jwks ? { jwks: request.jwks } : {}),
    ...(request.jwks_uri ? { jwks_uri: request.jwks_uri } : {}),
    ...(authority.role ? { role: authority.role } : {}),
    ...(row.requested_scope ? { requested_scope: row.requested_scope, approval: 'pending' as const } : {}),
    ...(signsUsersIn ? { id_token_signed_response_alg: checked.idTokenAlg } : {}),
  };
  return { response, inserted: row.inserted };
}

export async function findClient(pool: Pool, clientId: string): Promise<Client | undefined> {
  const { rows } = await pool.query(
    `SELECT client_id, secret_hash, client_name, grant_types, token_endpoint_auth_method, scope, redirect_uris, jwks, jwks_uri, kind,
            role, registration, id_token_signed_response_alg, expires_at IS NOT NULL AND expires_at <= now() AS expired
     FROM oauth_clients WHERE client_id = $1`,
    [clientId],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    clientId: row.client_id,
    clientName: row.client_name,
    grantTypes: row.grant_types,
    authMethod: row.token_endpoint_auth_method,
    scopes: parseScopes(row.scope).scopes,
    redirectUris: row.redirect_uris,
    kind: row.kind,
    role: typeof row.role === 'string' && isRole(row.role) ? row.role : null,
    registration: row.registration,
    secretHash: row.secret_hash,
    jwks: row.jwks,
    jwksUri: row.jwks_uri,
    expired: row.expired,
    idTokenAlg: row.id_token_signed_response_alg,
  };
}
