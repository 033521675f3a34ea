/**
 * The refusal of a protected resource (RFC 6750 + RFC 9457, service spec section 7): the
 * `WWW-Authenticate: Bearer` challenge and THE 403, `insufficientScope`, raised by the bearer check
 * when a token lacks a route's scopes and by the access policy and the domain services when a
 * principal may not touch a resource. It lies with the access layer, below the OAuth server
 * (auth/oauth-errors.ts builds the 401 from the same challenge).
 */
import { HttpProblem } from '@vitalis/http';

export const REALM = 'vitalis';

/** The `WWW-Authenticate: Bearer` value of a refusal: the realm, `params` (error, scope, ...) and where the resource's metadata is. */
export function bearerChallenge(baseUrl: string, params: Record<string, string> = {}): string {
  const parts = [`realm="${REALM}"`, ...Object.entries(params).map(([k, v]) => `${k}="${v.replaceAll('"', "'")}"`)];
  parts.push(`resource_metadata="${baseUrl}/.well-known/oauth-protected-resource"`);
  return `Bearer ${parts.join(', ')}`;
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
    return new HttpProblem(
      this.status,
      this.kind,
      this.title,
      `${this.detail} See ${baseUrl}/auth.md for how to request scopes.`,
      this.extensions,
      {
        'www-authenticate': bearerChallenge(baseUrl, { error: 'insufficient_scope', scope: this.needed.join(' ') }),
      },
    );
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
    (opts.anyOf
      ? `The Bearer token lacks a scope this request needs: one of ${scope}.`
      : `The Bearer token lacks the scope this request needs: ${scope}.`);
  return new ScopeRefusal(needed, opts.anyOf ?? false, detail);
}
