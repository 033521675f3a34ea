/**
 * private_key_jwt client authentication (RFC 7523), token exchange (RFC 8693), introspection
 * (RFC 7662), refresh-token revocation and the registration rules (RFC 7591).
 */
import * as oidc from 'openid-client';
import { SignJWT, decodeJwt, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { clientCredentialsToken, initialAccessToken, registerClient, type RegisteredClient } from '../../helpers/auth';
import { REDIRECT_URI, pkcePair, registerCodeClient, signInAndConsent } from './support';

const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const JWT_TYPE = 'urn:ietf:params:oauth:token-type:jwt';
const AT_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

let gw: RunningGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw?.close());

/** Registers with an operator's initial access token (role system), so any scope may be asked for. */
const register = async (metadata: Record<string, unknown>) =>
  fetch(`${gw.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await initialAccessToken()}` },
    body: JSON.stringify({ client_name: 'grants-test', ...metadata }),
  });
const tokenRequest = (form: Record<string, string>, base = gw.url) =>
  fetch(`${base}/api/auth/oauth2/token`, { method: 'POST', body: new URLSearchParams(form) });
const identity = (token: string, base = gw.url) => fetch(`${base}/agent/identity`, { headers: { authorization: `Bearer ${token}` } });

async function keyClient(scopes = 'read:vitals') {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: `k-${randomUUID()}`, alg: 'ES256', use: 'sig' };
  const res = await register({
    grant_types: ['client_credentials'],
    token_endpoint_auth_method: 'private_key_jwt',
    jwks: { keys: [jwk] },
    scope: scopes,
  });
  expect(res.status).toBe(201);
  const client = (await res.json()) as { client_id: string; client_secret?: string };
  return { client, privateKey, kid: jwk.kid! };
}

function assertion(clientId: string, key: CryptoKey, kid: string, claims: Record<string, unknown> = {}, lifetime = 60) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ jti: randomUUID(), ...claims })
    .setProtectedHeader({ alg: 'ES256', kid })
    .setIssuer(clientId)
    .setSubject(clientId)
    .setAudience(`${gw.url}/api/auth/oauth2/token`)
    .setIssuedAt(now)
    .setExpirationTime(now + lifetime)
    .sign(key);
}

const assertionForm = (clientAssertion: string) => ({
  grant_type: 'client_credentials',
  client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
  client_assertion: clientAssertion,
});

describe('private_key_jwt (RFC 7523)', () => {
  it('works with a real OAuth client library; no secret is issued', async () => {
    const { client, privateKey } = await keyClient();
    expect(client.client_secret).toBeUndefined();
    const config = await oidc.discovery(new URL(gw.url), client.client_id, undefined, oidc.PrivateKeyJwt(privateKey), {
      execute: [oidc.allowInsecureRequests],
      algorithm: 'oauth2',
    });
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'read:vitals' });
    expect(await (await identity(tokens.access_token)).json()).toMatchObject({
      client_id: client.client_id,
      auth_method: 'private_key_jwt',
    });
  });

  it('accepts the issuer as audience; refuses a replayed jti', async () => {
    const { client, privateKey, kid } = await keyClient();
    const a = await new SignJWT({ jti: randomUUID() })
      .setProtectedHeader({ alg: 'ES256', kid })
      .setIssuer(client.client_id)
      .setSubject(client.client_id)
      .setAudience(gw.url)
      .setIssuedAt()
      .setExpirationTime('1m')
      .sign(privateKey);
    expect((await tokenRequest(assertionForm(a))).status).toBe(200);
    const replay = await tokenRequest(assertionForm(a));
    expect(replay.status).toBe(401);
    expect(await replay.json()).toMatchObject({ error: 'invalid_client', error_description: expect.stringContaining('replay') });
  });

  it('refuses another key, another audience, a missing jti, a too-long lifetime, iss ≠ sub, and a secret client', async () => {
    const { client, privateKey, kid } = await keyClient();
    const stranger = await generateKeyPair('ES256');
    const cases = [
      await assertion(client.client_id, stranger.privateKey, kid),
      await new SignJWT({ jti: randomUUID() })
        .setProtectedHeader({ alg: 'ES256', kid })
        .setIssuer(client.client_id)
        .setSubject(client.client_id)
        .setAudience('https://elsewhere.example/token')
        .setExpirationTime('1m')
        .sign(privateKey),
      await new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid })
        .setIssuer(client.client_id)
        .setSubject(client.client_id)
        .setAudience(gw.url)
        .setExpirationTime('1m')
        .sign(privateKey),
      await assertion(client.client_id, privateKey, kid, {}, 3_600),
      await new SignJWT({ jti: randomUUID() })
        .setProtectedHeader({ alg: 'ES256', kid })
        .setIssuer('someone-else')
        .setSubject(client.client_id)
        .setAudience(gw.url)
        .setExpirationTime('1m')
        .sign(privateKey),
    ];
    for (const a of cases) {
      const res = await tokenRequest(assertionForm(a));
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: 'invalid_client' });
    }
    // A secret client cannot authenticate with an assertion, nor a key client with a secret.
    const secretClient = await registerClient(gw.url, ['read:vitals']);
    const res = await tokenRequest(assertionForm(await assertion(secretClient.client_id, privateKey, kid)));
    expect(res.status).toBe(401);
    const withSecret = await tokenRequest({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: 'anything' });
    expect(withSecret.status).toBe(401);
  });

  it('refuses two authentication methods at once', async () => {
    const { client, privateKey, kid } = await keyClient();
    const res = await tokenRequest({ ...assertionForm(await assertion(client.client_id, privateKey, kid)), client_secret: 'x' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_request' });
  });
});

