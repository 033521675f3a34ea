/**
 * RFC 7591 section 2.3 software statements: a JWT in which a trusted issuer (a vendor
 * certification body, the hospital's own integration team) vouches for a piece of software and
 * binds it to a role. Issuers are configured (`SOFTWARE_STATEMENT_ISSUERS`: issuer, its public
 * keys, the roles it may grant); a statement names one of them in `vitalis_role`. Metadata in a
 * verified statement takes precedence over the same fields sent as plain JSON (RFC 7591 §2.3).
 */
import { createLocalJWKSet, decodeJwt, jwtVerify, type JWTPayload } from 'jose';
import { isRole, type Role } from '@vitalis/schemas';
import type { SoftwareStatementIssuer } from '../config';
import { OAuthError } from './oauth-errors';

/** Registration metadata a statement may carry (and so override). */
const METADATA = [
  'client_name',
  'grant_types',
  'response_types',
  'token_endpoint_auth_method',
  'scope',
  'redirect_uris',
  'jwks',
  'jwks_uri',
] as const;
const ALGS = ['ES256', 'ES384', 'EdDSA', 'PS256', 'RS256'];

const invalid = (description: string) => new OAuthError(400, 'invalid_software_statement', description);
const unapproved = (description: string) => new OAuthError(400, 'unapproved_software_statement', description);

export interface VerifiedStatement {
  issuer: string;
  role: Role;
  softwareId?: string;
  /** Metadata fields from the statement, to lay over the request's. */
  metadata: Partial<Record<(typeof METADATA)[number], unknown>>;
}

const keySets = new WeakMap<SoftwareStatementIssuer, ReturnType<typeof createLocalJWKSet>>();

export async function verifySoftwareStatement(statement: string, issuers: SoftwareStatementIssuer[]): Promise<VerifiedStatement> {
  let iss: unknown;
  try {
    iss = decodeJwt(statement).iss;
  } catch {
    throw invalid('software_statement is not a JWT');
  }
  const issuer = issuers.find((i) => i.issuer === iss);
  if (!issuer) throw unapproved('software_statement was not issued by a trusted issuer');
  let keys = keySets.get(issuer);
  if (!keys) keySets.set(issuer, (keys = createLocalJWKSet(issuer.jwks)));
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(statement, keys, {
      algorithms: ALGS,
      issuer: issuer.issuer,
      requiredClaims: ['iat'],
      clockTolerance: 5,
    }));
  } catch {
    throw invalid('software_statement could not be verified (signature, iss, iat or exp)');
  }
  const role = payload.vitalis_role;
  if (typeof role !== 'string' || !isRole(role)) throw invalid('software_statement must name a role in vitalis_role');
  if (!issuer.roles.includes(role)) throw unapproved(`this issuer may not bind software to the role ${role}`);
  const metadata: VerifiedStatement['metadata'] = {};
  for (const name of METADATA) if (payload[name] !== undefined) metadata[name] = payload[name];
  return { issuer: issuer.issuer, role, ...(typeof payload.software_id === 'string' ? { softwareId: payload.software_id } : {}), metadata };
}
