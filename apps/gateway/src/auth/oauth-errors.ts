/**
 * The two error vocabularies of the auth surface:
 * - RFC 6749 §5.2 / RFC 7591 §3.2.2 JSON bodies ({ error, error_description }) on the OAuth
 *   endpoints themselves (token, register, revoke), as OAuth clients expect;
 * - RFC 6750 + RFC 9457 on protected resources: the 401 with WWW-Authenticate and a problem body
 *   (service spec section 7); the 403 and the challenge are the access layer's (access/refusal.ts).
 */
import { type HttpProblem, problemOf } from '@vitalis/http';
import { bearerChallenge } from '../access/refusal';

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

/** 401: no token, or a token that is invalid, expired or revoked. */
export function unauthorized(baseUrl: string, reason?: string): HttpProblem {
  const detail = reason
    ? `The Bearer token is invalid: ${reason}. See ${baseUrl}/auth.md for how to obtain a valid token.`
    : `A Bearer token is required. See ${baseUrl}/auth.md for how to obtain one.`;
  return problemOf(
    'unauthorized',
    detail,
    {},
    {
      'www-authenticate': bearerChallenge(baseUrl, reason ? { error: 'invalid_token', error_description: reason } : {}),
    },
  );
}