describe('token exchange (RFC 8693)', () => {
  let subjectClient: RegisteredClient;
  let agent: RegisteredClient;
  let subjectToken: string;
  beforeAll(async () => {
    subjectClient = await registerClient(gw.url, ['read:vitals', 'read:appointments']);
    const res = await register({
      grant_types: ['client_credentials', EXCHANGE],
      token_endpoint_auth_method: 'client_secret_post',
      scope: 'read:vitals read:patients',
    });
    agent = (await res.json()) as RegisteredClient;
    // The subject names the agent as the one client that may act for it (RFC 8693 §4.4 may_act).
    const issued = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: subjectClient.client_id,
      client_secret: subjectClient.client_secret,
      may_act: agent.client_id,
    });
    subjectToken = ((await issued.json()) as { access_token: string }).access_token;
  });
  const exchange = (form: Record<string, string>, base = gw.url) =>
    tokenRequest(
      { grant_type: EXCHANGE, client_id: agent.client_id, client_secret: agent.client_secret, subject_token_type: JWT_TYPE, ...form },
      base,
    );

  it('issues a token for the subject, held by the client, with act, scope narrowed to the intersection', async () => {
    const res = await exchange({ subject_token: subjectToken, scope: 'read:vitals' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as {
      access_token: string;
      issued_token_type: string;
      token_type: string;
      scope: string;
      expires_in: number;
    };
    expect(body).toMatchObject({ issued_token_type: AT_TYPE, token_type: 'Bearer', scope: 'read:vitals' });
    expect(decodeJwt(body.access_token).exp).toBeLessThanOrEqual(decodeJwt(subjectToken).exp!);
    expect(await (await identity(body.access_token)).json()).toMatchObject({
      sub: subjectClient.client_id,
      client_id: agent.client_id,
      auth_method: 'token_exchange',
      act: { sub: agent.client_id, client_id: agent.client_id },
      scopes: ['read:vitals'],
    });
    // Without a scope: the whole intersection (agent: vitals+patients, subject: vitals+appointments).
    const all = (await (await exchange({ subject_token: subjectToken })).json()) as { scope: string };
    expect(all.scope).toBe('read:vitals');
    // subject_token_type access_token is accepted for our own tokens; exchanging again nests act.
    const again = (await (await exchange({ subject_token: body.access_token, subject_token_type: AT_TYPE })).json()) as {
      access_token: string;
    };
    expect(decodeJwt(again.access_token).act).toEqual({
      sub: agent.client_id,
      client_id: agent.client_id,
      act: { sub: agent.client_id, client_id: agent.client_id },
    });
  });

  it('refuses scope escalation beyond the intersection (invalid_scope)', async () => {
    for (const scope of ['read:patients', 'read:appointments', 'write:patients', 'read:vitals read:patients']) {
      const res = await exchange({ subject_token: subjectToken, scope });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'invalid_scope' });
    }
  });

  it('refuses revoked, tampered, untrusted and malformed subject tokens (invalid_grant / invalid_request)', async () => {
    const revoked = (
      (await (
        await tokenRequest({
          grant_type: 'client_credentials',
          client_id: subjectClient.client_id,
          client_secret: subjectClient.client_secret,
          may_act: agent.client_id,
        })
      ).json()) as { access_token: string }
    ).access_token;
    await fetch(`${gw.url}/api/auth/revoke`, { method: 'POST', body: new URLSearchParams({ token: revoked }) });
    expect(await (await exchange({ subject_token: revoked })).json()).toMatchObject({ error: 'invalid_grant' });
    const [h, p, s] = subjectToken.split('.');
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...decodeJwt(subjectToken), scope: 'read:patients' })).toString('base64url')}.${s}`;
    expect(p).toBeDefined();
    expect(await (await exchange({ subject_token: tampered })).json()).toMatchObject({ error: 'invalid_grant' });
    const { privateKey } = await generateKeyPair('ES256');
    const untrusted = await new SignJWT({ scope: 'read:vitals' })
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuer('https://idp.untrusted.example')
      .setSubject('u1')
      .setAudience(gw.url)
      .setExpirationTime('5m')
      .sign(privateKey);
    expect(await (await exchange({ subject_token: untrusted })).json()).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringContaining('trusted'),
    });
    expect(
      await (await exchange({ subject_token: subjectToken, subject_token_type: 'urn:ietf:params:oauth:token-type:saml2' })).json(),
    ).toMatchObject({ error: 'invalid_request' });
    expect(await (await exchange({ subject_token: subjectToken, audience: 'https://elsewhere.example' })).json()).toMatchObject({
      error: 'invalid_target',
    });
  });

  it('a client not registered for token exchange is unauthorized_client', async () => {
    const res = await tokenRequest({
      grant_type: EXCHANGE,
      client_id: subjectClient.client_id,
      client_secret: subjectClient.client_secret,
      subject_token: subjectToken,
      subject_token_type: JWT_TYPE,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'unauthorized_client' });
  });

  it('accepts a JWT from a trusted issuer (TRUSTED_ISSUERS), verified against its keys and audience', async () => {
    const idp = await generateKeyPair('ES256');
    const jwk = { ...(await exportJWK(idp.publicKey)), kid: 'idp-1', alg: 'ES256' };
    // Its subjects are mapped through an explicit role (nurse), never taken verbatim (the token says admin).
    const trusted = await startGateway({
      PUBLIC_BASE_URL: gw.url,
      TRUSTED_ISSUERS: JSON.stringify([{ issuer: 'https://idp.example', jwks: { keys: [jwk] }, role: 'nurse' }]),
    });
    try {
      const external = (aud: string, claims: Record<string, unknown> = { may_act: { client_id: agent.client_id, sub: agent.client_id } }) =>
        new SignJWT({ scope: 'read:vitals read:appointments read:audit', roles: ['admin'], ...claims })
          .setProtectedHeader({ alg: 'ES256', kid: 'idp-1' })
          .setIssuer('https://idp.example')
          .setSubject('ext-user-7')
          .setAudience(aud)
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(idp.privateKey);
      const res = await exchange({ subject_token: await external(gw.url) }, trusted.address);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { access_token: string; scope: string };
      expect(body.scope).toBe('read:vitals');
      const claims = decodeJwt(body.access_token);
      expect(claims).toMatchObject({ sub: 'ext-user-7', client_id: agent.client_id, roles: ['nurse'], auth_method: 'token_exchange' });
      // read:audit is beyond the nurse role: not obtainable even by a client registered for it.
      expect(await (await exchange({ subject_token: await external(gw.url), scope: 'read:audit' }, trusted.address)).json()).toMatchObject({
        error: 'invalid_scope',
      });
      // Without may_act naming the agent (nor the agent as the token's client): refused.
      expect(await (await exchange({ subject_token: await external(gw.url, {}) }, trusted.address)).json()).toMatchObject({
        error: 'invalid_grant',
        error_description: expect.stringContaining('may_act'),
      });
      // Wrong audience: refused.
      expect(
        await (await exchange({ subject_token: await external('https://someone-else.example') }, trusted.address)).json(),
      ).toMatchObject({ error: 'invalid_grant' });
      // The same issuer is not trusted by an instance without the setting.
      expect(await (await exchange({ subject_token: await external(gw.url) })).json()).toMatchObject({ error: 'invalid_grant' });
    } finally {
      await trusted.close();
    }
  });
});

describe('introspection (RFC 7662)', () => {
  it('answers a confidential client about its own tokens only; inactive is {"active": false}', async () => {
    const a = await registerClient(gw.url, ['read:vitals']);
    const b = await registerClient(gw.url, ['read:vitals']);
    const t = await clientCredentialsToken(gw.url, a);
    const introspect = (client: RegisteredClient | undefined, token: string) =>
      fetch(`${gw.url}/api/auth/oauth2/introspect`, {
        method: 'POST',
        body: new URLSearchParams({ token, ...(client ? { client_id: client.client_id, client_secret: client.client_secret } : {}) }),
      });
    const own = await introspect(a, t);
    expect(own.status).toBe(200);
    expect(own.headers.get('cache-control')).toBe('no-store');
    expect(await own.json()).toMatchObject({
      active: true,
      client_id: a.client_id,
      sub: a.client_id,
      scope: 'read:vitals',
      token_type: 'Bearer',
      iss: gw.url,
      aud: gw.url,
      exp: decodeJwt(t).exp,
      jti: decodeJwt(t).jti,
    });
    expect(await (await introspect(b, t)).json()).toEqual({ active: false });
    expect(await (await introspect(a, 'garbage')).json()).toEqual({ active: false });
    const anonymous = await introspect(undefined, t);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: 'invalid_client' });
    await fetch(`${gw.url}/api/auth/revoke`, { method: 'POST', body: new URLSearchParams({ token: t }) });
    expect(await (await introspect(a, t)).json()).toEqual({ active: false });
  });

  it('covers refresh tokens; revoking a refresh token revokes its family and access tokens', async () => {
    const client = await registerCodeClient(gw.url, ['read:appointments']);
    const { verifier, challenge } = pkcePair();
    const url = new URL(`${gw.url}/api/auth/oauth2/authorize`);
    for (const [k, v] of Object.entries({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      scope: 'read:appointments',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }))
      url.searchParams.set(k, v);
    const { location } = await signInAndConsent(url, 'reception');
    const tokens = (await (
      await tokenRequest({
        grant_type: 'authorization_code',
        code: location.searchParams.get('code')!,
        redirect_uri: REDIRECT_URI,
        code_verifier: verifier,
        client_id: client.client_id,
        client_secret: client.client_secret!,
      })
    ).json()) as { access_token: string; refresh_token: string };
    const introspect = (token: string) =>
      fetch(`${gw.url}/api/auth/oauth2/introspect`, {
        method: 'POST',
        body: new URLSearchParams({ token, client_id: client.client_id, client_secret: client.client_secret! }),
      }).then((r) => r.json());
    expect(await introspect(tokens.refresh_token)).toMatchObject({
      active: true,
      token_type: 'refresh_token',
      sub: 'usr-demo-reception',
      scope: 'read:appointments',
    });
    const revoke = await fetch(`${gw.url}/api/auth/revoke`, {
      method: 'POST',
      body: new URLSearchParams({ token: tokens.refresh_token, token_type_hint: 'refresh_token' }),
    });
    expect(revoke.status).toBe(200);
    expect(await introspect(tokens.refresh_token)).toEqual({ active: false });
    expect((await identity(tokens.access_token)).status).toBe(401);
    const refresh = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: client.client_id,
      client_secret: client.client_secret!,
    });
    expect(await refresh.json()).toMatchObject({ error: 'invalid_grant' });
  });
});

describe('revocation with client authentication', () => {
  it('wrong client credentials on revoke → 401 invalid_client (the token survives)', async () => {
    const c = await registerClient(gw.url, ['read:vitals']);
    const t = await clientCredentialsToken(gw.url, c);
    const res = await fetch(`${gw.url}/api/auth/revoke`, {
      method: 'POST',
      body: new URLSearchParams({ token: t, client_id: c.client_id, client_secret: 'wrong' }),
    });
    expect(res.status).toBe(401);
    expect((await identity(t)).status).toBe(200);
  });
});

describe('registration rules (RFC 7591)', () => {
  it('answers 201 with the registered metadata, client_id_issued_at and client_secret_expires_at 0', async () => {
    const res = await register({
      grant_types: ['authorization_code', 'refresh_token'],
      redirect_uris: ['https://app.example/cb', 'http://localhost:8765/cb'],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: 'read:appointments',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      client_secret_expires_at: 0,
      response_types: ['code'],
      grant_types: ['authorization_code', 'refresh_token'],
      redirect_uris: ['https://app.example/cb', 'http://localhost:8765/cb'],
      token_endpoint_auth_method: 'client_secret_basic',
    });
    expect(Math.abs((body.client_id_issued_at as number) - Date.now() / 1000)).toBeLessThan(60);
  });

  const refused: [string, Record<string, unknown>, string][] = [
    [
      'http redirect on a public host',
      { grant_types: ['authorization_code'], redirect_uris: ['http://app.example/cb'] },
      'invalid_redirect_uri',
    ],
    [
      'a redirect with a fragment',
      { grant_types: ['authorization_code'], redirect_uris: ['https://app.example/cb#x'] },
      'invalid_redirect_uri',
    ],
    ['authorization_code without redirect URIs', { grant_types: ['authorization_code'] }, 'invalid_redirect_uri'],
    [
      'private_key_jwt without keys',
      { token_endpoint_auth_method: 'private_key_jwt', grant_types: ['client_credentials'] },
      'invalid_client_metadata',
    ],
    [
      'a private key in jwks',
      {
        token_endpoint_auth_method: 'private_key_jwt',
        grant_types: ['client_credentials'],
        jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'a', y: 'b', d: 'c' }] },
      },
      'invalid_client_metadata',
    ],
    [
      'a symmetric key in jwks',
      {
        token_endpoint_auth_method: 'private_key_jwt',
        grant_types: ['client_credentials'],
        jwks: { keys: [{ kty: 'oct', k: 'c2VjcmV0' }] },
      },
      'invalid_client_metadata',
    ],
    [
      'a public client with client_credentials',
      { token_endpoint_auth_method: 'none', grant_types: ['client_credentials'] },
      'invalid_client_metadata',
    ],
    ['the implicit grant', { grant_types: ['implicit'], redirect_uris: ['https://app.example/cb'] }, 'invalid_client_metadata'],
    ['refresh_token alone', { grant_types: ['refresh_token'] }, 'invalid_client_metadata'],
    ['an unknown auth method', { token_endpoint_auth_method: 'tls_client_auth' }, 'invalid_client_metadata'],
  ];
  for (const [what, metadata, error] of refused) {
    it(`refuses ${what} (${error})`, async () => {
      const res = await register({ scope: 'read:vitals', ...metadata });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error, error_description: expect.any(String) });
    });
  }
});

describe('closed registration (REGISTRATION_ACCESS_TOKEN)', () => {
  it('requires the initial access token as a Bearer header when configured', async () => {
    const secret = 'initial-access-token-for-tests-0123456789';
    const closed = await startGateway({ PUBLIC_BASE_URL: gw.url, REGISTRATION_ACCESS_TOKEN: secret });
    try {
      const body = JSON.stringify({ client_name: 'closed', grant_types: ['client_credentials'], scope: 'read:vitals' });
      const without = await fetch(`${closed.address}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(without.status).toBe(401);
      expect(without.headers.get('www-authenticate')).toMatch(/^Bearer realm="vitalis", error="invalid_token"/);
      const wrong = await fetch(`${closed.address}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}x` },
        body,
      });
      expect(wrong.status).toBe(401);
      const right = await fetch(`${closed.address}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
        body,
      });
      expect(right.status).toBe(201);
      // The configured token closes open registration but carries no role: the public scopes only.
      expect(await right.json()).toMatchObject({ scope: '', requested_scope: 'read:vitals', approval: 'pending' });
      // An operator-minted one carries its role.
      const minted = await fetch(`${closed.address}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${await initialAccessToken('nurse')}` },
        body,
      });
      expect(minted.status).toBe(201);
      expect(await minted.json()).toMatchObject({ scope: 'read:vitals', role: 'nurse' });
    } finally {
      await closed.close();
    }
  });
});
