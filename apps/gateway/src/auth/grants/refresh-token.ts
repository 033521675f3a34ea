/**
 * refresh_token (RFC 6749 §6) with rotation: every use returns a new refresh token and retires
 * the old one. A retired token presented again means one of two holders is an attacker, so the
 * whole family and its live access tokens are revoked (RFC 9700 §4.14.2). A request may narrow
 * the scope of the new access token, never widen it; the new token holds at most requested ∩ the
 * original grant ∩ the client's current registration and role ∩ the user's current role.
 * With `openid` still granted, a new ID token comes too (OpenID Connect Core 1.0 §12.2): same iss,
 * sub and aud, a new iat, auth_time of the original sign-in (never the refresh's), no nonce (a
 * refresh is no authentication request), at_hash of the new access token.
 */
import type { Scope } from '@vitalis/schemas';
import { field } from '../context';
import { parseScopes } from '../clients';
import { invalidGrant, invalidRequest } from '../oauth-errors';
import { issueIdToken } from '../id-tokens';
import { issueAccessToken } from '../tokens';
import { findUser, type User } from '../users';
import { smartContext } from './smart-context';
import { grantScopes, intersect, userTokenCeiling } from './scopes';
import { rotateRefreshToken } from './store';
import type { GrantRequest, GrantResult } from './types';

export async function refreshTokenGrant({ ctx, client, body }: GrantRequest): Promise<GrantResult> {
  const token = field(body, 'refresh_token');
  if (!token) throw invalidRequest('refresh_token is required');
  const requested = field(body, 'scope');
  const ttl = ctx.config.ACCESS_TOKEN_TTL_SECONDS;
  let subject = '';
  let granted: Scope[] = [];
  let signedIn: User | undefined;
  // An escalation attempt throws inside the transaction, so nothing is rotated.
  const outcome = await rotateRefreshToken(ctx.pool, ctx.revocations, token, {
    clientId: client.clientId,
    narrow: (familyScope) => grantScopes(requested, parseScopes(familyScope).scopes, 'the original grant').join(' '),
    issue: async (grant, scope) => {
      const user = await findUser(ctx.pool, grant.userId);
      if (!user) throw invalidGrant('the user of this grant no longer exists');
      subject = user.userId;
      signedIn = user;
      // The client's registration and role and the user's role as they are now: any of them
      // narrowed since the grant shrinks the token.
      granted = intersect(parseScopes(scope).scopes, userTokenCeiling(client, user));
      if (granted.length === 0)
        throw invalidGrant("the client's registration or role, or the user's role, no longer allows any scope of this grant");
      return issueAccessToken(
        ctx.keys,
        ctx.tokenSettings,
        {
          clientId: client.clientId,
          subject: user.userId,
          scopes: granted,
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
      grant_id: outcome.grant?.grantId,
      revoked_access_tokens: outcome.revokedTokens,
      subject: outcome.grant?.userId,
    });
  }
  const { authTime } = outcome.grant;
  const smart = smartContext(signedIn, granted);
  const idToken =
    granted.includes('openid') && authTime !== undefined
      ? await issueIdToken(
          ctx.keys,
          {
            issuer: ctx.config.baseUrl,
            clientId: client.clientId,
            subject,
            alg: client.idTokenAlg,
            authTime,
            accessToken: outcome.issued.token,
            ...(smart.fhirUser ? { fhirUser: smart.fhirUser } : {}),
          },
          ttl,
        )
      : undefined;
  return {
    response: {
      access_token: outcome.issued.token,
      token_type: 'Bearer',
      expires_in: ttl,
      scope: granted.join(' '),
      refresh_token: outcome.refreshToken,
      ...(idToken ? { id_token: idToken } : {}),
      ...(smart.patient ? { patient: smart.patient } : {}),
    },
    audit: {
      action: 'token.refreshed',
      subject,
      scope: granted.join(' '),
      detail: { jti: outcome.issued.jti, grant_type: 'refresh_token', grant_id: outcome.grant.grantId, id_token: Boolean(idToken) },
    },
  };
}
