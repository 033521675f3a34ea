/**
 * Security finding 1: a scope is granted by a role, never by what a client asks for. Open
 * registration (no credential) gets the public scopes only, PHI-free; a role comes from an
 * operator-minted initial access token (RFC 7591 §3), a trusted software statement (§2.3) or an
 * operator's approval (admin API, scope admin:clients, audited). Over real HTTP.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPE_NAMES, needsUser } from '@vitalis/schemas';
import { createSlot, bookAppointment } from '../../../apps/gateway/src/appointments/service';
import { registerPatient } from '../../../apps/gateway/src/patients/service';
import { catchUpTo } from '../../../apps/projector/src/projections/runner';
import { slotsProjection } from '../../../apps/projector/src/projections/definitions';
import { headPosition } from '@vitalis/eventstore';
import { mintInitialAccessToken } from '../../../apps/gateway/src/auth/initial-access';
import { clientCredentialsToken, registerClient } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { caller, uid } from '../records/support';

let gw: RunningGateway;
let statementKey: CryptoKey;
let statementJwk: JWK;
const STATEMENT_ISSUER = 'https://certification.example.org';
const j = (r: Response): Promise<any> => r.json();

beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  statementKey = pair.privateKey;
  statementJwk = { ...(await exportJWK(pair.publicKey)), kid: 'cert-1', alg: 'ES256' };
  gw = await startGateway({
    SOFTWARE_STATEMENT_ISSUERS: JSON.stringify([{ issuer: STATEMENT_ISSUER, jwks: { keys: [statementJwk] }, roles: ['nurse', 'device'] }]),
  });
});
afterAll(() => gw?.close());

const register = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  fetch(`${gw.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({
      client_name: `roles-${uid()}`,
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'client_secret_post',
      ...body,
    }),
  });
const token = (client: { client_id: string; client_secret: string }, scope?: string) =>
  fetch(`${gw.url}/api/auth/oauth2/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.client_secret,
      ...(scope ? { scope } : {}),
    }),
  });
const mint = (role: Parameters<typeof mintInitialAccessToken>[1]['role'], opts: { ttlSeconds?: number; maxUses?: number | null } = {}) =>
  mintInitialAccessToken(gw.deps.pool, {
    role,
    createdBy: 'test',
    ttlSeconds: opts.ttlSeconds ?? 600,
    maxUses: opts.maxUses === undefined ? 1 : opts.maxUses,
  }).then((m) => m.initial_access_token);

describe('open registration: the public scopes only', () => {
  it('asking for every scope registers the public set; the rest waits for an operator; tokens say exactly what was granted', async () => {
    const res = await register({ scope: SCOPE_NAMES.join(' ') });
    expect(res.status).toBe(201);
    const client = await j(res);
    expect(client.scope).toBe('read:appointments');
    expect(client.requested_scope.split(' ').sort()).toEqual([...SCOPE_NAMES].sort());
    expect(client.approval).toBe('pending');
    expect(client.role).toBeUndefined();
    const t = await token(client);
    expect(t.status).toBe(200);
    const granted = await j(t);
    expect(granted.scope).toBe('read:appointments');
    for (const scope of [
      'read:patients',
      'read:vitals',
      'read:audit',
      'write:vitals',
      'write:triage',
      'write:appointments',
      'admin:clients',
      'read:diagnostics',
      'write:diagnostics',
    ]) {
      const refused = await token(client, scope);
      expect(refused.status, scope).toBe(400);
      expect(await j(refused), scope).toMatchObject({ error: 'invalid_scope' });
    }
    const headers = { authorization: `Bearer ${granted.access_token}` };
    expect((await fetch(`${gw.url}/api/v1/patients/pat-0001`, { headers })).status).toBe(403);
    expect((await fetch(`${gw.url}/api/v1/audit`, { headers })).status).toBe(403);
  });

  it('an omitted scope is the minimal default, never all', async () => {
    const client = await j(await register({}));
    expect(client.scope).toBe('read:appointments');
    expect(client.approval).toBeUndefined();
    expect((await j(await token(client))).scope).toBe('read:appointments');
  });

  it('read:audit, write:vitals, write:triage, admin:clients, read:diagnostics and write:diagnostics are never self-registrable', async () => {
    for (const scope of ['read:audit', 'write:vitals', 'write:triage', 'admin:clients', 'read:diagnostics', 'write:diagnostics']) {
      const client = await j(await register({ scope }));
      expect(client.scope, scope).toBe('');
      expect(client.requested_scope, scope).toBe(scope);
      expect((await token(client)).status, scope).toBe(400);
    }
  });

  it('slot availability without PHI: bookings show as busy without patient or reason; a booking cannot be read', async () => {
    const clinician = `clin-roles-${uid()}`;
    const start = new Date(Date.UTC(2032, 2, 3, 9));
    const slot = await createSlot(gw.deps.pool, {
      clinicianId: clinician,
      appointmentType: 'consultation',
      start: start.toISOString(),
      end: new Date(start.getTime() + 1_800_000).toISOString(),
    });
    const patient = await registerPatient(gw.deps.pool, caller({ scopes: ['write:patients'], roles: ['reception'] }), {
      family: `Roles${uid()}`,
      given: [],
    });
    const booked = await bookAppointment(gw.deps.pool, caller({ scopes: ['write:appointments'], roles: ['reception'] }), {
      slotId: slot.id,
      patientId: patient.id,
      reason: 'chest pain',
    });
    await catchUpTo(gw.deps.pool, slotsProjection, await headPosition(gw.deps.pool));

    const open = await j(await register({}));
    const headers = { authorization: `Bearer ${(await j(await token(open))).access_token}` };
    const listing = await fetch(`${gw.url}/api/v1/appointments?clinician=${clinician}`, { headers });
    expect(listing.status).toBe(200);
    const text = await listing.text();
    expect(text).toContain(`"busy"`);
    expect(text).not.toContain(patient.id);
    expect(text).not.toContain('chest pain');
    expect(text).not.toContain(booked.appointmentId!);
    expect((await fetch(`${gw.url}/api/v1/appointments/${booked.appointmentId}`, { headers })).status).toBe(403);
    expect((await fetch(`${gw.url}/api/v1/appointments?patient=${patient.id}`, { headers })).status).toBe(403);

    // A client an operator gave a role sees the booking.
    const staff = await registerClient(gw.url, ['read:appointments'], 'roles-staff', 'reception');
    const staffHeaders = { authorization: `Bearer ${await clientCredentialsToken(gw.url, staff)}` };
    const full = await (await fetch(`${gw.url}/api/v1/appointments?clinician=${clinician}`, { headers: staffHeaders })).text();
    expect(full).toContain(patient.id);
  });
});

describe('initial access tokens (RFC 7591 §3)', () => {
  it('register a client with the role the operator minted them for; the token carries the role', async () => {
    const res = await register({ scope: 'write:vitals read:patients' }, { authorization: `Bearer ${await mint('device')}` });
    expect(res.status).toBe(201);
    const client = await j(res);
    expect(client).toMatchObject({
      role: 'device',
      scope: 'write:vitals',
      requested_scope: 'write:vitals read:patients',
      approval: 'pending',
    });
    const t = await j(await token(client));
    expect(t.scope).toBe('write:vitals');
    const identity = await j(await fetch(`${gw.url}/agent/identity`, { headers: { authorization: `Bearer ${t.access_token}` } }));
    expect(identity.roles).toEqual(['device']);
  });

  it('the lab role holds read:diagnostics and write:diagnostics, nothing clinical beyond them', async () => {
    const res = await register(
      { scope: 'read:diagnostics write:diagnostics read:patients read:vitals' },
      { authorization: `Bearer ${await mint('lab')}` },
    );
    expect(res.status).toBe(201);
    const client = await j(res);
    expect(client).toMatchObject({ role: 'lab', scope: 'read:diagnostics write:diagnostics', approval: 'pending' });
    expect((await j(await token(client))).scope).toBe('read:diagnostics write:diagnostics');
    expect((await token(client, 'read:patients')).status).toBe(400);
  });

  it('single use, expiring, unknown: each refused with 401 invalid_token; N parallel uses of a one-use token register one client', async () => {
    const once = await mint('nurse');
    const results = await Promise.all(
      Array.from({ length: 8 }, () => register({ scope: 'read:vitals' }, { authorization: `Bearer ${once}` }).then((r) => r.status)),
    );
    expect(results.filter((s) => s === 201)).toHaveLength(1);
    expect(results.filter((s) => s === 401)).toHaveLength(7);
    const expired = await mint('nurse', { ttlSeconds: 600 });
    await gw.deps.pool.query(
      `UPDATE oauth_initial_access_tokens SET expires_at = now() - interval '1 second' WHERE role = 'nurse' AND expires_at > now() AND created_by = 'test' AND uses_left = 1`,
    );
    for (const bad of [expired, 'iat_made-up', 'x']) {
      const res = await register({ scope: 'read:vitals' }, { authorization: `Bearer ${bad}` });
      expect(res.status, bad).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="vitalis", error="invalid_token"/);
      expect(await j(res)).toMatchObject({ error: 'invalid_token' });
    }
  });
});

describe('software statements (RFC 7591 §2.3)', () => {
  const statement = (claims: Record<string, unknown>, key = statementKey, iss = STATEMENT_ISSUER) =>
    new SignJWT({ software_id: 'ward-monitor', ...claims })
      .setProtectedHeader({ alg: 'ES256', kid: 'cert-1' })
      .setIssuer(iss)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(key);

  it('a statement of a trusted issuer binds the software to its role; its metadata wins over the JSON', async () => {
    const res = await register({
      scope: 'read:appointments',
      software_statement: await statement({
        vitalis_role: 'nurse',
        scope: 'read:vitals read:patients',
        client_name: 'Certified Ward Monitor',
      }),
    });
    expect(res.status).toBe(201);
    const client = await j(res);
    expect(client).toMatchObject({ role: 'nurse', scope: 'read:vitals read:patients', client_name: 'Certified Ward Monitor' });
    expect((await j(await token(client))).scope).toBe('read:vitals read:patients');
  });

  it('refuses a role the issuer may not grant, an unknown issuer, a bad signature, no role', async () => {
    const stranger = await generateKeyPair('ES256');
    const cases: [string, string, string][] = [
      ['a role beyond the issuer', await statement({ vitalis_role: 'admin' }), 'unapproved_software_statement'],
      [
        'an unknown issuer',
        await statement({ vitalis_role: 'nurse' }, statementKey, 'https://elsewhere.example'),
        'unapproved_software_statement',
      ],
      ['another key', await statement({ vitalis_role: 'nurse' }, stranger.privateKey), 'invalid_software_statement'],
      ['no role', await statement({}), 'invalid_software_statement'],
      ['not a JWT', 'not-a-jwt', 'invalid_software_statement'],
    ];
    for (const [what, jwt, error] of cases) {
      const res = await register({ scope: 'read:vitals', software_statement: jwt });
      expect(res.status, what).toBe(400);
      expect(await j(res), what).toMatchObject({ error });
    }
  });
});

describe('operator approval (admin API, admin:clients)', () => {
  it('lists pending clients, approves one with a role (audited), refuses scopes beyond the role, and needs admin:clients', async () => {
    const pending = await j(await register({ scope: 'write:vitals read:appointments' }));
    expect(pending.approval).toBe('pending');
    const admin = await registerClient(gw.url, ['admin:clients'], 'roles-admin', 'admin');
    const adminHeaders = { authorization: `Bearer ${await clientCredentialsToken(gw.url, admin)}`, 'content-type': 'application/json' };
    const list = await j(await fetch(`${gw.url}/api/auth/admin/clients?approval=pending&limit=500`, { headers: adminHeaders }));
    expect(list.clients.map((c: { client_id: string }) => c.client_id)).toContain(pending.client_id);

    // Approving gives a role as minting does (issue 30): an admin holds no write:vitals, so it cannot make a device, nor anyone a system client
    for (const role of ['device', 'system'] as const) {
      const refused = await fetch(`${gw.url}/api/auth/admin/clients/${pending.client_id}/approve`, {
        method: 'POST',
        headers: adminHeaders,
        body: JSON.stringify({ role }),
      });
      expect(refused.status, role).toBe(403);
      expect(refused.headers.get('content-type'), role).toMatch(/json/);
      expect((await j(refused)).detail, role).toMatch(role === 'system' ? /operator's command line alone/ : /lacks: write:vitals/);
    }
    const refusedRows = await gw.deps.pool.query(
      `SELECT detail->>'role' AS role FROM audit_events WHERE action = 'client.approval_refused' AND resource_id = $1 ORDER BY id`,
      [pending.client_id],
    );
    expect(refusedRows.rows).toEqual([{ role: 'device' }, { role: 'system' }]);
    expect((await gw.deps.pool.query(`SELECT role FROM oauth_clients WHERE client_id = $1`, [pending.client_id])).rows).toEqual([
      { role: null },
    ]);
    const operator = await registerClient(
      gw.url,
      SCOPE_NAMES.filter((s) => !needsUser(s)),
      'roles-operator',
      'system',
    );
    const operatorHeaders = {
      authorization: `Bearer ${await clientCredentialsToken(gw.url, operator)}`,
      'content-type': 'application/json',
    };
    const beyond = await fetch(`${gw.url}/api/auth/admin/clients/${pending.client_id}/approve`, {
      method: 'POST',
      headers: operatorHeaders,
      body: JSON.stringify({ role: 'nurse', scope: 'write:vitals' }),
    });
    expect(beyond.status).toBe(422);
    expect(await j(beyond)).toMatchObject({ detail: 'The role nurse does not hold: write:vitals.' });
    const approved = await fetch(`${gw.url}/api/auth/admin/clients/${pending.client_id}/approve`, {
      method: 'POST',
      headers: operatorHeaders,
      body: JSON.stringify({ role: 'device' }),
    });
    expect(approved.status).toBe(200);
    expect(await j(approved)).toMatchObject({
      client_id: pending.client_id,
      role: 'device',
      scope: 'write:vitals read:appointments',
      approval: 'approved',
      requested_scope: '',
    });
    expect((await j(await token(pending, 'write:vitals'))).scope).toBe('write:vitals');
    const { rows } = await gw.deps.pool.query(
      `SELECT actor_client_id, detail FROM audit_events WHERE action = 'client.approved' AND resource_id = $1`,
      [pending.client_id],
    );
    expect(rows).toEqual([
      { actor_client_id: operator.client_id, detail: expect.objectContaining({ role: 'device', scope: 'write:vitals read:appointments' }) },
    ]);

    // Minting initial access tokens through the API, and the scope it needs: admin:clients and, since
    // issue 30, every scope the role gives a client (an admin holds no write:vitals; iat-minting.test.ts).
    const mintBody = JSON.stringify({ role: 'device', expires_in: 600, max_uses: 1, label: `bed ${randomUUID()}` });
    expect(
      (await fetch(`${gw.url}/api/auth/admin/initial-access-tokens`, { method: 'POST', headers: adminHeaders, body: mintBody })).status,
    ).toBe(403);
    const backend = await registerClient(gw.url, ['admin:clients', 'write:vitals'], 'roles-backend', 'system');
    const backendHeaders = { authorization: `Bearer ${await clientCredentialsToken(gw.url, backend)}`, 'content-type': 'application/json' };
    const minted = await fetch(`${gw.url}/api/auth/admin/initial-access-tokens`, {
      method: 'POST',
      headers: backendHeaders,
      body: mintBody,
    });
    expect(minted.status).toBe(201);
    const iat = await j(minted);
    expect(iat).toMatchObject({ role: 'device', max_uses: 1 });
    expect((await register({ scope: 'write:vitals' }, { authorization: `Bearer ${iat.initial_access_token}` })).status).toBe(201);

    const nobody = await registerClient(gw.url, ['read:patients'], 'roles-doctor', 'doctor');
    const nobodyHeaders = { authorization: `Bearer ${await clientCredentialsToken(gw.url, nobody)}`, 'content-type': 'application/json' };
    for (const [method, path, body] of [
      ['GET', '/api/auth/admin/clients', undefined],
      ['POST', `/api/auth/admin/clients/${pending.client_id}/approve`, '{"role":"system"}'],
      ['POST', '/api/auth/admin/initial-access-tokens', '{"role":"system"}'],
    ] as const) {
      const res = await fetch(`${gw.url}${path}`, { method, headers: nobodyHeaders, ...(body ? { body } : {}) });
      expect(res.status, path).toBe(403);
      expect(res.headers.get('www-authenticate')).toContain('scope="admin:clients"');
    }
    // A doctor-role client cannot even ask for admin:clients.
    expect((await j(await register({ scope: 'admin:clients' }, { authorization: `Bearer ${await mint('doctor')}` }))).scope).toBe('');
  });
});
