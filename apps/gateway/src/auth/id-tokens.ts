/**
 * OpenID Connect ID tokens (Core 1.0 §2, §3.1.3.6) for the authorization-code flow: issued at the
 * token endpoint beside the access token when the grant holds `openid`, signed with the client's
 * `id_token_signed_response_alg` (RS256 by default, ES256 on request) by that algorithm's active key.
 *
 * Claims: iss, sub (the user id), aud (the client id, the only audience, so no azp), exp, iat,
 * auth_time (when the user typed their password), nonce (echoed from the authorization request;
 * never on a refresh, §12.2), at_hash (§3.1.3.6: the left half of the SHA-256 of the access
 * token, base64url, for both RS256 and ES256). Nothing about the user beyond `sub`: names and
 * roles are at the userinfo endpoint, behind `profile` (§5.4). With the SMART `fhirUser` scope,
 * `fhirUser`: the FHIR resource the user is (users.ts fhirUserOf).
 * An ID token can never pass as an access token: its audience is a client id (access tokens name
 * this server), it has no `typ: at+jwt`, and an RS256 one has the wrong algorithm as well.
 */
import { createHash } from 'node:crypto';
import { SignJWT } from 'jose';
import type { KeyStore, SigningAlg } from './keys';

export interface IdTokenClaims {
  issuer: string;
  clientId: string;
  subject: string;
  alg: SigningAlg;
  /** When the user signed in, seconds since the epoch. */
  authTime: number;
  /** The authorization request's nonce (authorization_code only). */
  nonce?: string;
  /** The access token issued with it (for at_hash). */
  accessToken: string;
  /** SMART: `Patient/...` or `Practitioner/...`, when the grant holds fhirUser. */
  fhirUser?: string;
}

/** §3.1.3.6: both supported algorithms hash with SHA-256; the left 128 bits, base64url. */
export function atHash(accessToken: string, _alg: SigningAlg): string {
  return createHash('sha256').update(accessToken, 'ascii').digest().subarray(0, 16).toString('base64url');
}

export async function issueIdToken(keys: KeyStore, claims: IdTokenClaims, ttlSeconds: number): Promise<string> {
  const { kid, privateKey } = keys.signingKey(claims.alg);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    auth_time: claims.authTime,
    ...(claims.nonce !== undefined ? { nonce: claims.nonce } : {}),
    at_hash: atHash(claims.accessToken, claims.alg),
    ...(claims.fhirUser !== undefined ? { fhirUser: claims.fhirUser } : {}),
  })
    .setProtectedHeader({ alg: claims.alg, kid, typ: 'JWT' })
    .setIssuer(claims.issuer)
    .setSubject(claims.subject)
    .setAudience(claims.clientId)
    .setIssuedAt(now)
    .setExpirationTime(now + ttlSeconds)
    .sign(privateKey);
}
