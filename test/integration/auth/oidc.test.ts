/**
 * OpenID Connect for the authorization code flow, driven by an off-the-shelf OpenID client
 * (openid-client v6, OIDC mode): discovery at /.well-known/openid-configuration, login with PKCE and
 * a nonce through the real login and consent pages, the library validating the ID token (signature
 * through the JWKS with enableNonRepudiationChecks, iss, aud, exp, nonce; at_hash checked here, the
 * library does not for the code flow), userinfo read by fetchUserInfo. Then ES256 ID tokens for a
 * client that registered them, refresh (a new ID token, auth_time kept, no nonce), and the refusals.
 */
import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '@vitalis/schemas';
import { initialAccessToken } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { Browser, DEMO_PASSWORDS, REDIRECT_URI, hiddenFields, pkcePair } from './support';

let gw: RunningGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw?.close());

interface OidcClient {
  client_id: string;
  client_secret: string;
  scope: string;
  id_token_signed_response_alg?: string;
}

async function register(scopes: Scope[], extra: Record<string, unknown> = {}): Promise<Response> {
  return fetch(`${gw.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await initialAccessToken('system')}` },
    body: JSON.stringify({
      client_name: 'OpenID test app',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
      redirect_uris: [REDIRECT_URI],
      scope: scopes.join(' '),
      ...extra,
    }),
  });
}

async function registerOidcClient(scopes: Scope[], alg?: 'RS256' | 'ES256'): Promise<OidcClient> {
  const res = await register(scopes, alg ? { id_token_signed_response_alg: alg } : {});
  expect(res.status).toBe(201);
  return (await res.json()) as OidcClient;
}

/** openid-client in OpenID mode (the default), checking ID token signatures through the JWKS. */
async function configFor(client: OidcClient, alg: 'RS256' | 'ES256' = 'RS256'): Promise<oidc.Configuration> {
  const config = await oidc.discovery(
    new URL(gw.url),
    client.client_id,
    { id_token_signed_response_alg: alg },
    oidc.ClientSecretPost(client.client_secret),
    {
      execute: [oidc.allowInsecureRequests],
    },
  );
  oidc.enableNonRepudiationChecks(config);
  return config;
}

/**
 * Drives the pages as a person would, bracketing the moment the password is checked: GET the
 * authorization URL, POST the login form, POST "Allow". Returns the callback URL.
 */
async function signIn(url: URL, user: keyof typeof DEMO_PASSWORDS) {
  const browser = new Browser();
  const login = await browser.request(String(url));
  expect(login.status).toBe(200);
  const loginHtml = await login.text();
  const action = new URL(loginHtml.match(/<form method="post" action="([^"]+)"/)![1]!, url).toString();
  const signInStarted = Math.floor(Date.now() / 1000);
  const consent = await browser.request(action, { form: { ...hiddenFields(loginHtml), username: user, password: DEMO_PASSWORDS[user] } });
  const signInDone = Math.ceil(Date.now() / 1000);
  expect(consent.status).toBe(200);
  const done = await browser.request(action, { form: { ...hiddenFields(await consent.text()), decision: 'allow' } });
  expect(done.status).toBe(303);
  return { location: new URL(done.headers.get('location')!), signInStarted, signInDone };
}

async function login(config: oidc.Configuration, user: keyof typeof DEMO_PASSWORDS, scope: string) {
  const { verifier, challenge } = pkcePair();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { ...(await signIn(url, user)), verifier, state, nonce };
}

const leftHalfSha256 = (token: string) => createHash('sha256').update(token, 'ascii').digest().subarray(0, 16).toString('base64url');
const userinfo = (token: string, method = 'GET') =>
  fetch(`${gw.url}/api/auth/userinfo`, { method, headers: { authorization: `Bearer ${token}` } });

