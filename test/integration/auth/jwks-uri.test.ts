/**
 * Server-side request forgery through jwks_uri (issue 18, finding 5): a private_key_jwt client's
 * jwks_uri and a trusted issuer's jwks_uri are fetched only over https, only from public
 * addresses (checked on the address actually connected to), within a size and time limit, from a
 * bounded cache, and never before the JWT's header and claims were checked. The allowed case runs
 * against an https server on 127.0.0.1 through the test-only JWKS_FETCH_ALLOW_HOSTS and
 * JWKS_FETCH_CA_FILE settings (refused in production, see test/unit/auth/key-sets.test.ts).
 */
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KEY_SET_MAX_BYTES } from '../../../apps/gateway/src/remote-key-sets';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { KeySetServer, selfSignedCertificate, type Certificate } from './key-set-server';

const COOLDOWN_SECONDS = 2;
const SCOPE = 'read:appointments';
const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const JWT_TYPE = 'urn:ietf:params:oauth:token-type:jwt';

let tls: Certificate;
let v4: KeySetServer; // https on 127.0.0.1
let v6: KeySetServer | undefined; // https on [::1], when the machine has IPv6 loopback
let strict: RunningGateway; // the production rules: no exemption
let allowed: RunningGateway; // 127.0.0.1 exempt, the test CA trusted
const idp = { issuer: 'https://idp.test.example', path: '/issuer-jwks', kid: 'idp-1' } as const;
let idpKey: { privateKey: CryptoKey; jwk: JWK };

async function keyPair(kid = `k-${randomUUID()}`): Promise<{ privateKey: CryptoKey; jwk: JWK }> {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } };
}

beforeAll(async () => {
  tls = selfSignedCertificate();
  v4 = await new KeySetServer(tls).listen('127.0.0.1');
  try {
    v6 = await new KeySetServer(tls).listen('::1', v4.port);
  } catch {
    v6 = await new KeySetServer(tls).listen('::1').catch(() => undefined);
  }
  idpKey = await keyPair(idp.kid);
  v4.routes.set(idp.path, { keys: [idpKey.jwk] });
  strict = await startGateway();
  allowed = await startGateway({
    JWKS_FETCH_ALLOW_HOSTS: '127.0.0.1',
    JWKS_FETCH_CA_FILE: tls.certFile,
    JWKS_FETCH_COOLDOWN_SECONDS: String(COOLDOWN_SECONDS),
    TRUSTED_ISSUERS: JSON.stringify([{ issuer: idp.issuer, jwks_uri: `https://127.0.0.1:${v4.port}${idp.path}` }]),
  });
});
afterAll(async () => {
  await strict?.close();
  await allowed?.close();
  await v4?.close();
  await v6?.close();
  tls?.remove();
});
beforeEach(() => {
  v4.connections = 0;
  if (v6) v6.connections = 0;
});

const register = (gw: RunningGateway, jwksUri: string) =>
  fetch(`${gw.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'jwks-uri-test',
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'private_key_jwt',
      jwks_uri: jwksUri,
      scope: SCOPE,
    }),
  });

async function keyUriClient(gw: RunningGateway, jwksUri: string): Promise<string> {
  const res = await register(gw, jwksUri);
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

function assertion(
  gw: RunningGateway,
  clientId: string,
  key: { privateKey: CryptoKey; jwk: JWK },
  overrides: { aud?: string; exp?: number; iss?: string; jku?: string } = {},
) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ jti: randomUUID() })
    .setProtectedHeader({ alg: 'ES256', kid: key.jwk.kid!, ...(overrides.jku !== undefined ? { jku: overrides.jku } : {}) })
    .setIssuer(overrides.iss ?? clientId)
    .setSubject(clientId)
    .setAudience(overrides.aud ?? `${gw.url}/api/auth/oauth2/token`)
    .setIssuedAt(now)
    .setExpirationTime(overrides.exp ?? now + 60)
    .sign(key.privateKey);
}

const tokenRequest = (gw: RunningGateway, clientAssertion: string) =>
  fetch(`${gw.url}/api/auth/oauth2/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: clientAssertion,
    }),
  });

