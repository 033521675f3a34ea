/**
 * The OAuth 2 surface (service spec sections 4, 5, 7, 8): discovery, JWKS, dynamic client
 * registration, the token endpoint (client_credentials), revocation, the identity probe and the
 * sandbox. OAuth endpoints answer OAuth error bodies; protected resources answer problems.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAudit } from '@vitalis/audit';
import { tooManyRequests, HttpProblem } from '@vitalis/http';
import { SCOPE_NAMES, type Scope } from '@vitalis/schemas';
import type { GatewayDeps } from '../deps';
import {
  authenticateClient,
  parseScopes,
  presentedCredentials,
  registerClient,
  registrationRequestSchema,
  registrationResponseSchema,
  SUPPORTED_AUTH_METHODS,
  SUPPORTED_GRANTS,
} from './clients';
import type { KeyStore } from './keys';
import { OAuthError } from './oauth-errors';
import type { RevocationList } from './revocation';
import { issueAccessToken, verifyAccessToken, InvalidToken, type TokenSettings } from './tokens';

export const PATHS = {
  register: '/api/auth/register',
  token: '/api/auth/oauth2/token',
  revoke: '/api/auth/revoke',
  jwks: '/.well-known/jwks.json',
  identity: '/agent/identity',
  sandbox: '/api/v1/sandbox',
} as const;

/** Read-only demo scopes for sandbox credentials: no patient demographics. */
export const SANDBOX_SCOPES: Scope[] = ['read:appointments', 'read:vitals'];

export interface AuthRouteDeps extends GatewayDeps {
  keys: KeyStore;
  revocations: RevocationList;
  tokenSettings: TokenSettings;
}

const oauthErrorSchema = z.object({ error: z.string(), error_description: z.string().optional() });
const tokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  scope: z.string(),
});
const formBody = z.record(z.string(), z.union([z.string(), z.array(z.string())]));

function sendOAuthError(reply: FastifyReply, err: OAuthError): FastifyReply {
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
  return reply.code(err.status).header('cache-control', 'no-store').send({ error: err.code, error_description: err.description });
}

/** One string value of a form field; repeated parameters are invalid (RFC 6749 §3.1). */
function field(body: Record<string, string | string[]>, name: string): string | undefined {
  const value = body[name];
  if (Array.isArray(value)) throw new OAuthError(400, 'invalid_request', `${name} must not be repeated`);
  return value;
}

export function authorizationServerMetadata(baseUrl: string) {
  return {
    issuer: baseUrl,
    token_endpoint: `${baseUrl}${PATHS.token}`,
    jwks_uri: `${baseUrl}${PATHS.jwks}`,
    registration_endpoint: `${baseUrl}${PATHS.register}`,
    revocation_endpoint: `${baseUrl}${PATHS.revoke}`,
    revocation_endpoint_auth_methods_supported: ['none'],
    scopes_supported: SCOPE_NAMES,
    response_types_supported: ['token'],
    grant_types_supported: [...SUPPORTED_GRANTS],
    token_endpoint_auth_methods_supported: [...SUPPORTED_AUTH_METHODS],
    code_challenge_methods_supported: ['S256'],
    service_documentation: `${baseUrl}/auth.md`,
  };
}