describe('OpenID Connect discovery', () => {
  it('serves every field Discovery 1.0 requires, the userinfo endpoint, and keys of both algorithms', async () => {
    const client = await registerOidcClient(['openid']);
    const config = await configFor(client);
    const meta = config.serverMetadata();
    expect(meta).toMatchObject({
      issuer: gw.url,
      authorization_endpoint: `${gw.url}/api/auth/oauth2/authorize`,
      token_endpoint: `${gw.url}/api/auth/oauth2/token`,
      jwks_uri: `${gw.url}/.well-known/jwks.json`,
      userinfo_endpoint: `${gw.url}/api/auth/userinfo`,
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256', 'ES256'],
      request_uri_parameter_supported: false,
    });
    expect(meta.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile']));
    expect(meta.claims_supported).toEqual(
      expect.arrayContaining(['sub', 'iss', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'at_hash', 'name', 'preferred_username']),
    );

    const jwks = (await (await fetch(meta.jwks_uri!)).json()) as { keys: { alg: string; use: string; kty: string; d?: string }[] };
    expect(new Set(jwks.keys.map((k) => k.alg))).toEqual(new Set(['ES256', 'RS256']));
    for (const key of jwks.keys) {
      expect(key.use).toBe('sig');
      expect(key.kty).toBe(key.alg === 'RS256' ? 'RSA' : 'EC');
      expect(key.d).toBeUndefined();
    }
  });
});

describe('login with openid-client: code + PKCE + nonce, ID token, userinfo', () => {
  it('an RS256 ID token the library validates, auth_time at the sign-in, at_hash of the access token, userinfo by scope', async () => {
    const client = await registerOidcClient(['openid', 'profile', 'read:vitals']);
    expect(client.id_token_signed_response_alg).toBe('RS256'); // the default
    const config = await configFor(client);
    const { location, verifier, state, nonce, signInStarted, signInDone } = await login(config, 'nurse', 'openid profile read:vitals');
    const tokens = await oidc.authorizationCodeGrant(config, location, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });

    expect(tokens.scope).toBe('openid profile read:vitals');
    expect(decodeProtectedHeader(tokens.id_token!)).toMatchObject({ alg: 'RS256', kid: expect.any(String) });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ iss: gw.url, aud: client.client_id, sub: 'usr-demo-nurse', nonce });
    expect(claims.azp).toBeUndefined(); // one audience: the client
    expect(claims.exp).toBeGreaterThan(claims.iat);
    expect(claims.auth_time).toBeGreaterThanOrEqual(signInStarted);
    expect(claims.auth_time).toBeLessThanOrEqual(signInDone);
    expect(claims.at_hash).toBe(leftHalfSha256(tokens.access_token));
    // Only the claims of an authentication: names are at userinfo.
    expect(claims.name).toBeUndefined();

    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info).toEqual({ sub: 'usr-demo-nurse', name: 'Demo Nurse', preferred_username: 'nurse', roles: ['nurse'] });
    const posted = await userinfo(tokens.access_token, 'POST');
    expect(posted.status).toBe(200);
    expect(posted.headers.get('cache-control')).toBe('no-store');
    expect(await posted.json()).toEqual(info);

    const { rows } = await gw.deps.pool.query(
      "SELECT actor_subject, detail FROM audit_events WHERE actor_client_id = $1 AND action = 'user.info.read'",
      [client.client_id],
    );
    expect(rows).toHaveLength(2);
    expect(rows[0].actor_subject).toBe('usr-demo-nurse');

    // Refresh (Core §12.2): a new ID token, same iss/sub/aud, auth_time of the sign-in, no nonce, at_hash of the new access token.
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    const again = refreshed.claims()!;
    expect(again).toMatchObject({ iss: gw.url, aud: client.client_id, sub: 'usr-demo-nurse', auth_time: claims.auth_time });
    expect(again.nonce).toBeUndefined();
    expect(again.at_hash).toBe(leftHalfSha256(refreshed.access_token));
  });

  it('openid alone: sub only at userinfo, and no data access', async () => {
    const client = await registerOidcClient(['openid', 'read:patients']);
    const config = await configFor(client);
    const { location, verifier, state, nonce } = await login(config, 'patient', 'openid');
    const tokens = await oidc.authorizationCodeGrant(config, location, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    expect(tokens.scope).toBe('openid');
    expect(tokens.claims()!.sub).toBe('usr-demo-patient');
    expect(await oidc.fetchUserInfo(config, tokens.access_token, 'usr-demo-patient')).toEqual({ sub: 'usr-demo-patient' });
    const records = await fetch(`${gw.url}/api/v1/patients/pat-0001`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(records.status).toBe(403);
  });

  it('a client that registered ES256 gets ES256 ID tokens, verified against the JWKS', async () => {
    const client = await registerOidcClient(['openid'], 'ES256');
    expect(client.id_token_signed_response_alg).toBe('ES256');
    const config = await configFor(client, 'ES256');
    const { location, verifier, state, nonce } = await login(config, 'doctor', 'openid');
    const tokens = await oidc.authorizationCodeGrant(config, location, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    expect(decodeProtectedHeader(tokens.id_token!).alg).toBe('ES256');
    // And independently of the library: the published key verifies it.
    const { payload } = await jwtVerify(tokens.id_token!, createRemoteJWKSet(new URL(`${gw.url}/.well-known/jwks.json`)), {
      issuer: gw.url,
      audience: client.client_id,
      algorithms: ['ES256'],
    });
    expect(payload).toMatchObject({ sub: 'usr-demo-doctor', nonce, at_hash: leftHalfSha256(tokens.access_token) });
  });

  it('a wrong nonce is rejected by the client library', async () => {
    const client = await registerOidcClient(['openid']);
    const config = await configFor(client);
    const { location, verifier, state } = await login(config, 'reception', 'openid');
    const err = await oidc
      .authorizationCodeGrant(config, location, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: oidc.randomNonce() })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(Error);
    expect((err as { code?: string }).code).toBe('OAUTH_JWT_CLAIM_COMPARISON_FAILED');
    expect((err as { cause?: { message?: string } }).cause?.message).toMatch(/"nonce"/);
  });
});

