/**
 * Client authentication at the token, introspection and revocation endpoints:
 * client_secret_basic (RFC 6749 §2.3.1), client_secret_post, private_key_jwt (RFC 7523 §2.2,
 * OIDC Core §9) and none (public clients, client_id only). Exactly one method per request; a
 * client may only use the kind of method it registered (either secret method for a secret client).
 * Every failure is the same invalid_client, so nothing tells which part was wrong.
 */
import { createLocalJWKSet, decodeJwt, type JWTVerifyGetKey } from 'jose';
import { must } from '@vitalis/runtime';
import type { Pool } from '@vitalis/db';
import type { Redis } from '@vitalis/redis';
import { serviceUnavailable } from '@vitalis/http';
import { CLIENT_ASSERTION_ALGS, type Client, type ClientAuthMethod } from './clients';
import { resolveClient } from './client-metadata-document';
import { checkUnverifiedJwt, JwtCheckError, verifySignature } from './jwt-checks';
import { OAuthError } from './oauth-errors';
import type { RemoteKeySets } from '../remote-key-sets';
import { verifySecret } from './secrets';

export const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** A client assertion may live at most this long (its jti is remembered until it expires). */
export const MAX_ASSERTION_LIFETIME_SECONDS = 600;
const CLOCK_TOLERANCE_SECONDS = 5;

export interface AuthenticatedClient extends Client {
  /** How this request authenticated. */
  usedMethod: ClientAuthMethod;
}

export interface ClientAuthContext {
  pool: Pool;
  redis: Redis;
  issuer: string;
  /** Audiences a client assertion may name: the issuer, the token endpoint, the endpoint called. */
  audiences: string[];
  /** Where a client's jwks_uri is fetched (never before the assertion's claims were checked). */
  keySets: RemoteKeySets;
}

type Form = Record<string, string | string[] | undefined>;

export const invalidClient = (description = 'client authentication failed', basic = true) =>
  new OAuthError(401, 'invalid_client', description, basic ? { 'www-authenticate': 'Basic realm="vitalis"' } : {});

function single(body: Form, name: string): string | undefined {
  const value = body[name];
  if (Array.isArray(value)) throw new OAuthError(400, 'invalid_request', `${name} must not be repeated`);
  return value;
}

type Presented =
  | { method: 'client_secret_basic' | 'client_secret_post'; clientId: string; secret: string }
  | { method: 'private_key_jwt'; clientId: string; assertion: string }
  | { method: 'none'; clientId: string };

