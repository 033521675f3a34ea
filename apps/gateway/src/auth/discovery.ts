/**
 * Discovery: Protected Resource Metadata (RFC 9728), Authorization Server Metadata (RFC 8414),
 * OpenID Provider Metadata (OpenID Connect Discovery 1.0 §3) and the JWKS. All public JSON.
 *
 * One document answers at /.well-known/oauth-authorization-server and at
 * /.well-known/openid-configuration (RFC 8414 §2 admits the OpenID fields): every field Discovery
 * 1.0 REQUIRES (issuer, authorization_endpoint, token_endpoint, jwks_uri, response_types_supported,
 * subject_types_supported, id_token_signing_alg_values_supported), the userinfo endpoint, the
 * claims and scopes, and explicit `false` for what Discovery defaults to true and Vitalis does
 * not do (request_uri_parameter_supported), and `client_id_metadata_document_supported` (a client
 * may name itself by the URL of its metadata document, the MCP 2025-11-25 registration).
 *
 * SMART App Launch v2 §"Conformance" (smartConfiguration): /.well-known/smart-configuration at the
 * root and under the FHIR base (/fhir/R4), the capabilities that are true here and nothing else.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SCOPE_NAMES } from '@vitalis/schemas';
import { CLIENT_ASSERTION_ALGS, SUPPORTED_AUTH_METHODS, SUPPORTED_GRANTS } from './clients';
import { PATHS, type AuthContext } from './context';
import { ACCESS_TOKEN_ALG, SIGNING_ALGS } from './keys';

/** Every claim an ID token or the userinfo endpoint may carry (userinfo.ts, id-tokens.ts). */
export const CLAIMS_SUPPORTED = [
  'iss',
  'sub',
  'aud',
  'exp',
  'iat',
  'auth_time',
  'nonce',
  'at_hash',
  'name',
  'preferred_username',
  'roles',
  'fhirUser',
];

const CLIENT_AUTH_WITHOUT_NONE = SUPPORTED_AUTH_METHODS.filter((m) => m !== 'none');

export function authorizationServerMetadata(baseUrl: string) {
  return {
    issuer: baseUrl,
    authorization_endpoint: `${baseUrl}${PATHS.authorize}`,
    token_endpoint: `${baseUrl}${PATHS.token}`,
    jwks_uri: `${baseUrl}${PATHS.jwks}`,
    userinfo_endpoint: `${baseUrl}${PATHS.userinfo}`,
    registration_endpoint: `${baseUrl}${PATHS.register}`,
    // draft-ietf-oauth-client-id-metadata-document: an https client_id URL names the client's
    // metadata (client-metadata-document.ts); registration above stays as the fallback.
    client_id_metadata_document_supported: true,
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
    // OpenID Connect Discovery 1.0 §3.
    subject_types_supported: ['public'],
    // RS256 first: the default, and the one every OpenID client must support (Core 1.0 §15.1).
    id_token_signing_alg_values_supported: ['RS256', 'ES256'] satisfies (typeof SIGNING_ALGS)[number][],
    claims_supported: CLAIMS_SUPPORTED,
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    service_documentation: `${baseUrl}/auth.md`,
  };
}

/** The FHIR R4 base (its routes live elsewhere; its SMART document is served here). */
export const FHIR_BASE_PATH = '/fhir/R4';

/**
 * SMART capabilities Vitalis has (SMART App Launch v2 §capabilities), and only those: no EHR launch
 * (launch-ehr, context-ehr-*), no POST to the authorization endpoint (authorize-post), no
 * online_access (permission-online), no banner or style context.
 */
export const SMART_CAPABILITIES = [
  'launch-standalone',
  'client-public',
  'client-confidential-symmetric',
  'client-confidential-asymmetric',
  'context-standalone-patient',
  'permission-offline',
  'permission-patient',
  'permission-user',
  'permission-v2',
  'sso-openid-connect',
];

