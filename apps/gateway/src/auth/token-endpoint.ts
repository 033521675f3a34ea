/**
 * POST /api/auth/oauth2/token (RFC 6749 §3.2): form-encoded, answers `Cache-Control: no-store`
 * and RFC 6749 §5.2 error bodies. Order: the client address's rate limit → grant_type known →
 * client authenticated → the client's own rate limit → client registered for that grant → the
 * grant's own checks. Every issue and every refusal is audited. Also the helpers the three OAuth
 * endpoints share (form bodies, OAuth error answers, their per-address rate limit).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { HttpProblem } from '@vitalis/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAudit } from '@vitalis/audit';
import { GRANT_TYPES } from './clients';
import { authenticateClient, presentedClient } from './client-auth';
import { PATHS, endpointUrl, field, type AuthContext, type Form } from './context';
import { OAuthError, rateLimited } from './oauth-errors';
import type { FailureBudget, RateLimiter, RateLimitVerdict } from './rate-limits';
import { authorizationCodeGrant } from './grants/authorization-code';
import { clientCredentialsGrant } from './grants/client-credentials';
import { refreshTokenGrant } from './grants/refresh-token';
import { publicTokenExchange, tokenExchangeGrant } from './grants/token-exchange';
import type { GrantRequest, GrantResult } from './grants/types';

const HANDLERS: Record<string, (req: GrantRequest) => Promise<GrantResult>> = {
  [GRANT_TYPES.authorizationCode]: authorizationCodeGrant,
  [GRANT_TYPES.refreshToken]: refreshTokenGrant,
  [GRANT_TYPES.clientCredentials]: clientCredentialsGrant,
  [GRANT_TYPES.tokenExchange]: tokenExchangeGrant,
};

export const oauthErrorSchema = z.object({ error: z.string(), error_description: z.string().optional() });
export const formBodySchema = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
const tokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  scope: z.string(),
  refresh_token: z.string().optional(),
  issued_token_type: z.string().optional(),
  id_token: z.string().optional().describe('OpenID Connect ID token: authorization_code and refresh_token grants holding the openid scope'),
  patient: z
    .string()
    .optional()
    .describe("SMART launch context: the signed-in patient user's patient id, when the grant holds launch/patient"),
});

export function sendOAuthError(reply: FastifyReply, err: OAuthError): FastifyReply {
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
  return reply
    .code(err.status)
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .send({ error: err.code, error_description: err.description });
}

/**
 * A route `errorHandler` for the OAuth endpoints: what fails before their handler runs (malformed
 * or empty JSON, a NUL character, a content type no parser takes) answers an RFC 6749 §5.2 / RFC
 * 7591 §3.2.2 body like their own refusals (400; 413 and 415 keep their status), never a problem
 * their response schema does not describe. Server errors go on to the problem handler.
 */
export function oauthRequestErrors(code: 'invalid_request' | 'invalid_client_metadata') {
  return (err: FastifyError, _req: FastifyRequest, reply: FastifyReply) => {
    const status = err instanceof HttpProblem ? err.status : (err.statusCode ?? 500);
    if (status < 400 || status >= 500) throw err;
    return sendOAuthError(reply, new OAuthError(status === 413 || status === 415 ? status : 400, code, err.message));
  };
}

/**
 * RFC 6749 §3.2 / RFC 7009 §2.1 / RFC 7662 §2.1: these endpoints take form bodies only. A JSON
 * body, or fields that are not plain strings, is invalid_request (an OAuth body, not a problem).
 */
export function assertFormRequest(req: FastifyRequest): void {
  const type = String(req.headers['content-type'] ?? '')
    .replace(/;[\s\S]*/, '') // the media type before its parameters
    .trim()
    .toLowerCase();
  if (type !== 'application/x-www-form-urlencoded')
    throw new OAuthError(400, 'invalid_request', 'the body must be application/x-www-form-urlencoded');
  if (req.validationError) throw new OAuthError(400, 'invalid_request', 'the form fields could not be read');
}

/**
 * RFC 8707: a `resource` names where the token will be used; this server issues tokens for itself
 * only (its base URL, or its FHIR base under it), anything else is invalid_target.
 */
function assertResource(ctx: AuthContext, body: Form): void {
  const value = body.resource;
  const resources = Array.isArray(value) ? value : value ? [value] : [];
  const base = ctx.config.baseUrl;
  if (resources.some((r) => r !== base && !r.startsWith(`${base}/`)))
    throw new OAuthError(400, 'invalid_target', `this server only issues tokens for ${base}`);
}

