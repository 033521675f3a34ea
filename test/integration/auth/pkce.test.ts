/**
 * Authorization code + PKCE (S256) end to end through the real login and consent pages, driven
 * by a real OAuth client library (openid-client) for the URL and the token requests, and by plain
 * HTTP form posts for the pages. Then refresh rotation, reuse detection, and the negative cases.
 */
import * as oidc from 'openid-client';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import {
  Browser,
  DEMO_PASSWORDS,
  REDIRECT_URI,
  hiddenFields,
  pkcePair,
  registerCodeClient,
  signInAndConsent,
  type CodeClient,
} from './support';

let gw: RunningGateway;
let client: CodeClient;
let config: oidc.Configuration;
beforeAll(async () => {
  gw = await startGateway();
  client = await registerCodeClient(gw.url, ['read:vitals', 'read:patients', 'read:appointments', 'write:patients']);
  config = await oidc.discovery(new URL(gw.url), client.client_id, undefined, oidc.ClientSecretPost(client.client_secret!), {
    execute: [oidc.allowInsecureRequests],
    algorithm: 'oauth2',
  });
});
afterAll(async () => gw?.close());

const identity = (token: string) => fetch(`${gw.url}/agent/identity`, { headers: { authorization: `Bearer ${token}` } });
const tokenRequest = (form: Record<string, string>) =>
  fetch(`${gw.url}/api/auth/oauth2/token`, { method: 'POST', body: new URLSearchParams(form) });
