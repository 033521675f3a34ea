/**
 * The error contract of spec section 7 and the negative cases: every refusal is exact.
 */
import { SignJWT, generateKeyPair, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchFrom, randomLoopbackAddress } from '../../helpers/http-from';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { clientCredentialsToken, registerClient, type RegisteredClient } from '../../helpers/auth';

let gw: RunningGateway;
let client: RegisteredClient;
beforeAll(async () => {
  gw = await startGateway();
  client = await registerClient(gw.url, ['read:vitals', 'read:appointments']);
});
afterAll(async () => gw?.close());

const identity = (token?: string) => fetch(`${gw.url}/agent/identity`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
const token = (form: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${gw.url}/api/auth/oauth2/token`, { method: 'POST', headers, body: new URLSearchParams(form) });

async function expect401(res: Response, errorDescription?: RegExp) {
  expect(res.status).toBe(401);
  const challenge = res.headers.get('www-authenticate')!;
  expect(challenge).toMatch(/^Bearer realm="vitalis"/);
  expect(challenge).toContain(`resource_metadata="${gw.url}/.well-known/oauth-protected-resource"`);
  if (errorDescription) {
    expect(challenge).toContain('error="invalid_token"');
    expect(challenge).toMatch(errorDescription);
  }
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/); // RFC 9457 (ADR 0011)
  const body = (await res.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ type: `${gw.url}/errors/unauthorized`, title: 'Unauthorized', status: 401 });
  expect(body.detail).toMatch(/Bearer token/);
  expect(body.detail).toContain(`${gw.url}/auth.md`);
}

describe('401: no, bad or dead token', () => {
  it('no token', async () => expect401(await identity()));
  it('a token that is not a JWT', async () => expect401(await identity('not-a-jwt'), /not a JWT/));

  it('a tampered token (payload changed, signature kept)', async () => {
    const good = await clientCredentialsToken(gw.url, client);
    const [h, , s] = good.split('.');
    const forged = Buffer.from(JSON.stringify({ ...decodeJwt(good), scope: 'read:patients write:patients' })).toString('base64url');
    await expect401(await identity(`${h}.${forged}.${s}`), /signature/);
  });

  it('alg: none', async () => {
    const claims = decodeJwt(await clientCredentialsToken(gw.url, client));
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url');
    await expect401(await identity(`${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`), /algorithm/);
  });

  it('a token signed by a key that is not ours', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const claims = decodeJwt(await clientCredentialsToken(gw.url, client));
    const foreign = await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: 'attacker', typ: 'at+jwt' }).sign(privateKey);
    await expect401(await identity(foreign), /unknown key/);
  });

  it('a token for another audience', async () => {
    const other = await startGateway({ PUBLIC_BASE_URL: 'https://other.vitalis.example' });
    try {
      // Same signing keys (same database), different issuer and audience.
      const c = await registerClient(other.address, ['read:vitals']);
      const res = await fetch(`${other.address}/api/auth/oauth2/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: c.client_id, client_secret: c.client_secret }),
      });
      const foreignAudience = ((await res.json()) as { access_token: string }).access_token;
      await expect401(await identity(foreignAudience), /claim is not valid here/);
    } finally {
      await other.close();
    }
  });

  it('an expired token', async () => {
    const shortLived = await startGateway({ BACKEND_TOKEN_TTL_SECONDS: '1', PUBLIC_BASE_URL: gw.url });
    try {
      const t = await clientCredentialsToken(shortLived.address, client);
      await new Promise((r) => setTimeout(r, 7_000)); // past exp + the 5 s clock tolerance
      await expect401(await identity(t), /expired/);
    } finally {
      await shortLived.close();
    }
  });
});

