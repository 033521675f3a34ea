/**
 * Login throttling over real HTTP through the login form (issue 18, finding 7): the attempt is
 * counted before the password is checked, so parallel guesses cannot race past the limit; one
 * client address has a ceiling (high enough for a ward behind one NAT), while a username's failures
 * only slow that username down at that address (issue 30 item 10), so the account's owner still
 * signs in from another address and another user at the same address is not slowed at all. Every test uses fresh users and its own random loopback
 * addresses (test/helpers/http-from.ts), so nothing here shares a counter with another test or run.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../apps/gateway/src/auth/users';
import { gatewayConfigShape } from '../../../apps/gateway/src/config';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { randomLoopbackAddress } from '../../helpers/http-from';
import { Browser, REDIRECT_URI, hiddenFields, pkcePair, registerCodeClient, type CodeClient } from './support';

const PASSWORD = 'the-right-password';

async function newUser(gw: RunningGateway): Promise<string> {
  const username = `throttle-${randomBytes(6).toString('hex')}`;
  await createUser(gw.deps.pool, { userId: `usr-${username}`, username, displayName: 'Throttle Test', roles: ['doctor'] }, PASSWORD);
  return username;
}

/** The login page as seen from `address`: the browser and the form fields to post. */
async function openLogin(gw: RunningGateway, client: CodeClient, address: string) {
  const url = new URL(`${gw.url}/api/auth/oauth2/authorize`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT_URI,
    scope: 'read:appointments',
    state: 's',
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
  })) {
    url.searchParams.set(k, v);
  }
  const browser = new Browser(address);
  const page = await browser.request(url.toString());
  expect(page.status).toBe(200);
  const fields = hiddenFields(await page.text());
  const signIn = (username: string, password: string) =>
    browser.request(`${gw.url}/api/auth/oauth2/authorize`, { form: { ...fields, username, password } });
  return { browser, fields, signIn };
}