async function expectInvalidClient(res: Response) {
  expect(res.status).toBe(401);
  expect(await res.json()).toMatchObject({ error: 'invalid_client' });
}

describe('registration', () => {
  it.each([
    ['http', 'http://keys.example.org/jwks'],
    ['http on loopback', 'http://127.0.0.1:9/jwks'],
    ['a loopback IPv4 literal', 'https://127.0.0.1/jwks'],
    ['a loopback IPv6 literal', 'https://[::1]/jwks'],
    ['an RFC 1918 address', 'https://10.1.2.3/jwks'],
    ['a CGNAT address', 'https://100.64.0.1/jwks'],
    ['the cloud metadata address', 'https://169.254.169.254/latest/meta-data'],
    ['the IPv6 metadata address (unique-local)', 'https://[fd00:ec2::254]/jwks'],
    ['an IPv6 link-local address', 'https://[fe80::1]/jwks'],
    ['an IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/jwks'],
    ['the unspecified address', 'https://0.0.0.0/jwks'],
    ['a decimal-encoded loopback', 'https://2130706433/jwks'],
    ['credentials in the URL', 'https://user:pw@keys.example.org/jwks'],
    // names (issue 30 item 9): refused at registration by the same rule as at fetch time
    ['localhost', 'https://localhost/jwks'],
    ['localhost with a trailing dot', 'https://localhost.:8443/jwks'],
    ['a subdomain of localhost', 'https://keys.localhost/jwks'],
    ['the cloud metadata name', 'https://metadata.google.internal/computeMetadata/v1/'],
    ['the cloud metadata name with a trailing dot', 'https://METADATA.google.internal./computeMetadata/v1/'],
    ['an mDNS name', 'https://printer.local/jwks'],
    ['a home.arpa name', 'https://nas.home.arpa/jwks'],
    ['a single-label name', 'https://intranet/jwks'],
  ])('refuses a jwks_uri with %s (invalid_client_metadata)', async (_what, uri) => {
    const res = await register(strict, uri);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_client_metadata', error_description: expect.stringContaining('jwks_uri') });
  });

  it('accepts an https DNS name (its addresses are checked when the keys are fetched)', async () => {
    expect((await register(strict, 'https://keys.example.org/jwks')).status).toBe(201);
  });
});

describe('fetch-time address checks', () => {
  it('a stored jwks_uri naming localhost (with a trailing dot) is refused with invalid_client; no connection reaches the server', async () => {
    const key = await keyPair();
    v4.routes.set('/localhost-jwks', { keys: [key.jwk] });
    if (v6) v6.routes.set('/localhost-jwks', { keys: [key.jwk] });
    // stored before the name rule refused it at registration: the fetch refuses it by the same rule
    const clientId = await keyUriClient(strict, 'https://keys.example.org/jwks');
    await strict.deps.pool.query('UPDATE oauth_clients SET jwks_uri = $2 WHERE client_id = $1', [
      clientId,
      `https://localhost.:${v4.port}/localhost-jwks`,
    ]);
    for (let i = 0; i < 3; i++) await expectInvalidClient(await tokenRequest(strict, await assertion(strict, clientId, key)));
    expect(v4.connections).toBe(0);
    expect(v6?.connections ?? 0).toBe(0);
  });

  it('a stored literal [::1] jwks_uri (registered before the rule) is refused; no connection reaches the server', async (ctx) => {
    if (!v6) return ctx.skip();
    const key = await keyPair();
    v6.routes.set('/v6-jwks', { keys: [key.jwk] });
    const clientId = await keyUriClient(strict, 'https://keys.example.org/jwks');
    await strict.deps.pool.query('UPDATE oauth_clients SET jwks_uri = $2 WHERE client_id = $1', [
      clientId,
      `https://[::1]:${v6.port}/v6-jwks`,
    ]);
    await expectInvalidClient(await tokenRequest(strict, await assertion(strict, clientId, key)));
    expect(v6.connections).toBe(0);
  });
});

