/**
 * The pure rules behind key-set fetches (remote-key-sets.ts), the claims-before-keys checks
 * (jwt-checks.ts) and the production refusal of the test-only fetch settings (config.ts).
 */
import { SignJWT, generateKeyPair } from 'jose';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '@vitalis/config';
import { gatewayConfigShape, withBaseUrl } from '../../../apps/gateway/src/config';
import { isPublicAddress, keySetUriProblem, parseAllowHosts } from '../../../apps/gateway/src/remote-key-sets';
import { checkUnverifiedJwt, JwtCheckError, type JwtRules } from '../../../apps/gateway/src/auth/jwt-checks';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1', // loopback, RFC 1918
    '100.64.0.1',
    '100.127.255.254', // RFC 6598 CGNAT
    '169.254.169.254',
    '169.254.0.1', // link-local, cloud metadata
    '0.0.0.0',
    '0.1.2.3',
    '255.255.255.255',
    '224.0.0.1',
    '239.1.2.3',
    '240.0.0.1', // unspecified, broadcast, multicast, reserved
    '::',
    '::1',
    'fe80::1',
    'fc00::1',
    'fd00:ec2::254',
    'ff02::1', // IPv6 specials, ULA (AWS metadata)
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254', // IPv4-mapped
    '64:ff9b::a00:1',
    '2002:7f00:1::1',
    '2001::1', // NAT64, 6to4, Teredo (may embed any IPv4)
    'not-an-address',
    '',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::1111',
    '2a00:1450:4001::200e',
    '::ffff:8.8.8.8',
  ])('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('keySetUriProblem', () => {
  it('accepts https with a DNS name or a public literal', () => {
    expect(keySetUriProblem('https://keys.example.org/jwks')).toBeUndefined();
    expect(keySetUriProblem('https://8.8.8.8:8443/jwks')).toBeUndefined();
    expect(keySetUriProblem('https://[2606:4700::1111]/jwks')).toBeUndefined();
  });

  it.each([
    ['not a URL', 'keys.example.org/jwks', /absolute URL/],
    ['http', 'http://keys.example.org/jwks', /https/],
    ['credentials', 'https://a:b@keys.example.org/jwks', /credentials/],
    ['a fragment', 'https://keys.example.org/jwks#x', /fragment/],
    ['loopback', 'https://127.0.0.1/jwks', /non-public/],
    ['loopback in hex', 'https://0x7f.0.0.1/jwks', /non-public/],
    ['IPv6 loopback', 'https://[::1]/jwks', /non-public/],
    ['metadata', 'https://169.254.169.254/', /non-public/],
    ['IPv4-mapped private', 'https://[::ffff:192.168.0.1]/', /non-public/],
  ])('refuses %s', (_what, uri, problem) => {
    expect(keySetUriProblem(uri)).toMatch(problem);
  });

  it('exempts only the allow-listed hosts (test setting)', () => {
    const allow = parseAllowHosts(' 127.0.0.1, [::1] ');
    expect(keySetUriProblem('https://127.0.0.1:4443/jwks', allow)).toBeUndefined();
    expect(keySetUriProblem('https://[::1]:4443/jwks', allow)).toBeUndefined();
    expect(keySetUriProblem('https://10.0.0.1/jwks', allow)).toMatch(/non-public/);
    expect(keySetUriProblem('http://127.0.0.1/jwks', allow)).toMatch(/https/);
  });
});

describe('key-set fetch configuration', () => {
  const load = (env: Record<string, string>) => withBaseUrl(parseConfig(gatewayConfigShape, { NODE_ENV: 'development', ...env }));
  const production = { NODE_ENV: 'production', KEY_ENCRYPTION_SECRET: 'a-real-secret-from-the-vault', SANDBOX_ENABLED: 'true' };

  it('production refuses to start with the test-only allow-list or CA file', () => {
    expect(load(production).JWKS_FETCH_COOLDOWN_SECONDS).toBe(30);
    expect(() => load({ ...production, JWKS_FETCH_ALLOW_HOSTS: '127.0.0.1' })).toThrow(/JWKS_FETCH_ALLOW_HOSTS/);
    expect(() => load({ ...production, JWKS_FETCH_CA_FILE: '/tmp/ca.pem' })).toThrow(ConfigError);
    expect(load({ NODE_ENV: 'test', JWKS_FETCH_ALLOW_HOSTS: '127.0.0.1' }).JWKS_FETCH_ALLOW_HOSTS).toBe('127.0.0.1');
  });

  it('a TRUSTED_ISSUERS jwks_uri follows the same rules', () => {
    const issuers = (jwksUri: string) => JSON.stringify([{ issuer: 'https://idp.example', jwks_uri: jwksUri }]);
    expect(() => load({ TRUSTED_ISSUERS: issuers('http://idp.example/jwks') })).toThrow(/TRUSTED_ISSUERS.*https/);
    expect(() => load({ TRUSTED_ISSUERS: issuers('https://169.254.169.254/jwks') })).toThrow(/non-public/);
    expect(
      load({ TRUSTED_ISSUERS: issuers('https://127.0.0.1:4443/jwks'), JWKS_FETCH_ALLOW_HOSTS: '127.0.0.1' }).TRUSTED_ISSUERS,
    ).toHaveLength(1);
  });
});

