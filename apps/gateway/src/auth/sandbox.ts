/**
 * POST|GET /api/v1/sandbox: immediate evaluation credentials without registration: a fresh
 * sandbox client (expiring with its token) and an access token with read-only demo scopes.
 * Rate-limited per client address with a Redis fixed window shared by every instance;
 * over the limit: 429 problem with Retry-After (seconds to the end of the window).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAudit } from '@vitalis/audit';
import { HttpProblem, tooManyRequests } from '@vitalis/http';
import { SANDBOX_SCOPES } from '@vitalis/schemas';
import { registerClient } from './clients';
import { PATHS, endpointUrl, type AuthContext } from './context';
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

/** Fixed window per address: one INCR+EXPIRE round trip; the window's end gives Retry-After. */
async function countRequest(ctx: AuthContext, ip: string): Promise<{ count: number; retryAfter: number }> {
  const window = ctx.config.SANDBOX_RATE_WINDOW_SECONDS;
  const now = Math.floor(Date.now() / 1000);
  const slot = Math.floor(now / window);
  const key = `vitalis:sandbox:${ip}:${slot}`;
  const results = await ctx.redis.multi().incr(key).expire(key, window + 1).exec();
  const count = Number(results?.[0]?.[1] ?? Number.POSITIVE_INFINITY);
  return { count, retryAfter: Math.max(1, (slot + 1) * window - now) };
}

export function sandboxRoutes(ctx: AuthContext): FastifyPluginAsyncZod {
  const { config, pool } = ctx;
  const sandbox = async (req: FastifyRequest, reply: FastifyReply) => {
    if (!config.sandbox) throw new HttpProblem(404, 'not-found', 'Not Found', 'The sandbox is disabled on this server.');
    const limit = config.SANDBOX_RATE_LIMIT;
    const { count, retryAfter } = await countRequest(ctx, req.ip);
    reply.header('ratelimit-limit', String(limit));
    reply.header('ratelimit-remaining', String(Math.max(0, limit - count)));
    reply.header('ratelimit-reset', String(retryAfter));
    if (count > limit) {
      await recordAudit(pool, { action: 'sandbox.refused', outcome: 'failure', requestId: req.id, ip: req.ip, detail: { reason: 'rate limit' } });
      throw tooManyRequests(`Sandbox credentials are limited to ${limit} per ${config.SANDBOX_RATE_WINDOW_SECONDS} s per address. Retry after ${retryAfter} s.`, retryAfter);
    }
    const ttl = config.SANDBOX_TOKEN_TTL_SECONDS;
    const client = await registerClient(pool, {
      client_name: 'sandbox',
      grant_types: ['client_credentials'],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_post',
      scope: SANDBOX_SCOPES.join(' '),
      redirect_uris: [],
    }, { registration: 'sandbox', role: null }, { expiresAt: new Date(Date.now() + ttl * 1000) });
    const issued = await issueAccessToken(ctx.keys, ctx.tokenSettings, {
      clientId: client.client_id,
      subject: client.client_id,
      scopes: SANDBOX_SCOPES,
      roles: [],
      authMethod: 'sandbox',
      sandbox: true,
    }, ttl);
    await recordAudit(pool, { action: 'token.issued', outcome: 'success', clientId: client.client_id, subject: client.client_id, scope: client.scope, resourceType: 'Token', requestId: req.id, ip: req.ip, detail: { jti: issued.jti, grant_type: 'sandbox' } });
    return reply.code(201).header('cache-control', 'no-store').send({
      client_id: client.client_id,
      client_secret: client.client_secret!,
      client_secret_expires_at: client.client_secret_expires_at!,
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
    app.post(PATHS.sandbox, { schema }, sandbox);
    app.get(PATHS.sandbox, { schema }, sandbox);
  };
}
