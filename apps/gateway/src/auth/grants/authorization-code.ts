/**
 * authorization_code (RFC 6749 §4.1.3) with PKCE S256. The code is single-use, short-lived and
 * bound to the client, the exact redirect URI and the code challenge; a second use revokes every
 * token the first one produced. Scope, roles and patient id come from the code and the user.
 * When the grant holds `openid`, an ID token (id-tokens.ts) comes with the access token: the
 * client's algorithm, the request's nonce, the sign-in time, at_hash of this access token.
 * SMART (smartContext): `patient` in the response with launch/patient, `fhirUser` in the ID token.
 */
import { GRANT_TYPES } from '../clients';
import { field } from '../context';
import { invalidGrant, invalidRequest } from '../oauth-errors';
import { pkceMatches } from '../pkce';
import { issueIdToken } from '../id-tokens';
import { issueAccessToken } from '../tokens';
import { findUser, type User } from '../users';
import { smartContext } from './smart-context';
import { parseScopes } from '../clients';
import { redeemCode } from './store';
import type { GrantRequest, GrantResult } from './types';

/** Why a stored code may not be redeemed by this request (another client, another redirect URI, a wrong PKCE verifier), or undefined. */
function codeRefusal(
  stored: { clientId: string; redirectUri: string; codeChallenge: string },
  clientId: string,
  redirectUri: string,
  verifier: string,
): string | undefined {
  if (stored.clientId !== clientId) return 'the code was issued to another client';
  if (stored.redirectUri !== redirectUri) return 'redirect_uri does not match the authorization request';
  if (!pkceMatches(verifier, stored.codeChallenge)) return 'code_verifier does not match the code challenge';
  return undefined;
}

/** The ID token of an `openid` grant (the client's algorithm, the request's nonce, the sign-in time, at_hash); none for a code without a sign-in time. */
async function idTokenOf(
  ctx: GrantRequest['ctx'],
  client: GrantRequest['client'],
  token: { subject: string; stored: { authTime?: number; nonce?: string }; accessToken: string; fhirUser?: string },
): Promise<string | undefined> {
  const { stored } = token;
  if (stored.authTime === undefined) return undefined;
  return issueIdToken(
    ctx.keys,
    {
      issuer: ctx.config.baseUrl,
      clientId: client.clientId,
      subject: token.subject,
      alg: client.idTokenAlg,
      authTime: stored.authTime,
      ...(stored.nonce !== undefined ? { nonce: stored.nonce } : {}),
      accessToken: token.accessToken,
      ...(token.fhirUser ? { fhirUser: token.fhirUser } : {}),
    },
    ctx.config.ACCESS_TOKEN_TTL_SECONDS,
  );
}

/** The authorization_code grant: redeem the code (single use, checked by codeRefusal), issue the access token and, with openid, the ID token. */
export async function authorizationCodeGrant({ ctx, client, body }: GrantRequest): Promise<GrantResult> {
  const code = field(body, 'code');
  const redirectUri = field(body, 'redirect_uri');
  const verifier = field(body, 'code_verifier');
  if (!code) throw invalidRequest('code is required');
  if (!redirectUri) throw invalidRequest('redirect_uri is required');
  if (!verifier) throw invalidRequest('code_verifier is required (PKCE)');

  const ttl = ctx.config.ACCESS_TOKEN_TTL_SECONDS;
  let subject = '';
  let signedIn: User | undefined;
  const outcome = await redeemCode(ctx.pool, ctx.revocations, code, {
    grantTtlSeconds: ctx.config.REFRESH_TOKEN_TTL_SECONDS,
    withRefreshToken: client.grantTypes.includes(GRANT_TYPES.refreshToken),
    check: (stored) => codeRefusal(stored, client.clientId, redirectUri, verifier),
    issue: async (grant) => {
      const user = await findUser(ctx.pool, grant.userId);
      if (!user) throw invalidGrant('the user of this code no longer exists');
      subject = user.userId;
      signedIn = user;
      return issueAccessToken(
        ctx.keys,
        ctx.tokenSettings,
        {
          clientId: client.clientId,
          subject: user.userId,
          scopes: parseScopes(grant.scope).scopes,
          roles: user.roles,
          authMethod: 'authorization_code',
          ...(user.patientId ? { patientId: user.patientId } : {}),
        },
        ttl,
      );
    },
  });
  if (!outcome.ok) {
    throw invalidGrant(outcome.reason, {
      grant_id: outcome.code?.grantId,
      revoked_access_tokens: outcome.revokedTokens,
      subject: outcome.code?.userId,
    });
  }
  const scope = outcome.grant.scope;
  const { code: stored } = outcome;
  const smart = smartContext(signedIn, parseScopes(scope).scopes);
  const idToken = parseScopes(scope).scopes.includes('openid')
    ? await idTokenOf(ctx, client, { subject, stored, accessToken: outcome.issued.token, fhirUser: smart.fhirUser })
    : undefined;
  return {
    response: {
      access_token: outcome.issued.token,
      token_type: 'Bearer',
      expires_in: ttl,
      scope,
      ...(outcome.refreshToken ? { refresh_token: outcome.refreshToken } : {}),
      ...(idToken ? { id_token: idToken } : {}),
      ...(smart.patient ? { patient: smart.patient } : {}),
    },
    audit: {
      action: 'token.issued',
      subject,
      scope,
      detail: {
        jti: outcome.issued.jti,
        grant_type: 'authorization_code',
        grant_id: outcome.grant.grantId,
        refresh_token: Boolean(outcome.refreshToken),
        id_token: Boolean(idToken),
      },
    },
  };
}
