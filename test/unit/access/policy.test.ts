/** The access policy table's rules over every cell (apps/gateway/src/access/policy.ts). */
import { describe, expect, it } from 'vitest';
import { ROLES } from '@vitalis/schemas';
import {
  ACCESS_POLICY,
  access,
  reach,
  mayReach,
  namesUser,
  PRINCIPAL_KINDS,
  type PolicyCell,
} from '../../../apps/gateway/src/access/policy';
import type { Principal } from '../../../apps/gateway/src/access/principal';

const principal = (p: Partial<Principal>): Principal =>
  ({
    clientId: 'c',
    subject: 's',
    scopes: [],
    roles: [],
    tokenId: 't',
    expiresAt: 0,
    authMethod: 'client_secret',
    derivedFrom: [],
    sandbox: false,
    ...p,
  }) as Principal;
const ruleOf = (p: Principal, resource: 'Appointment', action: 'read' | 'write') => {
  const r = reach(p, resource, action);
  return r.allowed ? r.rule : 'none';
};

describe('access policy', () => {
  it('has a cell for every role, for callers without one and for sandbox principals, in every row', () => {
    expect([...PRINCIPAL_KINDS].sort()).toEqual([...ROLES, 'no-role', 'sandbox'].sort());
    for (const [resource, actions] of Object.entries(ACCESS_POLICY)) {
      for (const [action, cell] of Object.entries(actions)) {
        expect(Object.keys(cell.rules).sort(), `${resource}.${action}`).toEqual([...PRINCIPAL_KINDS].sort());
        expect(cell.scopes.length, `${resource}.${action} names its scopes`).toBeGreaterThan(0);
      }
    }
  });

  it("'own' needs a patient in the token: a patient-role client without one reaches no patient", () => {
    const client = principal({ roles: ['patient'], scopes: ['read:appointments', 'write:appointments'] });
    expect(ruleOf(client, 'Appointment', 'read')).toBe('none');
    expect(ruleOf(client, 'Appointment', 'write')).toBe('none');
    expect(mayReach(client, 'Appointment', 'write', 'pat-1')).toBe(false);
    const user = principal({ roles: ['patient'], patientId: 'pat-1', scopes: ['read:appointments', 'write:appointments'] });
    expect(ruleOf(user, 'Appointment', 'write')).toBe('own');
    expect(mayReach(user, 'Appointment', 'write', 'pat-1')).toBe(true);
    expect(mayReach(user, 'Appointment', 'write', 'pat-2')).toBe(false);
    expect(mayReach(user, 'Appointment', 'read', null)).toBe(false);
  });

  it('a token that names a patient is held to it, whatever its roles allow', () => {
    const p = principal({ roles: ['reception'], patientId: 'pat-1', scopes: ['read:appointments'] });
    expect(ruleOf(p, 'Appointment', 'read')).toBe('own');
    expect(mayReach(p, 'Appointment', 'read', 'pat-2')).toBe(false);
  });

  it('the widest of several roles; no role is none', () => {
    const scopes: Principal['scopes'] = ['read:appointments'];
    expect(ruleOf(principal({ roles: ['device', 'reception'], scopes }), 'Appointment', 'read')).toBe('all');
    expect(ruleOf(principal({ roles: [], scopes }), 'Appointment', 'read')).toBe('none');
    expect(ruleOf(principal({ roles: ['device'], scopes }), 'Appointment', 'read')).toBe('none');
    expect(ruleOf(principal({ roles: ['lab'], scopes }), 'Appointment', 'read')).toBe('none');
  });

  it('a cell allows only with one of its scopes (a token naming a patient: its patient scopes)', () => {
    expect(access(principal({ roles: ['nurse'] }), 'Observation', 'read', ['pat-1'])).toMatchObject({
      allowed: false,
      reason: 'missing scope',
    });
    expect(access(principal({ roles: ['nurse'], scopes: ['read:vitals'] }), 'Observation', 'read', ['pat-1'])).toMatchObject({
      allowed: true,
      rule: 'all',
      scope: 'read:vitals',
    });
    const patient = principal({ roles: ['patient'], patientId: 'pat-1', scopes: ['patient/Patient.rs'] });
    expect(access(patient, 'Patient', 'read', ['pat-1'])).toMatchObject({ allowed: true, rule: 'own', scope: 'patient/Patient.rs' });
    expect(access(patient, 'Patient', 'read', ['pat-2'])).toMatchObject({
      allowed: false,
      reason: 'patient mismatch',
      patients: ['pat-2'],
    });
    expect(access(patient, 'AllergyIntolerance', 'read', ['pat-1'])).toMatchObject({ allowed: false, reason: 'missing scope' });
  });

  it('a sandbox principal reaches synthetic patients only, and nobody writes for one', () => {
    const sandbox = principal({ sandbox: true, scopes: ['read:vitals', 'read:appointments'] });
    expect(access(sandbox, 'Observation', 'read', ['sbx-0001'])).toMatchObject({ allowed: true, rule: 'synthetic' });
    expect(access(sandbox, 'Observation', 'read', ['pat-1'])).toMatchObject({ allowed: false, reason: 'sandbox' });
    expect(reach(sandbox, 'Slot', 'read')).toMatchObject({ allowed: true, rule: 'synthetic' });
    expect(access(principal({ roles: ['system'], scopes: ['write:vitals'] }), 'Observation', 'write', ['sbx-0001'])).toMatchObject({
      allowed: false,
      reason: 'sandbox',
    });
  });

  it('a write that needs a read as well: recording an allergy needs reading them', () => {
    const reception = principal({ roles: ['reception'], scopes: ['write:patients'] });
    expect(access(reception, 'AllergyIntolerance', 'write', ['pat-1'])).toMatchObject({ allowed: false, reason: 'forbidden' });
    const admin = principal({ roles: ['admin'], scopes: ['write:patients', 'read:patients'] });
    expect(access(admin, 'AllergyIntolerance', 'write', ['pat-1']).allowed).toBe(true);
    expect(access(principal({ roles: ['admin'], scopes: ['write:patients'] }), 'AllergyIntolerance', 'write', ['pat-1'])).toMatchObject({
      allowed: false,
      reason: 'forbidden',
    });
  });
  it('a user-only cell (users: true) refuses a token that names no user, whatever its role allows; its refusal says a signed-in clinician must act', () => {
    const scopes: Principal['scopes'] = ['write:diagnostics', 'read:diagnostics'];
    const app = principal({ roles: ['doctor'], scopes, clientId: 'cli_ward', subject: 'cli_ward', authMethod: 'client_secret' });
    expect(reach(app, 'DiagnosticReport', 'acknowledge')).toMatchObject({ allowed: false, reason: 'no user', scope: 'write:diagnostics' });
    expect((reach(app, 'DiagnosticReport', 'acknowledge') as { detail: string }).detail).toMatch(
      /^A signed-in clinician must acknowledge a critical result/,
    );
    // the same app reaches everything else its role allows: user-ness is the cell's option, not a principal kind
    expect(reach(app, 'DiagnosticReport', 'read')).toMatchObject({ allowed: true, rule: 'all' });
    const user = principal({
      roles: ['doctor'],
      scopes,
      clientId: 'cli_ward',
      subject: 'usr-demo-doctor',
      authMethod: 'authorization_code',
    });
    expect(reach(user, 'DiagnosticReport', 'acknowledge')).toMatchObject({ allowed: true, rule: 'all' });
    expect(reach({ ...user, authMethod: 'refresh_token' }, 'DiagnosticReport', 'acknowledge').allowed).toBe(true);
    // the role rule still comes first: a nurse user or a lab user is refused for the role, not for being a person
    expect(reach(principal({ ...user, roles: ['lab'] }), 'DiagnosticReport', 'acknowledge')).toMatchObject({
      allowed: false,
      reason: 'forbidden',
    });
    expect(reach(principal({ ...user, scopes: ['read:diagnostics'] }), 'DiagnosticReport', 'acknowledge')).toMatchObject({
      allowed: false,
      reason: 'missing scope',
    });
    // every user-only cell has its own words for the refusal
    for (const [resource, actions] of Object.entries(ACCESS_POLICY)) {
      for (const [action, cell] of Object.entries(actions) as [string, PolicyCell][])
        if (cell.users) expect(cell.userRefusal, `${resource}.${action}`).toMatch(/signed-in/);
    }
  });

  it("namesUser: the user grants name a person; client credentials and the sandbox do not; an exchanged token keeps its subject's kind", () => {
    const base = { clientId: 'cli_app', sandbox: false } as const;
    expect(namesUser({ ...base, subject: 'usr-1', authMethod: 'authorization_code' })).toBe(true);
    expect(namesUser({ ...base, subject: 'usr-1', authMethod: 'refresh_token' })).toBe(true);
    expect(namesUser({ ...base, subject: 'cli_app', authMethod: 'client_secret' })).toBe(false);
    expect(namesUser({ ...base, subject: 'cli_app', authMethod: 'private_key_jwt' })).toBe(false);
    expect(namesUser({ ...base, subject: 'sbx_x', clientId: 'sbx_x', authMethod: 'sandbox', sandbox: true })).toBe(false);
    // a user's token exchanged by another app (act: that app): still the user
    expect(
      namesUser({
        ...base,
        clientId: 'cli_agent',
        subject: 'usr-1',
        authMethod: 'token_exchange',
        actor: { sub: 'cli_agent', client_id: 'cli_agent' },
      }),
    ).toBe(true);
    // a public exchange (narrowing) of a user's token: the user
    expect(namesUser({ ...base, subject: 'usr-1', authMethod: 'token_exchange' })).toBe(true);
    // a machine token exchanged by the client its may_act names: the subject is a client, not a person
    expect(
      namesUser({
        ...base,
        clientId: 'cli_b',
        subject: 'cli_a',
        authMethod: 'token_exchange',
        actor: { sub: 'cli_b', client_id: 'cli_b' },
      }),
    ).toBe(false);
    expect(namesUser({ ...base, clientId: 'cli_b', subject: 'cli_b', authMethod: 'token_exchange' })).toBe(false);
    // a trusted issuer's subject, exchanged here: a person of that issuer
    expect(
      namesUser({ ...base, clientId: 'cli_b', subject: 'https-idp-user-42', authMethod: 'token_exchange', actor: { sub: 'cli_b' } }),
    ).toBe(true);
  });
});
