/**
 * Request rate limits over real HTTP (issue 18 finding 8): the token, introspection and revocation
 * endpoints (each costs a scrypt hash) per client address and the token endpoint per authenticated
 * client, answering 429 + Retry-After with an OAuth error body; the unknown-kid key reload's
 * cool-down; the 429s in the OpenAPI document. Each test speaks from random loopback addresses of
 * its own (test/helpers/http-from.ts), so its counters are its own in the shared Redis.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../../../apps/gateway/src/auth/keys';
import { issueAccessToken } from '../../../apps/gateway/src/auth/tokens';
import { registerClient, type RegisteredClient } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { fetchFrom, randomLoopbackAddress } from '../../helpers/http-from';

const TOKEN = '/api/auth/oauth2/token';
const INTROSPECT = '/api/auth/oauth2/introspect';
const REVOKE = '/api/auth/revoke';

const form = (fields: Record<string, string>) => ({ method: 'POST', body: new URLSearchParams(fields) });
const tokenRequest = (c: RegisteredClient, secret = c.client_secret) =>
  form({ grant_type: 'client_credentials', client_id: c.client_id, client_secret: secret });

async function expectRateLimited(res: Response) {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await res.json()) as { error: string; error_description: string };
  expect(body.error).toBe('temporarily_unavailable');
  expect(body.error_description).toMatch(/too many requests/);
  return body;
}

describe('the OAuth endpoints, per client address', () => {
  let gw: RunningGateway;
  let client: RegisteredClient;
  beforeAll(async () => {
    gw = await startGateway({ OAUTH_ADDRESS_RATE_LIMIT: '3', OAUTH_RATE_WINDOW_SECONDS: '3600' });
    client = await registerClient(gw.url, ['read:appointments'], 'rate-limit-test', 'patient');
  });
  afterAll(async () => gw?.close());

  it('one budget for token, introspection and revocation: past it each answers 429 + Retry-After with an OAuth body, before any secret is hashed', async () => {
    const address = randomLoopbackAddress();
    for (let i = 0; i < 3; i++) {
      const wrong = await fetchFrom(address, `${gw.url}${TOKEN}`, tokenRequest(client, 'not-the-secret'));
      expect(wrong.status).toBe(401);
    }
    expect((await expectRateLimited(await fetchFrom(address, `${gw.url}${TOKEN}`, tokenRequest(client)))).error_description).toContain(
      'from this address',
    );
    await expectRateLimited(
      await fetchFrom(
        address,
        `${gw.url}${INTROSPECT}`,
        form({ token: 'x', client_id: client.client_id, client_secret: client.client_secret }),
      ),
    );
    await expectRateLimited(await fetchFrom(address, `${gw.url}${REVOKE}`, form({ token: 'x' })));

    // only the three within the budget reached client authentication (one token.refused row each)
    const refused = await gw.deps.pool.query(
      "SELECT count(*)::int AS n FROM audit_events WHERE action = 'token.refused' AND host(ip) = $1",
      [address],
    );
    expect(refused.rows[0].n).toBe(3);
    // the throttle is one audit row per address and window, not one per refused request
    const limited = await gw.deps.pool.query("SELECT detail FROM audit_events WHERE action = 'rate_limit.exceeded' AND host(ip) = $1", [
      address,
    ]);
    expect(limited.rows.map((r) => r.detail)).toEqual([
      expect.objectContaining({ limit: 'oauth', max: 3, window_seconds: 3600, route: TOKEN }),
    ]);

    // another address is not affected
    const elsewhere = await fetchFrom(randomLoopbackAddress(), `${gw.url}${TOKEN}`, tokenRequest(client));
    expect(elsewhere.status).toBe(200);
  });
});

describe('the token endpoint, per authenticated client', () => {
  let gw: RunningGateway;
  beforeAll(async () => {
    gw = await startGateway({ OAUTH_CLIENT_RATE_LIMIT: '2', OAUTH_RATE_WINDOW_SECONDS: '3600' });
  });
  afterAll(async () => gw?.close());

  it('a client past its budget gets 429 from any address; other clients are not affected', async () => {
    const [busy, other] = await Promise.all([
      registerClient(gw.url, ['read:appointments'], 'busy', 'patient'),
      registerClient(gw.url, ['read:appointments'], 'other', 'patient'),
    ]);
    expect((await fetchFrom(randomLoopbackAddress(), `${gw.url}${TOKEN}`, tokenRequest(busy))).status).toBe(200);
    expect((await fetchFrom(randomLoopbackAddress(), `${gw.url}${TOKEN}`, tokenRequest(busy))).status).toBe(200);
    const third = await expectRateLimited(await fetchFrom(randomLoopbackAddress(), `${gw.url}${TOKEN}`, tokenRequest(busy)));
    expect(third.error_description).toContain('for this client');
    expect((await fetchFrom(randomLoopbackAddress(), `${gw.url}${TOKEN}`, tokenRequest(other))).status).toBe(200);
  });

  it("requests that fail to authenticate as a client do not spend its budget (nobody can exhaust another client's)", async () => {
    const victim = await registerClient(gw.url, ['read:appointments'], 'victim', 'patient');
    for (let i = 0; i < 5; i++) {
      expect((await fetchFrom(randomLoopbackAddress(), `${gw.url}${TOKEN}`, tokenRequest(victim, `guess-${i}`))).status).toBe(401);
    }
    expect((await fetchFrom(randomLoopbackAddress(), `${gw.url}${TOKEN}`, tokenRequest(victim))).status).toBe(200);
  });
});

/** A token-shaped string with this kid (nothing else about it is valid). */
const withKid = (kid: string) =>
  [
    Buffer.from(JSON.stringify({ alg: 'ES256', kid, typ: 'at+jwt' })).toString('base64url'),
    Buffer.from('{}').toString('base64url'),
    'c2ln',
  ].join('.');

