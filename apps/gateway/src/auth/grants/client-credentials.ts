/**
 * client_credentials (RFC 6749 §4.4): the client acts for itself, within its registered scopes and
 * the ceiling of its role as it is now (so narrowing a role's scopes takes effect at the next
 * token), with its role in the token's `roles`. Never the sign-in scopes (openid, profile): no
 * user signed in, so there is nobody for an ID token or userinfo to describe; nor any other scope
 * that needs a user (SMART patient/, user/, launch/patient, fhirUser, offline_access).
 * SMART Backend Services (client-confidential-asymmetric): this grant with private_key_jwt and
 * `system/X.rs` scopes, which the client's role bounds like every other scope.
 */
import { issueAccessToken } from '../tokens';
import { field } from '../context';
import { needsUser } from '@vitalis/schemas';
import { findClient, parseScopes, scopeCeiling } from '../clients';
import { invalidRequest, invalidScope } from '../oauth-errors';
import { grantScopes, intersect } from './scopes';
import type { GrantRequest, GrantResult } from './types';

export async function clientCredentialsGrant({ ctx, client, body }: GrantRequest): Promise<GrantResult> {
  const requested = field(body, 'scope');
  const signIn = parseScopes(requested).scopes.filter(needsUser);
  if (signIn.length > 0) throw invalidScope(`${signIn.join(', ')}: sign-in scopes need a user (the authorization_code grant)`);
  const allowed = intersect(client.scopes, scopeCeiling(client)).filter((s) => !needsUser(s));
  const scopes = grantScopes(requested, allowed, "the client's registration and role");
  const sandbox = client.kind === 'sandbox';
  // RFC 8693 §4.4 may_act: the one other client this token may be exchanged by (to act for this client).
  const actor = field(body, 'may_act');
  if (actor !== undefined) {
    const named = await findClient(ctx.pool, actor);
    if (!named || named.expired || named.kind !== 'registered' || named.clientId === client.clientId)
      throw invalidRequest('may_act must name another registered client');
  }
  // SMART Backend Services: a backend token lives at most five minutes (BACKEND_TOKEN_TTL_SECONDS, <= 300)
  const ttl = sandbox ? ctx.config.SANDBOX_TOKEN_TTL_SECONDS : ctx.config.BACKEND_TOKEN_TTL_SECONDS;
  const issued = await issueAccessToken(
    ctx.keys,
    ctx.tokenSettings,
    {
      clientId: client.clientId,
      subject: client.clientId,
      scopes,
      roles: client.role ? [client.role] : [],
      sandbox,
      ...(actor ? { mayAct: { sub: actor, client_id: actor } } : {}),
      authMethod: sandbox ? 'sandbox' : client.usedMethod === 'private_key_jwt' ? 'private_key_jwt' : 'client_secret',
    },
    ttl,
  );
  return {
    response: { access_token: issued.token, token_type: 'Bearer', expires_in: ttl, scope: scopes.join(' ') },
    audit: {
      action: 'token.issued',
      subject: client.clientId,
      scope: scopes.join(' '),
      detail: { jti: issued.jti, grant_type: 'client_credentials', client_auth: client.usedMethod, ...(actor ? { may_act: actor } : {}) },
    },
  };
}
