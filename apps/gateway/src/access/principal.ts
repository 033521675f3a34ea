/**
 * Who is calling: the Principal a verified, unrevoked access token stands for (the auth plugin's
 * bearer check sets `request.principal`; the MCP server and the live transports carry it), and the
 * revocation chain rule. It lies below both the OAuth server (auth/) that issues and checks tokens
 * and the access policy (policy.ts) and domain services that decide what a principal may do.
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