describe('the allowed key set (test exemption for 127.0.0.1)', () => {
  it('an assertion with a bad aud, exp, lifetime or iss never causes a fetch; a good one does, once', async () => {
    const key = await keyPair();
    v4.routes.set('/claims-first', { keys: [key.jwk] });
    const clientId = await keyUriClient(allowed, `https://127.0.0.1:${v4.port}/claims-first`);
    const now = Math.floor(Date.now() / 1000);
    for (const bad of [{ aud: 'https://elsewhere.example/token' }, { exp: now - 120 }, { exp: now + 3_600 }, { iss: 'someone-else' }]) {
      await expectInvalidClient(await tokenRequest(allowed, await assertion(allowed, clientId, key, bad)));
    }
    expect(v4.connections).toBe(0);
    expect(v4.requestsTo('/claims-first')).toBe(0);
    expect((await tokenRequest(allowed, await assertion(allowed, clientId, key))).status).toBe(200);
    expect(v4.requestsTo('/claims-first')).toBe(1);
  });

  it('a jku header naming the registered JWKS URL is accepted; any other jku fails before a fetch (SMART App Launch 2.0)', async () => {
    const key = await keyPair();
    const registered = `https://127.0.0.1:${v4.port}/jku-registered`;
    v4.routes.set('/jku-registered', { keys: [key.jwk] });
    v4.routes.set('/jku-other', { keys: [key.jwk] }); // the same keys: only the URL is wrong
    const clientId = await keyUriClient(allowed, registered);
    for (const jku of ['https://127.0.0.1:9/not-registered-jwks.json', `https://127.0.0.1:${v4.port}/jku-other`, `${registered}?x=1`]) {
      const res = await tokenRequest(allowed, await assertion(allowed, clientId, key, { jku }));
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: 'invalid_client', error_description: expect.stringContaining('jku') });
    }
    expect(v4.connections).toBe(0);
    expect((await tokenRequest(allowed, await assertion(allowed, clientId, key, { jku: registered }))).status).toBe(200);
    expect(v4.requestsTo('/jku-registered')).toBe(1);
    expect(v4.requestsTo('/jku-other')).toBe(0);
  });

  it('works and is cached: one fetch for five assertions', async () => {
    const key = await keyPair();
    v4.routes.set('/cached', { keys: [key.jwk] });
    const clientId = await keyUriClient(allowed, `https://127.0.0.1:${v4.port}/cached`);
    for (let i = 0; i < 5; i++) {
      const res = await tokenRequest(allowed, await assertion(allowed, clientId, key));
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ token_type: 'Bearer', scope: SCOPE });
    }
    expect(v4.requestsTo('/cached')).toBe(1);
  });

  it('an unknown kid causes at most one refetch per cool-down window (and a rotated key is picked up after it)', async () => {
    const first = await keyPair();
    v4.routes.set('/rotating', { keys: [first.jwk] });
    const clientId = await keyUriClient(allowed, `https://127.0.0.1:${v4.port}/rotating`);
    expect((await tokenRequest(allowed, await assertion(allowed, clientId, first))).status).toBe(200);
    expect(v4.requestsTo('/rotating')).toBe(1);

    // The client rotates; within the cool-down, assertions with the new kid are refused without a fetch.
    const second = await keyPair();
    v4.routes.set('/rotating', { keys: [first.jwk, second.jwk] });
    for (let i = 0; i < 3; i++) await expectInvalidClient(await tokenRequest(allowed, await assertion(allowed, clientId, second)));
    expect(v4.requestsTo('/rotating')).toBe(1);

    // After the cool-down: one refetch finds the new key; more unknown kids then fetch nothing.
    await sleep(COOLDOWN_SECONDS * 1000 + 200);
    expect((await tokenRequest(allowed, await assertion(allowed, clientId, second))).status).toBe(200);
    expect(v4.requestsTo('/rotating')).toBe(2);
    const stranger = await keyPair();
    for (let i = 0; i < 3; i++) await expectInvalidClient(await tokenRequest(allowed, await assertion(allowed, clientId, stranger)));
    expect(v4.requestsTo('/rotating')).toBe(2);
  });

  it('a failing key set is not fetched again within the cool-down', async () => {
    const key = await keyPair();
    const clientId = await keyUriClient(allowed, `https://127.0.0.1:${v4.port}/missing`);
    for (let i = 0; i < 3; i++) await expectInvalidClient(await tokenRequest(allowed, await assertion(allowed, clientId, key)));
    expect(v4.requestsTo('/missing')).toBe(1);
  });

  it('a redirect is not followed', async () => {
    const key = await keyPair();
    v4.routes.set('/redirect-target', { keys: [key.jwk] });
    v4.routes.set('/redirect', (_req, res) => void res.writeHead(302, { location: `https://127.0.0.1:${v4.port}/redirect-target` }).end());
    const clientId = await keyUriClient(allowed, `https://127.0.0.1:${v4.port}/redirect`);
    await expectInvalidClient(await tokenRequest(allowed, await assertion(allowed, clientId, key)));
    expect(v4.requestsTo('/redirect')).toBe(1);
    expect(v4.requestsTo('/redirect-target')).toBe(0);
  });

  it('a server that holds its answer is cut at the time limit', async () => {
    const key = await keyPair();
    let answered = false;
    let abandoned = false;
    // Would answer with the right key after 20 s: only a time limit makes the gateway give up.
    v4.routes.set('/slow', (req, res) => {
      const timer = setTimeout(() => {
        answered = true;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [key.jwk] }));
      }, 20_000);
      req.socket.on('close', () => {
        abandoned = true;
        clearTimeout(timer);
      });
    });
    const clientId = await keyUriClient(allowed, `https://127.0.0.1:${v4.port}/slow`);
    await expectInvalidClient(await tokenRequest(allowed, await assertion(allowed, clientId, key)));
    expect(v4.requestsTo('/slow')).toBe(1);
    await expect.poll(() => abandoned).toBe(true);
    expect(answered).toBe(false);
  });

  it('a huge answer is cut at the size limit', async () => {
    const key = await keyPair();
    // A valid key set padded to 128x the limit, streamed fast without a content-length: read
    // whole, it would verify the assertion; only the size limit refuses it.
    const document = JSON.stringify({ keys: [key.jwk], padding: ' '.repeat(KEY_SET_MAX_BYTES * 128) });
    v4.routes.set('/huge', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      let written = 0;
      const send = () => {
        while (written < document.length) {
          const chunk = document.slice(written, written + 65_536);
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', send);
        }
        res.end();
      };
      res.on('close', () => res.removeAllListeners('drain'));
      send();
    });
    const clientId = await keyUriClient(allowed, `https://127.0.0.1:${v4.port}/huge`);
    await expectInvalidClient(await tokenRequest(allowed, await assertion(allowed, clientId, key)));
    expect(v4.requestsTo('/huge')).toBe(1);
  });
});

