/**
 * POST /api/auth/register: dynamic client registration (RFC 7591). Open, as the spec shows no
 * authentication. The secret (client_secret_* methods only) is in this answer and nowhere else.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { recordAudit } from '@vitalis/audit';
import { registerClient, registrationRequestSchema, registrationResponseSchema } from './clients';
import { PATHS, type AuthContext } from './context';
import { OAuthError } from './oauth-errors';
import { oauthErrorSchema, sendOAuthError } from './token-endpoint';

export function registrationRoutes(ctx: AuthContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(PATHS.register, {
      attachValidation: true,
      schema: {
        tags: ['oauth'],
        summary: 'Register a client (RFC 7591)',
        body: registrationRequestSchema,
        response: { 201: registrationResponseSchema, 400: oauthErrorSchema },
      },
    }, async (req, reply) => {
      try {
        if (req.validationError) throw new OAuthError(400, 'invalid_client_metadata', req.validationError.message);
        const registered = await registerClient(ctx.pool, req.body);
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
