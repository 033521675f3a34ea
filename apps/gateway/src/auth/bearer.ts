/**
 * The one bearer-token check (RFC 6750) of the gateway. The route guard, the WebSocket (header or
 * first `auth` message) and the MCP endpoint all call `BearerAuthenticator.authenticate`, so every
 * protected surface has the same rules:
 *
 *   no token              -> 401 (spec section 7 body, WWW-Authenticate with resource_metadata)
 *   bad / expired token   -> 401 error="invalid_token"
 *   revocation unknowable -> 503 (fail closed: Redis down never lets a token through)
 *   revoked token         -> 401 error="invalid_token"
 *   missing scope         -> 403 error="insufficient_scope", scope="..." (oauth-errors `insufficientScope`,
 *                            the one 403 builder, which the domain services' resource refusals use too)
 *
 * and every refusal is one `token.refused` audit row (ids and reasons, never the token), bounded per
 * client address so a flood of bad tokens cannot flood the audit trail (see `RefusalBudget`).
 */
import { serviceUnavailable, type HttpProblem } from '@vitalis/http';
import { recordAudit } from '@vitalis/audit';
import type { Pool } from '@vitalis/db';
import type { Redis } from '@vitalis/redis';
import type { Logger } from '@vitalis/log';
import type { KeyStore } from './keys';
import { unauthorized } from './oauth-errors';
import { insufficientScope } from '../access/refusal';
import type { RevocationList } from './revoked-tokens';
import { meets, scopesOf, type ScopeRequirement } from './route-auth';
import { type Principal } from '../access/principal';
import { InvalidToken, verifyAccessToken, type TokenSettings } from './tokens';

/** Extracts the token of `Authorization: Bearer <token>` (RFC 6750 §2.1); undefined when absent. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header?.match(/^Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i);
  return match?.[1];
}

/**
 * Verified tokens, so a client reusing its token skips the ES256 verification (the dominant cost
 * of an authenticated request). Safe because a hit is still checked for expiry and revocation on
 * every request, and signing keys are never withdrawn while their tokens live. Bounded: the
 * oldest entry goes first.
 */
export class VerifiedTokenCache {
  #entries = new Map<string, Principal>();
  constructor(private readonly max = 10_000) {}

  get(token: string, nowSeconds: number): Principal | undefined {
    const principal = this.#entries.get(token);
    if (principal && principal.expiresAt <= nowSeconds) {
      this.#entries.delete(token);
      return undefined;
    }
    return principal;
  }

  set(token: string, principal: Principal): void {
    const oldest = this.#entries.keys().next();
    if (this.#entries.size >= this.max && !oldest.done) this.#entries.delete(oldest.value);
    this.#entries.set(token, principal);
  }
}

/** Where a check happened, for the refusal audit row. */
export interface BearerContext {
  requestId: string;
  ip: string;
  route?: string | undefined;
  method?: string | undefined;
  /** Extra audit detail (e.g. the MCP methods that asked for the token). */
  detail?: Record<string, unknown>;
}

/**
 * How many refusal rows one client address may add to the audit trail per window. Past the
 * budget the refusals are still refused, but recorded as one `token.refused.suppressed` row per
 * window instead of a row each. Counted in Redis (shared by every instance); when Redis cannot
 * count, the row is written (an audit row too many beats one missing).
 */
export class RefusalBudget {
  constructor(
    private readonly redis: Redis,
    private readonly perWindow: number,
    private readonly windowSeconds: number,
  ) {}

  /** 'record' within the budget, 'summarise' for the first refusal past it, 'skip' after that. */
  async take(ip: string): Promise<'record' | 'summarise' | 'skip'> {
    const window = Math.floor(Date.now() / 1000 / this.windowSeconds);
    const key = `vitalis:refusals:${window}:${ip}`;
    let count: number;
    try {
      const [[, n]] = (await this.redis
        .multi()
        .incr(key)
        .expire(key, this.windowSeconds * 2)
        .exec()) as [[unknown, number]];
      count = Number(n);
    } catch {
      return 'record';
    }
    if (count <= this.perWindow) return 'record';
    return count === this.perWindow + 1 ? 'summarise' : 'skip';
  }
}

export interface BearerDeps {
  keys: KeyStore;
  revocations: RevocationList;
  settings: TokenSettings;
  baseUrl: string;
  pool: Pool;
  logger: Logger;
  refusals: RefusalBudget;
}

export class BearerAuthenticator {
  #cache = new VerifiedTokenCache();
  #keyGeneration = 0;

  constructor(private readonly deps: BearerDeps) {
    this.#keyGeneration = deps.keys.generation;
  }

  /**
   * Verifies `token` and that it meets `need` (every scope of `all`, `[]`: any valid token; or one
   * of `any`). Returns the principal; throws the 401/403/503 problems above after auditing the refusal.
   */
  async authenticate(token: string | undefined, need: ScopeRequirement, where: BearerContext): Promise<Principal> {
    if (!token) throw await this.refuse(where, 'no bearer token', unauthorized(this.deps.baseUrl));
    if (this.#keyGeneration !== this.deps.keys.generation) {
      // A signing key was withdrawn: tokens verified under it must be verified again (and fail).
      this.#keyGeneration = this.deps.keys.generation;
      this.#cache = new VerifiedTokenCache();
    }
    let principal = this.#cache.get(token, Math.floor(Date.now() / 1000));
    if (!principal) {
      try {
        principal = (await verifyAccessToken(this.deps.keys, this.deps.settings, token)).principal;
      } catch (err) {
        if (!(err instanceof InvalidToken)) throw err;
        throw await this.refuse(where, err.message, unauthorized(this.deps.baseUrl, err.message));
      }
      this.#cache.set(token, principal);
    }
    let revoked: boolean;
    try {
      // The token and every token it was exchanged from: revoking a subject kills what derives from it.
      revoked = await this.deps.revocations.isChainRevoked(principal);
    } catch (err) {
      this.deps.logger.error({ err }, 'revocation list unreachable; refusing (fail closed)');
      throw serviceUnavailable('The token revocation list is unreachable, so the token cannot be checked. Retry shortly.');
    }
    if (revoked) throw await this.refuse(where, 'token revoked', unauthorized(this.deps.baseUrl, 'the token has been revoked'), principal);
    if (!meets(principal.scopes, need)) {
      const scopes = scopesOf(need);
      const refusal = insufficientScope(scopes, { anyOf: 'any' in need }).resolve(this.deps.baseUrl);
      throw await this.refuse(where, 'insufficient scope', refusal, principal, scopes.join(' '));
    }
    return principal;
  }

  /**
   * Records a refusal (within the address's budget) and returns the problem to throw. Also used
   * by callers that refuse a valid token for their own reasons (an MCP session bound to another
   * subject), so every refusal reads the same in the audit trail.
   */
  async refuse(where: BearerContext, reason: string, problem: HttpProblem, principal?: Principal, scope?: string): Promise<HttpProblem> {
    const verdict = await this.deps.refusals.take(where.ip);
    if (verdict === 'skip') return problem;
    await recordAudit(this.deps.pool, {
      action: verdict === 'record' ? 'token.refused' : 'token.refused.suppressed',
      outcome: 'failure',
      clientId: principal?.clientId,
      subject: principal?.subject,
      scope,
      requestId: where.requestId,
      ip: where.ip,
      detail:
        verdict === 'record'
          ? { reason, route: where.route, method: where.method, ...where.detail }
          : { reason: 'refusal audit budget exhausted for this address; further refusals in this window are not recorded one by one' },
    }).catch((err) => this.deps.logger.error({ err }, 'audit write failed'));
    return problem;
  }
}
