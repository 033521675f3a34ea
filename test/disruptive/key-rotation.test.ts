/**
 * Rotating and withdrawing a token signing key with the operator's command, while two gateway
 * instances keep running (no restart): both sign with the new key within one refresh interval, the
 * old key's tokens stay valid after a rotation, and are refused on both once it is withdrawn.
 * Disruptive (runs alone): it changes the signing keys every gateway of the database shares.
 */
import { spawnSync } from 'node:child_process';
import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientCredentialsToken, registerClient, type RegisteredClient } from '../helpers/auth';
import { testEnv } from '../helpers/env';
import { startGateway, type RunningGateway } from '../helpers/gateway';

let a: RunningGateway;
let b: RunningGateway;
let client: RegisteredClient;
beforeAll(async () => {
  a = await startGateway({ SIGNING_KEY_REFRESH_SECONDS: '1' });
  b = await startGateway({ SIGNING_KEY_REFRESH_SECONDS: '1', PUBLIC_BASE_URL: a.url });
  client = await registerClient(a.url, ['read:appointments']);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

function admin(...args: string[]): { status: number | null; json: Record<string, unknown> } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'apps/gateway/src/admin-cli.ts', ...args], {
    env: { ...process.env, DATABASE_URL: testEnv.APP_DATABASE_URL, NODE_ENV: 'test' }, // the operator's CLI needs no more than the app role
    encoding: 'utf8',
    timeout: 30_000,
  });
  // a refusal (exit 1) prints its reason as JSON, a usage error (exit 2) its usage; a crash prints nothing on stdout: its stderr is shown
  if (result.status !== 0 && result.status !== 2 && !result.stdout)
    console.error(`admin ${args.join(' ')}: exit ${result.status}\n${result.stderr}`);
  return { status: result.status, json: JSON.parse(result.stdout || '{}') as Record<string, unknown> };
}

const kidOf = (token: string) => decodeProtectedHeader(token).kid!;
const identity = (gw: RunningGateway, token: string) =>
  fetch(`${gw.address}/agent/identity`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
async function eventually(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not within 10 s: ${what}`);
}

describe('signing keys, rotated and withdrawn without a restart', () => {
  it("rotate: both instances sign with the new key; old tokens stay valid. withdraw: the old key's tokens are refused everywhere", async () => {
    const old = await clientCredentialsToken(a.url, client);
    const oldKid = kidOf(old);
    expect(await identity(b, old)).toBe(200); // verified (and cached) on both
    expect(await identity(a, old)).toBe(200);
    const activeRs256 = async () =>
      (await a.deps.pool.query<{ kid: string }>("SELECT kid FROM oauth_signing_keys WHERE alg = 'RS256' AND retired_at IS NULL")).rows[0]!
        .kid;
    const oldIdTokenKid = await activeRs256();

    const rotated = admin('rotate-key'); // every algorithm: ES256 (access tokens) and RS256 (ID tokens)
    expect(rotated.status).toBe(0);
    const newKid = rotated.json.active_kid as string;
    expect(newKid).not.toBe(oldKid);
    expect(rotated.json.active_kids).toEqual({ ES256: newKid, RS256: await activeRs256() });
    expect(await activeRs256()).not.toBe(oldIdTokenKid);
    for (const gw of [a, b]) {
      await eventually(
        `${gw.address} signs with the new key`,
        async () => kidOf(await clientCredentialsToken(gw.address, client)) === newKid,
      );
    }
    const fresh = await clientCredentialsToken(b.address, client);
    expect(await identity(a, fresh)).toBe(200);
    expect(await identity(a, old)).toBe(200); // a retired key still verifies

    const withdrawn = admin('withdraw-key', oldKid);
    expect(withdrawn.status).toBe(0);
    expect(withdrawn.json).toMatchObject({ kid: oldKid, withdrawn: true });
    for (const gw of [a, b]) {
      await eventually(`${gw.address} refuses the withdrawn key's token`, async () => (await identity(gw, old)) === 401);
      const jwks = (await (await fetch(`${gw.address}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] };
      expect(jwks.keys.map((k) => k.kid)).not.toContain(oldKid);
      expect(await identity(gw, fresh)).toBe(200);
    }
    expect(admin('withdraw-key', oldKid).status).toBe(1); // already withdrawn
    expect(admin('withdraw-key').status).toBe(2);

    // The ID token keys: one algorithm rotates alone; a withdrawn RS256 key leaves every JWKS.
    const rs = admin('rotate-key', '--alg', 'RS256');
    expect(rs.status).toBe(0);
    expect(Object.keys(rs.json.active_kids as object)).toEqual(['RS256']);
    expect(rs.json.active_kid).toBe(await activeRs256());
    expect(kidOf(await clientCredentialsToken(a.address, client))).toBe(newKid); // access tokens keep their key
    expect(admin('rotate-key', '--alg', 'HS256').status).toBe(2);
    expect(admin('withdraw-key', oldIdTokenKid).status).toBe(0);
    for (const gw of [a, b]) {
      await eventually(`${gw.address} publishes the new RS256 key, not the withdrawn one`, async () => {
        const jwks = (await (await fetch(`${gw.address}/.well-known/jwks.json`)).json()) as { keys: { kid: string; alg: string }[] };
        const kids = jwks.keys.map((k) => k.kid);
        return kids.includes(rs.json.active_kid as string) && !kids.includes(oldIdTokenKid);
      });
    }
  });
});