const authorizeUrl = (params: Record<string, string>) => {
  const url = new URL(`${gw.url}/api/auth/oauth2/authorize`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url;
};

/** A fresh authorization as `user`, up to the callback URL. */
async function authorize(user: keyof typeof DEMO_PASSWORDS, scope: string, cfg = config) {
  const { verifier, challenge } = pkcePair();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(cfg, {
    redirect_uri: REDIRECT_URI,
    scope,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
  });
  const result = await signInAndConsent(url, user);
  return { ...result, verifier, state };
}

async function expectInvalidGrant(promise: Promise<unknown>) {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(oidc.ResponseBodyError);
  expect((err as oidc.ResponseBodyError).error).toBe('invalid_grant');
}

describe('authorization code + PKCE through the login and consent pages', () => {
  it('login, consent, state round trip, code → tokens, refresh rotation, reuse revokes the family', async () => {
    const { location, consentHtml, verifier, state } = await authorize('nurse', 'read:vitals read:patients write:patients');
    // The consent page lists what will be granted: requested ∩ client ∩ the nurse role (no write:patients).
    expect(consentHtml).toContain('<code>read:vitals</code>');
    expect(consentHtml).toContain('<code>read:patients</code>');
    expect(consentHtml).not.toContain('write:patients');
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(location.searchParams.get('state')).toBe(state);
    expect(location.searchParams.get('iss')).toBe(gw.url);

    const tokens = await oidc.authorizationCodeGrant(config, location, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.scope).toBe('read:vitals read:patients');
    expect(tokens.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tokens.expires_in).toBe(900);
    const claims = decodeJwt(tokens.access_token);
    expect(claims).toMatchObject({
      sub: 'usr-demo-nurse',
      client_id: client.client_id,
      roles: ['nurse'],
      auth_method: 'authorization_code',
      aud: gw.url,
      iss: gw.url,
    });
    const who = await identity(tokens.access_token);
    expect(who.status).toBe(200);
    expect(await who.json()).toMatchObject({
      sub: 'usr-demo-nurse',
      roles: ['nurse'],
      auth_method: 'authorization_code',
      scopes: ['read:vitals', 'read:patients'],
    });

    // Refresh: a new refresh token every time; the old one is retired.
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).toBeDefined();
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.scope).toBe('read:vitals read:patients');
    expect((await identity(refreshed.access_token)).status).toBe(200);
    // A narrower scope on refresh is allowed; a wider one is not.
    const narrowed = await oidc.refreshTokenGrant(config, refreshed.refresh_token!, { scope: 'read:vitals' });
    expect(narrowed.scope).toBe('read:vitals');
    const wider = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: narrowed.refresh_token!,
      client_id: client.client_id,
      client_secret: client.client_secret!,
      scope: 'read:vitals write:patients',
    });
    expect(wider.status).toBe(400);
    expect(await wider.json()).toMatchObject({ error: 'invalid_scope' });

    // Reuse of a rotated refresh token: refused, and the whole family dies, access tokens included.
    await expectInvalidGrant(oidc.refreshTokenGrant(config, tokens.refresh_token!));
    await expectInvalidGrant(oidc.refreshTokenGrant(config, narrowed.refresh_token!));
    for (const t of [tokens.access_token, refreshed.access_token, narrowed.access_token]) expect((await identity(t)).status).toBe(401);

    const { rows } = await gw.deps.pool.query(
      "SELECT detail FROM audit_events WHERE actor_client_id = $1 AND action = 'token.refused' AND detail->>'reason' LIKE 'refresh token already used%'",
      [client.client_id],
    );
    expect(rows.length).toBe(1);
    expect(rows[0].detail.revoked_access_tokens).toBe(3);
  });

  it('a code is single-use: the second use is refused and revokes what the first produced', async () => {
    const { location, verifier, state } = await authorize('doctor', 'read:vitals');
    const tokens = await oidc.authorizationCodeGrant(config, location, { pkceCodeVerifier: verifier, expectedState: state });
    expect((await identity(tokens.access_token)).status).toBe(200);
    const again = await tokenRequest({
      grant_type: 'authorization_code',
      code: location.searchParams.get('code')!,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      client_id: client.client_id,
      client_secret: client.client_secret!,
    });
    expect(again.status).toBe(400);
    expect(again.headers.get('cache-control')).toBe('no-store');
    expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await identity(tokens.access_token)).status).toBe(401);
    await expectInvalidGrant(oidc.refreshTokenGrant(config, tokens.refresh_token!));
  });

  it('a wrong PKCE verifier or redirect URI is refused (invalid_grant); the right one still works', async () => {
    const { location, verifier } = await authorize('doctor', 'read:appointments');
    const code = location.searchParams.get('code')!;
    const base = { grant_type: 'authorization_code', code, client_id: client.client_id, client_secret: client.client_secret! };
    const wrongVerifier = await tokenRequest({ ...base, redirect_uri: REDIRECT_URI, code_verifier: pkcePair().verifier });
    expect(wrongVerifier.status).toBe(400);
    expect(await wrongVerifier.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringContaining('code_verifier'),
    });
    const wrongRedirect = await tokenRequest({ ...base, redirect_uri: 'http://127.0.0.1:53682/other', code_verifier: verifier });
    expect(await wrongRedirect.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringContaining('redirect_uri'),
    });
    const noVerifier = await tokenRequest({ ...base, redirect_uri: REDIRECT_URI });
    expect(await noVerifier.json()).toMatchObject({ error: 'invalid_request' });
    const ok = await tokenRequest({ ...base, redirect_uri: REDIRECT_URI, code_verifier: verifier });
    expect(ok.status).toBe(200);
  });

  it('a code issued to one client cannot be redeemed by another', async () => {
    const other = await registerCodeClient(gw.url, ['read:appointments']);
    const { location, verifier } = await authorize('doctor', 'read:appointments');
    const res = await tokenRequest({
      grant_type: 'authorization_code',
      code: location.searchParams.get('code')!,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      client_id: other.client_id,
      client_secret: other.client_secret!,
    });
    expect(await res.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('the patient user is linked to their patient record; scopes are cut to the role', async () => {
    const { location, verifier, state } = await authorize('patient', 'read:appointments read:vitals');
    const tokens = await oidc.authorizationCodeGrant(config, location, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.scope).toBe('read:appointments');
    expect(await (await identity(tokens.access_token)).json()).toMatchObject({
      sub: 'usr-demo-patient',
      roles: ['patient'],
      patient_id: 'pat-0001',
    });
  });

  it('a public client (token_endpoint_auth_method none) gets no secret and uses PKCE alone', async () => {
    const pub = await registerCodeClient(gw.url, ['read:appointments'], { public: true });
    expect(pub.client_secret).toBeUndefined();
    const cfg = await oidc.discovery(new URL(gw.url), pub.client_id, undefined, oidc.None(), {
      execute: [oidc.allowInsecureRequests],
      algorithm: 'oauth2',
    });
    const { location, verifier, state } = await authorize('reception', 'read:appointments', cfg);
    const tokens = await oidc.authorizationCodeGrant(cfg, location, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.scope).toBe('read:appointments');
    const refreshed = await oidc.refreshTokenGrant(cfg, tokens.refresh_token!);
    expect((await identity(refreshed.access_token)).status).toBe(200);
    // A public client cannot use client_credentials.
    const cc = await tokenRequest({ grant_type: 'client_credentials', client_id: pub.client_id });
    expect(await cc.json()).toMatchObject({ error: 'unauthorized_client' });
  });
});

describe('authorization request errors (RFC 6749 §4.1.2.1)', () => {
  const valid = () => ({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT_URI,
    scope: 'read:vitals',
    state: 'st-123',
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
  });

  async function expectRedirectError(params: Record<string, string>, error: string, description?: RegExp) {
    const res = await fetch(authorizeUrl(params), { redirect: 'manual' });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(location.searchParams.get('error')).toBe(error);
    expect(location.searchParams.get('state')).toBe('st-123');
    expect(location.searchParams.get('iss')).toBe(gw.url);
    expect(location.searchParams.get('code')).toBeNull();
    if (description) expect(location.searchParams.get('error_description')).toMatch(description);
  }

  it('PKCE plain is refused', async () => expectRedirectError({ ...valid(), code_challenge_method: 'plain' }, 'invalid_request', /S256/));
  it('a missing code_challenge is refused', async () => {
    const { code_challenge: _, ...rest } = valid();
    await expectRedirectError(rest, 'invalid_request', /code_challenge is required/);
  });
  it('a missing code_challenge_method (means plain) is refused', async () => {
    const { code_challenge_method: _, ...rest } = valid();
    await expectRedirectError(rest, 'invalid_request', /S256/);
  });
  it('response_type token is unsupported', async () =>
    expectRedirectError({ ...valid(), response_type: 'token' }, 'unsupported_response_type'));
  it('an unknown scope is invalid_scope', async () => expectRedirectError({ ...valid(), scope: 'read:vitals root' }, 'invalid_scope'));
  it('a client without the authorization_code grant registers no redirect URIs and never causes a redirect', async () => {
    const register = (body: object) =>
      fetch(`${gw.url}/api/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const withUris = await register({
      client_name: 'machine',
      grant_types: ['client_credentials'],
      redirect_uris: [REDIRECT_URI],
      scope: 'read:appointments',
    });
    expect(withUris.status).toBe(400);
    expect(await withUris.json()).toMatchObject({ error: 'invalid_redirect_uri' });
    const machine = (await (
      await register({ client_name: 'machine', grant_types: ['client_credentials'], scope: 'read:appointments' })
    ).json()) as { client_id: string; redirect_uris: string[] };
    expect(machine.redirect_uris).toEqual([]);
    const res = await fetch(authorizeUrl({ ...valid(), client_id: machine.client_id }), { redirect: 'manual' });
    expect(res.status).toBe(400); // the server's own error page
    expect(res.headers.get('location')).toBeNull();
  });

  it('an unknown client gets an error page, never a redirect', async () => {
    const res = await fetch(authorizeUrl({ ...valid(), client_id: 'cli_does_not_exist' }), { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });

  it('an unregistered redirect_uri gets an error page, never a redirect (no open redirector)', async () => {
    const res = await fetch(authorizeUrl({ ...valid(), redirect_uri: 'https://attacker.example/cb' }), { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain('role="alert"');
  });

  it('the role granting none of the requested scopes ends in access_denied', async () => {
    const url = authorizeUrl({ ...valid(), scope: 'write:patients' });
    const browser = new Browser();
    const login = await browser.request(url.toString());
    const html = await login.text();
    const res = await browser.request(`${gw.url}/api/auth/oauth2/authorize`, {
      form: { ...hiddenFields(html), username: 'nurse', password: DEMO_PASSWORDS.nurse },
    });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('st-123');
  });

  it('deny on the consent page → access_denied with state', async () => {
    const { location } = await signInAndConsent(authorizeUrl(valid()), 'doctor', 'deny');
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('st-123');
  });
});

describe('the login and consent pages', () => {
  const start = async () => {
    const browser = new Browser();
    const res = await browser.request(
      authorizeUrl({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: REDIRECT_URI,
        scope: 'read:vitals',
        state: 's',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      }).toString(),
    );
    return { browser, res, html: await res.text() };
  };
  const action = () => `${gw.url}/api/auth/oauth2/authorize`;

  it('are self-contained, accessible HTML under a strict CSP, with the client name escaped', async () => {
    const { res, html } = await start();
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain('<label for="username">');
    expect(html).toContain('<label for="password">');
    expect(html).not.toMatch(/<script|src=|<link/);
    expect(html).toContain('Ward App &lt;test&gt;'); // registered name, escaped
    expect(hiddenFields(html).csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('a wrong password shows the form again with an alert, and nothing is issued', async () => {
    const { browser, html } = await start();
    const res = await browser.request(action(), { form: { ...hiddenFields(html), username: 'doctor', password: 'wrong' } });
    expect(res.status).toBe(400);
    const again = await res.text();
    expect(again).toContain('role="alert"');
    expect(again).toContain('The username or password is incorrect.');
    expect(again).toContain('value="doctor"');
  });

  it('a wrong or missing CSRF token is refused (403), and so is a form without the browser cookie', async () => {
    const { browser, html } = await start();
    const fields = hiddenFields(html);
    const badToken = await browser.request(action(), {
      form: { ...fields, csrf_token: 'x'.repeat(43), username: 'doctor', password: DEMO_PASSWORDS.doctor },
    });
    expect(badToken.status).toBe(403);
    const { csrf_token: _, ...noToken } = fields;
    expect((await browser.request(action(), { form: { ...noToken, username: 'doctor', password: DEMO_PASSWORDS.doctor } })).status).toBe(
      403,
    );
    const otherBrowser = new Browser();
    expect(
      (await otherBrowser.request(action(), { form: { ...fields, username: 'doctor', password: DEMO_PASSWORDS.doctor } })).status,
    ).toBe(403);
  });

  it('the CSRF token changes at login; the consent form cannot be replayed', async () => {
    const { browser, html } = await start();
    const login = await browser.request(action(), { form: { ...hiddenFields(html), username: 'doctor', password: DEMO_PASSWORDS.doctor } });
    const consentHtml = await login.text();
    expect(hiddenFields(consentHtml).csrf_token).not.toBe(hiddenFields(html).csrf_token);
    const first = await browser.request(action(), { form: { ...hiddenFields(consentHtml), decision: 'allow' } });
    expect(first.status).toBe(303);
    const replay = await browser.request(action(), { form: { ...hiddenFields(consentHtml), decision: 'allow' } });
    expect(replay.status).toBe(400);
  });
});

describe('code lifetime', () => {
  it('an expired code is refused', async () => {
    const short = await startGateway({ AUTH_CODE_TTL_SECONDS: '1', PUBLIC_BASE_URL: gw.url });
    try {
      const { verifier, challenge } = pkcePair();
      const url = new URL(`${short.address}/api/auth/oauth2/authorize`);
      for (const [k, v] of Object.entries({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: REDIRECT_URI,
        scope: 'read:vitals',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }))
        url.searchParams.set(k, v);
      const browser = new Browser();
      const html = await (await browser.request(url.toString())).text();
      const consent = await (
        await browser.request(`${short.address}/api/auth/oauth2/authorize`, {
          form: { ...hiddenFields(html), username: 'doctor', password: DEMO_PASSWORDS.doctor },
        })
      ).text();
      const done = await browser.request(`${short.address}/api/auth/oauth2/authorize`, {
        form: { ...hiddenFields(consent), decision: 'allow' },
      });
      const code = new URL(done.headers.get('location')!).searchParams.get('code')!;
      await new Promise((r) => setTimeout(r, 2_100));
      const res = await fetch(`${short.address}/api/auth/oauth2/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT_URI,
          code_verifier: verifier,
          client_id: client.client_id,
          client_secret: client.client_secret!,
        }),
      });
      expect(await res.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.stringContaining('expired') });
    } finally {
      await short.close();
    }
  });
});
