/**
 * Revocation (RFC 7009) and introspection (RFC 7662).
 *
 * Revocation asks for no client authentication: the spec shows none, and holding a bearer token
 * is proof enough to kill it (anyone who could misuse it could also just use it). A client that
 * does identify itself (authenticated, or a public client's client_id) must do so correctly (wrong
 * credentials → 401) and may revoke only its own tokens (RFC 7009 §2.1): another client's token is
 * left alone and the refusal audited. The answer is 200 whatever the token was, so it reveals
 * nothing. An access token dies at once on every instance (Redis, with
 * the PostgreSQL record behind it); a refresh token takes its whole family and the family's live
 * access tokens with it.
 *
 * Introspection requires a confidential client, and answers only about tokens issued to that
 * client; anything else is {"active": false}. (Resource servers verify our JWTs locally via JWKS.)
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAudit } from '@vitalis/audit';
import { serviceUnavailable } from '@vitalis/http';
import { authenticateClient, invalidClient } from './client-auth';
import { PATHS, field, type AuthContext, type Form } from './context';
import { OAuthError, invalidRequest } from './oauth-errors';
import { refreshTokenInfo, revokeGrant } from './grants/store';
import {
  assertFormRequest,
  clientAuthContext,
  formBodySchema,
  oauthErrorSchema,
  oauthRequestErrors,
  sendOAuthError,
} from './token-endpoint';
import { InvalidToken, verifyAccessToken } from './tokens';

const looksLikeJwt = (token: string) => token.split('.').length === 3;

/** RFC 7009 §2.1: a client revokes only its own tokens. Nothing revoked, nothing told (still 200). */
const refuseForeign = (ctx: AuthContext, req: { id: string; ip: string }, callerId: string, tokenType: string) =>
  recordAudit(ctx.pool, {
    action: 'token.revoke_refused',
    outcome: 'failure',
    clientId: callerId,
    requestId: req.id,
    ip: req.ip,
    detail: { reason: 'the token belongs to another client', token_type: tokenType },
  });

const introspectionResponse = z.object({
  active: z.boolean(),
  token_type: z.string().optional(),
  scope: z.string().optional(),
  client_id: z.string().optional(),
  sub: z.string().optional(),
  iss: z.string().optional(),
  aud: z.union([z.string(), z.array(z.string())]).optional(),
  exp: z.number().int().optional(),
  iat: z.number().int().optional(),
  nbf: z.number().int().optional(),
  jti: z.string().optional(),
  roles: z.array(z.string()).optional(),
  patient_id: z.string().optional(),
  auth_method: z.string().optional(),
  act: z.unknown().optional(),
});

/** The two routes: revocation (answerRevocation) and introspection (answerIntrospection). */
export function revocationRoutes(ctx: AuthContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      PATHS.revoke,
      {
        attachValidation: true,
        errorHandler: oauthRequestErrors('invalid_request'),
        schema: {
          tags: ['oauth'],
          summary: 'Revoke an access or refresh token (RFC 7009)',
          consumes: ['application/x-www-form-urlencoded'],
          // The form as RFC 7009 §2.1 has it; a refusal is still the RFC 6749 error body (attachValidation).
          body: z.looseObject({ token: z.string().min(1), token_type_hint: z.string().optional() }).meta({
            example: { token: 'eyJhbGciOiJFUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiJjbGllbnQifQ.c2ln', token_type_hint: 'access_token' },
          }),
          response: { 200: z.object({}), 400: oauthErrorSchema, 401: oauthErrorSchema },
        },
      },
      async (req, reply) => answerRevocation(ctx, req, reply),
    );

    app.post(
      PATHS.introspect,
      {
        attachValidation: true,
        errorHandler: oauthRequestErrors('invalid_request'),
        schema: {
          tags: ['oauth'],
          summary: 'Introspect a token issued to the calling client (RFC 7662)',
          consumes: ['application/x-www-form-urlencoded'],
          body: formBodySchema.meta({
            example: { token: 'eyJhbGciOiJFUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiJjbGllbnQifQ.c2ln', token_type_hint: 'access_token' },
          }),
          response: { 200: introspectionResponse, 400: oauthErrorSchema, 401: oauthErrorSchema },
        },
      },
      async (req, reply) => answerIntrospection(ctx, req, reply),
    );
  };
}

/**
 * One revocation request: the form, the token, and the caller if it identifies itself (wrong
 * credentials are refused and audited); then revokeAsked, and 200 whatever the token was.
 */
async function answerRevocation(ctx: AuthContext, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  reply.header('cache-control', 'no-store');
  const body = (req.body ?? {}) as Form;
  let token: string | undefined;
  let hint: string | undefined;
  let callerId: string | undefined;
  try {
    assertFormRequest(req);
    token = field(body, 'token');
    hint = field(body, 'token_type_hint'); // advisory (RFC 7009 §2.1): only decides which lookup runs first
    if (!token) throw invalidRequest('token is required');
    callerId = (await authenticateClient(clientAuthContext(ctx, PATHS.revoke), req.headers.authorization, body, false))?.clientId;
  } catch (err) {
    if (!(err instanceof OAuthError)) throw err;
    await recordAudit(ctx.pool, {
      action: 'token.revoke_refused',
      outcome: 'failure',
      clientId: callerId,
      requestId: req.id,
      ip: req.ip,
      detail: { error: err.code, reason: err.description },
    });
    return sendOAuthError(reply, err);
  }
  await revokeAsked(ctx, req, token, hint, callerId);
  return reply.code(200).send({});
}

