/**
 * Security finding 6 and the properties every auth fix must keep, over real HTTP:
 *  - token exchange needs a policy: the subject token's own client, or a client its may_act names;
 *  - an exchanged token dies with its subject token, and with the grant the subject belongs to,
 *    on every instance at once; the public exchange of spec section 5 step 5 only narrows;
 *  - sandbox-ness survives exchange; a code replay revokes the grant only on a real redemption
 *    attempt; a client (even a public one) revokes nothing of another client's (RFC 7009 §2.1);
 *    refresh re-reads the user's current role; `resource` other than this server is invalid_target.
 */
import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@vitalis/schemas';
import { createUser } from '../../../apps/gateway/src/auth/users';
import { clientCredentialsToken, registerClient, type RegisteredClient } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { REDIRECT_URI, pkcePair, registerCodeClient, userTokens } from './support';

const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const JWT_TYPE = 'urn:ietf:params:oauth:token-type:jwt';

let gw: RunningGateway;
let gw2: RunningGateway;
beforeAll(async () => {
  // the sandbox's per-address window is shared by every test on this machine
  gw = await startGateway({ SANDBOX_RATE_LIMIT: '1000000' });
  gw2 = await startGateway({ PUBLIC_BASE_URL: gw.url });
});
afterAll(async () => {
  await gw?.close();
  await gw2?.close();
});

const tokenRequest = (form: Record<string, string>) =>
  fetch(`${gw.url}/api/auth/oauth2/token`, { method: 'POST', body: new URLSearchParams(form) });
const json = (r: Response): Promise<any> => r.json();
const identityStatus = async (token: string, base = gw.address) =>
  (await fetch(`${base}/agent/identity`, { headers: { authorization: `Bearer ${token}` } })).status;
const revoke = (form: Record<string, string>) => fetch(`${gw.url}/api/auth/revoke`, { method: 'POST', body: new URLSearchParams(form) });
const ccToken = async (c: RegisteredClient, extra: Record<string, string> = {}) =>
  (await json(await tokenRequest({ grant_type: 'client_credentials', client_id: c.client_id, client_secret: c.client_secret, ...extra })))
    .access_token as string;

