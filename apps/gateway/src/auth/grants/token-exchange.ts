/**
 * Token exchange (RFC 8693). The subject token is one of our own access tokens (token type
 * access_token or jwt) or a JWT from an issuer listed in TRUSTED_ISSUERS, verified against that
 * issuer's keys. Two forms:
 *
 *  - authenticated (the calling client is the actor): allowed only when the subject token was
 *    issued to that client, or its `may_act` claim names it (RFC 8693 §4.4; a client obtains such a
 *    token with `may_act=<client_id>` at client_credentials). The new token speaks for the subject,
 *    is held by the client, names it in `act` (nesting any earlier `act`), carries at most the
 *    intersection of the client's registered scopes and the subject's;
 *  - public (no client authentication, service spec section 5 step 5): our own subject tokens
 *    only; the new token is held by the subject's client, carries no `act`, and may only narrow.
 *
 * Either way the new token never outlives the subject token, keeps its roles, patient and sandbox
 * status, and lists the subject token in its chain (`vitalis_chain`), so revoking the subject, or
 * the grant the subject belongs to, kills it at once on every instance (the bearer check reads the
 * whole chain). External subjects are mapped through their issuer's configured role (and patient
 * claim), never taken verbatim.
 */
import { createLocalJWKSet, decodeJwt, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { must } from '@vitalis/runtime';
import { clientScopeCeiling, isScope, type Role, type Scope } from '@vitalis/schemas';
import type { TrustedIssuer } from '../../config';
import type { AuthenticatedClient } from '../client-auth';
import { PATHS, field, endpointUrl, type AuthContext, type Form } from '../context';
import { checkUnverifiedJwt, verifySignature } from '../jwt-checks';
import { OAuthError, invalidGrant, invalidRequest } from '../oauth-errors';
import { InvalidToken, issueAccessToken, verifyAccessToken } from '../tokens';
import { revocationIds, type Actor } from '../../access/principal';
import { grantScopes, intersect } from './scopes';
import type { GrantRequest, GrantResult } from './types';

export const TOKEN_TYPES = {
  jwt: 'urn:ietf:params:oauth:token-type:jwt',
  accessToken: 'urn:ietf:params:oauth:token-type:access_token',
} as const;
const EXTERNAL_ALGS = ['ES256', 'ES384', 'EdDSA', 'PS256', 'RS256'];

interface Subject {
  sub: string;
  /** The client the subject token was issued to (ours: client_id; external: client_id or azp). */
  clientId?: string;
  scopes: Scope[];
  roles: Role[];
  patientId?: string;
  act?: Actor;
  mayAct?: Actor;
  exp: number;
  issuer: string;
  jti?: string;
  /** Our tokens: the subject token and what it derives from (the new token's chain). */
  chain: string[];
  sandbox: boolean;
}

const localKeySets = new WeakMap<TrustedIssuer, JWTVerifyGetKey>();
/** A configured key set, or the issuer's jwks_uri through the gateway's one outbound key-set fetcher. */
function keySetFor(ctx: AuthContext, issuer: TrustedIssuer): JWTVerifyGetKey {
  if (!issuer.jwks)
    return ctx.keySets.forUri(must(issuer.jwks_uri, `the jwks_uri of trusted issuer ${issuer.issuer}, configured without jwks`));
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
  if ((await ctx.revocations.revokedAmong(revocationIds(p))).size > 0) throw invalidGrant('subject_token has been revoked');
  return {
    sub: p.subject,
    clientId: p.clientId,
    // The token's own scopes (SMART names stay SMART names), not the principal's effective set:
    // the derived token is mapped again when it is verified.
    scopes: scopesOf(verified.payload),
    roles: p.roles,
    ...(p.patientId ? { patientId: p.patientId } : {}),
    ...(p.actor ? { act: p.actor } : {}),
    ...(p.mayAct ? { mayAct: p.mayAct } : {}),
    exp: p.expiresAt,
    issuer: ctx.config.baseUrl,
    jti: p.tokenId,
    chain: revocationIds(p),
    sandbox: p.sandbox,
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
      registeredJwksUri: issuer.jwks_uri,
    }));
    await verifySignature(token, keySetFor(ctx, issuer), EXTERNAL_ALGS);
  } catch {
    throw invalidGrant('subject_token could not be verified against its issuer (signature, aud or exp)');
  }
  // Roles are our vocabulary: a foreign issuer's subjects get the role its configuration names
  // (none: the public scopes only), and its scopes count only within that role.
  const role = issuer.role;
  const patientId = role === 'patient' && issuer.patient_claim ? payload[issuer.patient_claim] : undefined;
  if (role === 'patient' && typeof patientId !== 'string')
    throw invalidGrant(`subject_token lacks the patient claim ${issuer.patient_claim ?? '(none configured)'}`);
  const holder = typeof payload.client_id === 'string' ? payload.client_id : typeof payload.azp === 'string' ? payload.azp : undefined;
  return {
    sub: String(payload.sub),
    ...(holder ? { clientId: holder } : {}),
    scopes: intersect(scopesOf(payload), clientScopeCeiling(role)),
    roles: role ? [role] : [],
    ...(typeof patientId === 'string' ? { patientId } : {}),
    ...(isActor(payload.may_act) ? { mayAct: payload.may_act } : {}),
    exp: must(payload.exp, 'the exp claim of a verified subject token'),
    issuer: issuer.issuer,
    ...(payload.jti ? { jti: payload.jti } : {}),
    chain: [],
    sandbox: false,
  };
}

