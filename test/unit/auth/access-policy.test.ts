/** The access policy table's two rules over every cell (apps/gateway/src/access/policy.ts). */
import { describe, expect, it } from 'vitest';
import { ROLES } from '@vitalis/schemas';
import { ACCESS_POLICY, accessRule, mayReach } from '../../../apps/gateway/src/access/policy';
import type { Principal } from '../../../apps/gateway/src/auth/route-auth';

const principal = (p: Partial<Principal>): Principal =>
  ({ clientId: 'c', subject: 's', scopes: [], roles: [], tokenId: 't', expiresAt: 0, authMethod: 'client_secret', derivedFrom: [], sandbox: false, ...p }) as Principal;

describe('access policy', () => {
  it('has a cell for every role and for callers without one, in every row', () => {
    for (const [resource, actions] of Object.entries(ACCESS_POLICY)) {
      for (const [action, row] of Object.entries(actions)) expect(Object.keys(row).sort(), `${resource}.${action}`).toEqual([...ROLES, 'no-role'].sort());
    }
  });

  it("'own' needs a patient in the token: a patient-role client without one reaches no patient", () => {
    const client = principal({ roles: ['patient'] });
    expect(accessRule(client, 'Appointment', 'read')).toBe('none');
    expect(accessRule(client, 'Appointment', 'write')).toBe('none');
    expect(mayReach(client, 'Appointment', 'write', 'pat-1')).toBe(false);
    const user = principal({ roles: ['patient'], patientId: 'pat-1' });
    expect(accessRule(user, 'Appointment', 'write')).toBe('own');
    expect(mayReach(user, 'Appointment', 'write', 'pat-1')).toBe(true);
    expect(mayReach(user, 'Appointment', 'write', 'pat-2')).toBe(false);
    expect(mayReach(user, 'Appointment', 'read', null)).toBe(false);
  });

  it('a token that names a patient is held to it, whatever its roles allow', () => {
    const p = principal({ roles: ['reception'], patientId: 'pat-1' });
    expect(accessRule(p, 'Appointment', 'read')).toBe('own');
    expect(mayReach(p, 'Appointment', 'read', 'pat-2')).toBe(false);
  });

  it('the widest of several roles; no role is none', () => {
    expect(accessRule(principal({ roles: ['device', 'reception'] }), 'Appointment', 'read')).toBe('all');
    expect(accessRule(principal({ roles: [] }), 'Appointment', 'read')).toBe('none');
    expect(accessRule(principal({ roles: ['device'] }), 'Appointment', 'read')).toBe('none');
    expect(accessRule(principal({ roles: ['lab'] }), 'Appointment', 'read')).toBe('none');
  });
});
