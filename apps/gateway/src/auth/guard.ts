/**
 * The one enforcement point for protected routes. A route declares `config.auth` (`scopes`: every
 * one; `anyOf`: at least one); this onRequest hook hands the request's Bearer token to the one
 * bearer check (`bearer.ts`: signature, issuer, audience, expiry, revocation, scopes, refusal
 * audit) and sets `request.principal`. Routes never check tokens themselves. Routes without
 * `config.auth` are public. Every refusal has one shape: 401 `unauthorized` (spec section 7 body)
 * and 403 `insufficientScope` (oauth-errors.ts), both `application/json` with WWW-Authenticate;
 * the services' resource-level refusals (a patient user and another patient's record) are built
 * by the same `insufficientScope`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken, type BearerAuthenticator, type BearerContext } from './bearer';
import { requirementOf } from './route-auth';

/** What the bearer check records about a request when it refuses one. */
export const bearerContextOf = (req: FastifyRequest, detail?: Record<string, unknown>): BearerContext => ({
  requestId: req.id,
  ip: req.ip,
  route: req.routeOptions.url,
  method: req.method,
  ...(detail ? { detail } : {}),
});

export function authGuard(bearer: BearerAuthenticator) {
  return async function authenticate(req: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const auth = req.routeOptions.config.auth;
    if (!auth) return;
    req.principal = await bearer.authenticate(bearerToken(req.headers.authorization), requirementOf(auth), bearerContextOf(req));
  };
}