const rateLimitedSchema = oauthErrorSchema.describe('Rate limited: error "temporarily_unavailable"; Retry-After says when to try again');

/**
 * The token, introspection and revocation endpoints each cost a scrypt hash (client secrets): one
 * budget per client address for the three (OAUTH_ADDRESS_RATE_LIMIT per OAUTH_RATE_WINDOW_SECONDS),
 * checked first thing (onRequest, before the body is even parsed). Added to those routes as they
 * are registered (an onRoute hook: call it before registering them), with their 429 documented.
 */
export const SCRYPT_ENDPOINTS: readonly string[] = [PATHS.token, PATHS.introspect, PATHS.revoke];

export function limitOAuthEndpoints(app: FastifyInstance, ctx: AuthContext): void {
  const perAddress = app.rateLimiter({
    name: 'oauth',
    max: ctx.config.OAUTH_ADDRESS_RATE_LIMIT,
    windowSeconds: ctx.config.OAUTH_RATE_WINDOW_SECONDS,
  });
  const check = async (req: FastifyRequest, reply: FastifyReply) => {
    const verdict = await perAddress(req);
    if (verdict.exceeded) {
      if (req.routeOptions.url === PATHS.token) ctx.metrics.tokenRefused('unknown', 'rate_limited');
      return sendOAuthError(reply, tooMany(verdict, 'from this address'));
    }
  };
  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.method !== 'POST' || !SCRYPT_ENDPOINTS.includes(route.url)) return;
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    route.schema = {
      ...schema,
      response: { ...(schema.response as object | undefined), 429: rateLimitedSchema },
      'x-rate-limited': true,
    } as RouteOptions['schema'];
    const own = route.onRequest;
    route.onRequest = [...(own ? (Array.isArray(own) ? own : [own]) : []), check];
  });
}

function tooMany(verdict: RateLimitVerdict, who: string): OAuthError {
  return rateLimited(`too many requests ${who} (${verdict.max} per window); retry after ${verdict.resetSeconds} s`, verdict.resetSeconds);
}

/** The grant type as a metric label: one of ours, or a fixed word (never what the client sent). */
const grantLabel = (grantType: string | undefined): string =>
  grantType === undefined ? 'none' : Object.hasOwn(HANDLERS, grantType) ? grantType : 'unsupported';

export function clientAuthContext(ctx: AuthContext, path: string) {
  return {
    pool: ctx.pool,
    redis: ctx.redis,
    issuer: ctx.config.baseUrl,
    audiences: [...new Set([ctx.config.baseUrl, endpointUrl(ctx, PATHS.token), endpointUrl(ctx, path)])],
    keySets: ctx.keySets,
  };
}

/** The token endpoint's own budgets: requests per authenticated client, and failed client authentications. */
interface TokenLimits {
  perClient: RateLimiter;
  authFailures: FailureBudget;
}

/** How far a token request got: what its refusal's audit row, metric and failure count name. */
interface TokenAttempt {
  clientId?: string;
  presentedId?: string;
  grantType?: string;
}

/** The token endpoint: its two budgets, then the one route (the handler is answerTokenRequest). */
export function tokenEndpoint(ctx: AuthContext): FastifyPluginAsyncZod {
  return async (app) => {
    const limits: TokenLimits = {
      perClient: app.rateLimiter({
        name: 'oauth-token',
        by: 'client',
        max: ctx.config.OAUTH_CLIENT_RATE_LIMIT,
        windowSeconds: ctx.config.OAUTH_RATE_WINDOW_SECONDS,
      }),
      // Failed client authentications (invalid_client) have a tighter budget of their own, per address
      // and per presented client id, checked before any secret is hashed or key set fetched.
      authFailures: app.failureBudget({
        name: 'oauth-auth-failures',
        max: ctx.config.OAUTH_AUTH_FAILURE_ADDRESS_LIMIT,
        clientMax: ctx.config.OAUTH_AUTH_FAILURE_CLIENT_LIMIT,
        windowSeconds: ctx.config.OAUTH_RATE_WINDOW_SECONDS,
      }),
    };
    app.post(
      PATHS.token,
      {
        attachValidation: true,
        errorHandler: oauthRequestErrors('invalid_request'),
        schema: {
          tags: ['oauth'],
          summary: 'Token endpoint: client_credentials, authorization_code (PKCE), refresh_token, token exchange (RFC 8693)',
          consumes: ['application/x-www-form-urlencoded'],
          body: formBodySchema.meta({ example: { grant_type: 'client_credentials', scope: 'read:vitals write:vitals' } }),
          response: { 200: tokenResponseSchema, 400: oauthErrorSchema, 401: oauthErrorSchema },
        },
      },
      async (req: FastifyRequest<{ Body: Form }>, reply) => answerTokenRequest(ctx, limits, req, reply),
    );
  };
}

