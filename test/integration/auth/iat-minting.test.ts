/**
 * Issue 30, the structural fix's second bullet: an `admin:clients` holder mints initial access
 * tokens over HTTP only for a role it could act as itself (every scope a client of that role could
 * obtain on its own: its user-only scopes aside, system/X.rs read as its Vitalis scope, the public
 * scopes aside), and never for `system`, whatever it holds: the operator's command line alone mints
 * that (admin-cli.test.ts). Before, an admin-role client holding only admin:clients minted a
 * `system` token and registered itself a client with every scope. Over real HTTP; every refusal
 * is a 403 insufficient-scope problem and an audit row, and mints nothing.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, SCOPE_NAMES, needsUser, type Role, type Scope } from '@vitalis/schemas';
import { httpMintingScopes } from '../../../apps/gateway/src/auth/initial-access';
import { clientCredentialsToken, registerClient } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { DEMO_PASSWORDS, registerCodeClient, userTokens } from './support';

let gw: RunningGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(() => gw?.close());

const j = (r: Response): Promise<any> => r.json();

/** A client_credentials token of a client registered with `role`'s initial access token, asking for `scopes`. */
async function bearer(role: Role, scopes: Scope[]): Promise<string> {
  const client = await registerClient(gw.url, scopes, `iat-minter-${role}`, role);
  const token = await clientCredentialsToken(gw.url, client);
  return token;
}

function mint(token: string, role: Role, label = `iat-minting ${randomUUID()}`) {
  return fetch(`${gw.url}/api/auth/admin/initial-access-tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ role, expires_in: 600, max_uses: 1, label }),
  });
}

const registerWith = (iat: string, scope: string) =>
  fetch(`${gw.url}/api/auth/register`, {
    method: 'POST',
    headers: { authorization: `Bearer ${iat}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: `iat-minted-${randomUUID().slice(0, 8)}`,
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'client_secret_post',
      scope,
    }),
  });

/** The refusal's shape, its audit row, and that nothing was minted under its label. */
async function expectRefused(res: Response, role: Role, label: string, detail: RegExp, reason: string) {
  expect(res.status, role).toBe(403);
  expect(res.headers.get('content-type')).toMatch(/json/);
  expect(res.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
  const body = await j(res);
  expect(body).toMatchObject({ status: 403, type: expect.stringContaining('insufficient-scope'), detail: expect.stringMatching(detail) });
  expect(body.required_scope).toContain('admin:clients');
  const minted = await gw.deps.pool.query(`SELECT 1 FROM oauth_initial_access_tokens WHERE label = $1`, [label]);
  expect(minted.rowCount, `${role}: nothing minted`).toBe(0);
  const audited = await gw.deps.pool.query<{ outcome: string; detail: Record<string, unknown> }>(
    `SELECT outcome, detail FROM audit_events WHERE action = 'initial_access_token.refused' AND request_id = $1`,
    [res.headers.get('x-request-id')],
  );
  expect(audited.rows).toEqual([{ outcome: 'failure', detail: expect.objectContaining({ role, reason }) }]);
}

describe('minting initial access tokens over HTTP (POST /api/auth/admin/initial-access-tokens)', () => {
  it('the rule: every scope a client of the role obtains on its own, user-only and public scopes aside; system never', () => {
    expect(httpMintingScopes('system')).toBeUndefined();
    expect(httpMintingScopes('admin')!.sort()).toEqual(['admin:clients', 'read:audit', 'read:patients', 'write:patients']);
    expect(httpMintingScopes('doctor')!.sort()).toEqual([
      'read:diagnostics',
      'read:patients',
      'read:vitals',
      'write:appointments',
      'write:diagnostics',
      'write:triage',
    ]);
    expect(httpMintingScopes('patient')).toEqual(['write:appointments']);
    expect(httpMintingScopes('device')).toEqual(['write:vitals']);
  });

  it('an admin-role client mints for its own role, and a client registered with that token gets the role', async () => {
    const admin = await bearer('admin', ['admin:clients', 'read:patients', 'write:patients', 'read:audit']);
    const res = await mint(admin, 'admin');
    expect(res.status).toBe(201);
    const iat = await j(res);
    expect(iat).toMatchObject({ role: 'admin', max_uses: 1 });
    const registered = await j(await registerWith(iat.initial_access_token, 'read:audit'));
    expect(registered).toMatchObject({ role: 'admin', scope: 'read:audit' });
  });

  it('an admin-role client may not mint a role beyond its own (doctor, nurse, reception, patient, device, lab): 403, audited, nothing minted', async () => {
    const admin = await bearer('admin', ['admin:clients', 'read:patients', 'write:patients', 'read:audit']);
    for (const role of ['doctor', 'nurse', 'reception', 'patient', 'device', 'lab'] as const) {
      const label = `beyond ${randomUUID()}`;
      await expectRefused(await mint(admin, role, label), role, label, new RegExp(`role ${role} .*lacks: `), 'role beyond the caller');
    }
    const label = `doctor ${randomUUID()}`;
    const res = await mint(admin, 'doctor', label);
    const body = await j(res.clone());
    expect(body.detail).toContain('write:diagnostics');
    expect(body.detail).not.toContain('read:patients'); // it holds that one
    expect(res.headers.get('www-authenticate')).toContain('write:diagnostics');
  });

  it('holding admin:clients alone mints nothing, not even its own role', async () => {
    const bare = await bearer('admin', ['admin:clients']);
    const label = `bare ${randomUUID()}`;
    await expectRefused(await mint(bare, 'admin', label), 'admin', label, /lacks: .*read:patients/, 'role beyond the caller');
    // the escalation this closes: admin:clients alone minted a system token, and with it a client holding every scope
    const system = `bare system ${randomUUID()}`;
    await expectRefused(await mint(bare, 'system', system), 'system', system, /operator's command line alone/, 'operator only');
  });

  it('system is never minted over HTTP, even by a system-role token holding every scope; that token mints every other role', async () => {
    const system = await bearer(
      'system',
      SCOPE_NAMES.filter((s) => !needsUser(s)),
    ); // everything a client obtains on its own
    const label = `system ${randomUUID()}`;
    await expectRefused(await mint(system, 'system', label), 'system', label, /operator's command line alone/, 'operator only');
    for (const role of ROLES.filter((r) => r !== 'system')) {
      expect((await mint(system, role)).status, role).toBe(201);
    }
  });

  it("an admin who signed in (authorization code: no system/ scopes in a person's token) mints admin, not system", async () => {
    const app = await registerCodeClient(gw.url, ['admin:clients', 'read:patients', 'write:patients', 'read:audit', 'openid'], {
      role: 'admin',
      name: 'Operator console <test>',
    });
    const { tokens } = await userTokens(
      gw.url,
      app,
      'admin',
      DEMO_PASSWORDS.admin,
      'admin:clients read:patients write:patients read:audit openid',
    );
    expect(tokens.scope.split(' ')).toEqual(expect.arrayContaining(['admin:clients', 'read:patients', 'write:patients', 'read:audit']));
    expect((await mint(tokens.access_token, 'admin')).status).toBe(201);
    const label = `person ${randomUUID()}`;
    await expectRefused(
      await mint(tokens.access_token, 'system', label),
      'system',
      label,
      /operator's command line alone/,
      'operator only',
    );
  });
});
