/**
 * The contract between routes and the authorization layer. A route declares what it needs in
 * its options, `config: { auth: { scopes: ['read:vitals'] } }` (every scope) or
 * `config: { auth: { anyOf: ['read:patients', 'write:patients'] } }` (at least one), and never
 * checks a token itself. One onRequest hook (the auth plugin) enforces it for every route and sets
 * `request.principal`. Routes without `config.auth` are public (discovery, health, docs).
 * What depends on the resource (a patient user and someone else's record) is decided by the
 * domain services, which refuse through the same 403 builder (`insufficientScope`, oauth-errors.ts).
 */
import type { Role, Scope } from '@vitalis/schemas';

/** RFC 8693 `act` claim: who acts, and (nested) on whose behalf that actor acted. */
export interface Actor {
  sub: string;
  client_id?: string;
  act?: Actor;
}

/** How the caller's identity was established. */
export type AuthMethod = 'client_secret' | 'private_key_jwt' | 'token_exchange' | 'authorization_code' | 'refresh_token' | 'sandbox';

/** Who is calling, from a verified, unrevoked access token. */
export interface Principal {
  /** The OAuth client that holds the token. */
  clientId: string;
  /** The subject the token speaks for: a user id, or the client id for machine tokens. */
  subject: string;
  scopes: Scope[];
  roles: Role[];
  /** For patient users: the only patient record they may see. */
  patientId?: string;
  /** The token's jti (for revocation and audit). */
  tokenId: string;
  /** Expiry, seconds since the epoch. */
  expiresAt: number;
  authMethod: AuthMethod;
  /** RFC 8693 `act` claim: the client acting on the subject's behalf, if exchanged. */
  actor?: Actor;
  /** RFC 8693 `may_act` claim: the one client allowed to exchange this token and act for its subject. */
  mayAct?: Actor;
  /**
   * The tokens this one was exchanged from, nearest first (`vitalis_chain`). Revoking any of them
   * (or the grant it belongs to) kills this one too: the bearer check looks at the whole chain.
   */
  derivedFrom: string[];
  /** A sandbox principal (or one derived from it): it sees synthetic `sbx-` data only. */
  sandbox: boolean;
}

/** Every token id whose revocation kills this principal's token. */
export const revocationIds = (p: Pick<Principal, 'tokenId' | 'derivedFrom'>): string[] => [p.tokenId, ...p.derivedFrom];

export type RouteAuth =
  /** Every listed scope is required; `[]` means any valid token (authenticated, no scope). */
  | { scopes: Scope[]; anyOf?: undefined }
  /**
   * At least one listed scope is required: a route several roles reach through different scopes
   * (the service then decides what each may see of the resource).
   */
  | { anyOf: Scope[]; scopes?: undefined };

/** What a request needs of a token: every scope of `all` (none: any valid token), or one of `any`. */
export type ScopeRequirement = { all: readonly Scope[] } | { any: readonly Scope[] };

export const requirementOf = (auth: RouteAuth): ScopeRequirement => (auth.anyOf ? { any: auth.anyOf } : { all: auth.scopes });

/** Whether `granted` meets `need`. */
export function meets(granted: readonly Scope[], need: ScopeRequirement): boolean {
  return 'any' in need ? need.any.some((s) => granted.includes(s)) : need.all.every((s) => granted.includes(s));
}

/** The requirement's scopes, as named in a refusal (`scope="..."`) and in the OpenAPI. */
export const scopesOf = (need: ScopeRequirement): readonly Scope[] => ('any' in need ? need.any : need.all);

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    principal?: Principal;
  }
}