/**
 * One token request, in the module's order: form, grant_type known, resource, the failed-auth
 * budget, client authenticated, the client's own budget, client registered for the grant, the
 * grant. The issue is audited and counted here; an OAuth refusal goes to refuseToken.
 */
async function answerTokenRequest(
  ctx: AuthContext,
  limits: TokenLimits,
  req: FastifyRequest<{ Body: Form }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const attempt: TokenAttempt = {};
  try {
    assertFormRequest(req);
    const body = req.body ?? {};
    const grantType = field(body, 'grant_type');
    attempt.grantType = grantType;
    if (!grantType) throw new OAuthError(400, 'invalid_request', 'grant_type is required');
    // Own keys only: a grant_type of `constructor` must not find Object's.
    const handler = Object.hasOwn(HANDLERS, grantType) ? HANDLERS[grantType] : undefined;
    if (!handler) throw new OAuthError(400, 'unsupported_grant_type', `grant_type ${grantType} is not supported`);
    assertResource(ctx, body);
    // Token exchange may come without client authentication (spec section 5 step 5): the public form.
    const auth = clientAuthContext(ctx, PATHS.token);
    attempt.presentedId = presentedClient(req.headers.authorization, body)?.clientId;
    const spent = await limits.authFailures.check(req, attempt.presentedId);
    if (spent.exceeded) {
      ctx.metrics.tokenRefused(grantLabel(grantType), 'rate_limited');
      return sendOAuthError(
        reply,
        rateLimited(
          `too many failed client authentications from this address or for this client; retry after ${spent.resetSeconds} s`,
          spent.resetSeconds,
        ),
      );
    }
    const client =
      grantType === GRANT_TYPES.tokenExchange
        ? await authenticateClient(auth, req.headers.authorization, body, false)
        : await authenticateClient(auth, req.headers.authorization, body);
    attempt.clientId = client?.clientId;
    if (client) {
      // Counted once the client is authenticated, so nobody can spend another client's budget.
      const verdict = await limits.perClient(req, client.clientId);
      if (verdict.exceeded) {
        ctx.metrics.tokenRefused(grantLabel(grantType), 'rate_limited');
        return sendOAuthError(reply, tooMany(verdict, 'for this client'));
      }
      if (!client.grantTypes.includes(grantType))
        throw new OAuthError(400, 'unauthorized_client', `this client is not registered for ${grantType}`);
    }
    const result = client ? await handler({ ctx, client, body }) : await publicTokenExchange(ctx, body);
    await recordAudit(ctx.pool, {
      action: result.audit.action,
      outcome: 'success',
      clientId: attempt.clientId,
      subject: result.audit.subject,
      scope: result.audit.scope,
      resourceType: 'Token',
      requestId: req.id,
      ip: req.ip,
      detail: result.audit.detail,
    });
    ctx.metrics.tokenIssued(grantLabel(grantType));
    return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(result.response);
  } catch (err) {
    if (!(err instanceof OAuthError)) throw err;
    return refuseToken(ctx, limits, req, reply, attempt, err);
  }
}

/**
 * A refused token request: an invalid_client spends the failed-auth budget, the refusal is audited
 * (token.refused, with the error's own audit detail) and counted, and the RFC 6749 §5.2 body sent.
 */
async function refuseToken(
  ctx: AuthContext,
  limits: TokenLimits,
  req: FastifyRequest,
  reply: FastifyReply,
  attempt: TokenAttempt,
  err: OAuthError,
): Promise<FastifyReply> {
  if (err.code === 'invalid_client') await limits.authFailures.failed(req, attempt.presentedId);
  const { subject, ...detail } = err.auditDetail;
  await recordAudit(ctx.pool, {
    action: 'token.refused',
    outcome: 'failure',
    clientId: attempt.clientId,
    subject: typeof subject === 'string' ? subject : undefined,
    resourceType: 'Token',
    requestId: req.id,
    ip: req.ip,
    detail: { error: err.code, reason: err.description, grant_type: attempt.grantType, ...detail },
  });
  ctx.metrics.tokenRefused(grantLabel(attempt.grantType), err.code);
  return sendOAuthError(reply, err);
}
