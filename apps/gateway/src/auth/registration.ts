/**
 * POST /api/auth/register: dynamic client registration (RFC 7591). Open, as the spec shows no
 * authentication, unless REGISTRATION_ACCESS_TOKEN is set (then an RFC 7591 §3 initial access
 * token is required: open registration lets anyone mint client_credentials tokens for any scope). The secret (client_secret_* methods only) is in this answer and nowhere else.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { recordAudit } from '@vitalis/audit';
import { registerClient, registrationRequestSchema, registrationResponseSchema } from './clients';
import { PATHS, type AuthContext } from './context';
import { bearerToken } from './guard';
import { OAuthError } from './oauth-errors';
import { oauthErrorSchema, sendOAuthError } from './token-endpoint';

function initialAccessTokenOk(header: string | undefined, expected: string): boolean {
  const presented = bearerToken(header);
  if (!presented) return false;
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export function registrationRoutes(ctx: AuthContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(PATHS.register, {
      attachValidation: true,
      schema: {
        tags: ['oauth'],
        summary: 'Register a client (RFC 7591)',
        body: registrationRequestSchema,
        response: { 201: registrationResponseSchema, 400: oauthErrorSchema, 401: oauthErrorSchema },
      },
    }, async (req, reply) => {
      if (ctx.config.REGISTRATION_ACCESS_TOKEN && !initialAccessTokenOk(req.headers.authorization, ctx.config.REGISTRATION_ACCESS_TOKEN)) {
        // RFC 7591 §3: errors on the initial access token follow RFC 6750.
        await recordAudit(ctx.pool, { action: 'client.refused', outcome: 'failure', requestId: req.id, ip: req.ip, detail: { error: 'invalid_token', reason: 'missing or wrong initial access token' } });
        return reply
          .code(401)
          .header('www-authenticate', `Bearer realm="vitalis", error="invalid_token", error_description="registration requires an initial access token"`)
          .header('cache-control', 'no-store')
          .send({ error: 'invalid_token', error_description: 'registration requires an initial access token' });
      }
      try {
        if (req.validationError) throw new OAuthError(400, 'invalid_client_metadata', req.validationError.message);
        const registered = await registerClient(ctx.pool, req.body, { jwksAllowHosts: ctx.keySets.allowHosts });
        await recordAudit(ctx.pool, {
          action: 'client.registered',
          outcome: 'success',
          clientId: registered.client_id,
          scope: registered.scope,
          resourceType: 'Client',
          resourceId: registered.client_id,
          requestId: req.id,
          ip: req.ip,
          detail: { grant_types: registered.grant_types, token_endpoint_auth_method: registered.token_endpoint_auth_method },
        });
        return reply.code(201).header('cache-control', 'no-store').header('pragma', 'no-cache').send(registered);
      } catch (err) {
        if (!(err instanceof OAuthError)) throw err;
        await recordAudit(ctx.pool, { action: 'client.refused', outcome: 'failure', requestId: req.id, ip: req.ip, detail: { error: err.code, reason: err.description } });
        return sendOAuthError(reply, err);
      }
    });
  };
}
