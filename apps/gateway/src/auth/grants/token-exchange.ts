/**
 * Token exchange (RFC 8693). The client presents a subject token: one of our own access tokens
 * (token type access_token or jwt), or a JWT from an issuer listed in TRUSTED_ISSUERS, verified
 * against that issuer's keys. The new token speaks for the subject, is held by the client, names
 * the client in `act` (nesting any earlier `act`), carries at most the intersection of the
 * client's registered scopes and the subject token's scopes, and never outlives the subject token.
 */
import { createLocalJWKSet, decodeJwt, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { isScope, ROLES, type Role, type Scope } from '@vitalis/schemas';
import type { TrustedIssuer } from '../../config';
import { PATHS, field, endpointUrl, type AuthContext } from '../context';
import { checkUnverifiedJwt, verifySignature } from '../jwt-checks';
import { OAuthError, invalidGrant, invalidRequest } from '../oauth-errors';
import { InvalidToken, issueAccessToken, verifyAccessToken } from '../tokens';
import type { Actor } from '../route-auth';
import { grantScopes, intersect } from './scopes';
import type { GrantRequest, GrantResult } from './types';

export const TOKEN_TYPES = {
  jwt: 'urn:ietf:params:oauth:token-type:jwt',
  accessToken: 'urn:ietf:params:oauth:token-type:access_token',
} as const;
const EXTERNAL_ALGS = ['ES256', 'ES384', 'EdDSA', 'PS256', 'RS256'];

interface Subject {
  sub: string;
  scopes: Scope[];
  roles: Role[];
  patientId?: string;
  act?: Actor;
  exp: number;
  issuer: string;
  jti?: string;
}

const localKeySets = new WeakMap<TrustedIssuer, JWTVerifyGetKey>();
/** A configured key set, or the issuer's jwks_uri through the gateway's one outbound key-set fetcher. */
function keySetFor(ctx: AuthContext, issuer: TrustedIssuer): JWTVerifyGetKey {
  if (!issuer.jwks) return ctx.keySets.forUri(issuer.jwks_uri!);
  let set = localKeySets.get(issuer);
  if (!set) {
    set = createLocalJWKSet(issuer.jwks);
    localKeySets.set(issuer, set);
  }
  return set;
}

function scopesOf(payload: JWTPayload): Scope[] {
  const raw = typeof payload.scope === 'string' ? payload.scope.split(' ') : Array.isArray(payload.scp) ? payload.scp.map(String) : [];
  return [...new Set(raw.filter(isScope))];
}

async function ourSubject(ctx: AuthContext, token: string): Promise<Subject> {
  let verified;
  try {
    verified = await verifyAccessToken(ctx.keys, ctx.tokenSettings, token);
  } catch (err) {
    if (err instanceof InvalidToken) throw invalidGrant(`subject_token is not valid: ${err.message}`);
    throw err;
  }
  const p = verified.principal;
  if (await ctx.revocations.isRevoked(p.tokenId)) throw invalidGrant('subject_token has been revoked');
  return {
    sub: p.subject,
    scopes: p.scopes,
    roles: p.roles,
    ...(p.patientId ? { patientId: p.patientId } : {}),
    ...(p.actor ? { act: p.actor } : {}),
    exp: p.expiresAt,
    issuer: ctx.config.baseUrl,
    jti: p.tokenId,
  };
}

async function externalSubject(ctx: AuthContext, token: string, issuer: TrustedIssuer): Promise<Subject> {
  let payload: JWTPayload;
  try {
    // Claims first: a token with a wrong aud or exp never makes us fetch the issuer's keys.
    ({ payload } = checkUnverifiedJwt(token, {
      algorithms: EXTERNAL_ALGS,
      issuer: issuer.issuer,
      audiences: issuer.audience ? [issuer.audience] : [ctx.config.baseUrl, endpointUrl(ctx, PATHS.token)],
      clockToleranceSeconds: 5,
    }));
    await verifySignature(token, keySetFor(ctx, issuer), EXTERNAL_ALGS);
  } catch {
    throw invalidGrant('subject_token could not be verified against its issuer (signature, aud or exp)');
  }
  // Roles are our vocabulary; a foreign issuer's roles are not carried over. Its scopes are.
  return { sub: String(payload.sub), scopes: scopesOf(payload), roles: [], exp: payload.exp!, issuer: issuer.issuer, ...(payload.jti ? { jti: payload.jti } : {}) };
}

export async function tokenExchangeGrant({ ctx, client, body }: GrantRequest): Promise<GrantResult> {
  const subjectToken = field(body, 'subject_token');
  const subjectTokenType = field(body, 'subject_token_type');
  if (!subjectToken) throw invalidRequest('subject_token is required');
  if (!subjectTokenType) throw invalidRequest('subject_token_type is required');
  if (subjectTokenType !== TOKEN_TYPES.jwt && subjectTokenType !== TOKEN_TYPES.accessToken) {
    throw invalidRequest(`subject_token_type must be ${TOKEN_TYPES.jwt} or ${TOKEN_TYPES.accessToken}`);
  }
  const requestedType = field(body, 'requested_token_type');
  if (requestedType && requestedType !== TOKEN_TYPES.accessToken) throw invalidRequest(`requested_token_type may only be ${TOKEN_TYPES.accessToken}`);
  if (field(body, 'actor_token')) throw invalidRequest('actor_token is not supported: the authenticated client is the actor');
  for (const name of ['resource', 'audience'] as const) {
    const target = body[name];
    const targets = Array.isArray(target) ? target : target ? [target] : [];
    if (targets.some((t) => t !== ctx.config.baseUrl)) throw new OAuthError(400, 'invalid_target', `this server only issues tokens for ${ctx.config.baseUrl}`);
  }

  let iss: unknown;
  try {
    iss = decodeJwt(subjectToken).iss;
  } catch {
    throw invalidGrant('subject_token is not a JWT');
  }
  let subject: Subject;
  if (iss === ctx.config.baseUrl) {
    subject = await ourSubject(ctx, subjectToken);
  } else {
    if (subjectTokenType === TOKEN_TYPES.accessToken) throw invalidGrant('only access tokens issued by this server are accepted as access_token subject tokens');
    const trusted = ctx.config.TRUSTED_ISSUERS.find((t) => t.issuer === iss);
    if (!trusted) throw invalidGrant('subject_token was not issued by a trusted issuer');
    subject = await externalSubject(ctx, subjectToken, trusted);
  }

  const allowed = intersect(client.scopes, subject.scopes);
  const scopes = grantScopes(field(body, 'scope'), allowed, "the intersection of the client's registered scopes and the subject token's scopes");
  const now = Math.floor(Date.now() / 1000);
  const ttl = Math.min(ctx.config.ACCESS_TOKEN_TTL_SECONDS, subject.exp - now);
  if (ttl <= 0) throw invalidGrant('subject_token has expired');
  const act: Actor = { sub: client.clientId, client_id: client.clientId, ...(subject.act ? { act: subject.act } : {}) };
  const issued = await issueAccessToken(ctx.keys, ctx.tokenSettings, {
    clientId: client.clientId,
    subject: subject.sub,
    scopes,
    roles: subject.roles.filter((r) => (ROLES as readonly string[]).includes(r)),
    authMethod: 'token_exchange',
    act,
    ...(subject.patientId ? { patientId: subject.patientId } : {}),
  }, ttl);
  return {
    response: { access_token: issued.token, issued_token_type: TOKEN_TYPES.accessToken, token_type: 'Bearer', expires_in: ttl, scope: scopes.join(' ') },
    audit: {
      action: 'token.exchanged',
      subject: subject.sub,
      scope: scopes.join(' '),
      detail: { jti: issued.jti, grant_type: 'token-exchange', subject_issuer: subject.issuer, subject_jti: subject.jti, client_auth: client.usedMethod },
    },
  };
}