describe('without openid', () => {
  it('no ID token, and userinfo refuses the token with 403 insufficient_scope', async () => {
    const client = await registerOidcClient(['openid', 'read:vitals']);
    const config = await configFor(client);
    const { location, verifier, state } = await login(config, 'doctor', 'read:vitals');
    const tokens = await oidc.authorizationCodeGrant(config, location, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.scope).toBe('read:vitals');
    expect(tokens.id_token).toBeUndefined();
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.id_token).toBeUndefined();
    for (const method of ['GET', 'POST']) {
      const res = await userinfo(tokens.access_token, method);
      expect(res.status).toBe(403);
      expect(res.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(((await res.json()) as { status: number }).status).toBe(403);
    }
    expect((await fetch(`${gw.url}/api/auth/userinfo`)).status).toBe(401);
  });

  it('an ID token is no access token', async () => {
    const client = await registerOidcClient(['openid']);
    const config = await configFor(client);
    const { location, verifier, state, nonce } = await login(config, 'admin', 'openid');
    const tokens = await oidc.authorizationCodeGrant(config, location, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    const res = await userinfo(tokens.id_token!);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('the sign-in scopes need a user: client_credentials never carries them', async () => {
    const res = await fetch(`${gw.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await initialAccessToken('system')}` },
      body: JSON.stringify({
        client_name: 'machine',
        grant_types: ['client_credentials'],
        token_endpoint_auth_method: 'client_secret_post',
        scope: 'openid profile read:vitals',
      }),
    });
    const machine = (await res.json()) as OidcClient;
    expect(machine.scope).toBe('read:vitals');
    expect(machine.id_token_signed_response_alg).toBeUndefined();
    const token = await fetch(`${gw.url}/api/auth/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: machine.client_id,
        client_secret: machine.client_secret,
        scope: 'openid',
      }),
    });
    expect(token.status).toBe(400);
    expect(await token.json()).toMatchObject({ error: 'invalid_scope' });
  });
});

describe('OpenID requests the server cannot meet', () => {
  it('prompt=none is login_required (no sessions); request objects are not supported; an unknown ID token alg is refused at registration', async () => {
    const client = await registerOidcClient(['openid']);
    const config = await configFor(client);
    for (const [params, error] of [
      [{ prompt: 'none' }, 'login_required'],
      [{ request: 'eyJhbGciOiJub25lIn0.e30.' }, 'request_not_supported'],
      [{ request_uri: 'https://app.example/request.jwt' }, 'request_uri_not_supported'],
    ] as const) {
      // Built by hand: the library would turn a `request` into a request-object-only URL.
      const url = new URL(config.serverMetadata().authorization_endpoint!);
      const query = {
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: REDIRECT_URI,
        scope: 'openid',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
        state: 'st',
        ...params,
      };
      for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
      const res = await fetch(url, { redirect: 'manual' });
      expect(res.status).toBe(303);
      const back = new URL(res.headers.get('location')!);
      expect(back.searchParams.get('error'), back.searchParams.get('error_description') ?? '').toBe(error);
      expect(back.searchParams.get('state')).toBe('st');
      expect(back.searchParams.get('code')).toBeNull();
    }
    const hs = await register(['openid'], { id_token_signed_response_alg: 'HS256' });
    expect(hs.status).toBe(400);
    expect(await hs.json()).toMatchObject({ error: 'invalid_client_metadata' });
  });
});
