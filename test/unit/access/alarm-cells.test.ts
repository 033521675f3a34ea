/** The access policy's bedside alarm cells (issue 31): who sees alarms, and that only a signed-in clinician acknowledges. */
import { describe, expect, it } from 'vitest';
import { ACCESS_POLICY, access, reach, reachesAll } from '../../../apps/gateway/src/access/policy';
import { mayReadAlarms } from '../../../apps/gateway/src/alarms/service';
import type { Principal } from '../../../apps/gateway/src/access/principal';

const principal = (p: Partial<Principal>): Principal =>
  ({
    clientId: 'cli_ward',
    subject: 'cli_ward',
    scopes: ['read:vitals'],
    roles: [],
    tokenId: 't',
    expiresAt: 0,
    authMethod: 'client_secret',
    derivedFrom: [],
    sandbox: false,
    ...p,
  }) as Principal;
const user = (role: Principal['roles'][number], p: Partial<Principal> = {}) =>
  principal({ roles: [role], subject: `usr-demo-${role}`, authMethod: 'authorization_code', ...p });

describe('Alarm cells', () => {
  it('read: doctors, nurses and system every patient, the sandbox synthetic ones, nobody else (a patient user neither)', () => {
    expect(ACCESS_POLICY.Alarm.read.rules).toEqual({
      doctor: 'all',
      nurse: 'all',
      system: 'all',
      sandbox: 'synthetic',
      reception: 'none',
      patient: 'none',
      admin: 'none',
      device: 'none',
      lab: 'none',
      'no-role': 'none',
    });
    expect(ACCESS_POLICY.Alarm.read.scopes).toEqual(['read:vitals']);
    expect(ACCESS_POLICY.Alarm.read.patientScopes).toEqual([]);
    // an app acting for nurses reads them as a nurse does: reading is not a person's act
    expect(reach(principal({ roles: ['nurse'] }), 'Alarm', 'read')).toMatchObject({ allowed: true, rule: 'all', scope: 'read:vitals' });
    expect(reach(principal({ roles: ['nurse'], scopes: ['read:patients'] }), 'Alarm', 'read')).toMatchObject({
      allowed: false,
      reason: 'missing scope',
    });
    expect(reach(principal({ roles: ['device'] }), 'Alarm', 'read')).toMatchObject({ allowed: false, reason: 'forbidden' });
    // a patient user (a token naming its patient): no patient scope opens the cell, its own alarms neither
    const patient = user('patient', { patientId: 'pat-1', scopes: ['read:vitals', 'patient/Observation.rs'] });
    expect(access(patient, 'Alarm', 'read', ['pat-1'])).toMatchObject({ allowed: false, reason: 'missing scope' });
    const sandbox = principal({ sandbox: true, authMethod: 'sandbox' });
    expect(access(sandbox, 'Alarm', 'read', ['sbx-0001'])).toMatchObject({ allowed: true, rule: 'synthetic' });
    expect(access(sandbox, 'Alarm', 'read', ['pat-1'])).toMatchObject({ allowed: false, reason: 'sandbox' });
  });

  it('acknowledge: a signed-in doctor or nurse only; an app acting for itself is refused whatever its role', () => {
    expect(ACCESS_POLICY.Alarm.acknowledge.users).toBe(true);
    for (const role of ['doctor', 'nurse'] as const) {
      expect(access(user(role), 'Alarm', 'acknowledge', ['pat-1']), role).toMatchObject({ allowed: true, rule: 'all' });
      const app = reach(principal({ roles: [role] }), 'Alarm', 'acknowledge');
      expect(app, `${role} app`).toMatchObject({ allowed: false, reason: 'no user', scope: 'read:vitals' });
      expect((app as { detail: string }).detail).toMatch(/^A signed-in clinician must acknowledge a bedside alarm/);
    }
    // the role first: a signed-in admin or receptionist is refused for the role, not for being a person
    expect(reach(user('admin'), 'Alarm', 'acknowledge')).toMatchObject({ allowed: false, reason: 'forbidden' });
    expect(reach(user('reception'), 'Alarm', 'acknowledge')).toMatchObject({ allowed: false, reason: 'forbidden' });
    // system reads every alarm but is nobody: it never acknowledges
    expect(reachesAll(principal({ roles: ['system'] }), 'Alarm', 'read')).toBe(true);
    expect(reach(principal({ roles: ['system'] }), 'Alarm', 'acknowledge')).toMatchObject({ allowed: false, reason: 'forbidden' });
    // the sandbox is no user either, and nothing is written for a synthetic patient
    expect(reach(principal({ sandbox: true, authMethod: 'sandbox' }), 'Alarm', 'acknowledge')).toMatchObject({ allowed: false });
    expect(access(user('nurse'), 'Alarm', 'acknowledge', ['sbx-0001'])).toMatchObject({ allowed: false, reason: 'sandbox' });
  });

  it('the live streams carry alarm notices to those who may read the alarms of every patient watched', () => {
    expect(mayReadAlarms(principal({ roles: ['nurse'] }), ['pat-1', 'pat-2'])).toBe(true);
    expect(mayReadAlarms(principal({ roles: ['device', 'patient'], scopes: ['read:vitals'] }), ['pat-1'])).toBe(false);
    expect(mayReadAlarms(user('patient', { patientId: 'pat-1', scopes: ['read:vitals'] }), ['pat-1'])).toBe(false);
    expect(mayReadAlarms(principal({ sandbox: true, authMethod: 'sandbox' }), ['sbx-0001'])).toBe(true);
  });
});
