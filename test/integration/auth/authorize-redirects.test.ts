/**
 * The authorization endpoint never redirects an unauthenticated user to a URI nobody vouched for
 * (issue 18 finding 9, RFC 9700 §4.11.2): a client that registered itself openly gets its errors
 * shown on our own page, and its login and consent pages say it is unverified; a client an
 * operator vouched for (initial access token, or approved with a role) keeps RFC 6749 error
 * redirects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveClient } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { Browser, DEMO_PASSWORDS, REDIRECT_URI, hiddenFields, pkcePair, registerCodeClient, type CodeClient } from './support';

let gw: RunningGateway;
let selfRegistered: CodeClient;
let vouched: CodeClient;
let approved: CodeClient;

/** An authorization-code client registered openly (no initial access token): what anyone can do. */
async function registerOpenly(name: string): Promise<CodeClient> {
  const res = await fetch(`${gw.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: name,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      redirect_uris: [REDIRECT_URI],
      scope: 'read:appointments',
    }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as CodeClient;
}

beforeAll(async () => {
  gw = await startGateway();
  selfRegistered = await registerOpenly('Totally Official Vitalis App');
  vouched = await registerCodeClient(gw.url, ['read:appointments']);
  approved = await registerOpenly('Approved App');
  await approveClient(gw.url, approved.client_id, 'doctor');
});
afterAll(async () => gw?.close());

const authorizeUrl = (client: CodeClient, params: Record<string, string> = {}) => {
  const url = new URL(`${gw.url}/api/auth/oauth2/authorize`);
  const all = {
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT_URI,
    scope: 'read:appointments',
    state: 'st-1',
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
    ...params,
  };
  for (const [k, v] of Object.entries(all)) url.searchParams.set(k, v);
  return url.toString();
};

const BAD_REQUESTS: [string, Record<string, string>, string][] = [
  ['an unknown scope', { scope: 'read:appointments root' }, 'invalid_scope'],
  ['response_type token', { response_type: 'token' }, 'unsupported_response_type'],
  ['PKCE plain', { code_challenge_method: 'plain' }, 'invalid_request'],
];

describe('errors before the user signed in', () => {
  for (const [what, params, error] of BAD_REQUESTS) {
    it(`${what}: a self-registered client gets a 400 page on our server, no Location`, async () => {
      const res = await fetch(authorizeUrl(selfRegistered, params), { redirect: 'manual' });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html).toContain('role="alert"');
      expect(html).toContain(`(${error})`);
    });

    it(`${what}: a client registered with an initial access token, or approved by an operator, gets the RFC 6749 error redirect`, async () => {
      for (const client of [vouched, approved]) {
        const res = await fetch(authorizeUrl(client, params), { redirect: 'manual' });
        expect(res.status).toBe(303);
        const location = new URL(res.headers.get('location')!);
        expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
        expect(location.searchParams.get('error')).toBe(error);
        expect(location.searchParams.get('state')).toBe('st-1');
      }
    });
  }

  it('the refusal is audited, saying whether it was redirected', async () => {
    const res = await fetch(authorizeUrl(selfRegistered, { response_type: 'token' }), { redirect: 'manual' });
    await res.body?.cancel();
    const { rows } = await gw.deps.pool.query(
      "SELECT detail FROM audit_events WHERE action = 'authorization.refused' AND actor_client_id = $1 ORDER BY id DESC LIMIT 1",
      [selfRegistered.client_id],
    );
    expect(rows[0].detail).toMatchObject({ error: 'unsupported_response_type', redirected: false });
  });
});

describe('the login and consent pages', () => {
  const MARK = 'This app registered itself; Vitalis has not verified it.';

  async function throughLogin(client: CodeClient) {
    const browser = new Browser();
    const login = await browser.request(authorizeUrl(client));
    expect(login.status).toBe(200);
    const loginHtml = await login.text();
    const consent = await browser.request(`${gw.url}/api/auth/oauth2/authorize`, {
      form: { ...hiddenFields(loginHtml), username: 'patient', password: DEMO_PASSWORDS.patient },
    });
    expect(consent.status).toBe(200);
    return { browser, loginHtml, consentHtml: await consent.text() };
  }

  it('of a self-registered client carry the marking and its redirect host; after consent the code still goes back to it', async () => {
    const { browser, loginHtml, consentHtml } = await throughLogin(selfRegistered);
    const host = new URL(REDIRECT_URI).host;
    for (const html of [loginHtml, consentHtml]) {
      expect(html).toContain(MARK);
      expect(html).toContain(`sends you back to <strong>${host}</strong>`);
    }
    const done = await browser.request(`${gw.url}/api/auth/oauth2/authorize`, {
      form: { ...hiddenFields(consentHtml), decision: 'allow' },
    });
    expect(done.status).toBe(303);
    expect(new URL(done.headers.get('location')!).searchParams.get('code')).toBeTruthy();
  });

  it('of a client an operator vouched for do not', async () => {
    for (const client of [vouched, approved]) {
      const { loginHtml, consentHtml } = await throughLogin(client);
      expect(loginHtml).not.toContain(MARK);
      expect(consentHtml).not.toContain(MARK);
    }
  });
});
