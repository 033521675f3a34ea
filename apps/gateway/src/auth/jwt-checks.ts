/**
 * Checks a JWT's header and claims BEFORE its signature, on the decoded but unverified token, so
 * that nothing a stranger sends (a wrong audience, an expired or over-long assertion, a foreign
 * issuer) can make the gateway fetch a key set. Used for client assertions (RFC 7523) and for
 * trusted-issuer subject tokens (RFC 8693). The signature is verified afterwards with
 * `verifySignature`, which checks nothing else: these rules live here only.
 */
import {
  compactVerify,
  decodeJwt,
  decodeProtectedHeader,
  type JWTPayload,
  type JWTVerifyGetKey,
  type ProtectedHeaderParameters,
} from 'jose';

export interface JwtRules {
  /** Accepted `alg` values (asymmetric only). */
  algorithms: readonly string[];
  /** The exact `iss`. */
  issuer: string;
  /** The exact `sub`; when absent, `sub` must merely be a non-empty string. */
  subject?: string;
  /** `aud` must name at least one of these. */
  audiences: readonly string[];
  /** `jti` required (1 to 256 visible ASCII characters). */
  requireJti?: boolean;
  /** `exp` may lie at most this far in the future. */
  maxLifetimeSeconds?: number;
  clockToleranceSeconds: number;
  /**
   * The JWKS URL registered for the signer. A `jku` header naming any other URL (or any `jku`
   * when none is registered: keys given inline) fails (SMART App Launch 2.0, asymmetric client
   * authentication, step 1); keys are only ever taken from the registration, never from a header.
   */
  registeredJwksUri?: string | undefined;
  /** Seconds since the epoch; default now. */
  now?: number;
}

export class JwtCheckError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JwtCheckError';
  }
}

const JTI = /^[\x21-\x7e]{1,256}$/;
const KID = /^[\x20-\x7e]{1,256}$/;

/** Header and claims of an unverified JWT; throws JwtCheckError naming the first rule broken. */
export function checkUnverifiedJwt(token: string, rules: JwtRules): { header: ProtectedHeaderParameters; payload: JWTPayload } {
  let header: ProtectedHeaderParameters;
  let payload: JWTPayload;
  try {
    header = decodeProtectedHeader(token);
    payload = decodeJwt(token);
  } catch {
    throw new JwtCheckError('is not a JWT');
  }
  if (typeof header.alg !== 'string' || !rules.algorithms.includes(header.alg))
    throw new JwtCheckError(`alg must be one of ${rules.algorithms.join(', ')}`);
  if (header.kid !== undefined && (typeof header.kid !== 'string' || !KID.test(header.kid)))
    throw new JwtCheckError('kid must be 1 to 256 printable characters');
  if (header.crit !== undefined || header.b64 !== undefined) throw new JwtCheckError('crit and b64 header parameters are not accepted');
  if (header.jku !== undefined && header.jku !== rules.registeredJwksUri)
    throw new JwtCheckError('jku is not the JWKS URL registered for this signer');
  if (header.x5u !== undefined || header.jwk !== undefined)
    throw new JwtCheckError('x5u and jwk header parameters are not accepted (keys come from the registration)');

  if (payload.iss !== rules.issuer) throw new JwtCheckError('iss is not the expected issuer');
  if (rules.subject !== undefined ? payload.sub !== rules.subject : typeof payload.sub !== 'string' || payload.sub === '')
    throw new JwtCheckError('sub is missing or not the expected subject');
  const aud = typeof payload.aud === 'string' ? [payload.aud] : Array.isArray(payload.aud) ? payload.aud : [];
  if (!aud.some((a) => rules.audiences.includes(a))) throw new JwtCheckError('aud does not name this server');

  const now = rules.now ?? Math.floor(Date.now() / 1000);
  const tolerance = rules.clockToleranceSeconds;
  if (typeof payload.exp !== 'number' || !Number.isFinite(payload.exp)) throw new JwtCheckError('exp is required');
  if (payload.exp <= now - tolerance) throw new JwtCheckError('has expired');
  if (rules.maxLifetimeSeconds !== undefined && payload.exp - now > rules.maxLifetimeSeconds)
    throw new JwtCheckError(`must expire within ${rules.maxLifetimeSeconds} s`);
  if (payload.nbf !== undefined && (typeof payload.nbf !== 'number' || payload.nbf > now + tolerance))
    throw new JwtCheckError('is not valid yet (nbf)');
  if (payload.iat !== undefined && typeof payload.iat !== 'number') throw new JwtCheckError('iat must be a number');
  if (rules.requireJti && (typeof payload.jti !== 'string' || !JTI.test(payload.jti)))
    throw new JwtCheckError('jti is required (1 to 256 visible ASCII characters)');
  return { header, payload };
}

/** The signature only (header and claims were checked by checkUnverifiedJwt). Throws on failure. */
export async function verifySignature(token: string, keys: JWTVerifyGetKey, algorithms: readonly string[]): Promise<void> {
  await compactVerify(token, keys, { algorithms: [...algorithms] });
}
