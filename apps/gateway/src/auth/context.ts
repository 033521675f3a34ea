/**
 * What the auth modules share: the gateway's dependencies plus the signing keys, the revocation
 * list, token settings and the absolute URLs of the OAuth endpoints.
 */
import type { GatewayDeps } from '../deps';
import type { KeyStore } from './keys';
import { invalidRequest } from './oauth-errors';
import type { RevocationList } from './revoked-tokens';
import type { TokenSettings } from './tokens';

export const PATHS = {
  authorize: '/api/auth/oauth2/authorize',
  token: '/api/auth/oauth2/token',
  introspect: '/api/auth/oauth2/introspect',
  register: '/api/auth/register',
  revoke: '/api/auth/revoke',
  jwks: '/.well-known/jwks.json',
  identity: '/agent/identity',
  userinfo: '/api/auth/userinfo',
  sandbox: '/api/v1/sandbox',
} as const;

export interface AuthContext extends GatewayDeps {
  keys: KeyStore;
  revocations: RevocationList;
  tokenSettings: TokenSettings;
}

export const endpointUrl = (ctx: AuthContext, path: string) => `${ctx.config.baseUrl}${path}`;

/** Form bodies as @fastify/formbody parses them (repeated fields become arrays). */
export type Form = Record<string, string | string[] | undefined>;

/** One value of a form field; repeated parameters are invalid (RFC 6749 §3.1). */
export function field(body: Form, name: string): string | undefined {
  const value = body[name];
  if (Array.isArray(value)) throw invalidRequest(`${name} must not be repeated`);
  return value === '' ? undefined : value;
}