describe('checkUnverifiedJwt (claims before keys)', () => {
  const now = 1_900_000_000;
  const rules: JwtRules = {
    algorithms: ['ES256'],
    issuer: 'cli_1',
    subject: 'cli_1',
    audiences: ['https://as.example/token'],
    requireJti: true,
    maxLifetimeSeconds: 600,
    clockToleranceSeconds: 5,
    now,
  };
  const sign = async (claims: Record<string, unknown>, header: Record<string, unknown> = {}) => {
    const { privateKey } = await generateKeyPair('ES256');
    return new SignJWT({ iss: 'cli_1', sub: 'cli_1', aud: 'https://as.example/token', exp: now + 60, jti: 'j-1', ...claims })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1', ...header })
      .sign(privateKey);
  };

  it('accepts a well-formed assertion (its signature is not looked at)', async () => {
    expect(checkUnverifiedJwt(await sign({}), rules).payload).toMatchObject({ jti: 'j-1' });
    expect(checkUnverifiedJwt(await sign({ aud: ['x', 'https://as.example/token'] }), rules).header).toMatchObject({ kid: 'k1' });
  });

  it.each([
    ['another audience', { aud: 'https://elsewhere.example' }, {}, /aud/],
    ['another issuer', { iss: 'cli_2' }, {}, /iss/],
    ['another subject', { sub: 'cli_2' }, {}, /sub/],
    ['no exp', { exp: undefined }, {}, /exp/],
    ['an expired exp', { exp: now - 60 }, {}, /expired/],
    ['a lifetime over the limit', { exp: now + 3_600 }, {}, /within 600/],
    ['a future nbf', { nbf: now + 120 }, {}, /nbf/],
    ['no jti', { jti: undefined }, {}, /jti/],
    ['an oversized jti', { jti: 'x'.repeat(257) }, {}, /jti/],
    ['a jti with spaces', { jti: 'a b' }, {}, /jti/],
    ['an oversized kid', {}, { kid: 'k'.repeat(257) }, /kid/],
  ])('refuses %s', async (_what, claims, header, message) => {
    const token = await sign(claims, header);
    expect(() => checkUnverifiedJwt(token, rules)).toThrow(JwtCheckError);
    expect(() => checkUnverifiedJwt(token, rules)).toThrow(message);
  });

  it('refuses crit and b64 header parameters', () => {
    const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const claims = part({ iss: 'cli_1', sub: 'cli_1', aud: 'https://as.example/token', exp: now + 60, jti: 'j' });
    expect(() => checkUnverifiedJwt(`${part({ alg: 'ES256', crit: ['x-custom'], 'x-custom': 1 })}.${claims}.sig`, rules)).toThrow(/crit/);
    expect(() => checkUnverifiedJwt(`${part({ alg: 'ES256', b64: false, crit: ['b64'] })}.${claims}.sig`, rules)).toThrow(/crit/);
  });

  it('refuses an algorithm outside the list and a non-JWT', async () => {
    const { privateKey } = await generateKeyPair('ES384');
    const es384 = await new SignJWT({ iss: 'cli_1', sub: 'cli_1', aud: 'https://as.example/token', exp: now + 60, jti: 'j' })
      .setProtectedHeader({ alg: 'ES384' })
      .sign(privateKey);
    expect(() => checkUnverifiedJwt(es384, rules)).toThrow(/alg/);
    expect(() => checkUnverifiedJwt('not.a.jwt', rules)).toThrow(/not a JWT/);
  });
});