function isActor(value: unknown): value is Actor {
  return (
    typeof value === 'object' &&
    value !== null &&
    (typeof (value as Actor).sub === 'string' || typeof (value as Actor).client_id === 'string')
  );
}

/** RFC 8693 §4.4: the actor must be the subject token's own client, or named in its may_act. */
function mayActFor(subject: Subject, client: AuthenticatedClient): boolean {
  if (subject.clientId === client.clientId) return true;
  const m = subject.mayAct;
  return m !== undefined && (m.client_id === client.clientId || (m.client_id === undefined && m.sub === client.clientId));
}

interface ExchangeRequest {
  subjectToken: string;
  subjectTokenType: string;
  requestedScope: string | undefined;
}

function exchangeRequest(ctx: AuthContext, body: Form): ExchangeRequest {
  const subjectToken = field(body, 'subject_token');
  const subjectTokenType = field(body, 'subject_token_type');
  if (!subjectToken) throw invalidRequest('subject_token is required');
  if (!subjectTokenType) throw invalidRequest('subject_token_type is required');
  if (subjectTokenType !== TOKEN_TYPES.jwt && subjectTokenType !== TOKEN_TYPES.accessToken) {
    throw invalidRequest(`subject_token_type must be ${TOKEN_TYPES.jwt} or ${TOKEN_TYPES.accessToken}`);
  }
  const requestedType = field(body, 'requested_token_type');
  if (requestedType && requestedType !== TOKEN_TYPES.accessToken)
    throw invalidRequest(`requested_token_type may only be ${TOKEN_TYPES.accessToken}`);
  if (field(body, 'actor_token')) throw invalidRequest('actor_token is not supported: the authenticated client is the actor');
  const audience = body.audience;
  const audiences = Array.isArray(audience) ? audience : audience ? [audience] : [];
  if (audiences.some((t) => t !== ctx.config.baseUrl))
    throw new OAuthError(400, 'invalid_target', `this server only issues tokens for ${ctx.config.baseUrl}`);
  return { subjectToken, subjectTokenType, requestedScope: field(body, 'scope') };
}