/** Counts the gateway's queries of the signing keys table. */
function countKeyQueries(gw: RunningGateway): { count: () => number; stop: () => void } {
  const pool = gw.deps.pool as unknown as { query: (...args: unknown[]) => unknown };
  const original = pool.query;
  let n = 0;
  pool.query = function (this: unknown, ...args: unknown[]) {
    if (String(typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string })?.text).includes('oauth_signing_keys')) n += 1;
    return original.apply(this, args);
  };
  return { count: () => n, stop: () => void (pool.query = original) };
}

describe('unknown-kid key reloads', () => {
  it('a flood of tokens with made-up kids reloads the keys from PostgreSQL at most once per cool-down', async () => {
    const gw = await startGateway({ KEY_RELOAD_COOLDOWN_SECONDS: '3600' });
    const queries = countKeyQueries(gw);
    try {
      const answers = await Promise.all(
        Array.from({ length: 40 }, () =>
          fetch(`${gw.url}/agent/identity`, { headers: { authorization: `Bearer ${withKid(randomBytes(16).toString('hex'))}` } }),
        ),
      );
      expect(answers.map((r) => r.status)).toEqual(Array(40).fill(401));
      for (const more of [0, 1, 2]) {
        expect((await fetch(`${gw.url}/agent/identity`, { headers: { authorization: `Bearer ${withKid(`later-${more}`)}` } })).status).toBe(
          401,
        );
      }
      expect(queries.count()).toBeLessThanOrEqual(1);
    } finally {
      queries.stop();
      await gw.close();
    }
  });

  it('a key another instance made is still learnt once the cool-down is over', async () => {
    const gw = await startGateway({ KEY_RELOAD_COOLDOWN_SECONDS: '1' });
    try {
      expect((await fetch(`${gw.url}/agent/identity`, { headers: { authorization: `Bearer ${withKid('made-up')}` } })).status).toBe(401); // starts a cool-down
      const otherInstance = new KeyStore(gw.deps.pool, gw.deps.config.KEY_ENCRYPTION_SECRET);
      await otherInstance.load();
      await otherInstance.rotate();
      const { token } = await issueAccessToken(
        otherInstance,
        { issuer: gw.url, audience: gw.url },
        { clientId: 'cli_other', subject: 'cli_other', scopes: ['read:appointments'], roles: [], authMethod: 'client_secret' },
        60,
      );
      await new Promise((r) => setTimeout(r, 1_100));
      const res = await fetch(`${gw.url}/agent/identity`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
    } finally {
      await gw.close();
    }
  });
});

describe('the OpenAPI document', () => {
  it('declares the 429 of every rate-limited operation: OAuth error bodies at the OAuth endpoints, problems elsewhere', async () => {
    const gw = await startGateway();
    try {
      const doc = (await (await fetch(`${gw.url}/openapi.json`)).json()) as {
        components: { schemas: Record<string, { required?: string[] }> };
        paths: Record<
          string,
          Record<
            string,
            { responses: Record<string, { $ref?: string; content?: Record<string, { schema: { $ref?: string; required?: string[] } }> }> }
          >
        >;
      };
      for (const path of [TOKEN, INTROSPECT, REVOKE]) {
        const limited = doc.paths[path]!.post!.responses['429']!;
        // the body is a named component (openapi-bodies.test.ts): follow the reference
        const schema = limited.content?.['application/json']?.schema as { $ref?: string; required?: string[] } | undefined;
        const named = schema?.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!] : schema;
        expect(named?.required, path).toEqual(['error']);
      }
      for (const [path, method] of [
        ['/api/v1/sandbox', 'post'],
        ['/api/v1/sandbox', 'get'],
        ['/.well-known/mcp', 'post'],
      ] as const) {
        expect(doc.paths[path]![method]!.responses['429'], `${method} ${path}`).toEqual({ $ref: '#/components/responses/TooManyRequests' });
      }
    } finally {
      await gw.close();
    }
  });
});