/** What the request presents; throws invalid_request when it mixes methods. Undefined: nothing presented. */
export function presentedClient(authorization: string | undefined, body: Form): Presented | undefined {
  const basic = authorization?.match(/^Basic\s+([A-Za-z0-9+/=]+)\s*$/i);
  const bodyId = single(body, 'client_id');
  const bodySecret = single(body, 'client_secret');
  const assertion = single(body, 'client_assertion');
  const assertionType = single(body, 'client_assertion_type');
  const methods = [basic, bodySecret !== undefined, assertion !== undefined || assertionType !== undefined].filter(Boolean).length;
  if (methods > 1) throw new OAuthError(400, 'invalid_request', 'client authentication must use exactly one method');
  if (basic) {
    const decoded = Buffer.from(must(basic[1], 'the credentials group of the Basic pattern'), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw invalidClient();
    // RFC 6749 §2.3.1: both parts are form-urlencoded before being joined.
    const decode = (s: string) => decodeURIComponent(s.replaceAll('+', ' '));
    let clientId: string;
    let secret: string;
    try {
      clientId = decode(decoded.slice(0, colon));
      secret = decode(decoded.slice(colon + 1));
    } catch {
      throw invalidClient();
    }
    if (bodyId !== undefined && bodyId !== clientId)
      throw new OAuthError(400, 'invalid_request', 'client_id does not match the Authorization header');
    return { method: 'client_secret_basic', clientId, secret };
  }
  if (assertion !== undefined || assertionType !== undefined) {
    if (assertionType !== JWT_BEARER_ASSERTION)
      throw new OAuthError(400, 'invalid_request', `client_assertion_type must be ${JWT_BEARER_ASSERTION}`);
    if (!assertion) throw new OAuthError(400, 'invalid_request', 'client_assertion is required');
    let sub: unknown;
    try {
      sub = decodeJwt(assertion).sub;
    } catch {
      throw invalidClient('the client assertion is not a JWT', false);
    }
    if (typeof sub !== 'string') throw invalidClient('the client assertion has no sub', false);
    if (bodyId !== undefined && bodyId !== sub) throw invalidClient('client_id does not match the client assertion', false);
    return { method: 'private_key_jwt', clientId: sub, assertion };
  }
  if (bodyId !== undefined && bodySecret !== undefined) return { method: 'client_secret_post', clientId: bodyId, secret: bodySecret };
  if (bodyId !== undefined) return { method: 'none', clientId: bodyId };
  return undefined;
}

function keySetFor(ctx: ClientAuthContext, client: Client): JWTVerifyGetKey {
  if (client.jwks) return createLocalJWKSet(client.jwks);
  return ctx.keySets.forUri(must(client.jwksUri, `the jwks_uri of client ${client.clientId}, registered without jwks`));
}

/**
 * RFC 7523 §3 in the order that keeps strangers from steering us: header and claims on the
 * unverified JWT first (a wrong aud, exp, iss, sub or jti never causes a key-set fetch), then the
 * client's keys (a remote set is fetched under remote-key-sets.ts rules), then the signature, then
 * the jti is consumed.
 */
async function verifyAssertion(ctx: ClientAuthContext, client: Client, assertion: string): Promise<void> {
  let payload;
  try {
    ({ payload } = checkUnverifiedJwt(assertion, {
      algorithms: CLIENT_ASSERTION_ALGS,
      issuer: client.clientId,
      subject: client.clientId,
      audiences: ctx.audiences,
      requireJti: true,
      maxLifetimeSeconds: MAX_ASSERTION_LIFETIME_SECONDS,
      clockToleranceSeconds: CLOCK_TOLERANCE_SECONDS,
      registeredJwksUri: client.jwksUri ?? undefined,
    }));
  } catch (err) {
    if (!(err instanceof JwtCheckError)) throw err;
    throw invalidClient(`the client assertion ${err.message}`, false);
  }
  try {
    await verifySignature(assertion, keySetFor(ctx, client), CLIENT_ASSERTION_ALGS);
  } catch {
    // One answer for a bad signature, an unknown kid and a refused or failed key-set fetch: the
    // caller learns nothing about what the gateway could or could not reach (the log says why).
    throw invalidClient("the client assertion signature could not be verified with the client's registered keys", false);
  }
  const lifetime = must(payload.exp, 'the exp claim checkUnverifiedJwt requires') - Math.floor(Date.now() / 1000);
  // RFC 7523 §3: a jti is used once. Remembered (SET NX) until the assertion could no longer pass.
  let fresh: string | null;
  try {
    fresh = await ctx.redis.set(
      `vitalis:client-assertion:${client.clientId}:${payload.jti}`,
      '1',
      'EX',
      Math.max(lifetime, 0) + CLOCK_TOLERANCE_SECONDS + 1,
      'NX',
    );
  } catch {
    // Without the replay store an assertion cannot be proven fresh: refuse (fail closed).
    throw serviceUnavailable('The client assertion replay check is unavailable; retry shortly.');
  }
  if (fresh !== 'OK') throw invalidClient('the client assertion was already used (jti replay)', false);
}

/**
 * Authenticates the calling client. `required: false` lets a request without any client
 * identification through (undefined), for unauthenticated revocation.
 */
export async function authenticateClient(
  ctx: ClientAuthContext,
  authorization: string | undefined,
  body: Form,
): Promise<AuthenticatedClient>;
export async function authenticateClient(
  ctx: ClientAuthContext,
  authorization: string | undefined,
  body: Form,
  required: false,
): Promise<AuthenticatedClient | undefined>;
export async function authenticateClient(
  ctx: ClientAuthContext,
  authorization: string | undefined,
  body: Form,
  required = true,
): Promise<AuthenticatedClient | undefined> {
  const presented = presentedClient(authorization, body);
  if (!presented) {
    if (!required) return undefined;
    throw invalidClient('client authentication is required');
  }
  const client = await resolveClient(ctx, presented.clientId);
  if (presented.method === 'client_secret_basic' || presented.method === 'client_secret_post') {
    // Hash even for an unknown or keyless client so timing does not reveal which client ids exist.
    const ok = await verifySecret(presented.secret, client?.secretHash ?? DUMMY_HASH);
    const secretClient = client?.authMethod === 'client_secret_basic' || client?.authMethod === 'client_secret_post';
    if (!client || !ok || !secretClient || client.expired) throw invalidClient();
    return { ...client, usedMethod: presented.method };
  }
  if (!client || client.expired || client.authMethod !== presented.method) throw invalidClient(undefined, false);
  if (presented.method === 'private_key_jwt') await verifyAssertion(ctx, client, presented.assertion);
  return { ...client, usedMethod: presented.method };
}

const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
