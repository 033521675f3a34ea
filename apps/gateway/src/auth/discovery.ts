/**
 * Discovery: Protected Resource Metadata (RFC 9728), Authorization Server Metadata (RFC 8414),
 * the same document at /.well-known/openid-configuration, and the JWKS. All public JSON.
 *
 * Vitalis issues no ID tokens (it is an OAuth 2 authorization server, not an OpenID provider),
 * so the OpenID path serves the OAuth metadata unchanged: no id_token_signing_alg_values_supported
 * or subject_types_supported, which would promise an OpenID Connect login that does not exist.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SCOPE_NAMES } from '@vitalis/schemas';
import { CLIENT_ASSERTION_ALGS, SUPPORTED_AUTH_METHODS, SUPPORTED_GRANTS } from './clients';
import { PATHS, type AuthContext } from './context';
import { SIGNING_ALG } from './keys';

const CLIENT_AUTH_WITHOUT_NONE = SUPPORTED_AUTH_METHODS.filter((m) => m !== 'none');

export function authorizationServerMetadata(baseUrl: string) {
  return {
    issuer: baseUrl,
    authorization_endpoint: `${baseUrl}${PATHS.authorize}`,
    token_endpoint: `${baseUrl}${PATHS.token}`,
    jwks_uri: `${baseUrl}${PATHS.jwks}`,
    registration_endpoint: `${baseUrl}${PATHS.register}`,
    revocation_endpoint: `${baseUrl}${PATHS.revoke}`,
    introspection_endpoint: `${baseUrl}${PATHS.introspect}`,
    scopes_supported: SCOPE_NAMES,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [...SUPPORTED_GRANTS],
    token_endpoint_auth_methods_supported: [...SUPPORTED_AUTH_METHODS],
    token_endpoint_auth_signing_alg_values_supported: CLIENT_ASSERTION_ALGS,
    // Revocation needs no client authentication (holding the token is enough); clients that
    // authenticate anyway may use any method.
    revocation_endpoint_auth_methods_supported: [...SUPPORTED_AUTH_METHODS],
    revocation_endpoint_auth_signing_alg_values_supported: CLIENT_ASSERTION_ALGS,
    introspection_endpoint_auth_methods_supported: CLIENT_AUTH_WITHOUT_NONE,
    introspection_endpoint_auth_signing_alg_values_supported: CLIENT_ASSERTION_ALGS,
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${baseUrl}/auth.md`,
  };
}

export function protectedResourceMetadata(baseUrl: string) {
  return {
    resource: baseUrl,
    authorization_servers: [baseUrl],
    scopes_supported: SCOPE_NAMES,
    bearer_methods_supported: ['header'],
    resource_signing_alg_values_supported: [SIGNING_ALG],
    resource_name: 'Vitalis API',
    resource_documentation: `${baseUrl}/auth.md`,
  };
}

const jsonDocument = z.record(z.string(), z.unknown());

export function discoveryRoutes(ctx: AuthContext): FastifyPluginAsyncZod {
  const base = ctx.config.baseUrl;
  // Built once: the documents only depend on the base URL.
  const prm = protectedResourceMetadata(base);
  const asm = authorizationServerMetadata(base);
  return async (app) => {
    app.get('/.well-known/oauth-protected-resource', {
      schema: { tags: ['discovery'], summary: 'Protected Resource Metadata (RFC 9728)', response: { 200: jsonDocument } },
    }, async (_req, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return prm;
    });
    for (const [path, summary] of [
      ['/.well-known/oauth-authorization-server', 'Authorization Server Metadata (RFC 8414)'],
      ['/.well-known/openid-configuration', 'The same OAuth metadata at the OpenID path (no ID tokens are issued)'],
    ] as const) {
      app.get(path, { schema: { tags: ['discovery'], summary, response: { 200: jsonDocument } } }, async (_req, reply) => {
        reply.header('cache-control', 'public, max-age=300');
        return asm;
      });
    }
    app.get(PATHS.jwks, { schema: { tags: ['discovery'], summary: 'Token signing keys (JWK Set)', response: { 200: jsonDocument } } }, async (_req, reply) => {
      reply.header('cache-control', 'public, max-age=60');
      return ctx.keys.jwks();
    });
  };
}
