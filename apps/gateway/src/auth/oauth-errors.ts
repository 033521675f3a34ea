/**
 * The two error vocabularies of the auth surface:
 * - RFC 6749 §5.2 / RFC 7591 §3.2.2 JSON bodies ({ error, error_description }) on the OAuth
 *   endpoints themselves (token, register, revoke), as OAuth clients expect;
 * - RFC 6750 + RFC 9457 on protected resources: 401/403 with WWW-Authenticate and a problem body
 *   (service spec section 7).
 */
import { HttpProblem } from '@vitalis/http';

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_client_metadata'
  | 'invalid_redirect_uri'
  | 'invalid_software_statement'
  | 'unapproved_software_statement'
  | 'invalid_target'
  | 'invalid_token'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'unsupported_token_type'
  | 'temporarily_unavailable';

export class OAuthError extends Error {
  override name = 'OAuthError';
  constructor(
    readonly status: number,
    readonly code: OAuthErrorCode,
    readonly description: string,
    readonly headers: Record<string, string> = {},
    /** For the audit trail only (never sent): e.g. how many tokens a reuse revoked. */
    readonly auditDetail: Record<string, unknown> = {},
  ) {
    super(description);
  }
}

export const invalidGrant = (description: string, auditDetail: Record<string, unknown> = {}) =>
  new OAuthError(400, 'invalid_grant', description, {}, auditDetail);
export const invalidRequest = (description: string) => new OAuthError(400, 'invalid_request', description);
export const invalidScope = (description: string) => new OAuthError(400, 'invalid_scope', description);
/**
 * 429 at an OAuth endpoint: RFC 6749 defines no code for it; `temporarily_unavailable` is the one
 * the OAuth error registry has for "try again later" (RFC 6749 §4.1.2.1), so a client that branches
 * on `error` reads it as a transient failure, and `Retry-After` says when (see the auth README).
 */
export const rateLimited = (description: string, retryAfterSeconds: number) =>
  new OAuthError(429, 'temporarily_unavailable', description, { 'retry-after': String(retryAfterSeconds) });

export const REALM = 'vitalis';

export function bearerChallenge(baseUrl: string, params: Record<string, string> = {}): string {
  const parts = [`realm="${REALM}"`, ...Object.entries(params).map(([k, v]) => `${k}="${v.replaceAll('"', "'")}"`)];
  parts.push(`resource_metadata="${baseUrl}/.well-known/oauth-protected-resource"`);
  return `Bearer ${parts.join(', ')}`;
}

/** 401: no token, or a token that is invalid, expired or revoked. */
export function unauthorized(baseUrl: string, reason?: string): HttpProblem {
  const detail = reason
    ? `The Bearer token is invalid: ${reason}. See ${baseUrl}/auth.md for how to obtain a valid token.`
    : `A Bearer token is required. See ${baseUrl}/auth.md for how to obtain one.`;
  return new HttpProblem(401, 'unauthorized', 'Unauthorized', detail, {}, {
    'www-authenticate': bearerChallenge(baseUrl, reason ? { error: 'invalid_token', error_description: reason } : {}),
  });
}

/**
 * THE 403 of every protected resource (service spec section 7, RFC 6750 §3.1): the guard's, when
 * the token lacks the route's scopes, and a domain service's, when the token may not touch this
 * resource (a patient user and someone else's record). Always `error="insufficient_scope"`,
 * `scope="<needed>"`, `resource_metadata`, problem type `insufficient-scope` and `required_scope`.
 * A service refuses where the base URL is unknown (the MCP tools call it too), so the challenge
 * and the pointer to /auth.md are completed when the problem is sent (`resolve`).
 */
export class ScopeRefusal extends HttpProblem {
  constructor(
    /** The scopes the request needs: every one, or (anyOf) one of them. */
    readonly needed: readonly string[],
    readonly anyOf: boolean,
    detail: string,
  ) {
    super(403, 'insufficient-scope', 'Forbidden', detail, { required_scope: needed.join(' ') });
  }

  override resolve(baseUrl: string): HttpProblem {
    return new HttpProblem(this.status, this.kind, this.title, `${this.detail} See ${baseUrl}/auth.md for how to request scopes.`, this.extensions, {
      'www-authenticate': bearerChallenge(baseUrl, { error: 'insufficient_scope', scope: this.needed.join(' ') }),
    });
  }
}

/**
 * The one builder of a 403. `needed`: the scopes that would be enough (all of them; with `anyOf`,
 * any one); `detail`: why, when the refusal is about the resource rather than the token's scopes.
 */
export function insufficientScope(needed: readonly string[], opts: { anyOf?: boolean; detail?: string } = {}): ScopeRefusal {
  const scope = needed.join(' ');
  const detail =
    opts.detail ??
    (opts.anyOf ? `The Bearer token lacks a scope this request needs: one of ${scope}.` : `The Bearer token lacks the scope this request needs: ${scope}.`);
  return new ScopeRefusal(needed, opts.anyOf ?? false, detail);
}
