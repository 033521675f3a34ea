/** The access policy table's rules over every cell (apps/gateway/src/access/policy.ts). */
import { describe, expect, it } from 'vitest';
import { ROLES } from '@vitalis/schemas';
import { ACCESS_POLICY, access, reach, mayReach, PRINCIPAL_KINDS } from '../../../apps/gateway/src/access/policy';
import type { Principal } from '../../../apps/gateway/src/auth/route-auth';

const principal = (p: Partial<Principal>): Principal =>
  ({ clientId: 'c', subject: 's', scopes: [], roles: [], tokenId: 't', expiresAt: 0, authMethod: 'client_secret', derivedFrom: [], sandbox: false, ...p }) as Principal;
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
    expect(access(principal({ roles: ['nurse'] }), 'Observation', 'read', ['pat-1'])).toMatchObject({ allowed: false, reason: 'missing scope' });
    expect(access(principal({ roles: ['nurse'], scopes: ['read:vitals'] }), 'Observation', 'read', ['pat-1'])).toMatchObject({ allowed: true, rule: 'all', scope: 'read:vitals' });
    const patient = principal({ roles: ['patient'], patientId: 'pat-1', scopes: ['patient/Patient.rs'] });
    expect(access(patient, 'Patient', 'read', ['pat-1'])).toMatchObject({ allowed: true, rule: 'own', scope: 'patient/Patient.rs' });
    expect(access(patient, 'Patient', 'read', ['pat-2'])).toMatchObject({ allowed: false, reason: 'patient mismatch', patients: ['pat-2'] });
    expect(access(patient, 'AllergyIntolerance', 'read', ['pat-1'])).toMatchObject({ allowed: false, reason: 'missing scope' });
  });

  it('a sandbox principal reaches synthetic patients only, and nobody writes for one', () => {
    const sandbox = principal({ sandbox: true, scopes: ['read:vitals', 'read:appointments'] });
    expect(access(sandbox, 'Observation', 'read', ['sbx-0001'])).toMatchObject({ allowed: true, rule: 'synthetic' });
    expect(access(sandbox, 'Observation', 'read', ['pat-1'])).toMatchObject({ allowed: false, reason: 'sandbox' });
    expect(reach(sandbox, 'Slot', 'read')).toMatchObject({ allowed: true, rule: 'synthetic' });
    expect(access(principal({ roles: ['system'], scopes: ['write:vitals'] }), 'Observation', 'write', ['sbx-0001'])).toMatchObject({ allowed: false, reason: 'sandbox' });
  });

  it('a write that needs a read as well: recording an allergy needs reading them', () => {
    const reception = principal({ roles: ['reception'], scopes: ['write:patients'] });
    expect(access(reception, 'AllergyIntolerance', 'write', ['pat-1'])).toMatchObject({ allowed: false, reason: 'forbidden' });
    const admin = principal({ roles: ['admin'], scopes: ['write:patients', 'read:patients'] });
    expect(access(admin, 'AllergyIntolerance', 'write', ['pat-1']).allowed).toBe(true);
    expect(access(principal({ roles: ['admin'], scopes: ['write:patients'] }), 'AllergyIntolerance', 'write', ['pat-1'])).toMatchObject({ allowed: false, reason: 'forbidden' });
  });
});
