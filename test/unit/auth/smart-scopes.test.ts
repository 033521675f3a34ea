/** SMART v2 scope reading and mapping (schemas/src/smart.ts, scopes.ts): pure functions, no server. */
import { describe, expect, it } from 'vitest';
import { ROLES, ROLE_SCOPES, SMART_RESOURCES, effectiveScopes, readScopeRequest, type Scope, type SmartResource } from '@vitalis/schemas';

describe('readScopeRequest', () => {
  it('takes known scopes and the v1 .read alias outright', () => {
    expect(readScopeRequest('openid patient/Patient.rs user/Observation.read')).toEqual({
      scopes: ['openid', 'patient/Patient.rs', 'user/Observation.rs'],
      optional: [],
      unknown: [],
    });
  });

  it('reads wildcards and wider permissions as optional .rs scopes', () => {
    const r = readScopeRequest('user/*.rs system/Patient.cruds patient/*.*');
    expect(r.scopes).toEqual([]);
    expect(r.optional.sort()).toEqual([
      'patient/AllergyIntolerance.rs',
      'patient/Observation.rs',
      'patient/Patient.rs',
      'system/Patient.rs',
      'user/AllergyIntolerance.rs',
      'user/Observation.rs',
      'user/Patient.rs',
    ]);
    expect(r.unknown).toEqual([]);
  });

  it('ignores SMART scopes Vitalis does not serve, refuses names that are not scopes at all', () => {
    expect(
      readScopeRequest('launch launch/encounter patient/Condition.rs user/Patient.r system/*.cud read:everything patient/Patient'),
    ).toEqual({
      scopes: [],
      optional: [],
      unknown: ['read:everything', 'patient/Patient'],
    });
  });

  it('an outright scope is not repeated among the optional ones', () => {
    expect(readScopeRequest('user/Patient.rs user/*.rs').optional).not.toContain('user/Patient.rs');
  });
});

describe('effectiveScopes', () => {
  it('user/ and system/ scopes stand for their Vitalis scope', () => {
    expect(effectiveScopes(['user/Observation.rs', 'system/Patient.rs'], false)).toEqual([
      'user/Observation.rs',
      'system/Patient.rs',
      'read:vitals',
      'read:patients',
    ]);
  });

  it("patient/Observation.rs stands for read:vitals only in a patient user's token; patient/Patient.rs for nothing", () => {
    expect(effectiveScopes(['patient/Observation.rs', 'patient/Patient.rs'], true)).toEqual([
      'patient/Observation.rs',
      'patient/Patient.rs',
      'read:vitals',
    ]);
    expect(effectiveScopes(['patient/Observation.rs', 'patient/Patient.rs'], false)).toEqual([
      'patient/Observation.rs',
      'patient/Patient.rs',
    ]);
  });
});

describe('ROLE_SCOPES: a SMART scope never grants more than the role allows', () => {
  it.each(ROLES.filter((r) => r !== 'system'))('%s holds user/ and system/ scopes only for Vitalis scopes it holds', (role) => {
    for (const scope of ROLE_SCOPES[role]) {
      const m = /^(user|system)\/([A-Za-z]+)\.rs$/.exec(scope);
      if (m) expect(ROLE_SCOPES[role]).toContain(SMART_RESOURCES[m[2] as SmartResource] as Scope);
    }
  });

  it('only the patient role holds patient/ scopes and launch/patient; only the system role holds everything', () => {
    for (const role of ROLES.filter((r) => r !== 'patient' && r !== 'system')) {
      expect(ROLE_SCOPES[role].filter((s) => s.startsWith('patient/') || s === 'launch/patient')).toEqual([]);
    }
    expect(ROLE_SCOPES.patient).not.toContain('read:vitals');
    expect(ROLE_SCOPES.reception.filter((s) => s.startsWith('user/') || s.startsWith('system/'))).toEqual([]);
  });
});
