/**
 * Throttling gaps of issue 30 item 8, over real HTTP: open (anonymous) registration has a per-address limit
 * (RFC 7591 §3; each registration stores a client, an audit row and a hashed secret), and failed
 * client authentications at the token endpoint a tighter budget, per address and per presented
 * client id, than the request limits successful ones use. Both answer 429 + Retry-After with an
 * OAuth error body. Small limits here, and random loopback addresses of this test's own
 * (test/helpers/http-from.ts), so no counter is shared with another test or run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initialAccessToken, registerClient, type RegisteredClient } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { fetchFrom, randomLoopbackAddress } from '../../helpers/http-from';

const REGISTER = '/api/auth/register';
const TOKEN = '/api/auth/oauth2/token';

const openRegistration = (name: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    client_name: name,
    grant_types: ['client_credentials'],
    token_endpoint_auth_method: 'client_secret_post',
    scope: 'read:appointments',
  }),
});
const tokenRequest = (c: RegisteredClient, secret: string) => ({
  method: 'POST',
  body: new URLSearchParams({ grant_type: 'client_credentials', client_id: c.client_id, client_secret: secret }),
});

async function expectRateLimited(res: Response, text: RegExp) {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const body = (await res.json()) as { error: string; error_description: string };
  expect(body.error).toBe('temporarily_unavailable');
  expect(body.error_description).toMatch(text);
}

describe('open registration, per client address', () => {
  let gw: RunningGateway;
  beforeAll(async () => {
    gw = await startGateway({ REGISTRATION_ADDRESS_RATE_LIMIT: '5', REGISTRATION_RATE_WINDOW_SECONDS: '3600' });
  });
  afterAll(async () => gw?.close());

  it('25 anonymous registrations in a row: 5 are stored, 20 get 429 + Retry-After; another address still registers', async () => {
    const address = randomLoopbackAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      const res = await fetchFrom(address, `${gw.url}${REGISTER}`, openRegistration(`flood-${i}`));
      statuses.push(res.status);
      if (res.status === 429) await expectRateLimited(res, /too many registrations/);
      else await res.body?.cancel();
    }
    expect(statuses.filter((s) => s === 201).length).toBe(5);
    expect(statuses.filter((s) => s === 429).length).toBe(20);
    const stored = await gw.deps.pool.query(
      "SELECT count(*)::int AS n FROM audit_events WHERE action = 'client.registered' AND host(ip) = $1",
      [address],
    );
    expect(stored.rows[0].n).toBe(5);
    const limited = await gw.deps.pool.query("SELECT detail FROM audit_events WHERE action = 'rate_limit.exceeded' AND host(ip) = $1", [
      address,
    ]);
    expect(limited.rows.map((r) => r.detail)).toEqual([expect.objectContaining({ limit: 'registration', max: 5, route: REGISTER })]);

    expect((await fetchFrom(randomLoopbackAddress(), `${gw.url}${REGISTER}`, openRegistration('elsewhere'))).status).toBe(201);
  });

  it("an operator's initial access token is bounded by the token, not the address: make run's demo seed registers after a flood", async () => {
    const address = randomLoopbackAddress();
    for (let i = 0; i < 6; i++)
      await (await fetchFrom(address, `${gw.url}${REGISTER}`, openRegistration(`flood-before-seed-${i}`))).body?.cancel();
    expect((await fetchFrom(address, `${gw.url}${REGISTER}`, openRegistration('one-more'))).status).toBe(429);
    const withToken = {
      ...openRegistration('operator-app'),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await initialAccessToken('reception')}` },
    };
    expect((await fetchFrom(address, `${gw.url}${REGISTER}`, withToken)).status).toBe(201);
    // a wrong token is refused (401) and stores nothing
    const forged = {
      ...openRegistration('forged'),
      headers: { 'content-type': 'application/json', authorization: 'Bearer not-an-initial-access-token' },
    };
    expect((await fetchFrom(address, `${gw.url}${REGISTER}`, forged)).status).toBe(401);
  });

  it('the OpenAPI document declares the 429 of registration', async () => {
    const doc = (await (await fetch(`${gw.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    expect(doc.paths[REGISTER]!.post!.responses['429']).toBeDefined();
  });
});

describe('failed client authentications at the token endpoint', () => {
  let gw: RunningGateway;
  let client: RegisteredClient;
  let other: RegisteredClient;
  beforeAll(async () => {
    gw = await startGateway({
      OAUTH_AUTH_FAILURE_ADDRESS_LIMIT: '5',
      OAUTH_AUTH_FAILURE_CLIENT_LIMIT: '8',
      OAUTH_ADDRESS_RATE_LIMIT: '1000',
      OAUTH_RATE_WINDOW_SECONDS: '3600',
    });
    client = await registerClient(gw.url, ['read:appointments'], 'failure-limit-test', 'patient');
    other = await registerClient(gw.url, ['read:appointments'], 'failure-limit-other', 'patient');
  });
  afterAll(async () => gw?.close());

  it('per address: 20 wrong secrets in a row get 5 × 401 then 429 + Retry-After, before any secret is hashed; successes from another address are not limited by them', async () => {
    const address = randomLoopbackAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await fetchFrom(address, `${gw.url}${TOKEN}`, tokenRequest(other, `wrong-${i}`));
      statuses.push(res.status);
      if (res.status === 429) await expectRateLimited(res, /too many failed client authentications/);
      else await res.body?.cancel();
    }
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(15).fill(429)]);
    // only the five within the budget reached client authentication (one token.refused row each)
    const refused = await gw.deps.pool.query(
      "SELECT count(*)::int AS n FROM audit_events WHERE action = 'token.refused' AND host(ip) = $1",
      [address],
    );
    expect(refused.rows[0].n).toBe(5);
    // even the right secret waits at that address; another address is not affected
    expect((await fetchFrom(address, `${gw.url}${TOKEN}`, tokenRequest(other, other.client_secret))).status).toBe(429);
    expect((await fetchFrom(randomLoopbackAddress(), `${gw.url}${TOKEN}`, tokenRequest(other, other.client_secret))).status).toBe(200);
  });

  it('successful authentications use the request limit only: 20 in a row from one address all pass', async () => {
    const address = randomLoopbackAddress();
    for (let i = 0; i < 20; i++) {
      const res = await fetchFrom(address, `${gw.url}${TOKEN}`, tokenRequest(other, other.client_secret));
      expect(res.status).toBe(200);
      await res.body?.cancel();
    }
  });

  it('per client id: wrong secrets for one client from many addresses reach 429 once the client budget is spent', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await fetchFrom(randomLoopbackAddress(), `${gw.url}${TOKEN}`, tokenRequest(client, `wrong-${i}`));
      statuses.push(res.status);
      await res.body?.cancel();
    }
    expect(statuses).toEqual([...Array(8).fill(401), ...Array(4).fill(429)]);
  });
});