export function smartConfiguration(baseUrl: string) {
  return {
    issuer: baseUrl,
    jwks_uri: `${baseUrl}${PATHS.jwks}`,
    authorization_endpoint: `${baseUrl}${PATHS.authorize}`,
    token_endpoint: `${baseUrl}${PATHS.token}`,
    grant_types_supported: [...SUPPORTED_GRANTS],
    token_endpoint_auth_methods_supported: [...SUPPORTED_AUTH_METHODS],
    token_endpoint_auth_signing_alg_values_supported: CLIENT_ASSERTION_ALGS,
    registration_endpoint: `${baseUrl}${PATHS.register}`,
    userinfo_endpoint: `${baseUrl}${PATHS.userinfo}`,
    revocation_endpoint: `${baseUrl}${PATHS.revoke}`,
    introspection_endpoint: `${baseUrl}${PATHS.introspect}`,
    // The wildcards are requests a client may make: they grant what the role covers (docs/smart.md).
    scopes_supported: [...SCOPE_NAMES, 'patient/*.rs', 'user/*.rs', 'system/*.rs'],
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
    capabilities: SMART_CAPABILITIES,
  };
}

export function protectedResourceMetadata(baseUrl: string) {
  return {
    resource: baseUrl,
    authorization_servers: [baseUrl],
    scopes_supported: SCOPE_NAMES,
    bearer_methods_supported: ['header'],
    resource_signing_alg_values_supported: [ACCESS_TOKEN_ALG],
    resource_name: 'Vitalis API',
    resource_documentation: `${baseUrl}/auth.md`,
  };
}

/**
 * The discovery documents, each a named component. Their members are the cited specifications'
 * (extensible by design: a client ignores what it does not know), so each is published as an open
 * object; the values this server sets are in the functions above and in docs/security.md.
 */
const discoveryDocument = (id: string, description: string) => z.record(z.string(), z.unknown()).meta({ id, description });
const smartConfigurationDocument = discoveryDocument(
  'SmartConfiguration',
  'SMART App Launch v2 configuration (https://hl7.org/fhir/smart-app-launch/conformance.html)',
);
const protectedResourceDocument = discoveryDocument('ProtectedResourceMetadata', 'OAuth 2.0 Protected Resource Metadata (RFC 9728)');
const authorizationServerDocument = discoveryDocument(
  'AuthorizationServerMetadata',
  'OAuth 2.0 Authorization Server Metadata (RFC 8414), also the OpenID Provider Metadata (OpenID Connect Discovery 1.0)',
);
const jwksDocument = discoveryDocument('JsonWebKeySet', "A JWK Set (RFC 7517): `keys`, each key's members by its kty");

export function discoveryRoutes(ctx: AuthContext): FastifyPluginAsyncZod {
  const base = ctx.config.baseUrl;
  // Built once: the documents only depend on the base URL.
  const prm = protectedResourceMetadata(base);
  const asm = authorizationServerMetadata(base);
  const smart = smartConfiguration(base);
  return async (app) => {
    for (const path of ['/.well-known/smart-configuration', `${FHIR_BASE_PATH}/.well-known/smart-configuration`]) {
      app.get(
        path,
        {
          schema: {
            tags: ['discovery'],
            summary: "SMART App Launch v2 configuration (the authorization server's SMART endpoints and capabilities)",
            response: { 200: smartConfigurationDocument },
          },
        },
        async (_req, reply) => {
          reply.header('cache-control', 'public, max-age=300');
          return smart;
        },
      );
    }
    app.get(
      '/.well-known/oauth-protected-resource',
      {
        schema: { tags: ['discovery'], summary: 'Protected Resource Metadata (RFC 9728)', response: { 200: protectedResourceDocument } },
      },
      async (_req, reply) => {
        reply.header('cache-control', 'public, max-age=300');
        return prm;
      },
    );
    for (const [path, summary] of [
      ['/.well-known/oauth-authorization-server', 'Authorization Server Metadata (RFC 8414)'],
      ['/.well-known/openid-configuration', 'OpenID Provider Metadata (OpenID Connect Discovery 1.0): the same document'],
    ] as const) {
      app.get(path, { schema: { tags: ['discovery'], summary, response: { 200: authorizationServerDocument } } }, async (_req, reply) => {
        reply.header('cache-control', 'public, max-age=300');
        return asm;
      });
    }
    app.get(
      PATHS.jwks,
      {
        schema: {
          tags: ['discovery'],
          summary: 'Token signing keys (JWK Set): ES256 (access tokens, ES256 ID tokens) and RS256 (ID tokens)',
          response: { 200: jwksDocument },
        },
      },
      async (_req, reply) => {
        reply.header('cache-control', 'public, max-age=60');
        return ctx.keys.jwks();
      },
    );
  };
}