async function exchangeClient(scopes = 'read:vitals read:appointments'): Promise<RegisteredClient> {
  const res = await fetch(`${gw.url}/api/auth/register`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${await (await import('../../helpers/auth')).initialAccessToken()}`,
    },
    body: JSON.stringify({
      client_name: 'agent',
      grant_types: ['client_credentials', EXCHANGE],
      token_endpoint_auth_method: 'client_secret_post',
      scope: scopes,
    }),
  });
  return json(res);
}

describe('exchange policy (RFC 8693 §4.4 may_act)', () => {
  it('another client may not exchange a token that does not name it; with may_act it may, and the result dies with the subject everywhere', async () => {
    const subject = await registerClient(gw.url, ['read:vitals']);
    const agent = await exchangeClient();
    const plain = await ccToken(subject);
    const refused = await tokenRequest({
      grant_type: EXCHANGE,
      client_id: agent.client_id,
      client_secret: agent.client_secret,
      subject_token: plain,
      subject_token_type: JWT_TYPE,
    });
    expect(refused.status).toBe(400);
    expect(await json(refused)).toMatchObject({ error: 'invalid_grant', error_description: expect.stringContaining('may_act') });

    const naming = await ccToken(subject, { may_act: agent.client_id });
    expect(decodeJwt(naming).may_act).toEqual({ sub: agent.client_id, client_id: agent.client_id });
    const exchanged = await json(
      await tokenRequest({
        grant_type: EXCHANGE,
        client_id: agent.client_id,
        client_secret: agent.client_secret,
        subject_token: naming,
        subject_token_type: JWT_TYPE,
      }),
    );
    expect(exchanged.scope).toBe('read:vitals');
    const again = await json(
      await tokenRequest({
        grant_type: EXCHANGE,
        client_id: agent.client_id,
        client_secret: agent.client_secret,
        subject_token: exchanged.access_token,
        subject_token_type: JWT_TYPE,
      }),
    );
    expect(decodeJwt(again.access_token).vitalis_chain).toEqual([decodeJwt(exchanged.access_token).jti, decodeJwt(naming).jti]);
    for (const t of [naming, exchanged.access_token, again.access_token]) expect(await identityStatus(t)).toBe(200);

    expect((await revoke({ token: naming })).status).toBe(200);
    for (const base of [gw.address, gw2.address]) {
      for (const t of [naming, exchanged.access_token, again.access_token]) expect(await identityStatus(t, base)).toBe(401);
    }
    // may_act must name another registered client
    expect(
      await json(
        await tokenRequest({
          grant_type: 'client_credentials',
          client_id: subject.client_id,
          client_secret: subject.client_secret,
          may_act: 'cli_nobody',
        }),
      ),
    ).toMatchObject({ error: 'invalid_request' });
  });

  it('a token exchanged by its own client still dies with its subject', async () => {
    const own = await exchangeClient('read:vitals');
    const subjectToken = await ccToken(own);
    const narrowed = await json(
      await tokenRequest({
        grant_type: EXCHANGE,
        client_id: own.client_id,
        client_secret: own.client_secret,
        subject_token: subjectToken,
        subject_token_type: JWT_TYPE,
      }),
    );
    expect(await identityStatus(narrowed.access_token)).toBe(200);
    await revoke({ token: subjectToken, client_id: own.client_id, client_secret: own.client_secret });
    expect(await identityStatus(narrowed.access_token, gw2.address)).toBe(401);
  });

  it('introspection applies the same chain rule: an exchanged token is inactive once its subject is revoked (RFC 7662 §2.2)', async () => {
    const own = await exchangeClient('read:vitals');
    const subjectToken = await ccToken(own);
    const exchanged = await json(
      await tokenRequest({
        grant_type: EXCHANGE,
        client_id: own.client_id,
        client_secret: own.client_secret,
        subject_token: subjectToken,
        subject_token_type: JWT_TYPE,
      }),
    );
    const introspect = async () =>
      json(
        await fetch(`${gw.url}/api/auth/oauth2/introspect`, {
          method: 'POST',
          body: new URLSearchParams({ token: exchanged.access_token, client_id: own.client_id, client_secret: own.client_secret }),
        }),
      );
    expect(await introspect()).toMatchObject({ active: true });
    await revoke({ token: subjectToken, client_id: own.client_id, client_secret: own.client_secret });
    expect(await introspect()).toEqual({ active: false });
  });
});

describe('public exchange (spec section 5 step 5: no client credentials)', () => {
  it("narrows only, names the subject's client, carries no act, never outlives the subject", async () => {
    const c = await registerClient(gw.url, ['read:vitals', 'read:appointments']);
    const subjectToken = await ccToken(c);
    const res = await tokenRequest({
      grant_type: EXCHANGE,
      subject_token: subjectToken,
      subject_token_type: JWT_TYPE,
      scope: 'read:vitals',
    });
    expect(res.status).toBe(200);
    const body = await json(res);
    const claims = decodeJwt(body.access_token);
    expect(claims).toMatchObject({
      client_id: c.client_id,
      sub: c.client_id,
      scope: 'read:vitals',
      auth_method: 'token_exchange',
      vitalis_chain: [decodeJwt(subjectToken).jti],
    });
    expect(claims.act).toBeUndefined();
    expect(claims.exp).toBeLessThanOrEqual(decodeJwt(subjectToken).exp!);
    const wider = await tokenRequest({
      grant_type: EXCHANGE,
      subject_token: body.access_token,
      subject_token_type: JWT_TYPE,
      scope: 'read:vitals read:appointments',
    });
    expect(await json(wider)).toMatchObject({ error: 'invalid_scope' });
  });

  it("a token of the user's grant, exchanged, dies when the grant is revoked (its refresh token revoked)", async () => {
    const app = await registerCodeClient(gw.url, ['read:vitals', 'read:patients']);
    const { tokens } = await userTokens(gw.url, app, 'nurse', 'nurse-demo-pass', 'read:vitals read:patients');
    const exchanged = await json(
      await tokenRequest({ grant_type: EXCHANGE, subject_token: tokens.access_token, subject_token_type: JWT_TYPE, scope: 'read:vitals' }),
    );
    expect(decodeJwt(exchanged.access_token)).toMatchObject({ sub: 'usr-demo-nurse', roles: ['nurse'], client_id: app.client_id });
    expect(await identityStatus(exchanged.access_token)).toBe(200);
    await revoke({ token: tokens.refresh_token, token_type_hint: 'refresh_token' });
    expect(await identityStatus(tokens.access_token, gw2.address)).toBe(401);
    expect(await identityStatus(exchanged.access_token, gw2.address)).toBe(401);
  });

  it('sandbox-ness survives the exchange: a token derived from a sandbox token is a sandbox principal', async () => {
    const sandbox = await json(
      await fetch(`${gw.url}/api/v1/sandbox`, { method: 'POST' }).catch(() => {
        throw new Error('sandbox');
      }),
    );
    const derived = await json(
      await tokenRequest({ grant_type: EXCHANGE, subject_token: sandbox.access_token, subject_token_type: JWT_TYPE, scope: 'read:vitals' }),
    );
    const who = await json(await fetch(`${gw.url}/agent/identity`, { headers: { authorization: `Bearer ${derived.access_token}` } }));
    expect(who).toMatchObject({ sandbox: true, auth_method: 'token_exchange', scopes: ['read:vitals'] });
  });

  it("another issuer's token needs an authenticated client (invalid_client)", async () => {
    const foreign = 'eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJodHRwczovL2lkcC5leGFtcGxlIiwic3ViIjoieCJ9.c2ln';
    const res = await tokenRequest({ grant_type: EXCHANGE, subject_token: foreign, subject_token_type: JWT_TYPE });
    expect(res.status).toBe(401);
    expect(await json(res)).toMatchObject({ error: 'invalid_client' });
  });
});

describe('codes, revocation ownership, refresh, resource', () => {
  it('a replayed code revokes the grant only for a real redemption attempt (right client, right verifier)', async () => {
    const app = await registerCodeClient(gw.url, ['read:vitals'], { public: true });
    const { redeem, tokens } = await userTokens(gw.url, app, 'nurse', 'nurse-demo-pass', 'read:vitals');
    expect(await identityStatus(tokens.access_token)).toBe(200);
    // A guessed replay: right client id, wrong verifier. Refused, and the grant survives.
    const guessed = await redeem(pkcePair().verifier);
    expect(await json(guessed)).toMatchObject({ error: 'invalid_grant' });
    expect(await identityStatus(tokens.access_token)).toBe(200);
    // Another client id: same.
    const other = await registerCodeClient(gw.url, ['read:vitals'], { public: true });
    expect(
      (
        await tokenRequest({
          grant_type: 'authorization_code',
          code: 'x',
          redirect_uri: REDIRECT_URI,
          code_verifier: 'y',
          client_id: other.client_id,
        })
      ).status,
    ).toBe(400);
    expect(await identityStatus(tokens.access_token)).toBe(200);
  });

  it("a client revokes only its own tokens: a public client (client id only) and a confidential one revoke nothing of another's", async () => {
    const victim = await registerClient(gw.url, ['read:vitals']);
    const token = await ccToken(victim);
    const publicApp = await registerCodeClient(gw.url, ['read:vitals'], { public: true });
    const confidential = await registerClient(gw.url, ['read:vitals']);
    expect((await revoke({ token, client_id: publicApp.client_id })).status).toBe(200);
    expect(await identityStatus(token)).toBe(200);
    expect((await revoke({ token, client_id: confidential.client_id, client_secret: confidential.client_secret })).status).toBe(200);
    expect(await identityStatus(token)).toBe(200);
    const { rows } = await gw.deps.pool.query(
      `SELECT actor_client_id FROM audit_events WHERE action = 'token.revoke_refused' AND actor_client_id = ANY($1)`,
      [[publicApp.client_id, confidential.client_id]],
    );
    expect(rows).toHaveLength(2);
    // Its own client, or anyone holding it without identifying as another client, may.
    expect((await revoke({ token, client_id: victim.client_id, client_secret: victim.client_secret })).status).toBe(200);
    expect(await identityStatus(token)).toBe(401);
  });

  it("refresh re-reads the user's current role", async () => {
    const username = `doc-${randomUUID().slice(0, 8)}`;
    const userId = `usr-${username}`;
    await createUser(gw.deps.pool, { userId, username, displayName: 'Dr Test', roles: ['doctor'] }, 'a-long-test-password');
    const app = await registerCodeClient(gw.url, ['read:vitals', 'write:appointments']);
    const { tokens } = await userTokens(gw.url, app, username, 'a-long-test-password', 'read:vitals write:appointments');
    expect(tokens.scope).toBe('read:vitals write:appointments');
    await gw.deps.pool.query('UPDATE oauth_users SET roles = $2 WHERE user_id = $1', [userId, ['nurse'] satisfies Role[]]);
    const refreshed = await json(
      await tokenRequest({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: app.client_id,
        client_secret: app.client_secret!,
      }),
    );
    expect(refreshed.scope).toBe('read:vitals');
    expect(decodeJwt(refreshed.access_token)).toMatchObject({ roles: ['nurse'], scope: 'read:vitals' });
  });

  it('resource (RFC 8707) other than this server is invalid_target', async () => {
    const c = await registerClient(gw.url, ['read:vitals']);
    const res = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: c.client_id,
      client_secret: c.client_secret,
      resource: 'https://elsewhere.example/api',
    });
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ error: 'invalid_target' });
    expect(
      (await tokenRequest({ grant_type: 'client_credentials', client_id: c.client_id, client_secret: c.client_secret, resource: gw.url }))
        .status,
    ).toBe(200);
    expect(await clientCredentialsToken(gw.url, c)).toBeTruthy();
  });
});
