/**
 * What the authorization endpoint's steps share: the interaction (a valid authorization request
 * while the user signs in and consents, kept in Redis), the two kinds of error (shown on our own
 * page, or sent back to the client: RFC 6749 §4.1.2.1) and the answers the form steps give.
 */
import type { Scope } from '@vitalis/schemas';

export interface Interaction {
  clientId: string;
  clientName: string;
  /** vouchedFor(client) when the request came in. */
  vouched: boolean;
  redirectUri: string;
  state?: string;
  codeChallenge: string;
  /** requested ∩ client's registered scopes. */
  scopes: Scope[];
  csrf: string;
  binding: string;
  /** OpenID Connect: the request's nonce, echoed in the ID token. */
  nonce?: string;
  userId?: string;
  /** After login: when the password was checked (seconds since the epoch), the ID token's auth_time. */
  authTime?: number;
  /** After login: scopes ∩ the user's role scopes. */
  granted?: Scope[];
}

/** An error shown on our own page (never redirected): the client or its redirect URI cannot be trusted, or the form is bad. */
export class ErrorPage extends Error {
  constructor(
    readonly title: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** An OAuth error for the client (RFC 6749 §4.1.2.1): redirected to a vouched-for client, shown for another. */
export class RedirectError extends Error {
  constructor(
    readonly code: string,
    readonly description: string,
  ) {
    super(description);
  }
}

/**
 * What a form step answers, when it ends the request: the sign-in page again (with an error, and
 * a Retry-After when throttled), the consent page, or the way back to the client (`finish`: a
 * code or an OAuth error, with `state` and `iss`).
 */
export type FormAnswer =
  | { kind: 'login'; status: number; error: string; username: string; retryAfter?: number }
  | { kind: 'consent'; interaction: Interaction; displayName: string }
  | { kind: 'finish'; params: Record<string, string> };