describe('trusted issuer jwks_uri (token exchange)', () => {
  it('a subject token with a wrong aud or exp never causes a fetch of the issuer keys; a good one does', async () => {
    const agent = await (async () => {
      const res = await fetch(`${allowed.url}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: 'exchange-agent',
          grant_types: [EXCHANGE],
          token_endpoint_auth_method: 'client_secret_post',
          scope: SCOPE,
        }),
      });
      expect(res.status).toBe(201);
      return (await res.json()) as { client_id: string; client_secret: string };
    })();
    const external = (aud: string, exp: number | string = '5m') =>
      new SignJWT({ scope: SCOPE, may_act: { client_id: agent.client_id } })
        .setProtectedHeader({ alg: 'ES256', kid: idp.kid })
        .setIssuer(idp.issuer)
        .setSubject('ext-user-1')
        .setAudience(aud)
        .setIssuedAt()
        .setExpirationTime(exp)
        .sign(idpKey.privateKey);
    const exchange = async (subjectToken: string) =>
      fetch(`${allowed.url}/api/auth/oauth2/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: EXCHANGE,
          client_id: agent.client_id,
          client_secret: agent.client_secret,
          subject_token: subjectToken,
          subject_token_type: JWT_TYPE,
        }),
      });
    for (const bad of [await external('https://elsewhere.example'), await external(allowed.url, Math.floor(Date.now() / 1000) - 120)]) {
      const res = await exchange(bad);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'invalid_grant' });
    }
    expect(v4.requestsTo(idp.path)).toBe(0);
    const res = await exchange(await external(allowed.url));
    expect(res.status).toBe(200);
    expect(v4.requestsTo(idp.path)).toBe(1);
  });
});
