/** Pure parts of the authorization server: PKCE, redirect URIs, client credential parsing, scopes, pages, key sealing, config. */
import { describe, expect, it } from 'vitest';
import { parseConfig, ConfigError } from '@vitalis/config';
import { pkceMatches, s256 } from '../../../apps/gateway/src/auth/pkce';
import { checkRedirectUri } from '../../../apps/gateway/src/auth/clients';
import { presentedClient } from '../../../apps/gateway/src/auth/client-auth';
import { grantScopes } from '../../../apps/gateway/src/auth/grants/scopes';
import { escapeHtml, loginPage } from '../../../apps/gateway/src/auth/pages';
import { redirectWithParams } from '../../../apps/gateway/src/auth/authorize';
import { openJwk, sealJwk } from '../../../apps/gateway/src/auth/keys';
import { OAuthError } from '../../../apps/gateway/src/auth/oauth-errors';
import { gatewayConfigShape, withBaseUrl } from '../../../apps/gateway/src/config';

describe('PKCE S256 (RFC 7636)', () => {
  it('matches the RFC 7636 appendix B example', () => {
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    expect(s256(verifier)).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    expect(pkceMatches(verifier, 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true);
  });
  it('refuses a wrong verifier, a short one, and plain (verifier = challenge)', () => {
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    expect(pkceMatches(`${verifier}x`, s256(verifier))).toBe(false);
    expect(pkceMatches('short', s256('short'))).toBe(false);
    expect(pkceMatches(verifier, verifier)).toBe(false);
  });
});

describe('redirect URIs', () => {
  it.each([
    ['https://app.example/cb', true],
    ['http://127.0.0.1:8080/cb', true],
    ['http://[::1]/cb', true],
    ['http://localhost:3000/cb', true],
    ['http://app.example/cb', false],
    ['https://app.example/cb#frag', false],
    ['https://user:pw@app.example/cb', false],
    ['javascript:alert(1)', false],
    ['/relative', false],
  ])('%s → %s', (uri, ok) => expect(checkRedirectUri(uri) === undefined).toBe(ok));

  it('error redirects keep the registered query and add the parameters', () => {
    expect(
      redirectWithParams('https://app.example/cb?tenant=a', {
        error: 'access_denied',
        state: 's 1',
        iss: 'https://vitalis.example',
        code: undefined,
      }),
    ).toBe('https://app.example/cb?tenant=a&error=access_denied&state=s+1&iss=https%3A%2F%2Fvitalis.example');
  });
});

describe('client credentials as presented (RFC 6749 §2.3.1)', () => {
  it('Basic: both parts are form-urlencoded', () => {
    const header = `Basic ${Buffer.from(`${encodeURIComponent('cli:1')}:${encodeURIComponent('s%c:r+t')}`).toString('base64')}`;
    expect(presentedClient(header, {})).toEqual({ method: 'client_secret_basic', clientId: 'cli:1', secret: 's%c:r+t' });
  });
  it('post, none, and private_key_jwt are told apart', () => {
    expect(presentedClient(undefined, { client_id: 'a', client_secret: 'b' })).toMatchObject({ method: 'client_secret_post' });
    expect(presentedClient(undefined, { client_id: 'a' })).toMatchObject({ method: 'none' });
    expect(presentedClient(undefined, {})).toBeUndefined();
  });
  it('two methods at once, a repeated field or a wrong assertion type is invalid_request', () => {
    const basic = `Basic ${Buffer.from('a:b').toString('base64')}`;
    for (const [header, body] of [
      [basic, { client_secret: 'b' }],
      [
        undefined,
        {
          client_id: 'a',
          client_secret: 'b',
          client_assertion: 'x',
          client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        },
      ],
      [undefined, { client_id: ['a', 'b'] }],
      [undefined, { client_assertion: 'x.y.z', client_assertion_type: 'saml' }],
    ] as const) {
      try {
        presentedClient(header, body as Record<string, string>);
        expect.unreachable();
      } catch (err) {
        expect(err).toBeInstanceOf(OAuthError);
        expect((err as OAuthError).code).toBe('invalid_request');
      }
    }
  });
});

describe('scope arithmetic', () => {
  it('grants what was asked within the allowed set, or all of it when nothing was asked', () => {
    expect(grantScopes('read:vitals', ['read:vitals', 'read:patients'], 'x')).toEqual(['read:vitals']);
    expect(grantScopes(undefined, ['read:vitals', 'read:patients'], 'x')).toEqual(['read:vitals', 'read:patients']);
  });
  it('refuses unknown names, escalation, and an empty result (invalid_scope)', () => {
    for (const [requested, allowed] of [
      ['admin', ['read:vitals']],
      ['read:patients', ['read:vitals']],
      [undefined, []],
    ] as const) {
      expect(() => grantScopes(requested, [...allowed], 'x')).toThrow(OAuthError);
    }
  });
});

describe('pages', () => {
  it('escape everything interpolated', () => {
    expect(escapeHtml(`<script>"'&`)).toBe('&lt;script&gt;&quot;&#39;&amp;');
    const html = loginPage(
      { action: '/a', interaction: 'i', csrfToken: '"><script>', clientName: '<img src=x onerror=alert(1)>' },
      { username: '"onfocus="x', error: '<b>' },
    );
    expect(html).not.toMatch(/<script|<img|<b>|"onfocus/);
  });
});

describe('signing keys at rest', () => {
  it('seal/open round-trips; a wrong secret or a flipped byte fails (AES-GCM)', () => {
    const jwk = { kty: 'EC', crv: 'P-256', x: 'x', y: 'y', d: 'secret-part' };
    const sealed = sealJwk(jwk, 'a-long-enough-secret');
    expect(sealed).not.toContain('secret-part');
    expect(openJwk(sealed, 'a-long-enough-secret')).toEqual(jwk);
    expect(() => openJwk(sealed, 'another-long-secret')).toThrow();
    const raw = Buffer.from(sealed, 'base64url');
    raw[raw.length - 1]! ^= 1;
    expect(() => openJwk(raw.toString('base64url'), 'a-long-enough-secret')).toThrow();
  });
});

describe('gateway auth configuration', () => {
  const load = (env: Record<string, string>) => withBaseUrl(parseConfig(gatewayConfigShape, { NODE_ENV: 'development', ...env }));
  it('defaults', () => {
    const c = load({});
    expect(c).toMatchObject({
      ACCESS_TOKEN_TTL_SECONDS: 900,
      BACKEND_TOKEN_TTL_SECONDS: 300,
      REFRESH_TOKEN_TTL_SECONDS: 2_592_000,
      AUTH_CODE_TTL_SECONDS: 60,
      SANDBOX_TOKEN_TTL_SECONDS: 900,
      SANDBOX_RATE_LIMIT: 10,
      SANDBOX_RATE_WINDOW_SECONDS: 3_600,
      TRUSTED_ISSUERS: [],
      demoUsers: true,
    });
    // the production defaults of the throttles and rate limits (the auth README's configuration table)
    expect(c).toMatchObject({
      LOGIN_ADDRESS_MAX_FAILURES: 100,
      LOGIN_FAILURE_WINDOW_SECONDS: 900,
      LOGIN_USER_FREE_FAILURES: 5,
      LOGIN_USER_DELAY_SECONDS: 1,
      LOGIN_USER_MAX_DELAY_SECONDS: 60,
      OAUTH_ADDRESS_RATE_LIMIT: 120,
      OAUTH_CLIENT_RATE_LIMIT: 120,
      OAUTH_RATE_WINDOW_SECONDS: 60,
      KEY_RELOAD_COOLDOWN_SECONDS: 10,
      MCP_ANONYMOUS_SESSION_LIMIT: 30,
      MCP_ANONYMOUS_SESSION_WINDOW_SECONDS: 600,
    });
  });
  it('TRUSTED_ISSUERS is a JSON list of issuers with exactly one key source', () => {
    expect(load({ TRUSTED_ISSUERS: '[{"issuer":"https://idp.example","jwks_uri":"https://idp.example/jwks"}]' }).TRUSTED_ISSUERS).toEqual([
      { issuer: 'https://idp.example', jwks_uri: 'https://idp.example/jwks' },
    ]);
    expect(() => load({ TRUSTED_ISSUERS: 'not json' })).toThrow(ConfigError);
    expect(() => load({ TRUSTED_ISSUERS: '[{"issuer":"https://idp.example"}]' })).toThrow(/jwks_uri or jwks/);
  });
  it('production refuses the development key secret and seeds no demo users by default', () => {
    expect(() => load({ NODE_ENV: 'production' })).toThrow(/KEY_ENCRYPTION_SECRET/);
    const production = { NODE_ENV: 'production', KEY_ENCRYPTION_SECRET: 'a-real-secret-from-the-vault', SANDBOX_ENABLED: 'true' };
    expect(() => load({ ...production, BACKEND_TOKEN_TTL_SECONDS: '301' })).toThrow(/BACKEND_TOKEN_TTL_SECONDS/);
    expect(load({ ...production, BACKEND_TOKEN_TTL_SECONDS: '300' }).BACKEND_TOKEN_TTL_SECONDS).toBe(300);
    expect(load({ BACKEND_TOKEN_TTL_SECONDS: '3600' }).BACKEND_TOKEN_TTL_SECONDS).toBe(3600); // a tool outside production
    expect(load({ NODE_ENV: 'production', KEY_ENCRYPTION_SECRET: 'a-real-secret-from-the-vault', SANDBOX_ENABLED: 'true' }).demoUsers).toBe(
      false,
    );
  });
});
