/**
 * POST|GET /api/v1/sandbox: immediate evaluation credentials without registration: a fresh
 * sandbox client (expiring with its token) and an access token with read-only demo scopes.
 * Rate-limited per client address (SANDBOX_RATE_LIMIT per SANDBOX_RATE_WINDOW_SECONDS, the
 * gateway's one rate-limit mechanism, rate-limits.ts); over the limit: 429 problem with
 * Retry-After (seconds to the end of the window) whose detail says to wait or register a client.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { must } from '@vitalis/runtime';
import { recordAudit } from '@vitalis/audit';
import { problemOf, tooManyRequests } from '@vitalis/http';
import { SANDBOX_SCOPES } from '@vitalis/schemas';
import { registerClient } from './clients';
import { PATHS, endpointUrl, type AuthContext } from './context';
import type { RateLimiter } from './rate-limits';
import { issueAccessToken } from './tokens';

const sandboxResponse = z.object({
  client_id: z.string(),
  client_secret: z.string(),
  client_secret_expires_at: z.number().int(),
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  scope: z.string(),
  token_endpoint: z.string(),
});

/**
 * The 429's detail: what happened (the budget is per address, so everyone behind one address, a
 * hospital's NAT or a CI runner, shares it) and what to do (wait, or register a client, which
 * needs no sandbox credentials).
 */
export function sandboxExhausted(baseUrl: string, max: number, windowSeconds: number, retryAfterSeconds: number): string {
  return (
    `The sandbox hands out ${max} credentials per ${windowSeconds} s to each network address, shared by everyone behind yours, ` +
    `and they are used up. Retry after ${retryAfterSeconds} s (Retry-After), or register a client of your own instead: ` +
    `POST ${baseUrl}${PATHS.register} then the client_credentials grant, which need no sandbox credentials (${baseUrl}/auth.md, steps 2 and 3).`
  );
}

/** Registers a sandbox client (it expires with its token), issues its access token, and audits the issue. */
async function issueSandboxCredentials(ctx: AuthContext, req: FastifyRequest) {
  const { config, pool } = ctx;
  const ttl = config.SANDBOX_TOKEN_TTL_SECONDS;
  const client = await registerClient(
    pool,
    {
      client_name: 'sandbox',
      grant_types: ['client_credentials'],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_post',
      scope: SANDBOX_SCOPES.join(' '),
      redirect_uris: [],
    },
    { registration: 'sandbox', role: null },
    { expiresAt: new Date(Date.now() + ttl * 1000) },
  );
  const issued = await issueAccessToken(
    ctx.keys,
    ctx.tokenSettings,
    {
      clientId: client.client_id,
      subject: client.client_id,
      scopes: SANDBOX_SCOPES,
      roles: [],
      authMethod: 'sandbox',
      sandbox: true,
    },
    ttl,
  );
  await recordAudit(pool, {
    action: 'token.issued',
    outcome: 'success',
    clientId: client.client_id,
    subject: client.client_id,
    scope: client.scope,
    resourceType: 'Token',
    requestId: req.id,
    ip: req.ip,
    detail: { jti: issued.jti, grant_type: 'sandbox' },
  });
  return { client, issued, ttl };
}

export function sandboxRoutes(ctx: AuthContext): FastifyPluginAsyncZod {
  const { config } = ctx;
  const sandbox = (limiter: RateLimiter) => async (req: FastifyRequest, reply: FastifyReply) => {
    if (!config.sandbox) throw problemOf('not-found', 'The sandbox is disabled on this server.');
    const verdict = await limiter(req);
    reply.header('ratelimit-limit', String(verdict.max));
    reply.header('ratelimit-remaining', String(verdict.remaining));
    reply.header('ratelimit-reset', String(verdict.resetSeconds));
    if (verdict.exceeded) {
      throw tooManyRequests(
        sandboxExhausted(config.baseUrl, verdict.max, config.SANDBOX_RATE_WINDOW_SECONDS, verdict.resetSeconds),
        verdict.resetSeconds,
      );
    }
    const { client, issued, ttl } = await issueSandboxCredentials(ctx, req);
    return reply
      .code(201)
      .header('cache-control', 'no-store')
      .send({
        client_id: client.client_id,
        client_secret: must(client.client_secret, 'the secret of the sandbox client just registered'),
        client_secret_expires_at: must(client.client_secret_expires_at, 'the secret expiry of the sandbox client just registered'),
        access_token: issued.token,
        token_type: 'Bearer' as const,
        expires_in: ttl,
        scope: client.scope,
        token_endpoint: endpointUrl(ctx, PATHS.token),
      });
  };
  const schema = {
    tags: ['oauth'],
    summary: 'Immediate, rate-limited sandbox credentials (read-only demo scopes)',
    response: { 201: sandboxResponse },
    // read by the OpenAPI document (adds the 429 problem response)
    'x-rate-limited': true,
  };
  return async (app) => {
    const handler = sandbox(
      app.rateLimiter({ name: 'sandbox', max: config.SANDBOX_RATE_LIMIT, windowSeconds: config.SANDBOX_RATE_WINDOW_SECONDS }),
    );
    app.post(PATHS.sandbox, { schema }, handler);
    app.get(PATHS.sandbox, { schema }, handler);
  };
}
