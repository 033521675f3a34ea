/**
 * Issue 33 items 5 and 6, the pure parts: who is a Practitioner (users.ts isStaffUser and
 * fhirUserOf), who reads a staff Practitioner (the policy's Practitioner read cell and ownFhirUser),
 * and the FHIR shapes of a staff Practitioner and a Group.
 */
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../../apps/gateway/src/access/principal';
import { ownFhirUser, reach } from '../../../apps/gateway/src/access/policy';
import { fhirUserOf, isStaffUser } from '../../../apps/gateway/src/auth/users';
import { toFhirStaffPractitioner } from '../../../apps/gateway/src/catalog/fhir';
import { toFhirGroup } from '../../../apps/gateway/src/groups/fhir';

const principal = (p: Partial<Principal>): Principal =>
  ({
    subject: 'usr-1',
    clientId: 'cli_app',
    authMethod: 'authorization_code',
    scopes: [],
    roles: [],
    sandbox: false,
    ...p,
  }) as Principal;

describe('who is a Practitioner and who reads one', () => {
  it('a user without a patient record is staff, its fhirUser a Practitioner; a patient user is its Patient', () => {
    expect(isStaffUser({})).toBe(true);
    expect(fhirUserOf({ userId: 'usr-demo-nurse' })).toBe('Practitioner/usr-demo-nurse');
    expect(isStaffUser({ patientId: 'pat-0001' })).toBe(false);
    expect(fhirUserOf({ userId: 'usr-demo-patient', patientId: 'pat-0001' })).toBe('Patient/pat-0001');
  });

  it('the staff directory: staff roles with read:patients or write:patients; never a patient, a device, an open client or the sandbox', () => {
    for (const role of ['doctor', 'nurse', 'admin'] as const)
      expect(reach(principal({ roles: [role], scopes: ['read:patients'] }), 'Practitioner', 'read')).toMatchObject({ allowed: true });
    expect(reach(principal({ roles: ['reception'], scopes: ['write:patients'] }), 'Practitioner', 'read')).toMatchObject({
      allowed: true,
    });
    expect(reach(principal({ roles: ['nurse'], scopes: ['openid', 'fhirUser'] }), 'Practitioner', 'read')).toMatchObject({
      allowed: false,
      reason: 'missing scope',
    });
    const patient = principal({ roles: ['patient'], patientId: 'pat-1', scopes: ['patient/Patient.rs', 'read:patients' as never] });
    expect(reach(patient, 'Practitioner', 'read').allowed).toBe(false);
    expect(reach(principal({ roles: ['device'], scopes: ['read:patients'] }), 'Practitioner', 'read').allowed).toBe(false);
    expect(reach(principal({ roles: [], scopes: ['read:patients'] }), 'Practitioner', 'read').allowed).toBe(false);
    expect(reach(principal({ sandbox: true, scopes: ['read:patients'] }), 'Practitioner', 'read').allowed).toBe(false);
  });

  it('ownFhirUser: a signed-in user with the fhirUser scope, never a client acting for itself', () => {
    expect(ownFhirUser(principal({ scopes: ['openid', 'fhirUser'] }))).toBe('usr-1');
    expect(ownFhirUser(principal({ scopes: ['openid'] }))).toBeUndefined();
    expect(ownFhirUser(principal({ subject: 'cli_app', authMethod: 'client_secret', scopes: ['fhirUser'] }))).toBeUndefined();
  });
});

describe('FHIR shapes', () => {
  it('a staff user as a Practitioner: its user id as id and urn:vitalis:subject identifier, its display name', () => {
    expect(toFhirStaffPractitioner({ userId: 'usr-demo-nurse', displayName: 'Demo Nurse' })).toEqual({
      resourceType: 'Practitioner',
      id: 'usr-demo-nurse',
      identifier: [{ system: 'urn:vitalis:subject', value: 'usr-demo-nurse' }],
      active: true,
      name: [{ text: 'Demo Nurse' }],
    });
  });

  it('a Group: person, actual, quantity, each member a Patient reference; no member array when empty', () => {
    expect(toFhirGroup({ id: 'ward-3', name: 'Ward 3', members: ['pat-0001', 'pat-0002'] })).toEqual({
      resourceType: 'Group',
      id: 'ward-3',
      type: 'person',
      actual: true,
      name: 'Ward 3',
      quantity: 2,
      member: [{ entity: { reference: 'Patient/pat-0001' } }, { entity: { reference: 'Patient/pat-0002' } }],
    });
    expect(toFhirGroup({ id: 'empty', name: 'Empty', members: [] })).not.toHaveProperty('member');
  });
});