async function subjectOf(ctx: AuthContext, r: ExchangeRequest, publicExchange: boolean): Promise<Subject> {
  let iss: unknown;
  try {
    iss = decodeJwt(r.subjectToken).iss;
  } catch {
    throw invalidGrant('subject_token is not a JWT');
  }
  if (iss === ctx.config.baseUrl) return ourSubject(ctx, r.subjectToken);
  if (r.subjectTokenType === TOKEN_TYPES.accessToken)
    throw invalidGrant('only access tokens issued by this server are accepted as access_token subject tokens');
  if (publicExchange)
    throw new OAuthError(401, 'invalid_client', 'exchanging a token of another issuer needs an authenticated client (the actor)', {
      'www-authenticate': 'Basic realm="vitalis"',
    });
  const trusted = ctx.config.TRUSTED_ISSUERS.find((t) => t.issuer === iss);
  if (!trusted) throw invalidGrant('subject_token was not issued by a trusted issuer');
  return externalSubject(ctx, r.subjectToken, trusted);
}

function lifetime(ctx: AuthContext, subject: Subject): number {
  const ttl = Math.min(ctx.config.ACCESS_TOKEN_TTL_SECONDS, subject.exp - Math.floor(Date.now() / 1000));
  if (ttl <= 0) throw invalidGrant('subject_token has expired');
  return ttl;
}

async function issueExchanged(
  ctx: AuthContext,
  subject: Subject,
  holder: string,
  scopes: Scope[],
  act: Actor | undefined,
  usedMethod: string,
): Promise<GrantResult> {
  const ttl = lifetime(ctx, subject);
  const issued = await issueAccessToken(
    ctx.keys,
    ctx.tokenSettings,
    {
      clientId: holder,
      subject: subject.sub,
      scopes,
      roles: subject.roles,
      authMethod: 'token_exchange',
      ...(act ? { act } : {}),
      ...(subject.patientId ? { patientId: subject.patientId } : {}),
      derivedFrom: subject.chain,
      sandbox: subject.sandbox,
    },
    ttl,
  );
  return {
    response: {
      access_token: issued.token,
      issued_token_type: TOKEN_TYPES.accessToken,
      token_type: 'Bearer',
      expires_in: ttl,
      scope: scopes.join(' '),
    },
    audit: {
      action: 'token.exchanged',
      subject: subject.sub,
      scope: scopes.join(' '),
      detail: {
        jti: issued.jti,
        grant_type: 'token-exchange',
        subject_issuer: subject.issuer,
        subject_jti: subject.jti,
        subject_client: subject.clientId,
        client_auth: usedMethod,
        public: act === undefined,
      },
    },
  };
}

/** Public exchange (no client authentication): narrows one of our tokens for its own client, no act. */
export async function publicTokenExchange(ctx: AuthContext, body: Form): Promise<GrantResult> {
  const r = exchangeRequest(ctx, body);
  const subject = await subjectOf(ctx, r, true);
  const scopes = grantScopes(r.requestedScope, subject.scopes, "the subject token's scopes");
  const clientId = must(subject.clientId, 'the client of the subject token (a public exchange takes only our tokens, which name it)');
  return issueExchanged(ctx, subject, clientId, scopes, undefined, 'none');
}

export async function tokenExchangeGrant({ ctx, client, body }: GrantRequest): Promise<GrantResult> {
  const r = exchangeRequest(ctx, body);
  const subject = await subjectOf(ctx, r, false);
  if (!mayActFor(subject, client)) {
    throw invalidGrant(
      'the subject token does not allow this client to act for it: it must have been issued to this client, or name it in may_act',
    );
  }
  const allowed = intersect(client.scopes, subject.scopes);
  const scopes = grantScopes(
    r.requestedScope,
    allowed,
    "the intersection of the client's registered scopes and the subject token's scopes",
  );
  const act: Actor = { sub: client.clientId, client_id: client.clientId, ...(subject.act ? { act: subject.act } : {}) };
  return issueExchanged(ctx, subject, client.clientId, scopes, act, client.usedMethod);
}
