/**
 * The one enforcement point for protected routes. A route declares `config.auth.scopes`; this
 * onRequest hook verifies the Bearer token (signature, issuer, audience, expiry), refuses a
 * revoked one, checks every declared scope, and sets `request.principal`. Routes never check
 * tokens themselves. Routes without `config.auth` are public.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { serviceUnavailable } from '@vitalis/http';
import { recordAudit } from '@vitalis/audit';
import type { Pool } from '@vitalis/db';
import { insufficientScope, unauthorized } from './oauth-errors';
import type { RevocationList } from './revocation';
import type { Principal } from './route-auth';
import { InvalidToken, verifyAccessToken, type TokenSettings } from './tokens';
import type { KeyStore } from './keys';

export interface GuardDeps {
  keys: KeyStore;
  revocations: RevocationList;
  settings: TokenSettings;
  baseUrl: string;
  pool: Pool;
}

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
    if (this.#entries.size >= this.max) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(token, principal);
  }
}

export function authGuard({ keys, revocations, settings, baseUrl, pool }: GuardDeps) {
  const cache = new VerifiedTokenCache();
  const refuse = (req: FastifyRequest, reason: string, scope?: string) =>
    recordAudit(pool, {
      action: 'token.refused',
      outcome: 'failure',
      clientId: req.principal?.clientId,
      subject: req.principal?.subject,
      scope,
      requestId: req.id,
      ip: req.ip,
      detail: { reason, route: req.routeOptions.url, method: req.method },
    }).catch((err) => req.log.error({ err }, 'audit write failed'));

  return async function authenticate(req: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const auth = req.routeOptions.config.auth;
    if (!auth) return;
    const token = bearerToken(req.headers.authorization);
    if (!token) {
      await refuse(req, 'no bearer token');
      throw unauthorized(baseUrl);
    }
    let principal = cache.get(token, Math.floor(Date.now() / 1000));
    if (!principal) {
      try {
        principal = (await verifyAccessToken(keys, settings, token)).principal;
      } catch (err) {
        if (!(err instanceof InvalidToken)) throw err;
        await refuse(req, err.message);
        throw unauthorized(baseUrl, err.message);
      }
      cache.set(token, principal);
    }
    let revoked: boolean;
    try {
      revoked = await revocations.isRevoked(principal.tokenId);
    } catch (err) {
      req.log.error({ err }, 'revocation list unreachable; refusing (fail closed)');
      throw serviceUnavailable('The token revocation list is unreachable, so the token cannot be checked. Retry shortly.');
    }
    req.principal = principal;
    if (revoked) {
      await refuse(req, 'token revoked');
      throw unauthorized(baseUrl, 'the token has been revoked');
    }
    const missing = auth.scopes.filter((s) => !principal.scopes.includes(s));
    if (missing.length > 0) {
      await refuse(req, 'insufficient scope', auth.scopes.join(' '));
      throw insufficientScope(baseUrl, auth.scopes);
    }
  };
}