export function authRoutes(deps: AuthRouteDeps): FastifyPluginAsyncZod {
  const { config, pool, redis, keys, revocations, tokenSettings } = deps;
  const base = config.baseUrl;
  const audit = (req: FastifyRequest, event: Omit<Parameters<typeof recordAudit>[1], 'requestId' | 'ip'>) =>
    recordAudit(pool, { ...event, requestId: req.id, ip: req.ip });

  return async (app) => {
    // ---- discovery ------------------------------------------------------------------------
    app.get('/.well-known/oauth-protected-resource', {
      schema: { tags: ['discovery'], summary: 'Protected Resource Metadata (RFC 9728)' },
    }, async (_req, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return {
        resource: base,
        authorization_servers: [base],
        scopes_supported: SCOPE_NAMES,
        bearer_methods_supported: ['header'],
        resource_signing_alg_values_supported: ['ES256'],
        resource_name: 'Vitalis API',
        resource_documentation: `${base}/auth.md`,
      };
    });

    const metadata = async (_req: FastifyRequest, reply: FastifyReply) => {
      reply.header('cache-control', 'public, max-age=300');
      return authorizationServerMetadata(base);
    };
    app.get('/.well-known/oauth-authorization-server', { schema: { tags: ['discovery'], summary: 'Authorization Server Metadata (RFC 8414)' } }, metadata);
    // The same OAuth metadata at the OpenID path: Vitalis issues no ID tokens (no OpenID Connect
    // login yet), but clients that discover through this path find the same endpoints.
    app.get('/.well-known/openid-configuration', { schema: { tags: ['discovery'], summary: 'OpenID configuration (same metadata as RFC 8414)' } }, metadata);

    app.get(PATHS.jwks, { schema: { tags: ['discovery'], summary: 'Token signing keys (JWK Set)' } }, async (_req, reply) => {
      reply.header('cache-control', 'public, max-age=60');
      return keys.jwks();
    });

    // ---- registration (RFC 7591) -------------------------------------------------------------
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
        const registered = await registerClient(pool, req.body);
        await audit(req, { action: 'client.registered', outcome: 'success', clientId: registered.client_id, scope: registered.scope });
        return reply.code(201).header('cache-control', 'no-store').send(registered);
      } catch (err) {
        if (err instanceof OAuthError) return sendOAuthError(reply, err);
        throw err;
      }
    });

    // ---- token endpoint ------------------------------------------------------------------------
    app.post(PATHS.token, {
      schema: {
        tags: ['oauth'],
        summary: 'Issue an access token (client_credentials)',
        consumes: ['application/x-www-form-urlencoded'],
        body: formBody,
        response: { 200: tokenResponseSchema, 400: oauthErrorSchema, 401: oauthErrorSchema },
      },
    }, async (req, reply) => {
      let clientId: string | undefined;
      try {
        const body = req.body;
        const grantType = field(body, 'grant_type');
        if (!grantType) throw new OAuthError(400, 'invalid_request', 'grant_type is required');
        if (grantType !== 'client_credentials') throw new OAuthError(400, 'unsupported_grant_type', `grant_type ${grantType} is not supported`);
        const client = await authenticateClient(pool, presentedCredentials(req.headers.authorization, body));
        clientId = client.clientId;
        if (!client.grantTypes.includes('client_credentials')) throw new OAuthError(400, 'unauthorized_client', 'this client may not use client_credentials');
        const requested = field(body, 'scope');
        const { scopes, unknown } = parseScopes(requested);
        if (unknown.length > 0) throw new OAuthError(400, 'invalid_scope', `unknown scope(s): ${unknown.join(', ')}`);
        const beyond = scopes.filter((s) => !client.scopes.includes(s));
        if (beyond.length > 0) throw new OAuthError(400, 'invalid_scope', `scope(s) not registered for this client: ${beyond.join(', ')}`);
        const granted = requested ? scopes : client.scopes;
        const ttl = client.kind === 'sandbox' ? config.SANDBOX_TOKEN_TTL_SECONDS : config.ACCESS_TOKEN_TTL_SECONDS;
        const issued = await issueAccessToken(keys, tokenSettings, {
          clientId: client.clientId,
          subject: client.clientId,
          scopes: granted,
          roles: [],
          authMethod: client.kind === 'sandbox' ? 'sandbox' : 'client_secret',
        }, ttl);
        await audit(req, { action: 'token.issued', outcome: 'success', clientId, subject: clientId, scope: granted.join(' '), detail: { jti: issued.jti, grant_type: grantType } });
        return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send({
          access_token: issued.token,
          token_type: 'Bearer' as const,
          expires_in: ttl,
          scope: granted.join(' '),
        });
      } catch (err) {
        if (!(err instanceof OAuthError)) throw err;
        await audit(req, { action: 'token.refused', outcome: 'failure', clientId, detail: { error: err.code, reason: err.description } });
        return sendOAuthError(reply, err);
      }
    });

    // ---- revocation (RFC 7009) -------------------------------------------------------------------
    // Holding a bearer token is proof enough to kill it, so no client authentication is asked
    // (the spec shows none). The answer is 200 whatever the token was, so it reveals nothing.
    app.post(PATHS.revoke, {
      schema: {
        tags: ['oauth'],
        summary: 'Revoke a token (RFC 7009)',
        consumes: ['application/x-www-form-urlencoded'],
        body: formBody,
        response: { 200: z.object({}), 400: oauthErrorSchema },
      },
    }, async (req, reply) => {
      reply.header('cache-control', 'no-store');
      let token: string | undefined;
      try {
        token = field(req.body, 'token');
        field(req.body, 'token_type_hint'); // advisory only (RFC 7009 §2.1); we hold one token type
      } catch (err) {
        if (err instanceof OAuthError) return sendOAuthError(reply, err);
        throw err;
      }
      if (!token) return sendOAuthError(reply, new OAuthError(400, 'invalid_request', 'token is required'));
      try {
        const { principal } = await verifyAccessToken(keys, tokenSettings, token, { allowExpired: true });
        await revocations.revoke(principal.tokenId, principal.expiresAt);
        await audit(req, { action: 'token.revoked', outcome: 'success', clientId: principal.clientId, subject: principal.subject, detail: { jti: principal.tokenId } });
      } catch (err) {
        if (!(err instanceof InvalidToken)) throw err; // unknown or foreign token: nothing to revoke
      }
      return reply.code(200).send({});
    });

    // ---- identity probe ---------------------------------------------------------------------------
    app.get(PATHS.identity, {
      config: { auth: { scopes: [] } },
      schema: {
        tags: ['oauth'],
        summary: 'Who the Bearer token says the caller is',
        response: {
          200: z.object({
            active: z.literal(true),
            client_id: z.string(),
            sub: z.string(),
            scope: z.string(),
            scopes: z.array(z.string()),
            roles: z.array(z.string()),
            patient_id: z.string().optional(),
            auth_method: z.string(),
            token_id: z.string(),
            exp: z.number().int(),
            expires_in: z.number().int(),
          }),
        },
      },
    }, async (req) => {
      const p = req.principal!;
      return {
        active: true as const,
        client_id: p.clientId,
        sub: p.subject,
        scope: p.scopes.join(' '),
        scopes: p.scopes,
        roles: p.roles,
        ...(p.patientId ? { patient_id: p.patientId } : {}),
        auth_method: p.authMethod,
        token_id: p.tokenId,
        exp: p.expiresAt,
        expires_in: Math.max(0, p.expiresAt - Math.floor(Date.now() / 1000)),
      };
    });

    // ---- sandbox --------------------------------------------------------------------------------
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
    const sandbox = async (req: FastifyRequest, reply: FastifyReply) => {
      if (!config.SANDBOX_ENABLED) throw new HttpProblem(404, 'not-found', 'Not Found', 'The sandbox is disabled on this server.');
      const window = config.SANDBOX_RATE_WINDOW_SECONDS;
      const slot = Math.floor(Date.now() / 1000 / window);
      const key = `vitalis:sandbox:${req.ip}:${slot}`;
      const [[, count], [, ttl]] = (await redis.multi().incr(key).ttl(key).exec()) as [[null, number], [null, number]];
      if (ttl < 0) await redis.expire(key, window);
      reply.header('ratelimit-limit', String(config.SANDBOX_RATE_LIMIT));
      reply.header('ratelimit-remaining', String(Math.max(0, config.SANDBOX_RATE_LIMIT - count)));
      if (count > config.SANDBOX_RATE_LIMIT) {
        const retryAfter = ttl > 0 ? ttl : window;
        await audit(req, { action: 'sandbox.refused', outcome: 'failure', detail: { reason: 'rate limit' } });
        throw tooManyRequests(`Sandbox credentials are limited to ${config.SANDBOX_RATE_LIMIT} per ${window} s per address. Retry after ${retryAfter} s.`, retryAfter);
      }
      const ttlSeconds = config.SANDBOX_TOKEN_TTL_SECONDS;
      const expiresAt = new Date(Date.now() + ttlSeconds * 1000);
      const client = await registerClient(pool, {
        client_name: 'sandbox',
        grant_types: ['client_credentials'],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_post',
        scope: SANDBOX_SCOPES.join(' '),
      }, { kind: 'sandbox', expiresAt });
      const issued = await issueAccessToken(keys, tokenSettings, {
        clientId: client.client_id,
        subject: client.client_id,
        scopes: SANDBOX_SCOPES,
        roles: [],
        authMethod: 'sandbox',
      }, ttlSeconds);
      await audit(req, { action: 'token.issued', outcome: 'success', clientId: client.client_id, subject: client.client_id, scope: client.scope, detail: { jti: issued.jti, grant_type: 'sandbox' } });
      return reply.code(201).header('cache-control', 'no-store').send({
        client_id: client.client_id,
        client_secret: client.client_secret,
        client_secret_expires_at: client.client_secret_expires_at,
        access_token: issued.token,
        token_type: 'Bearer' as const,
        expires_in: ttlSeconds,
        scope: client.scope,
        token_endpoint: `${base}${PATHS.token}`,
      });
    };
    const sandboxSchema = {
      tags: ['oauth'],
      summary: 'Immediate, rate-limited sandbox credentials (read-only demo scopes)',
      response: { 201: sandboxResponse },
    };
    app.post(PATHS.sandbox, { schema: sandboxSchema }, sandbox);
    app.get(PATHS.sandbox, { schema: sandboxSchema }, sandbox);
  };
}