describe('403: valid token without the scope', () => {
  it('names the missing scope in WWW-Authenticate and the problem body', async () => {
    const t = await clientCredentialsToken(gw.url, client, ['read:appointments']);
    const res = await fetch(`${gw.url}/api/v1/vitals?patient=pat-x&code=8867-4&from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z`, {
      headers: { authorization: `Bearer ${t}` },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer realm="vitalis", error="insufficient_scope", scope="read:vitals", resource_metadata="${gw.url}/.well-known/oauth-protected-resource"`,
    );
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/); // RFC 9457 (ADR 0011)
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      type: `${gw.url}/errors/insufficient-scope`,
      title: 'Forbidden',
      status: 403,
      required_scope: 'read:vitals',
    });
    expect(body.detail).toContain('/auth.md');
  });
});

describe('token endpoint errors (RFC 6749 §5.2)', () => {
  it('wrong secret → 401 invalid_client with a Basic challenge', async () => {
    const res = await token({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: 'wrong' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('unknown client → the same invalid_client', async () => {
    const res = await token({ grant_type: 'client_credentials', client_id: 'cli_nobody', client_secret: 'x' });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('client_secret_basic works', async () => {
    const basic = Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString('base64');
    const res = await token({ grant_type: 'client_credentials' }, { authorization: `Basic ${basic}` });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ token_type: 'Bearer', scope: 'read:vitals read:appointments' });
  });

  it('unsupported grant type', async () => {
    const res = await token({ grant_type: 'password', username: 'a', password: 'b' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'unsupported_grant_type' });
  });

  it('scope escalation beyond the registration → invalid_scope', async () => {
    const res = await token({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.client_secret,
      scope: 'read:vitals write:patients',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_scope' });
  });

  it('missing grant_type → invalid_request', async () => {
    const res = await token({});
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_request' });
  });
});

describe('registration errors (RFC 7591 §3.2.2)', () => {
  it('a scope outside the catalogue → invalid_client_metadata', async () => {
    const res = await fetch(`${gw.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'x', grant_types: ['client_credentials'], scope: 'read:vitals admin:everything' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: 'invalid_client_metadata',
      error_description: expect.stringContaining('admin:everything'),
    });
  });

  it('a malformed body → invalid_client_metadata, nothing stored', async () => {
    const res = await fetch(`${gw.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 42 }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_client_metadata' });
  });

  it('secrets are stored hashed, never in clear', async () => {
    const { rows } = await gw.deps.pool.query('SELECT secret_hash FROM oauth_clients WHERE client_id = $1', [client.client_id]);
    expect(rows[0].secret_hash).toMatch(/^scrypt\$/);
    expect(rows[0].secret_hash).not.toContain(client.client_secret);
  });
});

describe('revocation (RFC 7009)', () => {
  it('answers 200 for an unknown token and for garbage', async () => {
    for (const t of ['unknown', 'a.b.c']) {
      const res = await fetch(`${gw.url}/api/auth/revoke`, {
        method: 'POST',
        body: new URLSearchParams({ token: t, token_type_hint: 'access_token' }),
      });
      expect(res.status).toBe(200);
    }
  });

  it('survives a Redis flush of the key: the record in PostgreSQL is replayed at start', async () => {
    const t = await clientCredentialsToken(gw.url, client);
    await fetch(`${gw.url}/api/auth/revoke`, { method: 'POST', body: new URLSearchParams({ token: t }) });
    await gw.deps.redis.del(`vitalis:revoked:${decodeJwt(t).jti}`); // as if Redis lost it
    const fresh = await startGateway({ PUBLIC_BASE_URL: gw.url });
    try {
      await expect401(await fetch(`${fresh.address}/agent/identity`, { headers: { authorization: `Bearer ${t}` } }), /revoked/);
    } finally {
      await fresh.close();
    }
  });

  it('is recorded in the audit trail, with refusals', async () => {
    const { rows } = await gw.deps.pool.query(
      "SELECT action, outcome FROM audit_events WHERE actor_client_id = $1 AND action IN ('token.issued', 'token.refused') LIMIT 10",
      [client.client_id],
    );
    expect(rows.some((r) => r.action === 'token.issued')).toBe(true);
    expect(rows.some((r) => r.action === 'token.refused')).toBe(true);
  });
});

describe('signing key rotation', () => {
  it('tokens signed by the previous key stay valid; new tokens use the new kid', async () => {
    const before = await clientCredentialsToken(gw.url, client);
    const newKid = await gw.app.signingKeys.rotate();
    const after = await clientCredentialsToken(gw.url, client);
    expect((await identity(before)).status).toBe(200);
    expect((await identity(after)).status).toBe(200);
    const kidOf = (t: string) => JSON.parse(Buffer.from(t.split('.')[0]!, 'base64url').toString()).kid;
    expect(kidOf(after)).toBe(newKid);
    expect(kidOf(before)).not.toBe(newKid);
    const jwks = (await (await fetch(`${gw.url}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] };
    expect(jwks.keys.map((k) => k.kid)).toEqual(expect.arrayContaining([newKid, kidOf(before)]));
  });
});

describe('sandbox', () => {
  it('issues read-only demo credentials, then 429 with Retry-After over the limit', async () => {
    const sb = await startGateway({ SANDBOX_RATE_LIMIT: '2', SANDBOX_RATE_WINDOW_SECONDS: '3600' });
    try {
      const address = randomLoopbackAddress(); // a counter of its own in the shared Redis
      const first = await fetchFrom(address, `${sb.url}/api/v1/sandbox`, { method: 'POST' });
      expect(first.status).toBe(201);
      const creds = (await first.json()) as { access_token: string; client_id: string; scope: string };
      expect(creds.scope).toBe('read:appointments read:vitals');
      const who = await fetch(`${sb.url}/agent/identity`, { headers: { authorization: `Bearer ${creds.access_token}` } });
      expect(await who.json()).toMatchObject({ auth_method: 'sandbox', client_id: creds.client_id });
      expect((await fetchFrom(address, `${sb.url}/api/v1/sandbox`)).status).toBe(201); // GET works too
      const limited = await fetchFrom(address, `${sb.url}/api/v1/sandbox`, { method: 'POST' });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await limited.json()).toMatchObject({ type: `${sb.url}/errors/rate-limited`, status: 429, title: 'Too Many Requests' });
    } finally {
      await sb.close();
    }
  });
});

describe('form bodies only at the OAuth endpoints', () => {
  it('a JSON body at the token, revocation or introspection endpoint is invalid_request', async () => {
    for (const path of ['/api/auth/oauth2/token', '/api/auth/revoke', '/api/auth/oauth2/introspect']) {
      const res = await fetch(`${gw.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'client_credentials',
          token: 'x',
          client_id: client.client_id,
          client_secret: client.client_secret,
        }),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'invalid_request' });
    }
  });
});
