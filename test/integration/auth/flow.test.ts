/**
 * Service spec section 5, driven by a real OAuth client library (openid-client), for what a
 * self-registered client may obtain (the public scope read:appointments):
 * discover → register → client_credentials → probe identity → GET /api/v1/appointments → token
 * exchange (public, as the spec shows it) → revoke → both tokens are refused with 401, on this
 * gateway and on a second instance.
 */
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../helpers/gateway';

let gw: RunningGateway;
let gw2: RunningGateway;
beforeAll(async () => {
  gw = await startGateway();
  // A second instance with the same issuer (as behind a load balancer): shares keys and revocations.
  gw2 = await startGateway({ PUBLIC_BASE_URL: gw.url });
});
afterAll(async () => {
  await gw?.close();
  await gw2?.close();
});

describe('the spec section 5 flow', () => {
  it('discover, register, client_credentials, identity, API call, revoke, then 401 everywhere', async () => {
    // 1. Discover: the three documents, all public JSON.
    const prm = (await (await fetch(`${gw.url}/.well-known/oauth-protected-resource`)).json()) as Record<string, unknown>;
    expect(prm).toMatchObject({
      resource: gw.url,
      authorization_servers: [gw.url],
      bearer_methods_supported: ['header'],
      resource_documentation: `${gw.url}/auth.md`,
    });
    const asm = (await (await fetch(`${gw.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(asm).toMatchObject({
      issuer: gw.url,
      token_endpoint: `${gw.url}/api/auth/oauth2/token`,
      revocation_endpoint: `${gw.url}/api/auth/revoke`,
      registration_endpoint: `${gw.url}/api/auth/register`,
      code_challenge_methods_supported: ['S256'],
    });
    const jwks = (await (await fetch(asm.jwks_uri as string)).json()) as { keys: { kid: string; alg: string; use: string; d?: string }[] };
    expect(jwks.keys.length).toBeGreaterThan(0);
    for (const key of jwks.keys) {
      // ES256: access tokens (and ES256 ID tokens); RS256: OpenID Connect ID tokens.
      expect(['ES256', 'RS256']).toContain(key.alg);
      expect(key.use).toBe('sig');
      expect(key.d).toBeUndefined(); // never a private part
    }

    // 2. Register (RFC 7591), with the fields of spec section 2. Anonymous: the public scope only,
    //    and the answer says exactly what was granted (PHI scopes wait for an operator).
    const res = await fetch(`${gw.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'monitoring-agent',
        grant_types: ['client_credentials'],
        response_types: ['token'],
        token_endpoint_auth_method: 'client_secret_post',
        scope: 'read:appointments read:vitals',
      }),
    });
    expect(res.status).toBe(201);
    const registered = (await res.json()) as {
      client_id: string;
      client_secret: string;
      client_id_issued_at: number;
      scope: string;
      requested_scope: string;
      approval: string;
    };
    expect(registered.client_id).toMatch(/^cli_/);
    expect(registered.client_secret.length).toBeGreaterThanOrEqual(40);
    expect(registered).toMatchObject({ scope: 'read:appointments', requested_scope: 'read:appointments read:vitals', approval: 'pending' });

    // 3. Claim identity through a real OAuth client library.
    const config = await oidc.discovery(new URL(gw.url), registered.client_id, undefined, oidc.ClientSecretPost(registered.client_secret), {
      execute: [oidc.allowInsecureRequests],
      algorithm: 'oauth2',
    });
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'read:appointments' });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.scope).toBe('read:appointments');
    expect(tokens.expires_in).toBe(300); // a client_credentials token: BACKEND_TOKEN_TTL_SECONDS (SMART Backend Services)
    const token = tokens.access_token;

    // 4. Probe identity.
    const probe = await oidc.fetchProtectedResource(config, token, new URL(`${gw.url}/agent/identity`), 'GET');
    expect(probe.status).toBe(200);
    expect(await probe.json()).toMatchObject({
      client_id: registered.client_id,
      sub: registered.client_id,
      scopes: ['read:appointments'],
      auth_method: 'client_secret',
    });

    // 5. Use the token on the API (GET /api/v1/appointments, scope read:appointments); PHI stays out of reach.
    const api = await fetch(`${gw.url}/api/v1/appointments`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
    expect(api.status).toBe(200);
    const vitals = await fetch(`${gw.url}/api/v1/vitals/latest?patient=pat-0001`, { headers: { authorization: `Bearer ${token}` } });
    expect(vitals.status).toBe(403);

    // 6. Token exchange (RFC 8693) exactly as the spec shows it: grant_type, subject_token,
    //    subject_token_type=jwt and scope, no client credentials (a public exchange). The result
    //    never has more scope or life than the subject, names the subject's client, carries no act.
    const exchangedRes = await fetch(`${gw.url}/api/auth/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        subject_token: token,
        subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
        scope: 'read:appointments',
      }),
    });
    expect(exchangedRes.status).toBe(200);
    const exchanged = (await exchangedRes.json()) as {
      access_token: string;
      issued_token_type: string;
      token_type: string;
      scope: string;
      expires_in: number;
    };
    expect(exchanged).toMatchObject({
      issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      token_type: 'Bearer',
      scope: 'read:appointments',
    });
    expect(exchanged.expires_in).toBeLessThanOrEqual(tokens.expires_in!);
    const acting = (await (
      await fetch(`${gw.url}/agent/identity`, { headers: { authorization: `Bearer ${exchanged.access_token}` } })
    ).json()) as Record<string, unknown>;
    expect(acting).toMatchObject({
      sub: registered.client_id,
      client_id: registered.client_id,
      auth_method: 'token_exchange',
      derived_from: [expect.any(String)],
    });
    expect(acting.act).toBeUndefined();

    // 7. Revoke (RFC 7009) the subject token: it and the token exchanged from it are refused at
    //    once, here and on another instance.
    await oidc.tokenRevocation(config, token, { token_type_hint: 'access_token' });
    for (const url of [gw.address, gw2.address]) {
      for (const t of [token, exchanged.access_token]) {
        const after = await fetch(`${url}/agent/identity`, { headers: { authorization: `Bearer ${t}` } });
        expect(after.status).toBe(401);
        expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"');
        expect(((await after.json()) as { detail: string }).detail).toContain('revoked');
      }
    }
    // A revoked token can no longer be exchanged either.
    const late = await fetch(`${gw.url}/api/auth/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        subject_token: token,
        subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      }),
    });
    expect(await late.json()).toMatchObject({ error: 'invalid_grant' });
  });
});