/** How many passwords were actually checked (and found wrong) for requests from these addresses. */
async function checkedFrom(gw: RunningGateway, addresses: string[]): Promise<number> {
  const { rows } = await gw.deps.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM audit_events
      WHERE action = 'user.login' AND outcome = 'failure' AND detail->>'reason' = 'wrong username or password' AND host(ip) = ANY($1)`,
    [addresses],
  );
  return rows[0]!.n;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('per client address: a hard limit on failed sign-ins, counted before the check', () => {
  let gw: RunningGateway;
  let client: CodeClient;
  beforeAll(async () => {
    gw = await startGateway({ LOGIN_ADDRESS_MAX_FAILURES: '5', LOGIN_USER_FREE_FAILURES: '1000' });
    client = await registerCodeClient(gw.url, ['read:appointments']);
  });
  afterAll(async () => gw?.close());

  it('30 parallel wrong passwords from one address: only LOGIN_ADDRESS_MAX_FAILURES are checked, the rest get 429 with Retry-After', async () => {
    const username = await newUser(gw);
    const address = randomLoopbackAddress();
    const { signIn } = await openLogin(gw, client, address);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => signIn(username, `guess-${i}`)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 400).length).toBe(5);
    expect(statuses.filter((s) => s === 429).length).toBe(25);
    expect(await checkedFrom(gw, [address])).toBe(5);
    for (const refused of answers.filter((r) => r.status === 429)) {
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused.text()).toContain('Too many failed sign-ins from your network');
    }
    // the throttle episode is one audit row, not one per refused request
    const { rows } = await gw.deps.pool.query(
      `SELECT detail FROM audit_events WHERE action = 'user.login' AND host(ip) = $1 AND detail->>'reason' = 'too many failed sign-ins from this address'`,
      [address],
    );
    expect(rows.length).toBe(1);
  });

  it('after 100 failures from one address that address is refused even with the right password, and the user still signs in from another', async () => {
    const username = await newUser(gw);
    const attacker = randomLoopbackAddress();
    const { signIn } = await openLogin(gw, client, attacker);
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => signIn(username, `guess-${i}`)));
    expect(answers.filter((r) => r.status === 400).length).toBe(5);
    expect(answers.filter((r) => r.status === 429).length).toBe(95);
    const fromAttacker = await signIn(username, PASSWORD);
    expect(fromAttacker.status).toBe(429);

    const owner = randomLoopbackAddress();
    const { browser, signIn: ownerSignIn } = await openLogin(gw, client, owner);
    const consent = await ownerSignIn(username, PASSWORD);
    expect(consent.status).toBe(200);
    const consentHtml = await consent.text();
    expect(consentHtml).toContain('Allow');
    const done = await browser.request(`${gw.url}/api/auth/oauth2/authorize`, {
      form: { ...hiddenFields(consentHtml), decision: 'allow' },
    });
    expect(done.status).toBe(303);
    expect(new URL(done.headers.get('location')!).searchParams.get('code')).toBeTruthy();
  });
});

describe('per (username, address): a back-off, told on the page, that nobody elsewhere can trigger (issue 30 item 10)', () => {
  let gw: RunningGateway;
  let client: CodeClient;
  beforeAll(async () => {
    gw = await startGateway({
      LOGIN_ADDRESS_MAX_FAILURES: '1000000',
      LOGIN_USER_FREE_FAILURES: '3',
      LOGIN_USER_DELAY_SECONDS: '3600',
      LOGIN_USER_MAX_DELAY_SECONDS: '3600',
    });
    client = await registerCodeClient(gw.url, ['read:appointments']);
  });
  afterAll(async () => gw?.close());

  it('30 parallel guesses from one address: only LOGIN_USER_FREE_FAILURES are checked, then even the right password waits there, and the owner signs in from another address', async () => {
    const username = await newUser(gw);
    const attacker = randomLoopbackAddress();
    const { signIn } = await openLogin(gw, client, attacker);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => signIn(username, `guess-${i}`)));
    expect(answers.filter((r) => r.status === 400).length).toBe(3);
    expect(answers.filter((r) => r.status === 429).length).toBe(27);
    expect(await checkedFrom(gw, [attacker])).toBe(3);

    const waiting = await signIn(username, PASSWORD);
    expect(waiting.status).toBe(429);
    const retryAfter = Number(waiting.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3000);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await waiting.text()).toContain('Too many failed sign-ins for this username. Wait 60 minutes, then try again.');

    // user A's failures from X do not lock user A from Y
    const { signIn: ownerSignIn } = await openLogin(gw, client, randomLoopbackAddress());
    const consent = await ownerSignIn(username, PASSWORD);
    expect(consent.status).toBe(200);
    expect(await consent.text()).toContain('Allow');
  });
});

describe('per address: a ceiling for a ward behind one NAT (issue 30 item 10)', () => {
  let gw: RunningGateway;
  let client: CodeClient;
  beforeAll(async () => {
    gw = await startGateway({
      LOGIN_ADDRESS_MAX_FAILURES: '8',
      LOGIN_USER_FREE_FAILURES: '3',
      LOGIN_USER_DELAY_SECONDS: '3600',
      LOGIN_USER_MAX_DELAY_SECONDS: '3600',
    });
    client = await registerCodeClient(gw.url, ['read:appointments']);
  });
  afterAll(async () => gw?.close());

  it("by default the ceiling is a ward's (100 failures per window, every user together), not a few typos", () => {
    expect(gatewayConfigShape.LOGIN_ADDRESS_MAX_FAILURES.parse(undefined)).toBe(100);
  });

  it("another user's failures at the ward's address do not lock a clinician there until the address's ceiling", async () => {
    const ward = randomLoopbackAddress();
    const clumsy = await newUser(gw);
    const clinician = await newUser(gw);
    const { signIn } = await openLogin(gw, client, ward);
    // the clumsy user fails until its own back-off stops it (3 checked, then it waits)
    const clumsyAnswers: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await signIn(clumsy, `typo-${i}`);
      clumsyAnswers.push(res.status);
      await res.body?.cancel();
    }
    expect(clumsyAnswers).toEqual([400, 400, 400, 429, 429]);
    // the clinician at the same address is not slowed by them
    const ok = await (await openLogin(gw, client, ward)).signIn(clinician, PASSWORD);
    expect(ok.status).toBe(200);
    await ok.body?.cancel();

    // five more users' typos reach the ceiling of 8 failures: then the address is refused, for everyone
    for (let i = 0; i < 5; i++) {
      const res = await signIn(await newUser(gw), 'typo');
      expect(res.status).toBe(400);
      await res.body?.cancel();
    }
    const refused = await (await openLogin(gw, client, ward)).signIn(clinician, PASSWORD);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain('Too many failed sign-ins from your network');
    expect(await checkedFrom(gw, [ward])).toBe(8);
  });
});

describe('the back-off grows', () => {
  let gw: RunningGateway;
  let client: CodeClient;
  beforeAll(async () => {
    gw = await startGateway({
      LOGIN_ADDRESS_MAX_FAILURES: '1000000',
      LOGIN_USER_FREE_FAILURES: '1',
      LOGIN_USER_DELAY_SECONDS: '1',
      LOGIN_USER_MAX_DELAY_SECONDS: '3600',
    });
    client = await registerCodeClient(gw.url, ['read:appointments']);
  });
  afterAll(async () => gw?.close());

  it('each failure past the free ones doubles the wait the page tells (Retry-After 1, 2, 4)', async () => {
    const username = await newUser(gw);
    const { signIn } = await openLogin(gw, client, randomLoopbackAddress());
    const told: number[] = [];
    for (let i = 0; i < 3; i++) {
      const failed = await signIn(username, `guess-${i}`);
      expect(failed.status).toBe(400);
      await failed.body?.cancel();
      const waiting = await signIn(username, `guess-${i}-again`);
      expect(waiting.status).toBe(429);
      await waiting.body?.cancel();
      const wait = Number(waiting.headers.get('retry-after'));
      told.push(wait);
      await sleep(wait * 1000 + 100);
    }
    expect(told).toEqual([1, 2, 4]);
  });
});

describe('per username: never a lock', () => {
  let gw: RunningGateway;
  let client: CodeClient;
  beforeAll(async () => {
    gw = await startGateway({
      LOGIN_ADDRESS_MAX_FAILURES: '1000000',
      LOGIN_USER_FREE_FAILURES: '10',
      LOGIN_USER_DELAY_SECONDS: '1',
      LOGIN_USER_MAX_DELAY_SECONDS: '1',
    });
    client = await registerCodeClient(gw.url, ['read:appointments']);
  });
  afterAll(async () => gw?.close());

  /** Signs in, honouring each wait the page tells (Retry-After); the answer once it was not told to wait. */
  async function patiently(signIn: () => Promise<Response>): Promise<Response> {
    for (let tries = 0; tries < 5; tries++) {
      const res = await signIn();
      if (res.status !== 429) return res;
      const wait = Number(res.headers.get('retry-after'));
      expect(wait).toBeGreaterThan(0); // a slow-down says how long
      await res.body?.cancel();
      await sleep(wait * 1000 + 100);
    }
    throw new Error('still refused after waiting as told five times');
  }

  it('after 12 failures (past LOGIN_USER_FREE_FAILURES), the right password signs in once the told wait is over', async () => {
    const username = await newUser(gw);
    const { signIn } = await openLogin(gw, client, randomLoopbackAddress());
    for (let i = 0; i < 12; i++) {
      const res = await patiently(() => signIn(username, `guess-${i}`));
      expect(res.status).toBe(400);
      await res.body?.cancel();
    }
    const ok = await patiently(() => signIn(username, PASSWORD));
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('Allow');
  });
});
