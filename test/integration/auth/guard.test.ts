/**
 * The one enforcement mechanism, on a small fastify app that registers the real auth plugin and
 * dummy routes declaring `config.auth` (fastify.inject), plus the discovery documents over HTTP.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problemDetails } from '@vitalis/http';
import { SCOPE_NAMES } from '@vitalis/schemas';
import { authPlugin } from '../../../apps/gateway/src/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { clientCredentialsToken, registerClient } from '../../helpers/auth';

let gw: RunningGateway;
let app: FastifyInstance;
beforeAll(async () => {
  gw = await startGateway();
  // Same database, Redis and base URL as the gateway: its tokens are valid here.
  app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(problemDetails, { baseUrl: gw.url });
  await app.register(authPlugin(gw.deps));
  app.get('/dummy/two-scopes', { config: { auth: { scopes: ['read:patients', 'write:patients'] } } }, async (req) => ({
    who: req.principal?.clientId,
  }));
  app.get('/dummy/authenticated', { config: { auth: { scopes: [] } } }, async (req) => ({ scopes: req.principal?.scopes }));
  app.get('/dummy/public', async (req) => ({ principal: req.principal ?? null }));
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await gw?.close();
});

describe('the route contract: config.auth.scopes enforced by one onRequest hook', () => {
  it('all declared scopes are required; the 403 names them all', async () => {
    const c = await registerClient(gw.url, ['read:patients', 'write:patients']);
    const both = await clientCredentialsToken(gw.url, c);
    const one = await clientCredentialsToken(gw.url, c, ['read:patients']);
    const ok = await app.inject({ url: '/dummy/two-scopes', headers: { authorization: `Bearer ${both}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ who: c.client_id });
    const short = await app.inject({ url: '/dummy/two-scopes', headers: { authorization: `Bearer ${one}` } });
    expect(short.statusCode).toBe(403);
    expect(short.headers['www-authenticate']).toBe(
      `Bearer realm="vitalis", error="insufficient_scope", scope="read:patients write:patients", resource_metadata="${gw.url}/.well-known/oauth-protected-resource"`,
    );
    expect(short.headers['content-type']).toMatch(/^application\/problem\+json/); // RFC 9457 (ADR 0011)
    expect(short.json()).toMatchObject({ type: `${gw.url}/errors/insufficient-scope`, title: 'Forbidden', status: 403 });
  });

  it('scopes: [] means any valid token; no config.auth means public', async () => {
    const c = await registerClient(gw.url, ['read:appointments']);
    const t = await clientCredentialsToken(gw.url, c);
    expect((await app.inject({ url: '/dummy/authenticated', headers: { authorization: `Bearer ${t}` } })).json()).toEqual({
      scopes: ['read:appointments'],
    });
    const anonymous = await app.inject({ url: '/dummy/authenticated' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe(
      `Bearer realm="vitalis", resource_metadata="${gw.url}/.well-known/oauth-protected-resource"`,
    );
    expect(anonymous.json()).toMatchObject({
      type: `${gw.url}/errors/unauthorized`,
      title: 'Unauthorized',
      status: 401,
      detail: `A Bearer token is required. See ${gw.url}/auth.md for how to obtain one.`,
    });
    expect((await app.inject({ url: '/dummy/public' })).json()).toEqual({ principal: null });
  });

  it('a token in the query string or with another scheme is not accepted (header only)', async () => {
    const c = await registerClient(gw.url, ['read:appointments']);
    const t = await clientCredentialsToken(gw.url, c);
    expect((await app.inject({ url: `/dummy/authenticated?access_token=${t}` })).statusCode).toBe(401);
    expect((await app.inject({ url: '/dummy/authenticated', headers: { authorization: `Token ${t}` } })).statusCode).toBe(401);
  });

  it('Redis unreachable while checking revocation: 503, never let through (fail closed)', async () => {
    const c = await registerClient(gw.url, ['read:appointments']);
    const t = await clientCredentialsToken(gw.url, c);
    const { createRedis } = await import('@vitalis/redis');
    // Redis up when the gateway starts (it restores revocations there), then gone.
    const redis = createRedis({ url: gw.deps.config.REDIS_URL, name: 'flaky' });
    await redis.connect();
    const late = Fastify();
    late.setValidatorCompiler(validatorCompiler);
    late.setSerializerCompiler(serializerCompiler);
    await late.register(problemDetails, { baseUrl: gw.url });
    await late.register(authPlugin({ ...gw.deps, redis }));
    late.get('/x', { config: { auth: { scopes: [] } } }, async () => ({ ok: true }));
    await late.ready();
    expect((await late.inject({ url: '/x', headers: { authorization: `Bearer ${t}` } })).statusCode).toBe(200);
    redis.disconnect();
    const res = await late.inject({ url: '/x', headers: { authorization: `Bearer ${t}` } });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ type: `${gw.url}/errors/unavailable`, status: 503 });
    await late.close();
  });
});

describe('refusal audit budget', () => {
  it('one address records at most REFUSAL_AUDIT_LIMIT refusals per window, then one summary row; every request is still refused', async () => {
    const small = Fastify();
    small.setValidatorCompiler(validatorCompiler);
    small.setSerializerCompiler(serializerCompiler);
    await small.register(problemDetails, { baseUrl: gw.url });
    await small.register(authPlugin({ ...gw.deps, config: { ...gw.deps.config, REFUSAL_AUDIT_LIMIT: 3 } }));
    small.get('/x', { config: { auth: { scopes: [] } } }, async () => ({ ok: true }));
    await small.ready();
    const ip = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const other = `10.251.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const since = new Date();
    for (let i = 0; i < 10; i++) {
      expect((await small.inject({ url: '/x', remoteAddress: ip, headers: { authorization: 'Bearer not.a.jwt' } })).statusCode).toBe(401);
    }
    expect((await small.inject({ url: '/x', remoteAddress: other })).statusCode).toBe(401);
    const { rows } = await gw.deps.pool.query<{ action: string; ip: string }>(
      `SELECT action, host(ip) AS ip FROM audit_events WHERE host(ip) IN ($1, $2) AND occurred_at >= $3 ORDER BY id`,
      [ip, other, since],
    );
    expect(rows.filter((r) => r.ip === ip).map((r) => r.action)).toEqual([
      'token.refused',
      'token.refused',
      'token.refused',
      'token.refused.suppressed',
    ]);
    expect(rows.filter((r) => r.ip === other).map((r) => r.action)).toEqual(['token.refused']);
    await small.close();
  });
});

describe('discovery documents (RFC 9728, RFC 8414, OpenID Connect Discovery 1.0)', () => {
  it('protected resource metadata', async () => {
    const res = await fetch(`${gw.url}/.well-known/oauth-protected-resource`);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toMatchObject({
      resource: gw.url,
      authorization_servers: [gw.url],
      scopes_supported: SCOPE_NAMES,
      bearer_methods_supported: ['header'],
      resource_documentation: `${gw.url}/auth.md`,
    });
  });

  it('authorization server metadata with the OpenID provider fields, the same at the OpenID path', async () => {
    const asm = (await (await fetch(`${gw.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(asm).toMatchObject({
      issuer: gw.url,
      authorization_endpoint: `${gw.url}/api/auth/oauth2/authorize`,
      token_endpoint: `${gw.url}/api/auth/oauth2/token`,
      jwks_uri: `${gw.url}/.well-known/jwks.json`,
      registration_endpoint: `${gw.url}/api/auth/register`,
      revocation_endpoint: `${gw.url}/api/auth/revoke`,
      introspection_endpoint: `${gw.url}/api/auth/oauth2/introspect`,
      response_types_supported: ['code'],
      grant_types_supported: [
        'authorization_code',
        'refresh_token',
        'client_credentials',
        'urn:ietf:params:oauth:grant-type:token-exchange',
      ],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'],
      token_endpoint_auth_signing_alg_values_supported: expect.arrayContaining(['ES256', 'EdDSA']),
      code_challenge_methods_supported: ['S256'],
      scopes_supported: SCOPE_NAMES,
      revocation_endpoint_auth_methods_supported: expect.arrayContaining(['none']),
      introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
      authorization_response_iss_parameter_supported: true,
    });
    // OpenID Connect Discovery 1.0: the OpenID fields are in the same document, served at both paths.
    expect(asm).toMatchObject({
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256', 'ES256'],
      userinfo_endpoint: `${gw.url}/api/auth/userinfo`,
    });
    expect(await (await fetch(`${gw.url}/.well-known/openid-configuration`)).json()).toEqual(asm);
  });
});
