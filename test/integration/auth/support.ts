/**
 * A minimal browser for the authorization-code pages: follows nothing on its own, keeps cookies,
 * reads hidden form fields out of the HTML. Plus registration helpers for code-flow clients.
 */
import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Role, Scope } from '@vitalis/schemas';
import { initialAccessToken } from '../../helpers/auth';
import { fetchFrom } from '../../helpers/http-from';

export const DEMO_PASSWORDS = {
  doctor: 'doctor-demo-pass',
  nurse: 'nurse-demo-pass',
  reception: 'reception-demo-pass',
  patient: 'patient-demo-pass',
  admin: 'admin-demo-pass',
} as const;

export const REDIRECT_URI = 'http://127.0.0.1:53682/callback';

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface CodeClient {
  client_id: string;
  client_secret?: string;
  scope: string;
  redirect_uris: string[];
}

/** An authorization-code client registered with a `role` initial access token (default system: the users' roles bound its tokens). */
export async function registerCodeClient(
  baseUrl: string,
  scopes: Scope[],
  opts: { public?: boolean; name?: string; role?: Role } = {},
): Promise<CodeClient> {
  const res = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await initialAccessToken(opts.role ?? 'system')}` },
    body: JSON.stringify({
      client_name: opts.name ?? 'Ward App <test>',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: opts.public ? 'none' : 'client_secret_post',
      redirect_uris: [REDIRECT_URI],
      scope: scopes.join(' '),
    }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as CodeClient;
}

/** Hidden inputs of the first form on a page. */
export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[m[1]!] = m[2]!
      .replaceAll('&amp;', '&')
      .replaceAll('&quot;', '"')
      .replaceAll('&#39;', "'")
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>');
  }
  return fields;
}

export class Browser {
  cookies = new Map<string, string>();

  /** `address`: a loopback address to speak from (test/helpers/http-from.ts); default 127.0.0.1. */
  constructor(readonly address?: string) {}

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const method = init.method ?? (init.form ? 'POST' : 'GET');
    const body = init.form ? new URLSearchParams(init.form) : undefined;
    const res = this.address
      ? await fetchFrom(this.address, url, { method, headers, ...(body ? { body } : {}) })
      : await fetch(url, { method, headers, redirect: 'manual', ...(body ? { body } : {}) });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair, ...attrs] = cookie.split(';');
      const [name, value] = [pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1)];
      if (attrs.some((a) => /max-age=0/i.test(a.trim()))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }
}

/**
 * Drives the pages as a person would: GET the authorization URL (login page), POST the login
 * form, POST "Allow" on the consent page. Returns the final redirect Location (the callback).
 */
export async function signInAndConsent(
  authorizationUrl: URL | string,
  username: keyof typeof DEMO_PASSWORDS,
  decision: 'allow' | 'deny' = 'allow',
) {
  const browser = new Browser();
  const login = await browser.request(String(authorizationUrl));
  expect(login.status).toBe(200);
  const loginHtml = await login.text();
  const action = new URL(loginHtml.match(/<form method="post" action="([^"]+)"/)![1]!, String(authorizationUrl)).toString();
  const consent = await browser.request(action, { form: { ...hiddenFields(loginHtml), username, password: DEMO_PASSWORDS[username] } });
  expect(consent.status).toBe(200);
  const consentHtml = await consent.text();
  expect(consentHtml).toContain('Allow');
  const done = await browser.request(action, { form: { ...hiddenFields(consentHtml), decision } });
  expect(done.status).toBe(303);
  return { location: new URL(done.headers.get('location')!), loginHtml, consentHtml, browser, action };
}

/** A user's tokens through the real login and consent pages (authorization code + PKCE); `redeem` replays the code. */
export async function userTokens(baseUrl: string, client: CodeClient, username: string, password: string, scope: string) {
  const { verifier, challenge } = pkcePair();
  const url = `${baseUrl}/api/auth/oauth2/authorize?${new URLSearchParams({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT_URI, scope, state: 's', code_challenge: challenge, code_challenge_method: 'S256' })}`;
  const browser = new Browser();
  const loginHtml = await (await browser.request(url)).text();
  const action = new URL(loginHtml.match(/<form method="post" action="([^"]+)"/)![1]!, url).toString();
  const consentHtml = await (await browser.request(action, { form: { ...hiddenFields(loginHtml), username, password } })).text();
  const done = await browser.request(action, { form: { ...hiddenFields(consentHtml), decision: 'allow' } });
  const code = new URL(done.headers.get('location')!).searchParams.get('code')!;
  const redeem = (v: string) =>
    fetch(`${baseUrl}/api/auth/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        code_verifier: v,
        client_id: client.client_id,
        ...(client.client_secret ? { client_secret: client.client_secret } : {}),
      }),
    });
  const tokens = (await (await redeem(verifier)).json()) as { access_token: string; refresh_token: string; scope: string };
  return { code, verifier, redeem, tokens, consentHtml };
}
