/**
 * Access tokens: JWTs per RFC 9068 (typ at+jwt), ES256 with a kid, audience = this resource
 * server. Verification accepts only our issuer, our audience, ES256, and a kid we hold:
 * `alg: none`, HMAC tricks and foreign keys fail before any claim is read.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, decodeProtectedHeader, errors as joseErrors, type JWTPayload } from 'jose';
import { effectiveScopes, isScope, type Role, type Scope } from '@vitalis/schemas';
import { ACCESS_TOKEN_ALG, type KeyStore } from './keys';
import type { Actor, AuthMethod, Principal } from '../access/principal';

export interface AccessTokenClaims {
  clientId: string;
  subject: string;
  scopes: Scope[];
  roles: Role[];
  authMethod: AuthMethod;
  patientId?: string;
  /** RFC 8693 §4.1: the acting party (and, nested, whoever it acted for). */
  act?: Actor;
  /** RFC 8693 §4.4: the one client that may exchange this token to act for its subject. */
  mayAct?: Actor;
  /** The tokens this one derives from, nearest first (token exchange). */
  derivedFrom?: string[];
  /** Issued to, or derived from, a sandbox principal. */
  sandbox?: boolean;
}

export interface IssuedToken {
  token: string;
  jti: string;
  expiresAt: number;
}

export interface TokenSettings {
  issuer: string;
  audience: string;
}

export async function issueAccessToken(
  keys: KeyStore,
  settings: TokenSettings,
  claims: AccessTokenClaims,
  ttlSeconds: number,
): Promise<IssuedToken> {
  const { kid, privateKey } = keys.signingKey(ACCESS_TOKEN_ALG);
  const now = Math.floor(Date.now() / 1000);
  const jti = randomUUID();
  const token = await new SignJWT({
    scope: claims.scopes.join(' '),
    client_id: claims.clientId,
    roles: claims.roles,
    auth_method: claims.authMethod,
    ...(claims.patientId ? { patient_id: claims.patientId } : {}),
    ...(claims.act ? { act: claims.act } : {}),
    ...(claims.mayAct ? { may_act: claims.mayAct } : {}),
    ...(claims.derivedFrom?.length ? { vitalis_chain: claims.derivedFrom } : {}),
    ...(claims.sandbox ? { sandbox: true } : {}),
  })
    .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid, typ: 'at+jwt' })
    .setIssuer(settings.issuer)
    .setAudience(settings.audience)
    .setSubject(claims.subject)
    .setJti(jti)
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + ttlSeconds)
    .sign(privateKey);
  return { token, jti, expiresAt: now + ttlSeconds };
}

/** Why a presented token was refused: said in WWW-Authenticate error_description, never more. */
export class InvalidToken extends Error {
  override name = 'InvalidToken';
}

/** Verifies signature and claims; `allowExpired` is for revocation, which must accept old tokens. */
export async function verifyAccessToken(
  keys: KeyStore,
  settings: TokenSettings,
  token: string,
  { allowExpired = false } = {},
): Promise<{ principal: Principal; payload: JWTPayload }> {
  let kid: string | undefined;
  try {
    const header = decodeProtectedHeader(token);
    if (header.alg !== ACCESS_TOKEN_ALG || typeof header.kid !== 'string')
      throw new InvalidToken('unsupported token algorithm or missing kid');
    kid = header.kid;
  } catch (err) {
    if (err instanceof InvalidToken) throw err;
    throw new InvalidToken('the token is not a JWT');
  }
  const key = await keys.verifyKey(kid, ACCESS_TOKEN_ALG);
  if (!key) throw new InvalidToken('the token was signed by an unknown key');
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, key, {
      algorithms: [ACCESS_TOKEN_ALG],
      issuer: settings.issuer,
      audience: settings.audience,
      typ: 'at+jwt',
      requiredClaims: ['exp', 'iat', 'jti', 'sub'],
      // Revocation must accept an expired token (killing it is harmless); nothing else may.
      clockTolerance: allowExpired ? 10 * 365 * 86_400 : 5,
    }));
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw new InvalidToken('the token has expired');
    if (err instanceof joseErrors.JWTClaimValidationFailed) throw new InvalidToken(`the token's ${err.claim} claim is not valid here`);
    throw new InvalidToken('the token signature is invalid');
  }
  return { principal: principalFrom(payload), payload };
}

/**
 * The principal's scopes are the token's own and the Vitalis scopes its SMART scopes stand for
 * (@vitalis/schemas smart.ts `effectiveScopes`): the token says `user/Observation.rs`, a route
 * needing read:vitals lets it through. Issuance bounded the SMART scopes by the role already.
 */
function principalFrom(payload: JWTPayload): Principal {
  const scopes = effectiveScopes(
    String(payload.scope ?? '')
      .split(' ')
      .filter(isScope),
    typeof payload.patient_id === 'string',
  );
  return {
    clientId: String(payload.client_id ?? payload.sub),
    subject: String(payload.sub),
    scopes,
    roles: Array.isArray(payload.roles) ? (payload.roles as Role[]) : [],
    ...(typeof payload.patient_id === 'string' ? { patientId: payload.patient_id } : {}),
    tokenId: String(payload.jti),
    expiresAt: Number(payload.exp),
    authMethod: (payload.auth_method as AuthMethod) ?? 'client_secret',
    ...(isActor(payload.act) ? { actor: payload.act } : {}),
    ...(isActor(payload.may_act) ? { mayAct: payload.may_act } : {}),
    derivedFrom: Array.isArray(payload.vitalis_chain) ? payload.vitalis_chain.filter((j): j is string => typeof j === 'string') : [],
    sandbox: payload.sandbox === true || payload.auth_method === 'sandbox',
  };
}

function isActor(value: unknown): value is Actor {
  return typeof value === 'object' && value !== null && typeof (value as Actor).sub === 'string';
}
