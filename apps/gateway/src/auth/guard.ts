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
import type { FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
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

/**
 * `Cache-Control: no-store` on every answer of a route that requires authentication (it declares
 * `config.auth`), and on every answer to a request that presented a credential (the MCP endpoint
 * and the WebSocket check theirs themselves): success or refusal, they carry PHI or a token, or
 * say something about one, and no shared or browser cache may keep them (RFC 9111 §5.2.2.5).
 * One onSend hook on the root instance (the auth plugin), so no route can forget it.
 */
export const noStoreWhenAuthenticated: onSendHookHandler = async (req, reply, payload) => {
  if (req.routeOptions.config?.auth !== undefined || req.headers.authorization !== undefined) reply.header('cache-control', 'no-store');
  return payload;
};
