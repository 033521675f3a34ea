/** Pure parts of OpenID Connect: at_hash, the userinfo claims by scope, and the sign-in scopes' place in the role table. */
import { describe, expect, it } from 'vitest';
import { PUBLIC_SCOPES, ROLE_SCOPES, SIGN_IN_SCOPES, USER_ROLES, clientScopeCeiling } from '@vitalis/schemas';
import { atHash } from '../../../apps/gateway/src/auth/id-tokens';
import { userInfoClaims } from '../../../apps/gateway/src/auth/userinfo';
import { grantRegistrationScopes } from '../../../apps/gateway/src/auth/clients';
import type { User } from '../../../apps/gateway/src/auth/users';

describe('at_hash (OpenID Connect Core 1.0 §3.1.3.6)', () => {
  it('matches the example of Core 1.0 appendix A (left half of SHA-256, base64url)', () => {
    expect(atHash('jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y', 'RS256')).toBe('77QmUPtjPfzWtF2AnpK9RQ');
    expect(atHash('jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y', 'ES256')).toBe('77QmUPtjPfzWtF2AnpK9RQ');
  });
});

describe('userinfo claims', () => {
  const nurse: User = { userId: 'usr-1', username: 'nurse', displayName: 'Demo Nurse', roles: ['nurse'] };
  it('sub only with openid; name, preferred_username and roles with profile', () => {
    expect(userInfoClaims('usr-1', nurse, ['openid'])).toEqual({ sub: 'usr-1' });
    expect(userInfoClaims('usr-1', nurse, ['openid', 'read:vitals'])).toEqual({ sub: 'usr-1' });
    expect(userInfoClaims('usr-1', nurse, ['openid', 'profile'])).toEqual({
      sub: 'usr-1',
      name: 'Demo Nurse',
      preferred_username: 'nurse',
      roles: ['nurse'],
    });
  });
  it('a subject that is no Vitalis user: sub only, whatever the scopes', () => {
    expect(userInfoClaims('ext-user-1', undefined, ['openid', 'profile'])).toEqual({ sub: 'ext-user-1' });
  });
});

describe('the sign-in scopes in the role table', () => {
  it('every user role holds openid and profile; device does not; openid is public, profile is not', () => {
    for (const role of USER_ROLES) expect(ROLE_SCOPES[role]).toEqual(expect.arrayContaining(SIGN_IN_SCOPES));
    expect(ROLE_SCOPES.device).not.toContain('openid');
    expect(PUBLIC_SCOPES).toContain('openid');
    expect(PUBLIC_SCOPES).not.toContain('profile');
    expect(clientScopeCeiling(null)).not.toContain('profile');
  });
  it('a client without authorization_code is never granted them, and they wait for no approval', () => {
    const open = { registration: 'open' as const, role: null };
    expect(grantRegistrationScopes(['openid', 'profile', 'read:appointments'], open, ['client_credentials'])).toEqual({
      granted: ['read:appointments'],
      beyond: [],
    });
    expect(grantRegistrationScopes(undefined, open, ['client_credentials'])).toEqual({ granted: ['read:appointments'], beyond: [] });
    expect(grantRegistrationScopes(undefined, open, ['authorization_code'])).toEqual({
      granted: ['read:appointments', 'openid'],
      beyond: [],
    });
    expect(grantRegistrationScopes(['openid', 'profile'], open, ['authorization_code'])).toEqual({
      granted: ['openid'],
      beyond: ['profile'],
    });
    expect(
      grantRegistrationScopes(['openid', 'profile'], { registration: 'initial_access_token', role: 'patient' }, ['authorization_code']),
    ).toEqual({ granted: ['openid', 'profile'], beyond: [] });
  });
});