/**
 * Revokes the token if it is one of ours and the caller's (or the caller is anonymous): an access
 * token by its jti, a refresh token with its whole family. The hint only decides which lookup runs
 * first. A store failure is a 503 saying the token is not yet revoked.
 */
async function revokeAsked(ctx: AuthContext, req: FastifyRequest, token: string, hint: string | undefined, callerId: string | undefined) {
  const { pool, keys, tokenSettings, revocations } = ctx;
  try {
    const order = hint === 'refresh_token' || !looksLikeJwt(token) ? ['refresh', 'access'] : ['access', 'refresh'];
    for (const kind of order) {
      if (kind === 'access' && looksLikeJwt(token)) {
        try {
          const { principal } = await verifyAccessToken(keys, tokenSettings, token, { allowExpired: true });
          if (callerId !== undefined && principal.clientId !== callerId) {
            await refuseForeign(ctx, req, callerId, 'access_token');
            break;
          }
          await revocations.revoke(principal.tokenId, principal.expiresAt);
          await recordAudit(pool, {
            action: 'token.revoked',
            outcome: 'success',
            clientId: principal.clientId,
            subject: principal.subject,
            scope: principal.scopes.join(' '),
            resourceType: 'Token',
            requestId: req.id,
            ip: req.ip,
            detail: { jti: principal.tokenId, token_type: 'access_token', by_client: callerId ?? null },
          });
          break;
        } catch (err) {
          if (!(err instanceof InvalidToken)) throw err; // unknown or foreign: nothing to revoke
        }
      }
      if (kind === 'refresh') {
        const info = await refreshTokenInfo(pool, token);
        if (info && callerId !== undefined && info.grant.clientId !== callerId) {
          await refuseForeign(ctx, req, callerId, 'refresh_token');
          break;
        }
        if (info) {
          const killed = await revokeGrant(pool, revocations, info.grant.grantId, 'refresh token revoked');
          await recordAudit(pool, {
            action: 'token.revoked',
            outcome: 'success',
            clientId: info.grant.clientId,
            subject: info.grant.userId,
            scope: info.scope,
            resourceType: 'Token',
            requestId: req.id,
            ip: req.ip,
            detail: {
              token_type: 'refresh_token',
              grant_id: info.grant.grantId,
              revoked_access_tokens: killed,
              by_client: callerId ?? null,
            },
          });
          break;
        }
      }
    }
  } catch (err) {
    req.log.error({ err }, 'revocation could not be recorded');
    throw serviceUnavailable('The revocation could not be recorded; retry shortly. The token is not yet revoked.');
  }
}

/**
 * One introspection request: a confidential client only, and only about its own live tokens;
 * anything else is {"active": false}. OAuth refusals are RFC 6749 §5.2 bodies.
 */
async function answerIntrospection(ctx: AuthContext, req: FastifyRequest, reply: FastifyReply) {
  const { pool, keys, tokenSettings, revocations } = ctx;
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  const body = (req.body ?? {}) as Form;
  try {
    assertFormRequest(req);
    const token = field(body, 'token');
    field(body, 'token_type_hint');
    const client = await authenticateClient(clientAuthContext(ctx, PATHS.introspect), req.headers.authorization, body);
    if (client.usedMethod === 'none') throw invalidClient('introspection requires a confidential client', false);
    if (!token) throw invalidRequest('token is required');
    if (looksLikeJwt(token)) {
      try {
        const { principal: p, payload } = await verifyAccessToken(keys, tokenSettings, token);
        if (p.clientId === client.clientId && !(await revocations.isChainRevoked(p))) {
          return {
            active: true,
            token_type: 'Bearer',
            scope: p.scopes.join(' '),
            client_id: p.clientId,
            sub: p.subject,
            iss: String(payload.iss),
            ...(payload.aud ? { aud: payload.aud } : {}),
            exp: p.expiresAt,
            ...(payload.iat ? { iat: payload.iat } : {}),
            ...(payload.nbf ? { nbf: payload.nbf } : {}),
            jti: p.tokenId,
            roles: p.roles,
            ...(p.patientId ? { patient_id: p.patientId } : {}),
            auth_method: p.authMethod,
            ...(p.actor ? { act: p.actor } : {}),
          };
        }
      } catch (err) {
        if (!(err instanceof InvalidToken)) throw err;
      }
      return { active: false };
    }
    const info = await refreshTokenInfo(pool, token);
    if (info?.active && info.grant.clientId === client.clientId) {
      return {
        active: true,
        token_type: 'refresh_token',
        scope: info.scope,
        client_id: info.grant.clientId,
        sub: info.grant.userId,
        iss: ctx.config.baseUrl,
        exp: info.expiresAt,
        iat: info.createdAt,
      };
    }
    return { active: false };
  } catch (err) {
    if (err instanceof OAuthError) return sendOAuthError(reply, err);
    throw err;
  }
}
